"""The small pieces of the San Gimignano board: a segment's picture (a palette key, an orientation),
a player's cell, the guild colours.

The buttons are Campanile's (:mod:`ui.games.campanile.widgets`): dimmed is not
disabled, a dimmed one still answers a tap so that the engine can say why.
Their look, and this module's, is in ``san_gimignano.kv`` and ``campanile.kv``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.games.descriptor import split_words
from companion.games.san_gimignano.descriptor import GUILD_PALETTE
from ui.games.campanile.widgets import Flashes, PieceBadge
from ui.games.san_gimignano.layout import View, first_edges
from ui.theme import FONT_LARGE, FONT_SMALL, TEXT, TEXT_QUIET, Colour, piece_colour, rgb, text_on

KV = Path(__file__).with_name("san_gimignano.kv")
if str(KV) not in Builder.files:
    Builder.load_file(str(KV))

#: The guilds' colours by the names the setting uses: muted, so that the tokens on them stand out.
GUILD_RGB: dict[str, Colour] = {
    "red": rgb("#a5443f"),
    "blue": rgb("#3c66ad"),
    "green": rgb("#3d8a50"),
    "yellow": rgb("#b99a2c"),
    "purple": rgb("#7d51a3"),
    "orange": rgb("#c56d2a"),
    "brown": rgb("#7b5636"),
    "grey": rgb("#6e7681"),
}
assert set(GUILD_RGB) == set(GUILD_PALETTE)

#: Colours for players who have none (the rulebook names none): the board still tells them apart.
SPARE_PLAYER_COLOURS = ("white", "black", "orange", "purple")


def guild_colours(guilds: Sequence[str], setting: str) -> dict[str, Colour]:
    """Each of the game's guilds (in setup order) with the colour the setting gives its place."""
    names = split_words(setting)
    return {guild: GUILD_RGB.get(names[index] if index < len(names) else "", GUILD_RGB["grey"])
            for index, guild in enumerate(guilds)}


def player_fills(players: Sequence[str], colours: Mapping[str, str | None]) -> dict[str, Colour]:
    """Each player's piece colour; a player without one gets a spare colour nobody at the table has."""
    taken = {c for c in colours.values() if c}
    spare = [c for c in SPARE_PLAYER_COLOURS if c not in taken]
    fills: dict[str, Colour] = {}
    for player in players:
        name = colours.get(player) or (spare.pop(0) if spare else None)
        fills[player] = piece_colour(name)
    return fills


class SegmentPicture(Flashes, ButtonBehavior, Widget):
    """A segment drawn as on the map (three rhombi): a palette key or an orientation to choose."""

    live = BooleanProperty(True)
    flashing = BooleanProperty(False)
    accent = BooleanProperty(False)
    #: The six edges' guilds, clockwise from edge 0, and each guild's colour.
    edges = ListProperty([])
    colours = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw, edges=self._draw, colours=self._draw, live=self._draw)

    def _draw(self, *_args: Any) -> None:
        self.canvas.after.clear()
        if len(self.edges) != 6 or not self.colours:
            return
        from kivy.graphics import Color, Line, Mesh

        palette = dict(self.colours)
        size = min(self.width / 1.9, self.height / 2.2)
        view = View(size, (self.center_x, self.center_y))
        with self.canvas.after:
            for guild, edge in first_edges(self.edges).items():
                colour = palette.get(guild, (0.4, 0.4, 0.4, 1))
                Color(colour[0], colour[1], colour[2], 1.0 if self.live else 0.35)
                corners = view.rhombus((0, 0), edge)
                Mesh(vertices=[c for x, y in corners for c in (x, y, 0, 0)], indices=[0, 1, 2, 3],
                     mode="triangle_fan")
            Color(0, 0, 0, 0.6)
            Line(points=[c for point in view.hexagon((0, 0)) for c in point], close=True, width=1.2)


class PlayerCell(BoxLayout):
    """A player: initials on their colour, towers (large), tokens in hand and segments left."""

    def __init__(self, short: str, fill: Colour, **kwargs: Any) -> None:
        super().__init__(orientation="horizontal", spacing=6, **kwargs)
        self.badge = PieceBadge(text=short, fill=list(fill), ink=list(text_on(fill)),
                                pos_hint={"center_y": 0.5})
        self.towers = Label(font_size=FONT_LARGE, bold=True, color=TEXT, size_hint_x=None, width=46)
        self.detail = Label(font_size=FONT_SMALL - 3, color=TEXT_QUIET, halign="left", valign="middle",
                            line_height=0.95)
        self.detail.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.add_widget(self.badge)
        self.add_widget(self.towers)
        self.add_widget(self.detail)

    def show(self, towers: int, detail: str, acting: bool) -> None:
        self.towers.text = str(towers)
        self.detail.text = detail
        self.badge.acting = acting


class Banner(Label):
    """What now, in words: the must-build warning in the accent colour, else the turn's steps."""

    urgent = BooleanProperty(False)
    band = ListProperty([0, 0, 0, 0])


class GuildKey(Label):
    """One guild of the legend: its colour and its name (never the colour alone)."""

    swatch = ListProperty([0, 0, 0, 1])


class MapControls(BoxLayout):
    """The column of zoom and pan buttons beside the map (gestures do the same)."""
