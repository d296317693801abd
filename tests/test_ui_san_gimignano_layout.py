"""The San Gimignano map's arithmetic, without a window: a tap lands on the space drawn there.

The drawing follows the engine's geometry (edge ``i`` faces ``D[i]``, a space
over two neighbouring edges); these properties tie the two together, so that a
finger on a rhombus always names the space the engine means.
"""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from companion.games.san_gimignano import drawing, geometry
from companion.games.san_gimignano.descriptor import GUILD_COLOURS as SAN_GIMIGNANO_GUILD_COLOURS
from companion.games.san_gimignano.descriptor import GUILDS as SAN_GIMIGNANO_GUILDS
from companion.service.settings import SettingError, check_setting
from tests.refusals import assert_words
from ui.games.san_gimignano.layout import View, first_edges, fit, space_at, zoomed

GUILDS = ("guild-1", "guild-2", "guild-3", "guild-4")
positions = st.tuples(st.integers(-6, 6), st.integers(-6, 6))
outlines = st.sampled_from(geometry.all_outlines(GUILDS))
views = st.builds(View, st.floats(16, 160), st.tuples(st.floats(-500, 500), st.floats(-500, 500)))


@given(views, positions, outlines)
def test_the_middle_of_each_drawn_space_is_that_space(view: View, at: tuple[int, int], edges) -> None:
    segments = {at: edges}
    for guild, edge in first_edges(edges).items():
        assert space_at(view, segments, view.space_centre(at, edge)) == (at[0], at[1], guild)
        for spot in view.token_spots(at, edge):
            assert space_at(view, segments, spot) == (at[0], at[1], guild)


@given(views, positions, st.integers(0, 5))
def test_neighbours_meet_along_the_edge_the_engine_says(view: View, at: tuple[int, int], edge: int) -> None:
    """Edge ``i``'s middle is the neighbour's edge ``i + 3`` middle: the drawing and the engine agree."""
    near = geometry.neighbour(at, edge)
    mine = [view.vertex(at, edge), view.vertex(at, edge + 1)]
    theirs = [view.vertex(near, geometry.opposite(edge)), view.vertex(near, geometry.opposite(edge) + 1)]
    for corner in mine:
        assert any(math.dist(corner, other) < 1e-6 * view.size + 1e-6 for other in theirs)


@given(st.lists(positions, min_size=1, max_size=16, unique=True))
def test_fit_keeps_every_hexagon_inside_when_it_can(spots: list[tuple[int, int]]) -> None:
    view = fit(spots, 460, 330, largest=90, smallest=1)
    for at in spots:
        for x, y in view.hexagon(at):
            assert -1e-6 <= x <= 460 + 1e-6 and -1e-6 <= y <= 330 + 1e-6


def test_zoom_keeps_the_point_it_zooms_about() -> None:
    view = View(40, (100, 100))
    after = zoomed(view, 1.25, (200, 150))
    assert after.size == 50
    before_point = ((200 - view.origin[0]) / view.size, (150 - view.origin[1]) / view.size)
    after_point = ((200 - after.origin[0]) / after.size, (150 - after.origin[1]) / after.size)
    assert before_point == after_point


def test_the_guild_settings_take_four_different_names_and_known_colours() -> None:
    assert check_setting(SAN_GIMIGNANO_GUILDS, " wool, bread, stone, wine ") == "wool, bread, stone, wine"
    colours = "red, blue, green, purple"
    assert check_setting(SAN_GIMIGNANO_GUILD_COLOURS, colours) == colours
    for key, bad in ((SAN_GIMIGNANO_GUILDS, "wool, wool, stone, wine"), (SAN_GIMIGNANO_GUILDS, "a, b, c"),
                     (SAN_GIMIGNANO_GUILD_COLOURS, "red, blue, green, pink"),
                     (SAN_GIMIGNANO_GUILD_COLOURS, "red, red, green, blue")):
        try:
            check_setting(key, bad)
        except SettingError as error:
            message = error.args[0]
            assert key in str(message) and repr(bad) in str(message)
            assert_words(message.params["reason"], names=(bad, "red", "blue", "green", "yellow", "purple",
                                                          "orange", "brown", "grey"))
        else:
            raise AssertionError(f"{key}={bad!r} was accepted")


def test_the_touchscreen_and_the_live_page_draw_the_map_with_the_one_geometry() -> None:
    """Both front ends take the core's :class:`drawing.View`; the page's rhombi are the touchscreen's
    mirrored (SVG's ``y`` grows downwards), to the SVG's one decimal."""
    import json
    import re

    from companion.service.records import parse_record, replay
    from tests.conftest import EXAMPLES
    from ui.games.san_gimignano import layout
    from web.pages import game_page
    from web.pages.games import san_gimignano as page

    assert layout.View is drawing.View and layout.space_at is drawing.space_at
    assert isinstance(page.VIEW, drawing.View) and not page.VIEW.y_up
    record = json.loads((EXAMPLES / "san-gimignano.json").read_text(encoding="utf-8"))
    parsed = parse_record(record)
    state = replay(parsed.game, parsed.initial, parsed.moves)[-1]
    touchscreen = View(page.SIZE, (0.0, 0.0))
    expected = [[(x, -y) for x, y in touchscreen.rhombus(at, first)]
                for at, edges in state.segments.items() for first in first_edges(edges).values()]
    html = game_page(record, game_id=1, lang="en", token="t")
    drawn = [[tuple(float(c) for c in corner.split(",")) for corner in found.split()]
             for found in re.findall(r'<polygon points="([^"]+)" fill="#', html)]
    assert len(drawn) == len(expected) == 3 * len(state.segments)
    for rhombus, mine in zip(drawn, expected, strict=True):
        assert all(math.dist(a, b) < 0.08 for a, b in zip(rhombus, mine, strict=True))
