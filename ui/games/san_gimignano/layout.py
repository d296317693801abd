"""Where the San Gimignano map draws things: hexes, rhombi, tokens, and which space a point is on.

Plain arithmetic, no Kivy, so that it is tested without a window. The
segments' axial coordinates and edge order are the engine's
(:mod:`companion.games.san_gimignano.geometry`): edge ``i`` faces the
neighbour at ``(q, r) + D[i]``, clockwise from edge 0. The map draws
pointy-topped hexagons with ``y`` growing upwards (Kivy's), so edge 0 faces
up-right (60°), edge 1 right (0°), edge 2 down-right, and so on; vertex ``k``
lies at the angle ``90° − 60°·k`` and edge ``i`` runs from vertex ``i`` to
vertex ``i + 1``. A guild space over edges ``i`` and ``i + 1`` is the rhombus
centre, vertex ``i``, vertex ``i + 1``, vertex ``i + 2``.

``size`` is the hexagon's circumradius in pixels; ``origin`` the pixel
position of the hexagon ``(0, 0)``'s centre.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.games.san_gimignano.geometry import first_edges

__all__ = ["View", "first_edges", "fit", "panned", "space_at", "zoomed"]

Point = tuple[float, float]
Position = tuple[int, int]
Space = tuple[int, int, str]

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class View:
    """How the map is zoomed and panned: the hexagon's circumradius and where ``(0, 0)`` is drawn."""

    size: float
    origin: Point

    def centre(self, at: Position) -> Point:
        """The pixel centre of the hexagon at axial ``at``."""
        q, r = at
        return (self.origin[0] + self.size * SQRT3 * (q + r / 2.0), self.origin[1] - self.size * 1.5 * r)

    def vertex(self, at: Position, k: int) -> Point:
        """Vertex ``k`` (0–5, clockwise from the top) of the hexagon at ``at``."""
        cx, cy = self.centre(at)
        angle = math.radians(90.0 - 60.0 * (k % 6))
        return (cx + self.size * math.cos(angle), cy + self.size * math.sin(angle))

    def hexagon(self, at: Position) -> list[Point]:
        return [self.vertex(at, k) for k in range(6)]

    def rhombus(self, at: Position, first_edge: int) -> list[Point]:
        """The guild space over edges ``first_edge`` and ``first_edge + 1``: centre and three vertices."""
        return [self.centre(at), *(self.vertex(at, first_edge + k) for k in range(3))]

    def space_centre(self, at: Position, first_edge: int) -> Point:
        """The middle of a guild space (halfway from the hexagon's centre to its middle vertex)."""
        cx, cy = self.centre(at)
        vx, vy = self.vertex(at, first_edge + 1)
        return ((cx + vx) / 2.0, (cy + vy) / 2.0)

    def token_spots(self, at: Position, first_edge: int) -> tuple[Point, Point]:
        """Where a space's first and second token are drawn: along its long diagonal."""
        mx, my = self.space_centre(at, first_edge)
        ax, ay = self.vertex(at, first_edge)
        bx, by = self.vertex(at, first_edge + 2)
        dx, dy = (ax - bx) * 0.24, (ay - by) * 0.24
        return (mx + dx, my + dy), (mx - dx, my - dy)

    def position_at(self, point: Point) -> Position:
        """The axial position of the hexagon holding ``point`` (cube rounding)."""
        x = (point[0] - self.origin[0]) / self.size
        y = (self.origin[1] - point[1]) / self.size
        r = y / 1.5
        q = x / SQRT3 - r / 2.0
        return _round_axial(q, r)

    def edge_towards(self, at: Position, point: Point) -> int:
        """The edge of the hexagon at ``at`` whose 60° sector (seen from the centre) holds ``point``."""
        cx, cy = self.centre(at)
        angle = math.degrees(math.atan2(point[1] - cy, point[0] - cx))
        # edge i faces the angle 60 - 60 i; its sector spans ±30° around that.
        return int(((60.0 - angle + 30.0) % 360.0) // 60.0) % 6


def _round_axial(q: float, r: float) -> Position:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return int(rq), int(rr)


def space_at(view: View, segments: dict[Position, Sequence[str]], point: Point) -> Space | None:
    """The guild space under ``point``, or ``None`` off the placed segments."""
    at = view.position_at(point)
    edges = segments.get(at)
    if edges is None:
        return None
    return (at[0], at[1], edges[view.edge_towards(at, point)])


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
