"""A Castelli player's panel: initials on their shield colour, score, the three resource tracks 0–5
(each with its sign and its figure), silver, cards and castles.

One per player beside the board, made once (its layout is its rule in
``castelli.kv``) and refilled: a refresh sets its Kivy properties from the
engine's ``player_views`` and the widgets bound to them follow; the tracks'
signs and pips are canvas instructions made once whose colours change, their
figures labels made once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kivy.graphics import Color, Line, Mesh, Rectangle
from kivy.properties import BooleanProperty, DictProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.games.castelli import tables
from ui.games.castelli import icons
from ui.games.castelli.drawing import GIFT_COLOURS
from ui.theme import TEXT, TEXT_QUIET, piece_colour, text_on

#: The three tracks' colours: the frame pieces' (wood, grain, stone).
TRACK_COLOURS = {r: GIFT_COLOURS[r] for r in tables.RESOURCES}
#: Nothing drawn (a pip's fill while it is empty, its outline while it is full).
CLEAR = (0.0, 0.0, 0.0, 0.0)
#: The gap between tracks, and between a track's pips.
GAP = 4
#: A track's figure, in px (what a player holds: read across the table, as the silver and cards are).
TRACK_FIGURE = 24


class CastelliTracks(Widget):
    """The three resource tracks side by side (wood, grain, stone): each its sign (a tree, ears of
    grain, a stone) in the resource's colour, what the player holds as a figure, and under it the
    track of five pips filled up to that (``held``)."""

    held = DictProperty({})

    def __init__(self, **kwargs: object) -> None:
        #: Per track: its sign (colour, shapes), its figure (a label made once) and its pips (fill and
        #: outline, kept).
        self._signs: list[list[Mesh]] = []
        self._pips: list[tuple[Color, Rectangle, Color, Line]] = []
        self.figures: dict[str, Label] = {}
        super().__init__(**kwargs)
        for resource in tables.RESOURCES:
            self.canvas.add(Color(*TRACK_COLOURS[resource]))
            shapes = [Mesh(mode="triangle_fan") for _shape in icons.SIGNS[resource](0, 0, 10)]
            for shape in shapes:
                self.canvas.add(shape)
            self._signs.append(shapes)
            for _pip in range(tables.RESOURCE_CAP):
                pip = (Color(*CLEAR), Rectangle(), Color(*CLEAR), Line(width=1))
                for instruction in pip:
                    self.canvas.add(instruction)
                self._pips.append(pip)
            figure = Label(font_size=TRACK_FIGURE, bold=True, color=TEXT, halign="center", valign="middle")
            self.figures[resource] = figure
            self.add_widget(figure)
        self.bind(pos=self.draw, size=self.draw, held=self.draw)
        self.draw()

    def draw(self, *_args: object) -> None:
        """Each track placed, its figure set and its pips filled (or outlined) for what is held now."""
        tracks = len(tables.RESOURCES)
        width = (self.width - (tracks - 1) * GAP) / tracks
        pip_w = (width - (tables.RESOURCE_CAP - 1) * 2) / tables.RESOURCE_CAP
        pip_h = 6.0
        sign = 14.0
        pips = iter(self._pips)
        for index, resource in enumerate(tables.RESOURCES):
            left = self.x + index * (width + GAP)
            held = self.held.get(resource, 0)
            for mesh, shape in zip(self._signs[index], icons.SIGNS[resource](
                    left + width / 2, self.y + self.height - sign / 2 - 1, sign), strict=True):
                mesh.vertices, mesh.indices = shape, list(range(len(shape) // 4))
            figure = self.figures[resource]
            figure.text = str(held)
            figure.pos = (left, self.y + pip_h + 2)
            figure.size = (width, self.height - sign - pip_h - 4)
            figure.text_size = figure.size
            for pip_index in range(tables.RESOURCE_CAP):
                fill_colour, fill, line_colour, line = next(pips)
                x = left + pip_index * (pip_w + 2)
                full = pip_index < held
                fill_colour.rgba = TRACK_COLOURS[resource] if full else CLEAR
                fill.pos, fill.size = (x, self.y), (pip_w, pip_h)
                line_colour.rgba = CLEAR if full else TEXT_QUIET
                line.rectangle = (x + 0.5, self.y + 0.5, pip_w - 1, pip_h - 1)


class CastelliFigure(Label):
    """A panel's figure (score, silver, cards, castles); looks in ``castelli.kv``."""


class CastelliIcon(Widget):
    """A drawn sign for a count (no words to fit); each kind's drawing is its rule in ``castelli.kv``."""


class CastelliSilverIcon(CastelliIcon):
    """Silver: a coin."""

    colour = ListProperty(list(GIFT_COLOURS["silver"]))


class CastelliCardsIcon(CastelliIcon):
    """Character cards: a card."""


class CastelliCastleIcon(CastelliIcon):
    """Castles: a wall with three merlons."""


class CastelliPanel(BoxLayout):
    """One player's line: badge, score, resource tracks, then silver, cards and castles by their signs."""

    #: The player's initials, and their shield colour with the ink that reads on it.
    short = StringProperty("")
    fill = ListProperty([0, 0, 0, 1])
    ink = ListProperty(list(TEXT))
    #: The figures shown, as the engine's ``player_views`` gives them.
    score_text = StringProperty("")
    resources = DictProperty({})
    silver_text = StringProperty("")
    cards_text = StringProperty("")
    castles_text = StringProperty("")
    #: The player may act now: ringed, and their badge too.
    acting = BooleanProperty(False)

    def __init__(self, player: str, short: str, colour: str, **kwargs: object) -> None:
        fill = piece_colour(colour)
        super().__init__(short=short, fill=list(fill), ink=list(text_on(fill)), **kwargs)
        self.player = player
        ids = self.ids
        self.badge = ids.badge
        self.score: Label = ids.score
        self.tracks: CastelliTracks = ids.tracks
        self.counts: dict[str, Label] = {key: ids[key] for key in ("silver", "cards", "castles")}

    def show(self, view: Mapping[str, Any], acting: bool) -> None:
        self.score_text = str(view["score"])
        self.resources = dict(view["resources"])
        self.silver_text, self.cards_text, self.castles_text = (
            str(view[key]) for key in ("silver", "cards", "castles"))
        self.acting = acting


#: The name the board and the tests know a player's panel by.
PlayerPanel = CastelliPanel
