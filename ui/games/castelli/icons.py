"""Castelli's small drawn signs: a tree (wood, the forest), ears of grain (grain, the field), a stone
(stone), and a character card.

Colour alone never tells two things apart at the table (about one man in
twelve is colour-blind), and the forest's green and the field's olive are
close: the board draws its forests with trees and its fields with ears of
grain, and the players' resource tracks carry the same signs as the areas
that yield them. A card-covered shield shows two fanned cards, filled: an
outlined rectangle read as the figure 0.

Each function gives the points of its shapes (pure geometry, no Kivy), so
the board, the tile and the panels draw them with their own instructions,
kept and moved, never made again on a move.
"""

from __future__ import annotations

import math

#: A shape as points for a Kivy ``Mesh`` in ``triangle_fan`` mode: x, y, u, v per vertex.
Fan = list[float]


def fan(points: list[tuple[float, float]]) -> Fan:
    """``points`` (a convex outline) as a triangle fan's vertices."""
    vertices: Fan = []
    for x, y in points:
        vertices += [x, y, 0.0, 0.0]
    return vertices


def tree(cx: float, cy: float, size: float) -> list[Fan]:
    """A fir tree ``size`` tall centred on (cx, cy): its crown (a triangle) and its trunk."""
    half = size / 2
    crown = [(cx - size * 0.38, cy - half * 0.45), (cx + size * 0.38, cy - half * 0.45), (cx, cy + half)]
    trunk_w = size * 0.14
    trunk = [(cx - trunk_w / 2, cy - half), (cx + trunk_w / 2, cy - half),
             (cx + trunk_w / 2, cy - half * 0.45), (cx - trunk_w / 2, cy - half * 0.45)]
    return [fan(crown), fan(trunk)]


def grain(cx: float, cy: float, size: float) -> list[Fan]:
    """Three ears of grain ``size`` tall centred on (cx, cy): each a thin stalk and a grain head."""
    shapes = []
    half = size / 2
    stalk_w = max(1.0, size * 0.07)
    for offset in (-0.28, 0.0, 0.28):
        x = cx + offset * size
        shapes.append(fan([(x - stalk_w / 2, cy - half), (x + stalk_w / 2, cy - half),
                           (x + stalk_w / 2, cy), (x - stalk_w / 2, cy)]))
        head = [(x + math.sin(a) * size * 0.1, cy + half * 0.45 + math.cos(a) * size * 0.27)
                for a in (i * math.pi / 4 for i in range(8))]
        shapes.append(fan(head))
    return shapes


def stone(cx: float, cy: float, size: float) -> list[Fan]:
    """A stone ``size`` across centred on (cx, cy): an irregular hexagon."""
    r = size / 2
    corners = ((0.95, 0.1), (0.55, 0.85), (-0.35, 0.9), (-0.95, 0.2), (-0.7, -0.75), (0.45, -0.85))
    return [fan([(cx + dx * r, cy + dy * r * 0.8) for dx, dy in corners])]


#: The sign of each resource (and of the area that yields it).
SIGNS = {"wood": tree, "grain": grain, "stone": stone, "forest": tree, "field": grain, "rock": stone}


def card(cx: float, cy: float, size: float) -> tuple[list[float], list[float]]:
    """Two fanned cards ``size`` tall centred on (cx, cy): the outline of the one behind and of the
    one in front (each four corners, x, y), tilted apart."""
    w, h = size * 0.62, size

    def tilted(dx: float, degrees: float) -> list[float]:
        a = math.radians(degrees)
        points: list[float] = []
        for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)):
            points += [cx + dx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)]
        return points

    return tilted(-size * 0.12, 16), tilted(size * 0.12, -12)


def corners_fan(corners: list[float]) -> Fan:
    """Four corners (x, y, ...) as a triangle fan's vertices."""
    return fan([(corners[i], corners[i + 1]) for i in range(0, len(corners), 2)])
