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

import math
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


#: Around a token, its dark outline (px): it lies inside the space too.
TOKEN_RIM = 2.0
#: Two tokens drawn as a stack: the one below peeks out this far (px) towards the digit.
STACK_SHIFT = 4.0


def digit_box(font_size: int) -> tuple[float, float]:
    """Half the width and height of the box a guild digit is drawn in at ``font_size`` px (a digit's
    texture is about 0.56 of its font wide and 1.19 tall; a little more, to be sure)."""
    return 0.3 * font_size, 0.6 * font_size


def _clear_of_box(ux: float, uy: float, half: tuple[float, float], reach: float) -> float:
    """How far along the unit direction ``ux, uy`` a disc of radius ``reach`` must lie from the middle
    of a box of half sizes ``half`` to stay clear of it (bisection: the distance only grows)."""
    low, high = 0.0, reach + half[0] + half[1]
    for _ in range(40):
        t = (low + high) / 2.0
        gap = math.hypot(max(abs(t * ux) - half[0], 0.0), max(abs(t * uy) - half[1], 0.0))
        low, high = (t, high) if gap < reach else (low, t)
    return high


def space_marks(view: View, at: Position, first_edge: int, tokens: int, radius: float,
                digit: tuple[float, float]) -> tuple[Point, tuple[Point, ...]]:
    """Where a guild space's digit and its tokens go, all inside the space and clear of each other.

    Both lie along the space's long diagonal, where it is widest: two tokens either side of the digit
    when they fit so; else one spot (two tokens then show as a stack, the one below peeking out
    :data:`STACK_SHIFT` towards the digit) on one side and the digit on the other. A disc at distance
    ``d`` from the space's middle along that diagonal lies inside the rhombus while its radius is at
    most ``(half - d) / 2`` (the 60° corner's sides), ``half`` being half the diagonal. ``digit`` is
    the digit's box (half width, half height). Returns the digit's point and the tokens' spots (none
    for no token).
    """
    half = SQRT3 / 2.0 * view.size
    mx, my = view.space_centre(at, first_edge)
    ax, ay = view.vertex(at, first_edge)
    bx, by = view.vertex(at, first_edge + 2)
    ux, uy = (ax - bx) / (2 * half), (ay - by) / (2 * half)

    def along(d: float) -> Point:
        return (mx + ux * d, my + uy * d)

    if tokens <= 0:
        return along(0.0), ()
    token = radius + TOKEN_RIM
    farthest = half - 2 * token  # a token's centre farther out would cross the space's sides
    clear = _clear_of_box(ux, uy, digit, token)
    if tokens >= 2 and clear <= farthest:
        d = min(farthest, max(clear, 0.42 * view.size))
        return along(0.0), (along(d), along(-d))
    # one spot: the token towards one corner, the digit towards the other, just clear of it (and of
    # the token below, for two)
    apart = max(clear, _clear_of_box(ux, uy, digit, radius + 1.0) + STACK_SHIFT) if tokens >= 2 else clear
    d = max(0.0, min(farthest, apart / 2.0))
    return along(-min(half - 2 * math.hypot(*digit), apart - d)), (along(d),)


def _diagonals(size: float) -> list[tuple[float, float]]:
    view = View(size, (0.0, 0.0))
    found = []
    for edge in range(6):
        (ax, ay), (bx, by) = view.vertex((0, 0), edge), view.vertex((0, 0), edge + 2)
        length = math.hypot(ax - bx, ay - by)
        found.append(((ax - bx) / length, (ay - by) / length))
    return found


def tokens_apart(size: float, radius: float, digit: tuple[float, float]) -> bool:
    """Whether two tokens fit in every space either side of its digit at the hexagon size ``size``."""
    farthest = SQRT3 / 2.0 * size - 2 * (radius + TOKEN_RIM)
    return all(_clear_of_box(ux, uy, digit, radius + TOKEN_RIM) <= farthest for ux, uy in _diagonals(size))


def stack_fits(size: float, radius: float, digit: tuple[float, float]) -> bool:
    """Whether every space holds a stack of two tokens beside its digit at the hexagon size ``size``."""
    half = SQRT3 / 2.0 * size
    farthest = half - 2 * (radius + TOKEN_RIM)
    room = farthest + half - 2 * math.hypot(*digit)
    return farthest >= 0 and all(
        max(_clear_of_box(ux, uy, digit, radius + TOKEN_RIM),
            _clear_of_box(ux, uy, digit, radius + 1.0) + STACK_SHIFT) <= room
        for ux, uy in _diagonals(size))


def smallest_fitting(radius: float, digit: tuple[float, float]) -> float:
    """The smallest hexagon size at which every space holds a stack of tokens of ``radius`` beside
    its whole digit (:func:`space_marks`'s one spot): the map zooms out no further."""
    size = 16.0
    while not stack_fits(size, radius, digit):
        size += 0.5
    return size
