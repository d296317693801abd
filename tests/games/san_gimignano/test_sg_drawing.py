"""Where a San Gimignano map draws the segments (:mod:`companion.games.san_gimignano.drawing`), worked
out by hand, either way up: the touchscreen and the live page both draw with it."""

from __future__ import annotations

import pytest

from companion.games.san_gimignano import drawing, geometry

G1, G2, G3 = "guild-1", "guild-2", "guild-3"


R3 = 3 ** 0.5


def _near(found, expected):
    return len(found) == len(expected) and all(abs(a - b) < 1e-9 for p, q in zip(found, expected, strict=True)
                                               for a, b in zip(p, q, strict=True))


def test_a_hexagon_drawn_is_the_one_worked_out_by_hand():
    """Circumradius 2, hexagon (0, 0) at (10, 20): its corners, its neighbours' centres, a guild's
    rhombus and where pieces sit on it, with y up (the touchscreen) and y down (the page's SVG)."""
    up = drawing.View(2.0, (10.0, 20.0))
    down = drawing.View(2.0, (10.0, 20.0), y_up=False)
    corners = [(10, 22), (10 + R3, 21), (10 + R3, 19), (10, 18), (10 - R3, 19), (10 - R3, 21)]
    assert _near(up.hexagon((0, 0)), corners)
    assert _near(down.hexagon((0, 0)), [(x, 40 - y) for x, y in corners])
    assert _near([up.centre((1, 0)), up.centre((0, 1)), up.centre((1, -1))],
                 [(10 + 2 * R3, 20), (10 + R3, 17), (10 + R3, 23)])
    assert _near([down.centre((0, 1)), down.centre((1, -1))], [(10 + R3, 23), (10 + R3, 17)])
    # edge 0 (corners 0 and 1) lies halfway to the neighbour across it, D[0]
    (ax, ay), (bx, by) = up.vertex((0, 0), 0), up.vertex((0, 0), 1)
    nx, ny = up.centre(geometry.neighbour((0, 0), 0))
    assert _near([((ax + bx) / 2, (ay + by) / 2)], [((10 + nx) / 2, (20 + ny) / 2)])
    # the guild over edges 0 and 1: the centre and corners 0, 1, 2; pieces along corner 0 to corner 2
    assert _near(up.rhombus((0, 0), 0), [(10, 20), (10, 22), (10 + R3, 21), (10 + R3, 19)])
    assert _near([up.space_centre((0, 0), 0)], [(10 + R3 / 2, 20.5)])
    assert _near(up.space_spots((0, 0), 0, 1), [(10 + R3 / 2, 20.5)])
    assert _near(up.space_spots((0, 0), 0, 3), [(10 + R3 / 4, 21.25), (10 + R3 / 2, 20.5),
                                                 (10 + 3 * R3 / 4, 19.75)])
    assert _near(up.token_spots((0, 0), 0), [(10 + R3 / 2 - 0.24 * R3, 20.5 + 0.72),
                                             (10 + R3 / 2 + 0.24 * R3, 20.5 - 0.72)])


@pytest.mark.parametrize("y_up", [True, False])
def test_the_middle_of_each_drawn_space_is_that_space_either_way_up(y_up):
    view = drawing.View(37.5, (123.0, -45.0), y_up=y_up)
    for at in ((0, 0), (2, -1), (-3, 4)):
        edges = (G1, G1, G2, G2, G3, G3)
        for guild, first in geometry.first_edges(edges).items():
            for spot in (view.space_centre(at, first), *view.space_spots(at, first, 2)):
                assert drawing.space_at(view, {at: edges}, spot) == (at[0], at[1], guild)
        assert drawing.space_at(view, {}, view.centre(at)) is None
