"""Issue 35, item 5: San Gimignano's map shows the whole city, every token inside its space.

At the zoom the map opens at (and after Fit) every segment lies wholly in the map and every token
is drawn, inside its own rhombus, clear of the guild's digit (at least 16 px); − zooms out; a lit
group is ringed, never tinted (a tint turned the red guild orange). Read off the map's canvas.
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from kivy.graphics import Color, Ellipse, Mesh, Rectangle

from companion import i18n
from companion.games.san_gimignano import geometry
from companion.games.san_gimignano.layout import default_setup
from tests.ui_san_gimignano_kit import board_of, record
from ui.games.san_gimignano.board import SanGimignanoBoard
from ui.games.san_gimignano.layout import TOKEN_RIM, View, digit_box, first_edges, space_marks
from ui.games.san_gimignano.map import SMALLEST_SIZE, digit_font, token_radius

GUILDS = ("guild-1", "guild-2", "guild-3", "guild-4")


@pytest.fixture
def shell(tmp_path: Path):
    i18n.set_language("en")
    opened = kit.open_shell(tmp_path / "store.db")
    yield opened
    kit.close_shell(opened)
    i18n.set_language("en")


def start(shell: Any, moves: int, players: list[str] | None = None,
          options: dict[str, Any] | None = None) -> SanGimignanoBoard:
    """The example's game (or a fresh one for ``players``) with its first ``moves`` moves."""
    shell.table.close()
    kit.pump(1)
    game = record()
    if players is None:
        shell.table.start("san-gimignano", game["players"], options=game["options"], setup=game["setup"])
    else:
        shell.table.start("san-gimignano", players, options=options or {},
                          setup=default_setup(players, options or {}))
    session = shell.table.session
    for move in game["moves"][:moves] if players is None else ():
        shell.table.propose(session.game.parse_move(move))
    shell.go("game")
    kit.pump(3)
    return board_of(shell)


def drawn(board: SanGimignanoBoard) -> tuple[list[tuple[float, float, float]], list[tuple[Any, ...]],
                                               list[tuple[tuple[float, ...], list[float]]]]:
    """The map's canvas: the token discs (x, y, r), the texts (words, x, y, w, h) and the filled
    shapes (their colour and vertices)."""
    fills = {tuple(colour) for colour in board.fills.values()}
    tokens, texts, meshes = [], [], []
    colour: tuple[float, ...] = ()
    for group in board.map._segment_layer.children:
        for item in group.children:
            if isinstance(item, Color):
                colour = tuple(item.rgba)
            elif isinstance(item, Ellipse) and colour in fills:
                (x, y), (w, _) = item.pos, item.size
                tokens.append((x + w / 2.0, y + w / 2.0, w / 2.0))
            elif isinstance(item, Rectangle) and item.texture is not None and tuple(
                    item.texture.size) == tuple(round(v) for v in item.size):
                texts.append((item.texture, *item.pos, *item.size))
            elif isinstance(item, Mesh):
                meshes.append((colour, list(item.vertices)))
    return tokens, texts, meshes


def inside_convex(point: tuple[float, float], corners: list[tuple[float, float]], margin: float) -> bool:
    """Whether a disc of radius ``margin`` at ``point`` lies inside the convex polygon ``corners``."""
    n = len(corners)
    sign = 0.0
    for k in range(n):
        (ax, ay), (bx, by) = corners[k], corners[(k + 1) % n]
        cross = (bx - ax) * (point[1] - ay) - (by - ay) * (point[0] - ax)
        sign = sign or math.copysign(1.0, cross)
        if cross * sign < 0 or abs(cross) / math.hypot(bx - ax, by - ay) < margin - 0.01:
            return False
    return True


def whole_city_shown(board: SanGimignanoBoard) -> None:
    """Every segment inside the map; every token drawn, inside its space; digits ≥ 16 px, uncovered."""
    hexmap, state = board.map, board.state
    view = hexmap.view
    assert view is not None
    for at in state.segments:
        for x, y in view.hexagon(at):
            assert hexmap.collide_point(hexmap.x + x, hexmap.y + y), (at, view)
    tokens, texts, _ = drawn(board)
    assert len(tokens) == sum(len(owners) for owners in state.tokens.values()), "a token is not drawn"
    local = [(x - hexmap.x, y - hexmap.y, r) for x, y, r in tokens]
    for space in state.tokens:
        at = (space[0], space[1])
        corners = view.rhombus(at, first_edges(state.segments[at])[space[2]])
        mine = [t for t in local if inside_convex(t[:2], corners, 0.0)]
        assert len(mine) == len(state.tokens[space]), space
        assert all(inside_convex((x, y), corners, r + TOKEN_RIM - 0.5) for x, y, r in mine), (space, mine)
    digit_textures = [texture for key, texture in hexmap._textures.items() if key[0] in ("1", "2", "3", "4")]
    digits = [t for t in texts if any(t[0] is texture for texture in digit_textures)]
    assert digits, "no guild digit drawn"
    fonts = {k[1] for k in hexmap._textures if k[0] in ("1", "2", "3", "4")}
    assert min(fonts) >= 16, fonts
    for _, x, y, w, h in digits:
        for disc in tokens:
            assert box_gap(disc, (x, y, w, h)) >= disc[2] - 0.5, ((x, y, w, h), disc)


