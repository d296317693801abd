"""The Campanile board's words that its screens share: a tower's name, a flag's figures, and a
labelled line kept together ("rank 1 · flag 4/2").

Kept apart from :mod:`ui.games.campanile.board` so that the valuation screen,
which the board opens, uses them without importing the board (no cycle).
"""

from __future__ import annotations

import itertools

from companion.i18n import catalogue, current_language
from companion.i18n import text as say


def tower_name(tower: str) -> str:
    """A tower's name in the current language: the box's styles are translated, others shown as set up."""
    code = f"ui.campanile.tower.{tower}"
    if catalogue(current_language()).lookup(code) is None and catalogue("en").lookup(code) is None:
        return tower
    return say(code)


def flag_text(flag: tuple[int, ...] | None) -> str:
    """A flag's figures as they are printed on it: ``6/4/2``."""
    return "/".join(str(v) for v in flag) if flag else ""


#: Between a figure and its word ("flag 4/2"): Kivy wraps only at a plain space, so a number is
#: never parted from its label.
KEEP = "\u00a0"
#: Between a line's parts: the dot stays with the part before it, and a line may break after it.
BETWEEN = f"{KEEP}· "


def kept_together(line: str) -> str:
    """``line`` (parts joined by `` · ``) with each figure held to the word before it, so a narrow
    label breaks between parts, never between "flag" and "4/2"."""
    parts = []
    for part in line.split(" · "):
        words = part.split(" ")
        joined = words[0]
        for before, word in itertools.pairwise(words):
            figure = any(ch.isdigit() for ch in before + word)
            joined += (KEEP if figure else " ") + word
        parts.append(joined)
    return BETWEEN.join(parts)
