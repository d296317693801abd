"""Marks a board draws on its canvas (San Gimignano's segment letters, guild digits and initials,
Castelli's figures) lie on whole pixels. A texture placed at half a pixel is smoothed by the GPU
into grey edges: a 13 px segment letter "P" on its dark disc measured 2.0:1 in the layout sweep
(issue 35), and the same letters read soft at the table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from kivy.graphics import Rectangle

from tests.conftest import EXAMPLES
from ui.drawn_text import drawn

DATA = Path(__file__).parent / "data"
RECORDS = {"san-gimignano": EXAMPLES / "san-gimignano.json",
           "castelli": DATA / "over" / "castelli-4p-shared.json"}


def _rectangles(group: Any) -> list[Rectangle]:
    found: list[Rectangle] = []
    for item in getattr(group, "children", []):
        if isinstance(item, Rectangle):
            found.append(item)
        found += _rectangles(item)
    return found


def drawn_marks(root: Any) -> list[tuple[str, tuple[float, float]]]:
    """Each text drawn on a canvas under ``root`` (not a label's) and where its texture lies."""
    marks: list[tuple[str, tuple[float, float]]] = []
    for widget in kit.walk(root):
        for group in (widget.canvas.before, widget.canvas, widget.canvas.after):
            for rect in _rectangles(group):
                said = drawn(rect.texture) if rect.texture is not None else None
                if said is not None and said.text.strip():
                    marks.append((said.text, (float(rect.pos[0]), float(rect.pos[1]))))
    return marks


@pytest.mark.parametrize("game", sorted(RECORDS))
def test_a_boards_drawn_marks_lie_on_whole_pixels(game: str, tmp_path: Path) -> None:
    record = json.loads(RECORDS[game].read_text(encoding="utf-8"))
    boards = kit.example_board(tmp_path / "store.db", record)
    board = next(boards)
    try:
        kit.moves_up_to(board, record, len(record["moves"]) // 2)
        marks = drawn_marks(board)
        assert len(marks) > 10, marks
        between = [(words, pos) for words, pos in marks if any(v != round(v) for v in pos)]
        assert between == [], between[:5]
    finally:
        boards.close()
