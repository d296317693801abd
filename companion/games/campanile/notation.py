"""Campanile's move notation: ``Albert: brown +3``, ``Albert: marker 3 under brown``.

The words are data, per language, in :data:`WORDS` (issue 10 moves them into
the message catalogues); tower styles are translated when they are the box's
colours, player names stay as the record has them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from companion.games.campanile.state import CampanileState
from companion.games.notation import Vocabulary, reading, word

WORDS: Vocabulary = {
    "marker": {"en": "marker", "hu": "jelző"},
    "under": {"en": "under", "hu": "alá"},
    # the marker move's word order: English puts "under" before the tower, Hungarian after it
    "marker_order": {"en": "{marker} {value} {under} {tower}", "hu": "{marker} {value} {tower} {under}"},
    "relocate": {"en": "move", "hu": "áthelyez"},
    "to": {"en": "to", "hu": "ide"},
    "take": {"en": "take", "hu": "elvesz"},
    "reveal": {"en": "reveal", "hu": "felfed"},
    "intermezzo": {"en": "intermezzo", "hu": "intermezzo"},
    "finito": {"en": "finito", "hu": "finito"},
    # tower styles of the box (setup names that are not these stay as they are)
    "grey": {"en": "grey", "hu": "szürke"},
    "brown": {"en": "brown", "hu": "barna"},
    "red": {"en": "red", "hu": "piros"},
    "blue": {"en": "blue", "hu": "kék"},
    "yellow": {"en": "yellow", "hu": "sárga"},
}


def describe(state: CampanileState, move: Mapping[str, Any], lang: str) -> str:
    """One move or template in the notation of ``lang``."""
    def w(key: str) -> str:
        return word(WORDS, key, lang)

    kind = move["type"]
    who = f"{move['player']}: " if "player" in move else ""
    if kind == "build":
        return f"{who}{w(move['tower'])} +{move['stories']}"
    if kind == "influence":
        return who + _marker(state, move, lang, lang)
    if kind == "relocate":
        return f"{who}{w('relocate')} {w(move['from'])} {w('to')} {w(move['to'])}"
    if kind == "take":
        return f"{who}{w('take')} {w(move['card'])}"
    if kind == "reveal":
        return w("reveal") + (f" {w(move['card'])}" if move.get("card") else "")
    return w(move["phase"])


def _marker(state: CampanileState, move: Mapping[str, Any], lang: str, order: str) -> str:
    """A marker move's words in ``lang`` in the word order of ``order``'s language."""
    value = state.turn.stories if state.turn is not None else ""
    words = {key: word(WORDS, key, lang) for key in ("marker", "under")}
    tower = word(WORDS, move["tower"], lang)
    text = word(WORDS, "marker_order", order).format(value=value, tower=tower, **words)
    return text.replace("  ", " ")


def forms(state: CampanileState, move: Mapping[str, Any], lang: str) -> list[str]:
    """Every way a player may type ``move`` in ``lang``: a marker move in either word order
    (``jelző 2 kék alá`` is the natural Hungarian, ``jelző 2 alá kék`` follows the English)."""
    if move["type"] != "influence":
        return [describe(state, move, lang)]
    who = f"{move['player']}: " if "player" in move else ""
    return list(dict.fromkeys(who + _marker(state, move, lang, order) for order in (lang, "en")))


def read_observed(state: CampanileState, template: Mapping[str, Any],
                  said: list[str]) -> dict[str, Any] | None:
    """The refill card's style after ``reveal``."""
    if template["type"] != "reveal" or len(said) != 1:
        return None
    towers = state.rules.towers
    card = reading({**WORDS, **{t: {"en": t} for t in towers if t not in WORDS}}, said[0], towers)
    return None if card is None else {**template, "card": card}


def shapes(state: CampanileState) -> Iterator[dict[str, Any]]:
    """Every well-formed move, legal or not, for the notation's refusals (a few hundred at most)."""
    towers = state.rules.towers
    for player in state.players:
        for tower in towers:
            yield from ({"type": "build", "player": player, "tower": tower, "stories": stories}
                        for stories in (1, 2, 3))
            yield {"type": "influence", "player": player, "tower": tower}
            yield {"type": "take", "player": player, "card": tower}
            yield from ({"type": "relocate", "player": player, "from": tower, "to": other}
                        for other in towers if other != tower)
    yield {"type": "reveal"}
    yield from ({"type": "valuation", "phase": phase} for phase in ("intermezzo", "finito"))
