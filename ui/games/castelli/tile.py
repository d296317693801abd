"""One Castelli tile drawn large: its four shields (or the sides still to enter), tappable by side.

Used by the reveal pad (the tile being entered; a tap on a side goes back to it)
and by the Steward's picker (each way the tile may be turned).

The tile's canvas instructions are made once and changed in place (colours,
points, textures): a tap on the pad sets a few of them rather than drawing
the tile again. What a side does not show now (a figure, a card, the ring of
the side being entered, a coin) is drawn in a transparent colour.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from kivy.graphics import Color, InstructionGroup, Line, Mesh, Rectangle, Triangle
from kivy.input.motionevent import MotionEvent
from kivy.properties import BooleanProperty
from kivy.uix.widget import Widget

from companion.games.castelli import tables
from ui.games.campanile.widgets import Flashes
from ui.games.castelli import icons
from ui.games.castelli.drawing import FACE_DOWN
from ui.games.castelli.figures import glyph
from ui.theme import ACCENT, REFUSED, SURFACE, TEXT_QUIET, piece_colour, text_on

Side = tuple["str | None", "int | str | None"]

#: Nothing drawn (an instruction kept for when it shows something again).
CLEAR = (0.0, 0.0, 0.0, 0.0)
#: The coins on a tile that carries silver.
COIN = (0.78, 0.82, 0.85, 1)


class _SideMarks:
    """The instructions of one side: its triangle, the line to the next side, its figure or card, and
    the ring of the side being entered."""

    def __init__(self, canvas: InstructionGroup) -> None:
        self.fill = Color(*FACE_DOWN)
        self.triangle = Triangle()
        self.seam_colour = Color(*SURFACE)
        self.seam = Line(width=1.5)
        self.figure_colour = Color(*CLEAR)
        self.figure = Rectangle()
        # a card-covered shield: two fanned cards, filled and parted by a line (never read as a 0)
        self.cards = [(Color(*CLEAR), Mesh(indices=[0, 1, 2, 3], mode="triangle_fan"), Color(*CLEAR),
                       Line(close=True, width=1.1)) for _card in range(2)]
        self.ring_colour = Color(*CLEAR)
        self.ring = Line(close=True, width=3)
        for instruction in (self.fill, self.triangle, self.seam_colour, self.seam, self.figure_colour,
                            self.figure, *(part for card in self.cards for part in card), self.ring_colour,
                            self.ring):
            canvas.add(instruction)

    def show(self, shield: Side, edge: tuple[float, float, float, float], centre: tuple[float, float],
             size: int, current: bool) -> None:
        (colour, value), (ax, ay, bx, by), (cx, cy) = shield, edge, centre
        fill = piece_colour(colour) if colour else FACE_DOWN
        self.fill.rgba = fill
        self.triangle.points = [ax, ay, bx, by, cx, cy]
        self.seam.points = [ax, ay, cx, cy]
        tx = cx + ((ax + bx) / 2 - cx) * 0.6
        ty = cy + ((ay + by) / 2 - cy) * 0.6
        ink = tuple(text_on(fill)) if colour else tuple(TEXT_QUIET)
        figure = str(value) if isinstance(value, int) else "?" if value is None and colour is None else None
        if figure is not None:
            texture = glyph(figure, size, ink)
            w, h = texture.size
            self.figure.texture = texture
            self.figure.size = (w, h)
            self.figure.pos = (tx - w / 2, ty - h / 2)
        self.figure_colour.rgba = (1, 1, 1, 1) if figure is not None else CLEAR
        covered = value is not None and not isinstance(value, int)
        for (ink_colour, card, edge_colour, outline), corners in zip(
                self.cards, icons.card(tx, ty, size * 1.1), strict=True):
            ink_colour.rgba = ink if covered else CLEAR
            edge_colour.rgba = fill if covered else CLEAR
            card.vertices = icons.corners_fan(corners)
            outline.points = corners
        self.ring_colour.rgba = ACCENT if current else CLEAR
        self.ring.points = [ax, ay, bx, by, cx, cy]


class TileView(Flashes, Widget):
    """A square tile: side ``i`` is the triangle from its edge to the centre (N, E, S, W).

    ``on_side(index)`` is dispatched when a side is tapped, if ``tappable``.
    """

    flashing = BooleanProperty(False)
    live = BooleanProperty(True)
    #: Taps on a side are taken (the pad's tile); otherwise they go to what holds the tile.
    tappable = BooleanProperty(False)
    __events__ = ("on_side",)

    def __init__(self, **kwargs: object) -> None:
        self.sides: Sequence[Side] = [(None, None)] * 4
        self.current: int | None = None
        self.silver = 0
        super().__init__(**kwargs)
        canvas = self.canvas
        self._sides = [_SideMarks(canvas) for _ in range(4)]
        self._coins: list[tuple[Color, Line]] = []
        for _ in range(max(tables.TILE_SILVER)):
            coin = (Color(*CLEAR), Line(circle=(0, 0, 1), width=2.5))
            canvas.add(coin[0])
            canvas.add(coin[1])
            self._coins.append(coin)
        self._border_colour = Color(*TEXT_QUIET)
        self._border = Line(width=1)
        self._shade_colour = Color(*CLEAR)
        self._shade = Rectangle()
        for instruction in (self._border_colour, self._border, self._shade_colour, self._shade):
            canvas.add(instruction)
        self.bind(pos=self.draw, size=self.draw, flashing=self.draw, live=self.draw)
        self.draw()

    def show(self, sides: Sequence[Side], current: int | None = None, silver: int = 0) -> None:
        self.sides, self.current, self.silver = list(sides), current, silver
        self.draw()

    def draw(self, *_args: object) -> None:
        """Set the kept instructions to what the tile shows now, where it is now."""
        side = min(self.width, self.height)
        x0 = self.x + (self.width - side) / 2
        y0 = self.y + (self.height - side) / 2
        x1, y1 = x0 + side, y0 + side
        cx, cy = x0 + side / 2, y0 + side / 2
        edges = [(x0, y1, x1, y1), (x1, y1, x1, y0), (x1, y0, x0, y0), (x0, y0, x0, y1)]
        size = max(20, round(side * 0.2))
        for index, (marks, shield, edge) in enumerate(zip(self._sides, self.sides, edges, strict=True)):
            marks.show(shield, edge, (cx, cy), size, index == self.current)
        r = side * 0.06
        for index, (colour, coin) in enumerate(self._coins):
            colour.rgba = COIN if index < self.silver else CLEAR
            coin.circle = (cx + (index - (self.silver - 1) / 2) * r * 2.6, cy, r)
        self._border_colour.rgba = REFUSED if self.flashing else TEXT_QUIET
        self._border.rectangle = (x0, y0, side, side)
        self._border.width = 2 if self.flashing else 1
        self._shade_colour.rgba = (0, 0, 0, 0.45) if not self.live else CLEAR
        self._shade.pos, self._shade.size = (x0, y0), (side, side)

    def side_at(self, x: float, y: float) -> int:
        """The side whose triangle holds the point: by the direction from the centre."""
        angle = math.degrees(math.atan2(y - self.center_y, x - self.center_x))
        if 45 <= angle < 135:
            return 0
        if -45 <= angle < 45:
            return 1
        if -135 <= angle < -45:
            return 2
        return 3

    def on_touch_down(self, touch: MotionEvent) -> bool:
        if not self.collide_point(*touch.pos) or not self.tappable:
            return False
        self.dispatch("on_side", self.side_at(*touch.pos))
        return True

    def on_side(self, index: int) -> None:
        pass
