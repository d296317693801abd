"""Issue 35, item 9: Castelli's board keeps every cell a finger's target (48 px) on every board the
editor can make, up to its largest grid; what does not fit pans, by buttons alone.

The board used to be fitted whole into its room: the Championship's 8 × 4 halves got about 42 px
cells, the 4-player 8 × 8 about 40 px, the editor's 10 × 10 about 32 px. Now the board opens at
cells of 48 px or more, and a board larger than its room at that size pans with ▲ ▼ ◀ ▶ beside it
(+ and − zoom); a tap after panning lands on the place under the finger. Checked in the shared
window with the board's own buttons, tapped as a finger taps them (``tests/castelli_pan_kit.py``),
and the viewport's arithmetic for any room and grid (Hypothesis).
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from kivy.tests.common import UnitTestTouch

from tests.castelli_pan_kit import direction_towards, pan_into_view
from ui.games.castelli.board_model import MAX_COLUMNS, MAX_ROWS, blank
from ui.games.castelli.viewport import ZOOM_STEP, Viewport
from ui.theme import TOUCH

DATA = Path(__file__).parent / "data" / "examples"
GAME = json.loads((DATA / "castelli.json").read_text(encoding="utf-8"))
ROUND = json.loads((DATA / "castelli-round.json").read_text(encoding="utf-8"))
COLOURS = ["blue", "yellow", "red", "green"]


def on(board: str | dict[str, Any], players: int) -> dict[str, Any]:
    """A Castelli record with no moves, on ``board`` (a shipped layout's name or a layout)."""
    names = ["Anna", "Bela", "Csaba", "Dora"][:players]
    return {**GAME, "players": names, "moves": [],
            "setup": {"colors": dict(zip(names, COLOURS, strict=False)), "board": board}}


LARGEST = on(blank(MAX_ROWS, MAX_COLUMNS).to_json(), 2)


@pytest.fixture
def opened(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Any]:
    shown = showing(tmp_path / "c.sqlite3", request.param)
    yield next(shown)
    shown.close()


def showing(store: Path, record: dict[str, Any]) -> Generator[Any, None, None]:
    """:func:`tests.ui_kit.example_board`, closed by the caller."""
    return cast(Generator[Any, None, None], kit.example_board(store, record))


def drawn_cells(view: Any) -> dict[str, tuple[float, float, float]]:
    board = view.board
    return {name: view.box(thing.at) for name, thing in [*board.spaces.items(), *board.areas.items()]}


def boards_of(opened: Any) -> list[Any]:
    """The game's board, or both boards of a round (group 2's shown by the round's switch)."""
    if hasattr(opened, "boards"):
        found = [opened.board]
        opened.switch()
        kit.pump(3)
        return [*found, opened.board]
    return [opened]


@pytest.mark.parametrize("opened", [LARGEST, on("example-4p", 4), ROUND], indirect=True,
                         ids=["editor-largest-10x10", "4-player-8x8", "championship-round"])
def test_every_cell_is_a_finger_target_at_the_opening_view(opened: Any) -> None:
    for board in boards_of(opened):
        view = board.view
        sides = {name: side for name, (_, _, side) in drawn_cells(view).items()}
        assert min(sides.values()) >= TOUCH, f"cells of {min(sides.values()):.1f} px"
        if view.crowded:  # its buttons are there, each a finger's target
            for name in ("zoom_in", "zoom_out", "pan_up", "pan_down", "pan_left", "pan_right"):
                button = board.ids[name]
                assert button.opacity == 1 and min(button.size) >= TOUCH, (name, button.size)


def test_the_largest_grid_pans_and_a_board_that_fits_shows_no_buttons(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()  # a store's lock is its folder's
    shown = showing(tmp_path / "a" / "c.sqlite3", LARGEST)
    board = next(shown)
    try:
        view = board.view
        cells = drawn_cells(view).values()
        outside = [box for box in cells if box[0] + box[2] > view.x + view.width + 1 or box[1] < view.y - 1]
        assert view.crowded and outside, "the 10 × 10 board was fitted whole, under 48 px"
    finally:
        shown.close()
    shown = showing(tmp_path / "b" / "c.sqlite3", GAME)
    board = next(shown)
    try:
        assert not board.view.crowded and board.ids.view_buttons.width == 0
        assert all(board.view.in_view(name) for name in drawn_cells(board.view))
    finally:
        shown.close()


def tap_lands_on(view: Any, name: str) -> str | None:
    """A finger on ``name``'s drawn middle: the place the board reports (the board's own answer to
    the tap is held back, so that no overlay opens and no move is proposed)."""
    heard: list[str] = []

    def hear(_view: Any, tapped: str) -> bool:
        heard.append(tapped)
        return True  # bound last, heard first: the board's handler is not called

    view.fbind("on_space", hear)
    view.fbind("on_area", hear)
    try:
        x, y = view.centre_of(name)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        kit.pump(1)
    finally:
        view.funbind("on_space", hear)
        view.funbind("on_area", hear)
    return heard[-1] if heard else None


@pytest.mark.parametrize("opened", [LARGEST, on("example-4p", 4)], indirect=True,
                         ids=["editor-largest-10x10", "4-player-8x8"])
def test_every_cell_comes_into_view_by_buttons_and_a_tap_lands_on_it(opened: Any) -> None:
    view = opened.view
    names = list(drawn_cells(view))
    # the far corner first (the most presses), then every place from wherever the last one left it
    names.sort(key=lambda n: -sum((view.board.spaces.get(n) or view.board.areas[n]).at))
    # at the opening view, at the top left: only what would change is bright
    live = {name for name in ("zoom_in", "zoom_out", "pan_up", "pan_down", "pan_left", "pan_right")
            if opened.ids[name].live}
    assert live == {"zoom_in", "pan_down", "pan_right"}, live
    pressed = 0
    for name in names:
        pressed += pan_into_view(opened, name, kit.tap)
        assert view.in_view(name) and view.cell >= TOUCH
        assert tap_lands_on(view, name) == name
    assert pressed > 0, "nothing needed panning: the board was not larger than its room"
    # zoomed in once, the places still come into view and take the tap
    kit.tap(opened.ids.zoom_in)
    assert view.cell >= TOUCH * ZOOM_STEP - 0.01
    for name in names[::7]:
        pan_into_view(opened, name, kit.tap)
        assert tap_lands_on(view, name) == name
    # − goes back to the opening size, never under it
    for _ in range(3):
        kit.tap(opened.ids.zoom_out)
    assert abs(view.cell - TOUCH) < 0.01


@given(across=st.integers(1, MAX_COLUMNS), down=st.integers(1, MAX_ROWS),
       width=st.floats(100, 900), height=st.floats(100, 600), zooms=st.integers(0, 4))
@settings(max_examples=300, deadline=None)
def test_the_viewport_reaches_every_cell_by_pan_presses(across: int, down: int, width: float,
                                                        height: float, zooms: int) -> None:
    margin = 0.2
    view = Viewport(width, height, across + 2 * margin, down + 2 * margin, TOUCH, 96.0)
    for _ in range(zooms):
        view = view.zoom(ZOOM_STEP)
    cell = view.cell
    assert cell >= TOUCH
    for row in range(down):
        for col in range(across):
            here = view
            for _ in range(60):
                left, top = here.content_corner()
                x0 = left + (col + margin) * cell
                y0 = top + (row + margin) * cell
                if x0 < -1e-6:
                    here = here.panned("left")
                elif x0 + cell > width + 1e-6:
                    here = here.panned("right")
                elif y0 < -1e-6:
                    here = here.panned("up")
                elif y0 + cell > height + 1e-6:
                    here = here.panned("down")
                else:
                    break
            else:
                raise AssertionError(f"cell {row}, {col} never in view ({here})")
            assert here.cell == cell


def test_the_pan_kit_reads_the_drawing_not_the_viewport() -> None:
    place = SimpleNamespace(at=(1, 1))
    drawn = SimpleNamespace(x=10.0, y=10.0, width=100.0, height=100.0,
                            board=SimpleNamespace(spaces={"s1": place}, areas={}),
                            box=lambda at: (-30.0, 20.0, 48.0))  # drawn left of the view: ◀
    assert direction_towards(drawn, "s1") == "left"
    drawn.box = lambda at: (70.0, 20.0, 48.0)  # past the right edge (70 + 48 > 110): ▶
    assert direction_towards(drawn, "s1") == "right"
    drawn.box = lambda at: (20.0, 20.0, 48.0)
    assert direction_towards(drawn, "s1") is None


@pytest.mark.parametrize("opened", [LARGEST], indirect=True, ids=["editor-largest-10x10"])
def test_show_on_the_board_pans_to_the_place_it_lights(opened: Any) -> None:
    view = opened.view
    board = view.board
    far = max(board.spaces, key=lambda n: sum(board.spaces[n].at))  # the bottom right, out of view
    assert not view.in_view(far)
    assert opened.show_move({"type": "reveal", "player": opened.players[0], "space": far}) is True
    kit.pump(2)
    assert view.lit == (far,) and view.in_view(far)
    assert tap_lands_on(view, far) == far


def _boxes(group: Any) -> tuple[list[Box], list[Box]]:
    """The plates under a tile's figures and the card shapes drawn on it (left, bottom, right, top)."""
    from kivy.graphics import Mesh, Rectangle

    from ui.drawn_text import drawn

    plates: list[Box] = []
    cards: list[Box] = []
    last: Box | None = None
    for item in group.children:
        if isinstance(item, Rectangle):
            (x, y), (w, h) = item.pos, item.size
            if item.texture is not None and drawn(item.texture) is not None:
                if last is not None:
                    plates.append(last)
                last = None
            else:
                last = (x, y, x + w, y + h)
        elif isinstance(item, Mesh):
            xs, ys = item.vertices[0::4], item.vertices[1::4]
            cards.append((min(xs), min(ys), max(xs), max(ys)))
    return plates, cards


Box = tuple[float, float, float, float]


@pytest.mark.parametrize("cell", [48.0, 56.0, 75.0, 96.0])  # at 41 px (the old 8 × 8) they touch
def test_a_shields_cards_stay_clear_of_the_figures_around_them(cell: float) -> None:
    from kivy.graphics import InstructionGroup

    from companion.games.castelli.board import FRAME_PREFIX
    from companion.games.castelli.setup import initial_state
    from ui.games.castelli.drawing import CastelliBoardView, Shown

    state = initial_state(["Anna", "Bela"], {}, {"colors": {"Anna": "blue", "Bela": "red"},
                                                  "board": blank(5, 5).to_json()})
    view = CastelliBoardView(size=(cell * 5.4, cell * 5.4), pos=(0, 0))
    view.set_layout(state.board)
    # a space inside the board: no frame piece beside it (its sign would be a shape of its own)
    space = next(name for name, spec in state.board.spaces.items() if not any(
        side.startswith(FRAME_PREFIX) for side in spec.sides))
    assert abs(view.cell - cell) < 0.01
    for card_side in range(4):  # a card on each side in turn, the widest figures on the others
        shields = tuple((colour, "card" if side == card_side else 6 - side)
                        for side, colour in enumerate(("blue", "yellow", "red", "green")))
        shown = Shown(revealed={space: shields}, silver_on={space: 2}, castles={}, settlements={},
                      done=frozenset())
        group = InstructionGroup()
        view._space(group, space, shown)
        plates, cards = _boxes(group)
        assert len(plates) == 3 and cards, (plates, cards)
        for card in cards:
            for plate in plates:
                apart = (card[2] <= plate[0] or plate[2] <= card[0] or card[3] <= plate[1]
                         or plate[3] <= card[1])
                assert apart, f"at {cell} px the card on side {card_side} {card} crowds a figure {plate}"
