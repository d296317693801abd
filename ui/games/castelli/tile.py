"""One Castelli tile drawn large: its four shields (or the sides still to enter), tappable by side.

Used by the reveal pad (the tile being entered; a tap on a side goes back to it)
and by the Steward's picker (each way the tile may be turned).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from kivy.graphics import Color, Line, Rectangle, Triangle
from kivy.properties import BooleanProperty
from kivy.uix.widget import Widget

from ui.games.campanile.widgets import Flashes
from ui.games.castelli.drawing import FACE_DOWN, draw_text
from ui.theme import ACCENT, REFUSED, SURFACE, TEXT_QUIET, piece_colour, text_on

Side = tuple["str | None", "int | str | None"]


class TileView(Flashes, Widget):
    """A square tile: side ``i`` is the triangle from its edge to the centre (N, E, S, W)."""

    flashing = BooleanProperty(False)
    live = BooleanProperty(True)

    def __init__(self, on_side: Callable[[int], Any] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_side = on_side
        self.sides: Sequence[Side] = [(None, None)] * 4
        self.current: int | None = None
        self.silver = 0
        self.bind(pos=lambda *_: self.draw(), size=lambda *_: self.draw(),
                  flashing=lambda *_: self.draw(), live=lambda *_: self.draw())

    def show(self, sides: Sequence[Side], current: int | None = None, silver: int = 0) -> None:
        self.sides, self.current, self.silver = list(sides), current, silver
        self.draw()

    def draw(self) -> None:
        self.canvas.clear()
        side = min(self.width, self.height)
        x0 = self.x + (self.width - side) / 2
        y0 = self.y + (self.height - side) / 2
        x1, y1 = x0 + side, y0 + side
        cx, cy = x0 + side / 2, y0 + side / 2
        edges = [(x0, y1, x1, y1), (x1, y1, x1, y0), (x1, y0, x0, y0), (x0, y0, x0, y1)]
        size = max(20, round(side * 0.2))
        canvas = self.canvas
        for index, ((colour, value), (ax, ay, bx, by)) in enumerate(zip(self.sides, edges, strict=True)):
            fill = piece_colour(colour) if colour else FACE_DOWN
            canvas.add(Color(*fill))
            canvas.add(Triangle(points=[ax, ay, bx, by, cx, cy]))
            canvas.add(Color(*SURFACE))
            canvas.add(Line(points=[ax, ay, cx, cy], width=1.5))
            tx = cx + ((ax + bx) / 2 - cx) * 0.6
            ty = cy + ((ay + by) / 2 - cy) * 0.6
            ink = tuple(text_on(fill)) if colour else tuple(TEXT_QUIET)
            if isinstance(value, int):
                draw_text(canvas, str(value), size, (tx, ty), ink)
            elif value is not None:
                canvas.add(Color(*ink))
                canvas.add(Line(rectangle=(tx - size * 0.3, ty - size * 0.42, size * 0.6, size * 0.84),
                                width=2))
            elif colour is None:
                draw_text(canvas, "?", size, (tx, ty), ink)
            if index == self.current:
                canvas.add(Color(*ACCENT))
                canvas.add(Line(points=[ax, ay, bx, by, cx, cy], close=True, width=3))
        for index in range(self.silver):
            canvas.add(Color(0.78, 0.82, 0.85, 1))
            r = side * 0.06
            canvas.add(Line(circle=(cx + (index - (self.silver - 1) / 2) * r * 2.6, cy, r), width=2.5))
        canvas.add(Color(*(REFUSED if self.flashing else TEXT_QUIET)))
        canvas.add(Line(rectangle=(x0, y0, side, side), width=2 if self.flashing else 1))
        if not self.live:
            canvas.add(Color(0, 0, 0, 0.45))
            canvas.add(Rectangle(pos=(x0, y0), size=(side, side)))

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

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos) or self.on_side is None:
            return False
        self.on_side(self.side_at(*touch.pos))
        return True
