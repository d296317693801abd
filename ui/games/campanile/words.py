"""The Campanile board's words that its screens share: a tower's name and a flag's figures.

Kept apart from :mod:`ui.games.campanile.board` so that the valuation screen,
which the board opens, uses them without importing the board (no cycle).
"""

from __future__ import annotations

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
