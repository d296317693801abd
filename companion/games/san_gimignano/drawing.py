"""Where a San Gimignano map draws the segments: the one copy both front ends draw with.

The touchscreen (``ui/games/san_gimignano/``, Kivy's ``y`` growing upwards)
and the live page's SVG (``web/pages/games/san_gimignano.py``, ``y`` growing
downwards) take their hexagons, rhombi and piece spots from :class:`View`, and
the touchscreen asks it which space a finger is on. The segments' axial
coordinates and edge order are the engine's (:mod:`~companion.games.san_gimignano.geometry`):
edge ``i`` faces the neighbour at ``(q, r) + D[i]``, clockwise from edge 0.
Segments are drawn as pointy-topped hexagons: edge 0 faces up-right (60°),
edge 1 right (0°), edge 2 down-right, and so on; vertex ``k`` lies at the angle
``90° − 60°·k`` (``y`` up) and edge ``i`` runs from vertex ``i`` to vertex
``i + 1``. A guild's space over edges ``i`` and ``i + 1`` is the rhombus
centre, vertex ``i``, vertex ``i + 1``, vertex ``i + 2``.

Plain arithmetic, standard library only; the engine never imports it (a
replay draws nothing).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.games.san_gimignano.geometry import Position, Space

Point = tuple[float, float]

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class View:
    """Where a map draws the segments: ``size`` is a hexagon's circumradius, ``origin`` where the centre
    of the hexagon ``(0, 0)`` is drawn; ``y_up``: ``y`` grows upwards (Kivy's), else downwards (SVG's)."""

    size: float
    origin: Point
    y_up: bool = True

    def centre(self, at: Position) -> Point:
        """The centre of the hexagon at axial ``at``."""
        q, r = at
        down = self.size * 1.5 * r
        return (self.origin[0] + self.size * SQRT3 * (q + r / 2.0),
                self.origin[1] - down if self.y_up else self.origin[1] + down)

    def vertex(self, at: Position, k: int) -> Point:
        """Vertex ``k`` (0–5, clockwise from the top) of the hexagon at ``at``."""
        cx, cy = self.centre(at)
        angle = math.radians(90.0 - 60.0 * (k % 6))
        rise = self.size * math.sin(angle)
        return (cx + self.size * math.cos(angle), cy + rise if self.y_up else cy - rise)

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

    def space_spots(self, at: Position, first_edge: int, count: int, spread: float = 0.25) -> list[Point]:
        """Where ``count`` pieces on a space go: its middle for one, else evenly along its long
        diagonal, the outermost ``spread`` of that diagonal's length either side of the middle."""
        mx, my = self.space_centre(at, first_edge)
        if count <= 1:
            return [(mx, my)]
        ax, ay = self.vertex(at, first_edge)
        bx, by = self.vertex(at, first_edge + 2)
        step = 2 * spread / (count - 1)
        return [(mx + (ax - bx) * (spread - i * step), my + (ay - by) * (spread - i * step))
                for i in range(count)]

    def token_spots(self, at: Position, first_edge: int) -> tuple[Point, Point]:
        """Where the touchscreen draws a space's first and second token: along its long diagonal."""
        first, second = self.space_spots(at, first_edge, 2, spread=0.24)
        return first, second

    def position_at(self, point: Point) -> Position:
        """The axial position of the hexagon holding ``point`` (cube rounding)."""
        x = (point[0] - self.origin[0]) / self.size
        y = ((self.origin[1] - point[1]) if self.y_up else (point[1] - self.origin[1])) / self.size
        r = y / 1.5
        q = x / SQRT3 - r / 2.0
        return _round_axial(q, r)

    def edge_towards(self, at: Position, point: Point) -> int:
        """The edge of the hexagon at ``at`` whose 60° sector (seen from the centre) holds ``point``."""
        cx, cy = self.centre(at)
        rise = point[1] - cy if self.y_up else cy - point[1]
        angle = math.degrees(math.atan2(rise, point[0] - cx))
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


def space_at(view: View, segments: Mapping[Position, Sequence[str]], point: Point) -> Space | None:
    """The guild space drawn under ``point``, or ``None`` off the placed segments."""
    at = view.position_at(point)
    edges = segments.get(at)
    if edges is None:
        return None
    return (at[0], at[1], edges[view.edge_towards(at, point)])
