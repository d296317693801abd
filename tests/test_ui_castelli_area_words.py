"""Castelli's area panel says one thing (issue 35, item 13): an evaluated mine's heading gives no
figure ("Mine, row 3, column 3: 0 silver" read against "Csaba gains 11 silver" below it), and each
colour's influence is listed strongest first (a neutral 2 stood before Dora's 12)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

from tests import ui_kit  # noqa: F401  (first: it prepares Kivy, whose window the board's module makes)

# isort: split
from companion.games.castelli.views import preview_area
from companion.games.castelli.words import amount as unit
from companion.service.records import final_state, load_record
from tests.conftest import EXAMPLES
from ui.games.castelli.board import CastelliBoard


def _board(state: Any) -> Any:
    """What the panel's words are read from: the board's methods on ``state`` (no widgets)."""
    fake = SimpleNamespace(state=state)
    fake.label_of = lambda area: CastelliBoard.label_of(fake, area)
    fake._area_title = lambda area: CastelliBoard._area_title(fake, area)
    fake._area_lines = lambda area, if_now: []
    fake._area_builds = lambda area: []
    return fake


def test_an_evaluated_mines_heading_names_it_without_the_silver_left() -> None:
    state = final_state(load_record(str(EXAMPLES / "castelli.json")))
    mine = next(e for e in state.evaluations if e.kind == "mine")
    board = _board(state)
    title = CastelliBoard.area_detail(board, mine.area)["title"]
    assert title == CastelliBoard.label_of(board, mine.area)
    assert str(unit("silver", state.mine)) not in title
    # before its evaluation the heading says what is in it
    before = replace(state, done=frozenset(state.done) - {mine.area})
    assert CastelliBoard.area_detail(_board(before), mine.area)["title"].endswith(
        str(unit("silver", before.mine)))


def test_the_influence_is_listed_strongest_first() -> None:
    state = final_state(load_record(str(EXAMPLES / "castelli.json")))
    board = _board(state)
    reordered = 0
    for area in state.board.areas:
        influence = CastelliBoard.area_detail(board, area)["influence"]
        points = list(influence.values())
        assert points == sorted(points, reverse=True), (area, influence)
        assert influence == dict(preview_area(state, area).influence)  # the engine's figures, all
        engine_order = list(preview_area(state, area).influence.values())
        reordered += engine_order != sorted(engine_order, reverse=True)
    assert reordered  # areas whose colours' own order is not the strongest first were met
