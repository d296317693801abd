"""Entering a whole board in the editor by touch: the taps a player makes, planned from the board
wanted, and made through the window (for the editor's tests and ``benchmarks/ui_board_editor.py``).

The plan is what a player does from a blank grid, cell by cell in reading order, with the panel as
it is: the grid's size on the Board panel, then for each cell that differs from the blank
checkerboard a tap on it and on its kind, − or + for its yield, tents and castle places, its
village or town, and for a space each side facing the frame (when not already chosen) and its
gift; then the name and Save. It uses none of the copy, fill and mirror tools, so its count is what
a board with no repetition costs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from companion.i18n import text
from ui.games.castelli import board_model as model
from ui.games.castelli.board_editor import GIFT_WORDS, PAD_WORDS, SETTLEMENT_WORDS, SIDE_SHORT
from ui.games.castelli.board_model import AreaCell, Draft, SpaceCell


@dataclass(frozen=True)
class Step:
    """One tap: on a cell of the grid, on a button by its words, or on a stepper's − / + by its label."""

    kind: str  # "cell", "button", "step"
    target: Any
    sign: int = 0


def plan(target: Draft, name: str) -> list[Step]:
    """The taps that turn the editor's blank grid into ``target`` and save it as ``name``."""
    steps: list[Step] = []
    start = model.blank()
    if (target.rows, target.columns) != (start.rows, start.columns):
        steps.append(Step("button", "ui.editor.mode.board"))
        for label, have, want in (("ui.editor.rows", start.rows, target.rows),
                                  ("ui.editor.columns", start.columns, target.columns)):
            steps += [Step("step", label, 1 if want > have else -1)] * abs(want - have)
    blank = model.blank(target.rows, target.columns)
    cells = sorted(model.cells_of(target), key=lambda c: isinstance(target.at(c), SpaceCell))
    for cell in cells:  # areas first: a space's sides face what they will face
        steps += list(_cell_steps(cell, blank.at(cell), target.at(cell), target))
    steps.append(Step("button", "ui.editor.mode.board"))
    steps.append(Step("name", name))
    steps.append(Step("button", "ui.editor.save"))
    return steps


def _cell_steps(cell: model.Cell, have: Any, want: Any, target: Draft) -> Iterator[Step]:
    if want == have:
        return
    yield Step("cell", cell)
    if want is None:
        yield Step("button", "ui.editor.pad.empty")
        return
    if isinstance(want, SpaceCell):
        if not isinstance(have, SpaceCell):
            yield Step("button", "ui.editor.pad.space")
        free = [s for s in range(4) if target.facing(cell, s) is None]
        chosen = free[0] if free else None  # the panel starts on the first side facing the frame
        for side in free:
            if want.frame[side] == "neutral":
                continue
            if side != chosen:
                yield Step("button", SIDE_SHORT[side])
                chosen = side
            yield Step("button", GIFT_WORDS[want.frame[side]])
        return
    if not (isinstance(have, AreaCell) and have.kind == want.kind):
        yield Step("button", PAD_WORDS[want.kind])
    fresh = model.new_area(want.kind)
    label = "ui.editor.tents" if want.kind == "market" else "ui.editor.yield"
    for label_of, have_value, want_value in ((label, fresh.amount, want.amount),
                                             ("ui.editor.spots", fresh.spots, want.spots)):
        sign = 1 if want_value > have_value else -1
        yield from [Step("step", label_of, sign)] * abs(want_value - have_value)
    if want.settlement is not None:
        yield Step("button", SETTLEMENT_WORDS[want.settlement])


def taps(steps: list[Step]) -> int:
    """Taps a player makes: every step; typing the name counts as one (the keyboard's are the name's)."""
    return len(steps)


def perform(screen: Any, steps: list[Step], kit: Any, on_tap: Any = None) -> None:
    """Make the taps through the window (``kit`` is tests/ui_kit); ``on_tap(seconds)`` after each
    with the time of the touch and the frames after it (finding the button is not counted)."""
    import time

    from ui.widgets import Tap

    for step in steps:
        if step.kind == "cell":
            widget = screen.cells[step.target]
        elif step.kind == "button":
            widget = kit.find(text(step.target), Tap)
        elif step.kind == "name":
            widget = screen.name_field
        else:
            line = kit.find(text(step.target)).parent
            sign = "+" if step.sign > 0 else "−"
            widget = next(w for w in line.children if isinstance(w, Tap) and w.text == sign)
        kit.into_view(widget)
        began = time.perf_counter()
        kit.tap(widget)  # the touch, and the three frames kit.tap lets Kivy draw
        if on_tap is not None:
            on_tap(time.perf_counter() - began)
        if step.kind == "name":
            screen.name_field.text = step.target
