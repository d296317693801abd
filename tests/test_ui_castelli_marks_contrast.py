"""Issue 35, item 10: every figure Castelli's board draws meets the layout check's contrast.

A shield's figure (24 px) is taller than a small tile's triangle and reached over its neighbours and
the frame piece beside the tile; a "1" measured 1.3–1.8:1 against what lay around its letters. Each
figure now stands on a plate of its own shield's (area's, frame piece's) colour, inside the tile.
Checked two ways: the contrast computed from the drawn colours (each figure's ink against the plate
drawn under it), and the layout check over the screens of Championship rounds and mid-game cuts.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from kivy.graphics import Color, Rectangle

from companion import i18n
from ui.drawn_text import drawn
from ui.layout_check import ROLE_CONTRAST
from ui.snapshot import write_screens
from ui.theme import contrast

DATA = Path(__file__).parent / "data"
ROUNDS = [DATA / "examples" / "castelli-round.json", DATA / "examples" / "castelli-round-short-deck.json"]
GAMES = [DATA / "over" / "castelli-4p-shared.json", DATA / "played" / "castelli-4p-cards.json"]


def cut(path: Path, seed: int) -> dict[str, Any]:
    """The record of ``path`` stopped at a move chosen by ``seed`` (a game the examples never show)."""
    record = json.loads(path.read_text(encoding="utf-8"))
    record["moves"] = record["moves"][:random.Random(seed).randrange(len(record["moves"]) // 3,
                                                                    len(record["moves"]))]
    return dict(record)


CASES = [(path.name, json.loads(path.read_text(encoding="utf-8")), "en") for path in ROUNDS]
CASES += [(f"{path.name}-cut-{seed}", cut(path, seed), language)
          for seed, (path, language) in enumerate([(GAMES[0], "hu"), (GAMES[1], "en"), (ROUNDS[1], "hu")])]


@pytest.mark.parametrize(("name", "record", "language"), CASES, ids=[c[0] for c in CASES])
def test_the_boards_figures_pass_the_layout_checks_contrast(name: str, record: dict[str, Any], language: str,
                                                            tmp_path: Path) -> None:
    problems: list[str] = []
    i18n.set_language(language)
    try:
        write_screens(record, tmp_path, language, problems, ("screen.png",))
    finally:
        i18n.set_language("en")
    low = [line for line in problems if "contrast" in line or "kontraszt" in line]
    assert low == [], "\n".join(low)


def figures_on_plates(canvas: Any) -> list[tuple[str, float]]:
    """Each figure drawn on the board's canvas and its contrast with the plate drawn just before it
    (0 for a figure drawn on no plate)."""
    found: list[tuple[str, float]] = []
    colour: tuple[float, ...] = ()
    plate: tuple[float, ...] | None = None
    for item in _walk(canvas):
        if isinstance(item, Color):
            colour = tuple(item.rgba)
        elif isinstance(item, Rectangle):
            said = drawn(item.texture) if item.texture is not None else None
            if said is not None and said.text.strip():
                ink = (*said.colour[:3], 1.0)
                found.append((said.text, contrast(ink, (*plate[:3], 1.0)) if plate else 0.0))
                plate = None
            elif said is None:  # a shape: the plate when a figure follows
                plate = colour
    return found


def _walk(group: Any) -> list[Any]:
    out: list[Any] = []
    for item in getattr(group, "children", []):
        out.append(item)
        out += _walk(item)
    return out


@pytest.mark.parametrize("share", [1, 2])
def test_every_figure_stands_on_a_plate_of_its_own_colour(tmp_path: Path, share: int) -> None:
    """From the drawn colours: on a four-player board (the smallest cells a game has), mid-game and at
    its end, each shield's, area's and frame piece's figure lies on a plate with a mark's contrast."""
    record = json.loads(GAMES[0].read_text(encoding="utf-8"))
    boards = kit.example_board(tmp_path / "store.db", record)
    board = next(boards)
    try:
        kit.moves_up_to(board, record, len(record["moves"]) * share // 2)
        figures = figures_on_plates(board.view.canvas)
        assert len(figures) > 20, figures
        low = [(text, round(ratio, 2)) for text, ratio in figures if ratio < ROLE_CONTRAST["mark"]]
        assert low == [], low
    finally:
        boards.close()
