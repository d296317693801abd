"""Bringing a place of Castelli's drawn board into view with its buttons alone, as a finger would.

A board larger than its room at 48 px cells pans (:mod:`ui.games.castelli.viewport`); a test that
taps a place of it first presses the pan buttons (▲ ▼ ◀ ▶, the board's ``pan_*`` ids) until the place
lies wholly in view. Which button to press is read from where the place is drawn now, never from
the viewport's own arithmetic, so a pan that moved the wrong way or not at all fails here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: More presses than any board the editor can make needs (10 × 10 cells, half the room a press).
MOST_PRESSES = 40


def direction_towards(view: Any, name: str) -> str | None:
    """The pan button that brings ``name`` nearer into view, or None when it lies wholly in view."""
    board = view.board
    x, y, side = view.box((board.spaces.get(name) or board.areas[name]).at)
    slack = 0.5
    if x < view.x - slack:
        return "left"
    if x + side > view.x + view.width + slack:
        return "right"
    if y < view.y - slack:
        return "down"
    if y + side > view.y + view.height + slack:
        return "up"
    return None


def pan_into_view(board: Any, name: str, tap: Callable[[Any], None]) -> int:
    """Press ``board``'s pan buttons with ``tap`` until ``name`` is wholly in view; the presses made."""
    presses = 0
    while (direction := direction_towards(board.view, name)) is not None:
        assert presses < MOST_PRESSES, f"{name} not in view after {presses} presses"
        button = board.ids[f"pan_{direction}"]
        assert board.view.crowded and button.opacity > 0 and not button.disabled, (
            f"{name} lies out of view ({direction}) and its pan button is not there")
        tap(button)
        presses += 1
    return presses