def box_gap(disc: tuple[float, float, float], box: tuple[float, float, float, float]) -> float:
    """How far a disc's centre is from the nearest point of a box (x, y, w, h)."""
    cx, cy, _ = disc
    x, y, w, h = box
    return math.hypot(cx - min(max(cx, x), x + w), cy - min(max(cy, y), y + h))


def test_the_example_opens_showing_the_whole_city_and_fit_brings_it_back(shell: Any) -> None:
    board = start(shell, len(record()["moves"]))
    whole_city_shown(board)
    opened = board.map.view
    kit.tap(board.zoom_in)
    kit.tap(board.zoom_in)
    kit.tap(board.pans["left"])
    assert board.map.view != opened
    kit.tap(board.fit_button)
    assert board.map.view == opened
    whole_city_shown(board)
    # − zooms out from the opening zoom (down to the smallest size a token and its digit fit at)
    kit.tap(board.zoom_out)
    assert board.map.view.size < opened.size or opened.size == SMALLEST_SIZE
    assert board.map.view.size >= SMALLEST_SIZE


def test_cuts_of_the_example_and_fresh_boards_open_whole(shell: Any) -> None:
    """A variation: random cuts of the example, and the starting boards of every rule set."""
    moves = len(record()["moves"])
    for cut in random.Random(35).sample(range(moves), 4):
        whole_city_shown(start(shell, cut))
    for players, options in ((["Ada", "Bo"], {}), (["Ada", "Bo", "Cy", "Di"], {}),
                             (["Ada", "Bo", "Cy"], {"rules": "clarified"})):
        whole_city_shown(start(shell, 0, players, options))


def test_a_lit_group_keeps_its_guilds_colours(shell: Any) -> None:
    """Building: the group's spaces are ringed; every filled shape is still a guild's own colour."""
    game = record()
    at = next(i for i, m in enumerate(game["moves"]) if m["type"] == "tower")
    board = start(shell, at)
    kit.tap(board.build_button)
    assert board.map.scene.build_spaces
    guild_colours = {tuple(colour) for colour in board.guild_colours.values()}
    _, _, meshes = drawn(board)
    assert {colour for colour, _ in meshes} <= guild_colours, {colour for colour, _ in meshes} - guild_colours
    # and a history entry's place: ringed alike
    board.cancel()
    assert board.show_move(game["moves"][at])
    kit.pump(2)
    _, _, meshes = drawn(board)
    assert {colour for colour, _ in meshes} <= guild_colours


@given(st.floats(SMALLEST_SIZE, 160), st.sampled_from(geometry.all_outlines(GUILDS)), st.integers(0, 2))
def test_a_space_holds_its_tokens_and_digit_apart_at_every_zoom(size: float, edges: Any, tokens: int) -> None:
    """Without a window: at every size the map draws, tokens lie inside the space, clear of the digit."""
    view = View(size, (400.0, 300.0))
    radius, half = token_radius(size), digit_box(digit_font(size))
    for edge in first_edges(edges).values():
        corners = view.rhombus((0, 0), edge)
        digit, spots = space_marks(view, (0, 0), edge, tokens, radius, half)
        box = (digit[0] - half[0], digit[1] - half[1], 2 * half[0], 2 * half[1])
        for corner in ((box[0], box[1]), (box[0] + box[2], box[1]), (box[0], box[1] + box[3]),
                       (box[0] + box[2], box[1] + box[3])):
            assert inside_convex(corner, corners, 0.0), (size, edge, digit)
        assert len(spots) == min(tokens, 1) or (tokens == 2 and len(spots) == 2)
        if tokens == 2 and size >= 66:
            assert len(spots) == 2, size  # large enough: side by side, the digit between
        for spot in spots:
            assert inside_convex(spot, corners, radius + TOKEN_RIM - 0.01), (size, edge, spot)
            assert box_gap((*spot, radius), box) >= radius + TOKEN_RIM - 0.01
        if len(spots) == 2:
            assert math.dist(*spots) >= 2 * (radius + TOKEN_RIM) - 0.01
