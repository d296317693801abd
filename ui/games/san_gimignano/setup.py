"""A new San Gimignano game's setup on the touchscreen: the rule set, the variant, the segments laid out
before play, and the segments each player holds (or the shared pool).

Everything starts at the usual game (the rulebook, groups of four, one segment
per player laid out, the rulebook's hands), so *Start* is one tap. Each
player's colour (the rulebook names none) starts at their preferred one and
steps with a tap; it is kept as their preference, so the bar's badge and the
board's tokens agree. The
segments laid out are drawn as on the map; to match the table, tap one, then
its type in the palette, then *Turn* until it lies as on the table. The guild
names are the ``san_gimignano.guilds`` setting's. No rule is checked here: the
engine's ``start`` checks the options and setup before the form hands them on,
and its refusal (a guild meeting itself across an edge…) is shown under the
choices, naming the field; nothing is started or stored then.

:func:`setup_form` is the new-game screen's hook (``ui.games.GAME_SETUP_FORMS``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.games.descriptor import split_words
from companion.games.san_gimignano import geometry, tables
from companion.games.san_gimignano.descriptor import GUILD_COLOURS, GUILDS
from companion.games.san_gimignano.layout import default_layout, laid_count, segment_types
from companion.i18n import current_language
from companion.i18n import text as words
from companion.service.app import Companion
from ui.games import StartDetails
from ui.games.campanile.widgets import TapButton
from ui.games.san_gimignano.board import guild_name, type_of
from ui.games.san_gimignano.map import HexMap, Scene
from ui.games.san_gimignano.widgets import SegmentPicture, guild_colours
from ui.players import initials
from ui.theme import FONT_SMALL, piece_colour

Position = tuple[int, int]
Edges = tuple[str, ...]

#: The colours a player's pieces may be given here (the rulebook names none): kept as the player's
#: preferred colour for San Gimignano, so the bar's badge and the board's tokens agree.
PLAYER_COLOURS = ("red", "blue", "yellow", "green", "white", "black")


def setup_form(app: Companion, game: str, players: Sequence[str],
               on_confirmed: Callable[[Any], None], on_back: Callable[[], None]) -> SanGimignanoSetup | None:
    """The new-game screen's hook: San Gimignano always asks (its setup has no defaults for the layout)."""
    if game != "san-gimignano" or not players:
        return None
    return SanGimignanoSetup(app, list(players), on_confirmed, on_back)


