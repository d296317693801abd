"""The Castelli board read from across the table (issue 20): figures on the resource tracks, shield
figures of 24 px, a card-covered shield that is no figure, the evaluations' result at 36 px, a
recorded move's place lit up, and nothing to tap once the game is over.

One board in the shared offscreen window of :mod:`tests.ui_kit`, the example game's moves entered at
the table as the console would; the tests go on with the same game, in order.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from kivy.graphics import Mesh, Rectangle

from ui.games.castelli.drawing import SHIELD_FIGURE
from ui.games.castelli.figures import glyph
from ui.games.castelli.panels import TRACK_FIGURE
from ui.theme import FONT_LARGE, SHOWN

EXAMPLE = Path(__file__).parent / "data" / "examples" / "castelli.json"


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return found


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory, record: dict[str, Any]) -> Iterator[Any]:
    yield from kit.example_board(tmp_path_factory.mktemp("castelli-table") / "store.db", record)


def textures(group: Any) -> list[Any]:
    """The texts drawn in a cell (a text's texture is RGBA; a plain rectangle's is not)."""
    return [i.texture for i in group.children
            if isinstance(i, Rectangle) and i.texture is not None and i.texture.colorfmt == "rgba"]


def test_the_tracks_show_figures_and_the_shields_read_across_the_table(board: Any,
                                                                         record: dict[str, Any]) -> None:
    kit.moves_up_to(board, record, 16)
    state = board.state
    for player, panel in board.panels.items():
        for index, resource in enumerate(("wood", "grain", "stone")):
            figure = panel.tracks.figures[resource]
            assert figure.text == str(state.resources[player][index]), (player, resource)
            assert figure.font_size >= TRACK_FIGURE >= 24
            assert figure.texture_size[0] <= figure.width and figure.texture_size[1] <= figure.height + 2
    # every shield figure drawn is as tall as a 24 px figure at least (20 px before)
    least = glyph("0", SHIELD_FIGURE, (0.0, 0.0, 0.0, 1.0)).size[1]
    for space in state.revealed:
        for texture in textures(board.view._cells[space].under):
            assert texture.size[1] >= least, (space, texture.size)
    # Anna's first tile (N: green card) shows three figures and two fanned cards, no figure for the card
    first = record["moves"][0]
    assert first["shields"]["N"] == ["green", "card"]
    drawn = board.view._cells[first["space"]].under.children
    assert len(textures(board.view._cells[first["space"]].under)) == 3
    gifts = sum(side == "frame:card" for side in state.board.spaces[first["space"]].sides)  # cards too
    assert len([i for i in drawn if isinstance(i, Mesh) and len(i.vertices) == 16]) == 2 + 2 * gifts
    # forests and fields carry their sign (trees, ears of grain), not only their colour
    for name, area in state.board.areas.items():
        signs = [i for i in board.view._cells[name].over.children if isinstance(i, Mesh)]
        assert bool(signs) == (area.kind in ("forest", "field")), name


def test_the_evaluations_say_who_gained_what_at_36_px_beside_the_board(board: Any,
                                                                         record: dict[str, Any]) -> None:
    kit.moves_up_to(board, record, 16)
    kit.tap(board.buttons["evaluations"])
    overlay = board.overlay
    kit.pump(3)
    rows = [row for row in overlay.rows.children if hasattr(row, "awards")]
    assert len(rows) == len(board.state.evaluations) + len(board.state.notes)
    newest = rows[-1]  # Kivy keeps the first row last among the children
    awards = newest.ids.awards
    assert awards.font_size >= FONT_LARGE and awards.text.startswith("Bela: 2 stone")
    assert awards.texture_size[1] <= awards.height and awards.texture_size[0] <= awards.width
    assert newest.title == "Rock, row 5, column 1"
    # the board beside the rows lights up every area listed, and takes a third of the overlay
    assert set(overlay.map.lit) == {item.area for item in (*board.state.evaluations, *board.state.notes)}
    assert overlay.map.width * 3 >= overlay.width - 16
    kit.tap(overlay.close_button)


def test_show_move_lights_up_a_recorded_moves_place_until_the_next_tap(board: Any,
                                                                        record: dict[str, Any]) -> None:
    kit.moves_up_to(board, record, 17)
    reveal, sale = record["moves"][16], record["moves"][13]
    assert (reveal["type"], sale["type"]) == ("reveal", "sell")
    assert board.show_move(reveal) is True
    assert board.view.lit == (reveal["space"],)
    assert SHOWN in [tuple(c.rgba) for c in board.view._lit.children if hasattr(c, "rgba")]
    session = board.table.session
    assert board.show_move(session.log[16]) is True  # the engine's move as well as record JSON
    kit.tap(board.panels["Anna"])  # the next tap puts the light out
    assert board.view.lit == () and not board.view._lit.children
    assert board.show_move(sale) is False and board.view.lit == ()
    assert board.show_move({"type": "end"}) is False


def test_once_the_game_is_over_the_board_offers_nothing_to_tap(board: Any, record: dict[str, Any]) -> None:
    kit.moves_up_to(board, record, len(record["moves"]))
    board.refresh()  # as the game screen does when it is shown again after game over
    kit.pump(3)
    assert board.state.finished
    on_screen = set(kit.walk(board))
    evaluations = board.buttons["evaluations"].__self__
    for button in (*board.buttons.values(), board.end_button):
        button = button.__self__  # the widget, not the rule's weak proxy
        assert (button in on_screen) == (button is evaluations), button.text
    assert board.buttons["evaluations"].live
    assert not board.view.shown.live_spaces and not board.view.shown.live_areas
    board.tap_area(record["moves"][-2]["area"])
    assert board.overlay.build_buttons == []
    board.close_overlay()
    # the last evaluation (the mine) has all four colours' influence: each stays left of the small
    # board beside the rows (the fourth was once drawn under it)
    overlay = board.open_evaluations()
    kit.pump(3)
    rows = [row for row in overlay.rows.children if hasattr(row, "awards")]
    board_left = overlay.map.to_window(overlay.map.x, overlay.map.y)[0]
    figures = [f for row in rows for f in row.ids.head.children if hasattr(f, "figure")]
    assert max(sum(hasattr(f, "figure") for f in row.ids.head.children) for row in rows) == 4
    assert all(f.to_window(f.right, f.y)[0] <= board_left for f in figures)
    board.close_overlay()
