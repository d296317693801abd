"""The touchscreen's view of the San Gimignano map: fitted to the window, zoomed and panned.

Where a hexagon, a guild's rhombus or a token is drawn, and which space a
point is on, is the core's arithmetic (:class:`companion.games.san_gimignano.drawing.View`,
the one copy the live page's SVG draws with too), drawn here with ``y`` growing
upwards (Kivy's). This module adds what only a touchscreen needs: the view that
shows every segment, and zooming and panning it within sizes a finger can tap.
Plain arithmetic, no Kivy, so that it is tested without a window.

``size`` is the hexagon's circumradius in pixels; ``origin`` the pixel
position of the hexagon ``(0, 0)``'s centre.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.games.san_gimignano.drawing import SQRT3, Point, View, space_at
from companion.games.san_gimignano.geometry import Position, first_edges

__all__ = ["View", "first_edges", "fit", "panned", "space_at", "zoomed"]


def fit(positions: Iterable[Position], width: float, height: float, margin: float = 8.0,
        largest: float = 90.0, smallest: float = 22.0) -> View:
    """The view that shows every position in ``width`` × ``height`` (pixels, from 0, 0), centred.

    The circumradius stays within ``smallest``…``largest``: never so small that a
    space is not a target, never larger than needed.
    """
    spots = list(positions) or [(0, 0)]
    unit = View(1.0, (0.0, 0.0))
    xs = [unit.centre(at)[0] for at in spots]
    ys = [unit.centre(at)[1] for at in spots]
    span_x = (max(xs) - min(xs)) + SQRT3
    span_y = (max(ys) - min(ys)) + 2.0
    size = min((width - 2 * margin) / span_x, (height - 2 * margin) / span_y)
    size = max(smallest, min(largest, size))
    mid_x, mid_y = (max(xs) + min(xs)) / 2.0, (max(ys) + min(ys)) / 2.0
    return View(size, (width / 2.0 - mid_x * size, height / 2.0 - mid_y * size))


def zoomed(view: View, factor: float, about: Point, largest: float = 160.0,
           smallest: float = 16.0) -> View:
    """``view`` scaled by ``factor`` keeping the point ``about`` where it is (clamped)."""
    size = max(smallest, min(largest, view.size * factor))
    applied = size / view.size
    ox = about[0] + (view.origin[0] - about[0]) * applied
    oy = about[1] + (view.origin[1] - about[1]) * applied
    return View(size, (ox, oy))


def panned(view: View, dx: float, dy: float) -> View:
    return View(view.size, (view.origin[0] + dx, view.origin[1] + dy))