class SanGimignanoSetup(BoxLayout):
    """The form; see the module's docstring.

    Layout: ``san_gimignano.kv``. The widgets are made once (a key per segment
    kind, a colour button per player); every choice sets the form's properties
    and :meth:`refresh` the keys', the buttons' and the map's.
    """

    #: The language the words of the rule are in (``say`` in the rule depends on it).
    language = StringProperty("")
    rules = StringProperty(tables.RULEBOOK)
    variant = StringProperty(tables.FOUR)
    #: The laid-out segment being changed (tapped on the map), if any.
    selected = ObjectProperty(None, allownone=True)
    #: The segments in each hand or in the pool, the guilds, and the engine's refusal, in words.
    count_text = StringProperty("")
    guild_text = StringProperty("")
    problem_text = StringProperty("")

    def __init__(self, app: Companion, players: list[str], on_confirmed: Callable[[Any], None],
                 on_back: Callable[[], None], **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.app = app
        self.players = players
        self.on_confirmed = on_confirmed
        self.go_back = on_back
        settings = app.settings()
        self.guilds = tuple(split_words(settings[GUILDS]))
        self.colours = guild_colours(self.guilds, settings[GUILD_COLOURS])
        self.count = tables.default_hand(len(players)) if len(players) in tables.RULEBOOK_SETUP else 3
        self.layout = default_layout(self.guilds, self._laid_count())
        self.colours_chosen = self._first_colours()
        self.tags = initials(players)

        ids = self.ids
        self.map: HexMap = ids.hexmap
        self.turn_button, self.less, self.more = ids.turn_button, ids.less, ids.more
        self.start, self.back, self.problem = ids.start, ids.back, ids.problem
        self.rule_buttons = {tables.RULEBOOK: ids.rulebook, tables.CLARIFIED: ids.clarified}
        self.variant_buttons = {tables.FOUR: ids.four, tables.STRING: ids.string}
        pairs = [[guild, list(colour)] for guild, colour in self.colours.items()]
        self.palette: dict[tuple[str, str, str], SegmentPicture] = {}
        for kind in segment_types(self.guilds):
            key = SegmentPicture(edges=list(geometry.rotations(kind)[0]), colours=pairs)
            key.bind(on_release=lambda w, k=kind: self.choose_type(k, w))
            self.palette[kind] = key
            ids.palette.add_widget(key, index=1)  # before Turn, the rule's last key
        self.colour_buttons: dict[str, TapButton] = {}
        for player in players:
            button = TapButton(font_size=FONT_SMALL - 4)
            button.bind(on_release=lambda _w, p=player: self.next_colour(p))
            self.colour_buttons[player] = button
            ids.people.add_widget(button)
        self.refresh()

    def _laid_count(self) -> int:
        return laid_count(self.rules, len(self.players))

    def _first_colours(self) -> dict[str, str]:
        """Each player's preferred colour when it is free, else the first colour nobody has."""
        chosen: dict[str, str] = {}
        for player in self.players:
            wish = self.app.preferred_colour(player, "san-gimignano")
            if wish in PLAYER_COLOURS and wish not in chosen.values():
                chosen[player] = wish
        for player in self.players:
            if player not in chosen:
                chosen[player] = next(c for c in PLAYER_COLOURS if c not in chosen.values())
        return chosen

    # -- showing -------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Show the choices: the form's words, the keys' and colour buttons' looks, the map (all kept)."""
        self.language = current_language()
        for player, button in self.colour_buttons.items():
            colour = self.colours_chosen[player]
            button.text = f"{self.tags[player]}: {words(f'ui.colour.{colour}')}"
            button.band = list(piece_colour(colour))
        code = ("ui.san_gimignano.setup.hands" if self.rules == tables.RULEBOOK
                else "ui.san_gimignano.setup.pool")
        self.count_text = words(code, count=self.count)
        self.guild_text = words("ui.san_gimignano.setup.guilds",
                                guilds=[guild_name(guild) for guild in self.guilds])
        selected = self.layout.get(self.selected) if self.selected is not None else None
        chosen = type_of(selected, self.guilds) if selected is not None else None
        for kind, key in self.palette.items():
            key.accent = kind == chosen
            key.live = self.selected is not None
        # the letters the game will name the laid segments by (A for the first)
        self.map.show(Scene(segments=self.layout, guild_colours=self.colours,
                            letters=geometry.labels(self.layout),
                            guild_tags={g: str(i + 1) for i, g in enumerate(self.guilds)},
                            group_spaces=frozenset((self.selected[0], self.selected[1], g)
                                                   for g in set(selected))
                            if selected is not None and self.selected is not None else frozenset()))

    # -- choosing ------------------------------------------------------------------------------
    def set_rules(self, rules: str) -> None:
        if rules != self.rules:
            self.rules = rules
            self.count = (tables.CLARIFIED_POOL if rules == tables.CLARIFIED
                          else tables.default_hand(len(self.players))
                          if len(self.players) in tables.RULEBOOK_SETUP else 3)
            self.layout = default_layout(self.guilds, self._laid_count())
            self.selected = None
        self.refresh()

    def next_colour(self, player: str) -> None:
        """The player's next colour that nobody else at the table has."""
        taken = {c for p, c in self.colours_chosen.items() if p != player}
        free = [c for c in PLAYER_COLOURS if c not in taken]
        current = self.colours_chosen[player]
        at = free.index(current) + 1 if current in free else 0
        self.colours_chosen[player] = free[at % len(free)]
        self.refresh()

    def set_variant(self, variant: str) -> None:
        self.variant = variant
        self.refresh()

    def step(self, by: int) -> None:
        self.count = max(0, min(tables.SEGMENTS_IN_BOX, self.count + by))
        self.refresh()

    def select(self, at: Position) -> None:
        """A laid-out segment tapped: the palette and *Turn* now change it (tapped again: done)."""
        self.selected = None if at == self.selected else at
        self.refresh()

    def choose_type(self, kind: tuple[str, str, str], widget: Widget) -> None:
        """The selected segment becomes this type, in the first way it fits between the others."""
        if self.selected is None:
            widget.flash()
            return
        others = {at: edges for at, edges in self.layout.items() if at != self.selected}
        fitting = geometry.fitting(others, self.selected, geometry.rotations(kind))
        self.layout[self.selected] = fitting[0] if fitting else geometry.rotations(kind)[0]
        self.refresh()

    def turn(self, widget: Widget) -> None:
        """The selected segment turned clockwise by one edge."""
        if self.selected is None:
            widget.flash()
            return
        first, second, third, fourth, fifth, sixth = self.layout[self.selected]
        self.layout[self.selected] = (sixth, first, second, third, fourth, fifth)
        self.refresh()

    # -- starting --------------------------------------------------------------------------------
    def details(self) -> StartDetails:
        """The record's options and setup as chosen (the engine checks them when the game starts)."""
        setup: dict[str, Any] = {
            "guilds": list(self.guilds),
            "segments": [{"at": list(at), "edges": list(edges)} for at, edges in self.layout.items()],
        }
        if self.rules == tables.RULEBOOK:
            setup["hands"] = dict.fromkeys(self.players, self.count)
        else:
            setup["pool"] = self.count
        return StartDetails(options={"rules": self.rules, "variant": self.variant}, setup=setup)

    def submit(self, widget: Widget) -> bool:
        """Start: the new-game screen starts the game with these details (a refusal is shown there)."""
        from companion.games.base import RecordError
        from companion.registry import get_game

        details = self.details()
        try:
            get_game("san-gimignano").start(self.players, details.options, details.setup)
        except RecordError as refusal:
            widget.flash()
            self.problem_text = str(refusal)
            return False
        from companion.service.app import AppError

        try:
            for player, colour in self.colours_chosen.items():
                self.app.set_preferred_colour(player, "san-gimignano", colour)
        except AppError as refusal:
            widget.flash()
            self.problem_text = str(refusal)
            return False
        self.problem_text = ""
        self.on_confirmed(details)
        return True
