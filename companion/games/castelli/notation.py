"""Castelli's move notation: ``Anna: reveal s32 N blue 1, E yellow card, S red 3, W green 6, silver 2``.

The words are data, per language, in :data:`WORDS` (issue 10 moves them into
the message catalogues); the Hungarian card, colour and resource names are
those of the Hungarian rulebook. Spaces, areas and player names stay as the
record has them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.castelli import tables
from companion.games.castelli.state import State
from companion.games.notation import Vocabulary, reading, word

WORDS: Vocabulary = {
    "reveal": {"en": "reveal", "hu": "felfed"},
    "swap": {"en": "swap", "hu": "csere"},
    "silver": {"en": "silver", "hu": "ezüst"},
    "build": {"en": "build", "hu": "épít"},
    "on": {"en": "on", "hu": "rá"},
    "for": {"en": "for", "hu": "helyett"},
    "sell": {"en": "sell", "hu": "elad"},
    "end": {"en": "end", "hu": "vége"},
    "card": {"en": "card", "hu": "kártya"},
    # sides of a tile, clockwise from the top
    "N": {"en": "N", "hu": "É"}, "E": {"en": "E", "hu": "K"},
    "S": {"en": "S", "hu": "D"}, "W": {"en": "W", "hu": "Ny"},
    # shield colours
    "blue": {"en": "blue", "hu": "kék"}, "yellow": {"en": "yellow", "hu": "sárga"},
    "red": {"en": "red", "hu": "piros"}, "green": {"en": "green", "hu": "zöld"},
    # resources
    "wood": {"en": "wood", "hu": "fa"}, "grain": {"en": "grain", "hu": "gabona"},
    "stone": {"en": "stone", "hu": "kő"},
    # character cards (castelli-hu.txt)
    "king": {"en": "king", "hu": "király"}, "thief": {"en": "thief", "hu": "tolvaj"},
    "steward": {"en": "steward", "hu": "intéző"}, "bandits": {"en": "bandits", "hu": "banditák"},
    "count": {"en": "count", "hu": "gróf"}, "traitor": {"en": "traitor", "hu": "áruló"},
    "countess": {"en": "countess", "hu": "grófnő"},
    "master-builder": {"en": "master-builder", "hu": "főépítész"},
    "robber-baron": {"en": "robber-baron", "hu": "tolvaj-báró"},
    "peasant": {"en": "peasant", "hu": "paraszt"}, "prince": {"en": "prince", "hu": "herceg"},
    "abbot": {"en": "abbot", "hu": "apát"}, "guard": {"en": "guard", "hu": "őr"},
    "knights": {"en": "knights", "hu": "lovagok"}, "arsonist": {"en": "arsonist", "hu": "gyújtogató"},
}


def shields_text(shields: Mapping[str, list[Any]], lang: str) -> str:
    """``N blue 1, E yellow card, ...`` from the record form of a tile's shields."""
    def value(v: Any) -> str:
        return word(WORDS, "card", lang) if v == tables.CARD_SHIELD else str(v)

    return ", ".join(f"{word(WORDS, side, lang)} {word(WORDS, shields[side][0], lang)} "
                     f"{value(shields[side][1])}" for side in tables.SIDES)


def describe(state: State, move: Mapping[str, Any], lang: str) -> str:
    """One move or template in the notation of ``lang``."""
    def w(key: str) -> str:
        return word(WORDS, key, lang)

    kind = move["type"]
    who = f"{move['player']}: " if "player" in move else ""
    if kind == "reveal":
        text = f"{who}{w('reveal')} {move['space']}" + (f" {w('swap')}" if move.get("swap") else "")
        if "shields" in move:
            text += f" {shields_text(move['shields'], lang)}, {w('silver')} {move.get('silver') or 0}"
        return text
    if kind == "steward":
        return f"{who}{w('steward')} {shields_text(move['shields'], lang)}"
    if kind == "build":
        text = f"{who}{w('build')} {move['area']}"
        if move.get("on"):
            text += f" {w('on')} {move['on']}"
        if move.get("card"):
            text += f" {w(move['card'])}"
        if move.get("silver_for"):
            text += f" {w('silver')} {w('for')} {w(move['silver_for'])}"
        return text
    if kind == "guard":
        return f"{who}{w('guard')}"
    if kind == "play":
        extra = move.get("value") or move.get("target") or move.get("area")
        return f"{who}{w(move['card'])}" + (f" {extra}" if extra is not None else "")
    if kind == "sell":
        return f"{who}{w('sell')} {move['cards']}"
    return w("end")


def read_observed(state: State, template: Mapping[str, Any], said: list[str]) -> dict[str, Any] | None:
    """A reveal's shields (``N blue 1`` four times, sides in any order) and ``silver n`` (default 0)."""
    if template["type"] != "reveal":
        return None
    silver = 0
    rest = list(said)
    if len(rest) >= 2 and reading(WORDS, rest[-2], ("silver",)) and rest[-1].isdigit():
        silver = int(rest[-1])
        rest = rest[:-2]
    if len(rest) != 12 or silver not in tables.TILE_SILVER:
        return None
    shields: dict[str, list[Any]] = {}
    for at in range(0, 12, 3):
        side = next((s for s in tables.SIDES for lang in ("en", "hu")
                     if word(WORDS, s, lang).casefold() == rest[at]), None)
        colour = reading(WORDS, rest[at + 1], tables.COLORS)
        raw = rest[at + 2]
        value: Any = int(raw) if raw.isdigit() else None
        if value is None and reading(WORDS, raw, ("card",)):
            value = tables.CARD_SHIELD
        if side is None or side in shields or colour is None or value is None:
            return None
        if isinstance(value, int) and value not in tables.SHIELD_VALUES:
            return None
        shields[side] = [colour, value]
    if len({c for c, _ in shields.values()}) != len(tables.SIDES):
        return None
    return {**template, "shields": {side: shields[side] for side in tables.SIDES}, "silver": silver}
