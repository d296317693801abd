"""Playing the San Gimignano board by touch: the moves of a record as a finger enters them.

Shared by ``tests/test_ui_san_gimignano.py`` and ``benchmarks/ui_san_gimignano.py``;
import :mod:`tests.ui_kit` first (it prepares Kivy's offscreen window).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.tests.common import UnitTestTouch

from companion.games.san_gimignano import views
from companion.registry import get_game
from tests import ui_kit as kit
from ui.games.san_gimignano.board import SanGimignanoBoard, type_of
from ui.games.san_gimignano.widgets import SegmentPicture

EXAMPLES = Path(__file__).parent / "data" / "examples"
EXAMPLE = EXAMPLES / "san-gimignano.json"
EXPECTED = EXAMPLES / "san-gimignano.expected.json"
#: The budgets of issue 14: taps per move of each kind.
TAPS = {"token": 1, "segment": 3, "tower": 2, "pass": 1}


def record() -> dict[str, Any]:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


def board_of(shell: Any) -> SanGimignanoBoard:
    board = shell.screens.get_screen("game").board
    assert isinstance(board, SanGimignanoBoard), board
    return board


def tap_point(x: float, y: float) -> None:
    """A finger on the window point ``(x, y)`` and off again."""
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    kit.pump(1)
    touch.touch_up()
    kit.pump(2)


def into_view(board: SanGimignanoBoard, where: Callable[[], tuple[float, float]]) -> tuple[float, float]:
    """The window point ``where`` gives, the map panned first to bring it to the middle when it lies
    outside (a board larger than the map at its 48 px targets pans, as players would)."""
    point = where()
    if not board.map.shows(point):
        middle = board.map.to_window(board.map.center_x, board.map.center_y)
        board.map.pan(middle[0] - point[0], middle[1] - point[1])
        point = where()
    return point


def tap_space(board: SanGimignanoBoard, space: list[Any] | tuple[Any, ...]) -> None:
    point = into_view(board, lambda: board.map.point_of((space[0], space[1], space[2])))
    assert board.map.shows(point), f"{space} is outside the map at {point}"
    tap_point(*point)


def check_board(board: SanGimignanoBoard) -> None:
    """The board shows what the engine says: counts, who acts, what is lit, the build owed (in the
    engine's words in the turn strip), the palette only while a segment is left to lay."""
    state = board.state
    found = {p: views.targets(state, p) for p in state.players}
    acting = get_game("san-gimignano").to_move(state)
    for player, cell in board.cells.items():
        assert cell.towers.text == str(state.tower_count[player])
        assert str(state.in_hand(player)) in cell.detail.text
        assert cell.badge.acting == (player == acting), (player, acting)
    scene = board.map.scene
    forced = views.who_must_build(state)
    if not forced and board.segment_type is None and not board.building:
        assert scene.token_spaces == {s for t in found.values() for s in t.token_spaces}
    assert scene.group_spaces == {s for t in found.values() for _, g in t.towers for s in g}
    assert board.urgent == bool(forced)
    assert bool(board.step_text) == bool(board.building or board.segment_type or board.build_space)
    assert board.palette_shown == any(views.segments_left(state).values())
    assert board.ids.choice_stack.opacity == (1 if board.palette_shown or board.choosing else 0)
    for kind, key in board.palette.items():
        if key.parent is not None:
            assert key.live == bool(board._placements(found, kind)), kind


def play_move(board: SanGimignanoBoard, move: dict[str, Any]) -> int:
    """Enter ``move`` by touch as a player would; returns the taps it took."""
    kind = move["type"]
    if kind == "token":
        tap_space(board, move["space"])
        return 1
    if kind == "segment":
        edges = tuple(move["edges"])
        kit.tap(board.palette[type_of(edges, tuple(board.state.guilds))])
        point = into_view(board, lambda: board.map.point_of_position(tuple(move["at"])))
        assert board.map.shows(point), f"{move['at']} is outside the map"
        tap_point(*point)
        if board.segment_at is None:
            return 2
        choice = next(w for w in board.choices.children
                      if isinstance(w, SegmentPicture) and tuple(w.edges) == edges)
        kit.tap(choice)
        return 3
    if kind == "tower":
        taps = 0
        forced = bool(views.who_must_build(board.state))
        if not forced:
            kit.tap(board.build_button)
            taps += 1
        tap_space(board, move["space"])
        taps += 1
        if board.build_space is not None:
            group = sorted(tuple(s) for s in move["group"])
            kit.tap(next(w for w in board.choices.children if sorted(getattr(w, "group", ())) == group))
            taps += 1
        return taps
    kit.tap(board.pass_button)
    return 1


def as_record(move: dict[str, Any]) -> dict[str, Any]:
    """A move with its group as a sorted list (records.md: a group compares as a set)."""
    found = json.loads(json.dumps(move))
    if "group" in found:
        found["group"] = sorted(found["group"], key=lambda s: (s[0], s[1], s[2]))
    return found
