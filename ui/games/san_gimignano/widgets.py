"""The small pieces of the San Gimignano board: a segment's picture (a palette key, an orientation),
a player's row, the palette's place, the guild colours.

The buttons are Campanile's (:mod:`ui.games.campanile.widgets`): dimmed is not
disabled, a dimmed one still answers a tap so that the engine can say why.
Their look, and this module's, is in ``san_gimignano.kv`` and ``campanile.kv``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from kivy.graphics import Color, Line, Mesh
from kivy.input.motionevent import MotionEvent
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.games.descriptor import split_words
from companion.games.san_gimignano.colours import FALLBACK, GUILD_HEX
from companion.games.san_gimignano.descriptor import GUILD_PALETTE
from ui.games.campanile.widgets import Flashes, PieceBadge, TapButton
from ui.games.san_gimignano.layout import View, first_edges
from ui.theme import TEXT, Colour, piece_colour, rgb

KV = Path(__file__).with_name("san_gimignano.kv")
if str(KV) not in Builder.files:
    Builder.load_file(str(KV))

#: The guilds' colours by the names the setting uses, as Kivy takes them: the core's one table
#: (:data:`companion.games.san_gimignano.colours.GUILD_HEX`), which the live page draws with too.
GUILD_RGB: dict[str, Colour] = {name: rgb(code) for name, code in GUILD_HEX.items()}
assert set(GUILD_RGB) == set(GUILD_PALETTE)



def guild_colours(guilds: Sequence[str], setting: str) -> dict[str, Colour]:
    """Each of the game's guilds (in setup order) with the colour the setting gives its place."""
    names = split_words(setting)
    return {guild: GUILD_RGB.get(names[index] if index < len(names) else "", GUILD_RGB[FALLBACK])
            for index, guild in enumerate(guilds)}


def player_fills(players: Sequence[str], colours: Mapping[str, str | None]) -> dict[str, Colour]:
    """Each player's piece colour (:func:`ui.players.table_colours` gave the spare ones)."""
    return {player: piece_colour(colours.get(player)) for player in players}


class SegmentPicture(Flashes, ButtonBehavior, Widget):
    """A segment drawn as on the map (three rhombi): a palette key or an orientation to choose.

    Its instructions are made once and changed in place (the rhombi's corners and colours,
    the outline) when it moves, is shown another outline, or is lit or dimmed: a palette's
    keys change ``live`` on every move, and the orientations reuse their pictures.
    """

    live = BooleanProperty(True)
    flashing = BooleanProperty(False)
    accent = BooleanProperty(False)
    #: The six edges' guilds, clockwise from edge 0, and each guild's colour.
    edges = ListProperty([])
    colours = ListProperty([])

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        with self.canvas.after:
            self._rhombi = [(Color(0, 0, 0, 0), Mesh(indices=[0, 1, 2, 3], mode="triangle_fan"))
                            for _ in range(3)]
            self._outline_colour = Color(0, 0, 0, 0)
            self._outline = Line(close=True, width=1.2)
        self.bind(pos=self._draw, size=self._draw, edges=self._draw, colours=self._draw, live=self._draw)
        self._draw()

    def _draw(self, *_args: object) -> None:
        """Move and colour the kept rhombi and outline; nothing shows while the outline is not a segment's."""
        shown = len(self.edges) == 6 and bool(self.colours)
        spaces = list(first_edges(self.edges).items()) if shown else []
        palette = dict(self.colours)
        size = min(self.width / 1.9, self.height / 2.2)
        view = View(size, (self.center_x, self.center_y))
        for index, (colour, mesh) in enumerate(self._rhombi):
            if index >= len(spaces):
                colour.a = 0
                continue
            guild, edge = spaces[index]
            fill = palette.get(guild, (0.4, 0.4, 0.4, 1))
            colour.rgba = (fill[0], fill[1], fill[2], 1.0 if self.live else 0.35)
            mesh.vertices = [c for x, y in view.rhombus((0, 0), edge) for c in (x, y, 0, 0)]
        self._outline_colour.rgba = (0, 0, 0, 0.6 if shown else 0)
        self._outline.points = [c for point in view.hexagon((0, 0)) for c in point]


class PlayerHand(BoxLayout):
    """A player's row: initials on their colour, towers (large), tokens in hand and segments left.

    Layout in ``san_gimignano.kv``; the board sets the properties on every redraw.
    """

    short = StringProperty("")
    fill = ListProperty([0, 0, 0, 1])
    ink = ListProperty(list(TEXT))
    towers_text = StringProperty("")
    detail_text = StringProperty("")
    acting = BooleanProperty(False)

    @property
    def badge(self) -> PieceBadge:
        badge: PieceBadge = self.ids.badge
        return badge

    @property
    def towers(self) -> Label:
        towers: Label = self.ids.towers
        return towers

    @property
    def detail(self) -> Label:
        detail: Label = self.ids.detail
        return detail

    def show(self, towers: int, detail: str, acting: bool) -> None:
        self.towers_text = str(towers)
        self.detail_text = detail
        self.acting = acting


class Banner(Label):
    """What now, in words: the must-build warning in the accent colour, else the turn's steps."""

    urgent = BooleanProperty(False)
    band = ListProperty([0, 0, 0, 0])


class GuildKey(Label):
    """One guild of the legend: its colour and its name (never the colour alone)."""

    swatch = ListProperty([0, 0, 0, 1])


class MapControls(BoxLayout):
    """The row of zoom and pan buttons under the map (gestures do the same)."""


class GroupButton(TapButton):
    """One of the groups a space lies in, to choose which the tower completes (*Group 1*, *Group 2*)."""

    group = ObjectProperty(())


class ChoiceStack(FloatLayout):
    """Layouts in one place, one of them in front: the palette, or the choices it leads to.

    The one behind stays built and in place, transparent and deaf to touches, so
    that turning from the palette to a segment's orientations and back builds
    and re-adds nothing.
    """

    front = ObjectProperty(None, allownone=True)

    def on_front(self, *_args: object) -> None:
        self._show_front()

    def on_children(self, *_args: object) -> None:
        self._show_front()

    def _show_front(self) -> None:
        # ``front`` is set from a rule's ids, which are weak proxies: the widget itself is its __self__
        front = self.front.__self__ if self.front is not None else None
        for child in self.children:
            child.opacity = 1.0 if child is front else 0.0

    def on_touch_down(self, touch: MotionEvent) -> bool:
        return self.front is not None and bool(self.front.dispatch("on_touch_down", touch))

    def on_touch_move(self, touch: MotionEvent) -> bool:
        return self.front is not None and bool(self.front.dispatch("on_touch_move", touch))

    def on_touch_up(self, touch: MotionEvent) -> bool:
        return self.front is not None and bool(self.front.dispatch("on_touch_up", touch))
