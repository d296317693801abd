"""A Castelli player's panel: initials on their shield colour, score, the three resource tracks 0–5,
silver, cards and castles.

One per player beside the board, made once (its layout is its rule in
``castelli.kv``) and refilled: a refresh sets its Kivy properties from the
engine's ``player_views`` and the widgets bound to them follow; the tracks'
pips are canvas instructions made once whose colours change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kivy.graphics import Color, Line, Rectangle
from kivy.properties import BooleanProperty, DictProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.games.castelli import tables
from ui.games.castelli.drawing import GIFT_COLOURS
from ui.theme import TEXT, TEXT_QUIET, piece_colour, text_on

#: The three tracks' colours: the frame pieces' (wood, grain, stone).
TRACK_COLOURS = {r: GIFT_COLOURS[r] for r in tables.RESOURCES}
#: Nothing drawn (a pip's fill while it is empty, its outline while it is full).
CLEAR = (0.0, 0.0, 0.0, 0.0)
#: The gap between pips.
GAP = 3


class CastelliTracks(Widget):
    """Three rows of five pips: wood, grain, stone, filled up to what the player holds (``held``)."""

    held = DictProperty({})

    def __init__(self, **kwargs: Any) -> None:
        #: Per pip: its fill (colour and rectangle) and its outline (colour and line), kept.
        self._pips: list[tuple[Color, Rectangle, Color, Line]] = []
        super().__init__(**kwargs)
        for _pip in range(len(tables.RESOURCES) * tables.RESOURCE_CAP):
            pip = (Color(*CLEAR), Rectangle(), Color(*CLEAR), Line(width=1))
            for instruction in pip:
                self.canvas.add(instruction)
            self._pips.append(pip)
        self.bind(pos=self.draw, size=self.draw, held=self.draw)
        self.draw()

    def draw(self, *_args: Any) -> None:
        """Each pip placed and filled (or outlined) for what is held now."""
        rows = len(tables.RESOURCES)
        pip_h = (self.height - (rows - 1) * GAP) / rows
        pip_w = (self.width - (tables.RESOURCE_CAP - 1) * GAP) / tables.RESOURCE_CAP
        pips = iter(self._pips)
        for row, resource in enumerate(tables.RESOURCES):
            y = self.top - (row + 1) * pip_h - row * GAP
            held = self.held.get(resource, 0)
            for index in range(tables.RESOURCE_CAP):
                fill_colour, fill, line_colour, line = next(pips)
                x = self.x + index * (pip_w + GAP)
                full = index < held
                fill_colour.rgba = TRACK_COLOURS[resource] if full else CLEAR
                fill.pos, fill.size = (x, y), (pip_w, pip_h)
                line_colour.rgba = CLEAR if full else TEXT_QUIET
                line.rectangle = (x + 0.5, y + 0.5, pip_w - 1, pip_h - 1)


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

    def __init__(self, player: str, short: str, colour: str, **kwargs: Any) -> None:
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
