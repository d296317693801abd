"""San Gimignano's move notation: ``Ada: token 0,1 guild-2``, ``Ada: segment 1,1 ...``, ``Ada: tower ...``.

The words are data, per language, in :data:`WORDS` (issue 10 moves them into
the message catalogues); guild and player names stay as the record has them.
A space reads ``q,r guild``; a tower names its space, then its group.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from companion.games.notation import Vocabulary, after_word, number, reading, word

WORDS: Vocabulary = {
    "token": {"en": "token", "hu": "korong"},
    "segment": {"en": "segment", "hu": "tábla"},
    "tower": {"en": "tower", "hu": "torony"},
    "group": {"en": "group", "hu": "csoport"},
    "pass": {"en": "pass", "hu": "passz"},
}


def space_text(space: Sequence[Any]) -> str:
    return f"{space[0]},{space[1]} {space[2]}"


def describe(move: Mapping[str, Any], lang: str) -> str:
    """One move or template in the notation of ``lang``."""
    kind = move["type"]
    who = f"{move['player']}: "
    if kind == "token":
        return f"{who}{word(WORDS, 'token', lang)} {space_text(move['space'])}"
    if kind == "segment":
        q, r = move["at"]
        return f"{who}{word(WORDS, 'segment', lang)} {q},{r} {' '.join(move['edges'])}"
    if kind == "tower":
        group = "; ".join(space_text(s) for s in move["group"])
        return (f"{who}{word(WORDS, 'tower', lang)} {space_text(move['space'])} "
                f"{word(WORDS, 'group', lang)} {group}")
    return f"{who}{word(WORDS, 'pass', lang)}"


def segment_heading(move: Mapping[str, Any], lang: str) -> str:
    """``Ada: segment guild-1 guild-1 guild-2 …``: the segment whatever its place and turn (its
    edges rotated to the order that sorts first)."""
    edges = list(move["edges"])
    turned = min(tuple(edges[i:] + edges[:i]) for i in range(len(edges)))
    return f"{move['player']}: {word(WORDS, 'segment', lang)} {' '.join(turned)}"


def shapes(players: Sequence[str], guilds: Sequence[str], said: list[str]) -> Iterator[dict[str, Any]]:
    """Every well-formed move ``said`` could mean, legal or not, for the notation's refusals.

    Positions and spaces are read from the words (``q,r`` and a guild of the
    setup), so a move anywhere on the table can be refused by its rule.
    """
    def space(words: list[str]) -> list[Any] | None:
        q, r = number(words[0]), number(words[1])
        guild = reading({}, words[2], tuple(guilds))
        return None if q is None or r is None or guild is None else [q, r, guild]

    found: list[dict[str, Any]] = []
    for rest in after_word(WORDS, said, "token"):
        if len(rest) == 3 and (at := space(rest)) is not None:
            found.append({"type": "token", "space": at})
    for rest in after_word(WORDS, said, "segment"):
        edges = [reading({}, w, tuple(guilds)) for w in rest[2:]]
        q, r = (number(rest[0]), number(rest[1])) if len(rest) == 8 else (None, None)
        if q is not None and r is not None and None not in edges:
            found.append({"type": "segment", "at": [q, r], "edges": edges})
    for rest in after_word(WORDS, said, "tower"):
        if len(rest) < 7 or (len(rest) - 4) % 3 or reading(WORDS, rest[3], ("group",)) is None:
            continue
        group = [space(rest[at:at + 3]) for at in range(4, len(rest), 3)]
        if (at := space(rest[:3])) is not None and None not in group:
            found.append({"type": "tower", "space": at, "group": group})
    for player in players:
        yield {"type": "pass", "player": player}
        yield from ({**move, "player": player} for move in found)
