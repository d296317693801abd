"""San Gimignano's move notation: ``Ada: token 0,1 guild-2``, ``Ada: segment 1,1 ...``, ``Ada: tower ...``.

The words are data, per language, in :data:`WORDS` (issue 10 moves them into
the message catalogues); guild and player names stay as the record has them.
A space reads ``q,r guild``; a tower names its space, then its group.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.notation import Vocabulary, word

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
