"""A Castelli player's panel: initials on their shield colour, score, the three resource tracks 0–5,
silver, cards and castles.

One per player beside the board, made once and refilled (a refresh sets a few
properties; the tracks are redrawn only when the player's resources change).
The figures come from the engine's ``player_views``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kivy.graphics import Color, Line, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.games.castelli import tables
from ui.games.campanile.widgets import PieceBadge
from ui.games.castelli.drawing import GIFT_COLOURS
from ui.theme import ACCENT, FONT_LARGE, FONT_SMALL, SURFACE, TEXT, TEXT_QUIET, piece_colour, text_on

#: The three tracks' colours: the frame pieces' (wood, grain, stone).
TRACK_COLOURS = {r: GIFT_COLOURS[r] for r in tables.RESOURCES}


class Tracks(Widget):
    """Three rows of five pips: wood, grain, stone, filled up to what the player holds."""

    def __init__(self, **kwargs: Any) -> None:
        #: What is drawn: the amounts, the position and the size (the same again draws nothing).
        #: Set first: the size given to the constructor already calls on_size.
        self._shown: tuple[tuple[int, ...], tuple[float, ...], tuple[float, ...]] | None = None
        super().__init__(**kwargs)

    def show(self, held: Mapping[str, int]) -> None:
        key = (tuple(held.values()), tuple(self.pos), tuple(self.size))
        if self._shown == key:
            return
        self._shown = key
        self.canvas.clear()
        rows = len(tables.RESOURCES)
        pip_h = (self.height - (rows - 1) * 3) / rows
        pip_w = (self.width - (tables.RESOURCE_CAP - 1) * 3) / tables.RESOURCE_CAP
        for row, resource in enumerate(tables.RESOURCES):
            y = self.top - (row + 1) * pip_h - row * 3
            for index in range(tables.RESOURCE_CAP):
                x = self.x + index * (pip_w + 3)
                if index < held[resource]:
                    self.canvas.add(Color(*TRACK_COLOURS[resource]))
                    self.canvas.add(Rectangle(pos=(x, y), size=(pip_w, pip_h)))
                else:
                    self.canvas.add(Color(*TEXT_QUIET))
                    self.canvas.add(Line(rectangle=(x + 0.5, y + 0.5, pip_w - 1, pip_h - 1), width=1))

    def on_size(self, *_args: Any) -> None:
        self._redo()

    def on_pos(self, *_args: Any) -> None:
        self._redo()

    def _redo(self) -> None:
        if self._shown is None:
            return
        held = dict(zip(tables.RESOURCES, self._shown[0], strict=True))
        self._shown = None
        self.show(held)


def _figure(size: int, width: int, colour: Any = TEXT, bold: bool = True) -> Label:
    label = Label(font_size=size, bold=bold, color=colour, size_hint_x=None, width=width,
                  halign="left", valign="middle")
    label.bind(size=lambda w, s: setattr(w, "text_size", s))
    return label


class Icon(Widget):
    """A drawn sign for a count: a silver coin, a character card, a castle (no words to fit)."""

    def __init__(self, kind: str, **kwargs: Any) -> None:
        super().__init__(size_hint=(None, None), size=(20, 26), pos_hint={"center_y": 0.5}, **kwargs)
        self.kind = kind
        self.bind(pos=lambda *_: self.draw(), size=lambda *_: self.draw())

    def draw(self) -> None:
        self.canvas.clear()
        x, y, w, h = self.x, self.y, self.width, self.height
        with self.canvas:
            if self.kind == "silver":
                Color(*GIFT_COLOURS["silver"])
                Line(circle=(x + w / 2, y + h / 2, w / 2 - 2), width=2)
                Line(circle=(x + w / 2, y + h / 2, w / 4 - 1), width=1.2)
            elif self.kind == "cards":
                Color(*TEXT)
                Line(rectangle=(x + 3, y + 2, w - 6, h - 4), width=1.6)
                Line(rectangle=(x + 7, y + 6, w - 14, h - 12), width=1)
            else:  # a castle: a wall with three merlons
                Color(*TEXT)
                Rectangle(pos=(x + 2, y + 2), size=(w - 4, h * 0.55))
                for index in range(3):
                    Rectangle(pos=(x + 2 + index * (w - 4) / 2.5, y + 2 + h * 0.55),
                              size=((w - 4) / 5, h * 0.25))


class PlayerPanel(BoxLayout):
    """One player's line: badge, score, resource tracks, then silver, cards and castles by their signs."""

    def __init__(self, player: str, short: str, colour: str, **kwargs: Any) -> None:
        super().__init__(orientation="horizontal", spacing=4, padding=(6, 2), **kwargs)
        self.player = player
        fill = piece_colour(colour)
        self.badge = PieceBadge(text=short, fill=list(fill), ink=list(text_on(fill)), size=(44, 36),
                                pos_hint={"center_y": 0.5})
        self.score = _figure(FONT_LARGE, 48)
        self.tracks = Tracks(size_hint=(None, None), size=(74, 44), pos_hint={"center_y": 0.5})
        self.counts: dict[str, Label] = {}
        for widget in (self.badge, self.score, self.tracks):
            self.add_widget(widget)
        for key in ("silver", "cards", "castles"):
            self.add_widget(Icon(key))
            self.counts[key] = _figure(FONT_SMALL + 6, 34)
            self.add_widget(self.counts[key])
        with self.canvas.before:
            self._ground = Color(*SURFACE)
            self._rect = Rectangle(pos=self.pos, size=self.size)
            self._ring_colour = Color(0, 0, 0, 0)
            self._ring = Line(rectangle=(*self.pos, *self.size), width=2)
        self.bind(pos=self._place, size=self._place)

    def _place(self, *_args: Any) -> None:
        self._rect.pos = self.pos
        self._rect.size = self.size
        self._ring.rectangle = (self.x + 1, self.y + 1, self.width - 2, self.height - 2)

    def show(self, view: Mapping[str, Any], acting: bool) -> None:
        self.score.text = str(view["score"])
        self.tracks.show(view["resources"])
        for key in ("silver", "cards", "castles"):
            self.counts[key].text = str(view[key])
        self.badge.acting = acting
        self._ring_colour.rgba = ACCENT if acting else (0, 0, 0, 0)
