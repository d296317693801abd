"""A new game: the game, the players (saved profiles or new names) in seating order, their colours.

Everything is taps: a profile tapped joins the table at the next seat (tapped
again, it leaves); "up" moves a player one seat earlier; a colour button
steps through the game's piece colours. The service checks the whole choice
when the game starts and its refusal is shown, naming what to fix. A game
that needs a form filled in first (a flag table, the first time) shows it
here in place of the choices; once it is confirmed the game starts. Every
game comes from the registry's descriptors; what one game adds (a board to
choose) is its :class:`~ui.games.part.UiPart`'s.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.i18n import text
from companion.registry import descriptor, game_names, get_game
from companion.service.examples import new_game_example
from companion.service.names import initials, same_name
from ui import games, theme
from ui.screens import ShellScreen, load_rules, show
from ui.shell_interface import ShellInterface
from ui.widgets import Tap


class GameChoice(Tap):
    """A game to play, one per registered game (layout: ``new_game.kv``)."""

    screen = ObjectProperty(None, allownone=True)
    game = StringProperty("")
    chosen = BooleanProperty(False)


class ProfilePick(Tap):
    """A saved profile: tapped, it joins the table at the next seat; again, it leaves."""

    screen = ObjectProperty(None, allownone=True)
    player = StringProperty("")
    seated = BooleanProperty(False)


class SeatRow(BoxLayout):
    """A seated player: badge, seat, colour and "up" (layout: ``new_game.kv``)."""

    screen = ObjectProperty(None, allownone=True)
    seat = NumericProperty(0)
    player = StringProperty("")
    initials = StringProperty("")
    swatch = ColorProperty(theme.NO_COLOUR)
    words = StringProperty("")
    colour_text = StringProperty("")
    up_text = StringProperty("")
    #: Whether the game's pieces have colours to step through (else the colour button is not there).
    colours = BooleanProperty(True)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.colour = self.ids.colour.__self__  # held: the rule's ids are weak, and it goes out now and then

    def on_colours(self, _row: object, colours: bool) -> None:
        show(self.colour, colours)


def kept_as_many(box: Any, kept: list[Any], count: int, make: Any) -> list[Any]:
    """``count`` widgets in ``box``, reusing those ``kept``: only the difference is made or taken out."""
    while len(kept) < count:
        kept.append(make())
        box.add_widget(kept[-1])
    while len(kept) > count:
        box.remove_widget(kept.pop())
    return kept


class NewGameScreen(ShellScreen):
    """Choose the game, the players in their seats and their colours, then start. Layout: ``new_game.kv``.

    The buttons and rows are kept and their properties set: a seat taken or left adds or takes out
    only that row, and a tap changes words and accents. The game's own choice (a board) is the game's
    widget, asked for again only when the game or the choice changes.
    """

    #: "Seating (n)", the start button's words and whether it may be tapped, the players allowed.
    seating = StringProperty("")
    start_text = StringProperty("")
    can_start = BooleanProperty(False)
    players_range = StringProperty("")
    #: The game would start on an example board: said before it starts, with how to enter the table's own.
    example_words = StringProperty("")

    def __init__(self, shell: ShellInterface, **kwargs: object) -> None:
        super().__init__(shell, **kwargs)
        self.game = next(iter(game_names()))
        self.seated: list[str] = []
        self.colours: dict[str, str] = {}
        #: What the game's own choice (:func:`ui.games.new_game_choice`) has chosen, and the setup it gives.
        self.choice: Any = None
        self.choice_setup: dict[str, Any] = {}
        #: The game's setup form while it is shown (see :meth:`start`), else ``None``.
        self.form: Any = None
        # held: the rule's ids are weak references, and these are taken out now and then
        self.parts: dict[str, Any] = {name: proxy.__self__ for name, proxy in self.ids.items()}
        self.name_field = self.parts["name_field"]
        self.game_choices: list[GameChoice] = []
        self.profile_picks: list[ProfilePick] = []
        self.seat_rows: list[SeatRow] = []
        #: The game's own choice widget now shown, and what it was asked for with (game, choice).
        self.offered: Any = None
        self.offered_for: tuple[str, Any] | None = None

    def on_pre_enter(self, *args: object) -> None:
        self.name_field.text = ""
        self.offered_for = None  # the boards may have changed meanwhile (the board editor)
        super().on_pre_enter(*args)

    def refresh(self) -> None:
        self._show_form()
        if self.form is not None:
            return
        self._games()
        self._profiles()
        self._seats()
        self._offered()
        engine = get_game(self.game)
        self.start_text = text("ui.new.start", game=engine.title)
        self.can_start = engine.min_players <= len(self.seated) <= engine.max_players
        self.players_range = text("ui.new.players_range", low=engine.min_players, high=engine.max_players)
        self._example()

    def _example(self) -> None:
        """The line saying the game would start on an example board (the table's own: none)."""
        example = new_game_example(self.shell.table.app, self.game, list(self.seated), {}, self.choice_setup)
        said = None if example is None else example.said.get("touchscreen.new")
        self.example_words = "" if said is None else str(said)
        show(self.parts["example_words"], said is not None)

    def _games(self) -> None:
        names = list(game_names())
        kept_as_many(self.parts["top"], self.game_choices, len(names), lambda: GameChoice(screen=self))
        for choice, name in zip(self.game_choices, names, strict=True):
            choice.game, choice.text, choice.chosen = name, get_game(name).title, name == self.game

    def _profiles(self) -> None:
        names = [profile.name for profile in self.shell.table.app.profiles()]
        kept_as_many(self.parts["profiles"], self.profile_picks, len(names), lambda: ProfilePick(screen=self))
        for pick, name in zip(self.profile_picks, names, strict=True):
            pick.player, pick.text, pick.seated = name, name, name in self.seated

    def _seats(self) -> None:
        self.seating = text("ui.new.seating", count=len(self.seated))
        kept_as_many(self.parts["seat_rows"], self.seat_rows, len(self.seated), lambda: SeatRow(screen=self))
        show(self.parts["seat_rows"], bool(self.seated))
        tags = initials(self.seated)
        shown = self.shown_colours()
        allowed = bool(descriptor(self.game).piece_colours)
        for seat, (line, name) in enumerate(zip(self.seat_rows, self.seated, strict=True)):
            colour = self.colours.get(name)
            line.seat, line.player, line.initials = seat, name, tags[name]
            line.swatch = theme.piece_colour(shown[name])
            line.words = text("ui.new.seat", seat=seat + 1, player=name)
            line.colours = allowed
            line.colour_text = text(f"ui.colour.{colour}") if colour else text("ui.new.colour")
            line.up_text = text("ui.new.up")

    def _offered(self) -> None:
        """The game's own choice (a board) above the start button, asked for when the game or the choice
        changed (the game's part makes its widget)."""
        if self.offered_for == (self.game, self.choice):
            return
        self.offered_for = (self.game, self.choice)
        seats = self.parts["seats"]
        if self.offered is not None:
            seats.remove_widget(self.offered)
        offered = games.new_game_choice(self.shell.table.app, self.game, self.choice, self.make_choice)
        self.offered, self.choice_setup = (None, {}) if offered is None else offered
        if self.offered is not None:
            seats.add_widget(self.offered, index=seats.children.index(self.parts["filler"]) + 1)

    def _show_form(self) -> None:
        """The game's setup form in place of the choices (its "back" returns to them; nothing is kept
        until confirmed)."""
        for child in [c for c in self.children if c is not self.parts["body"]]:
            if child is not self.form:
                self.remove_widget(child)
        show(self.parts["body"], self.form is None)
        if self.form is not None and self.form.parent is not self:
            if self.form.parent is not None:
                self.form.parent.remove_widget(self.form)
            self.add_widget(self.form)

    def close_form(self) -> None:
        self.form = None
        self.redraw()

    def _form_confirmed(self, values: Any) -> None:
        self.form = None
        self.start(values)

    # -- the choices ---------------------------------------------------------------------
    def choose_game(self, game: str) -> None:
        self.game = game
        self.colours = {p: c for p, c in ((p, self.shell.table.app.preferred_colour(p, game))
                                          for p in self.seated) if c}
        self.redraw()

    def toggle(self, name: str) -> None:
        if name in self.seated:
            self.seated.remove(name)
            self.colours.pop(name, None)
        else:
            self.seated.append(name)
            preferred = self.shell.table.app.preferred_colour(name, self.game)
            if preferred and preferred not in self.colours.values():
                self.colours[name] = preferred
        self.redraw()

    def add_player(self) -> None:
        typed = self.name_field.text.strip()
        if not typed:
            self.shell.refuse(text("ui.new.name_empty"))
            return
        known = [p.name for p in self.shell.table.app.profiles() if same_name(p.name, typed)]
        name = known[0] if known else None
        if name is None:
            profile = self.shell.attempt(self.shell.table.app.add_profile, typed)
            if profile is None:
                return
            name = profile.name
        self.name_field.text = ""  # the name is a player now: the field is ready for the next one
        if name not in self.seated:
            self.toggle(name)
        else:
            self.redraw()

    def move_up(self, seat: int) -> None:
        if seat > 0:
            self.seated[seat - 1], self.seated[seat] = self.seated[seat], self.seated[seat - 1]
        self.redraw()

    def next_colour(self, player: str) -> None:
        """The next colour of the game's pieces that nobody else at the table has."""
        allowed = descriptor(self.game).piece_colours or ()
        taken = {c for p, c in self.colours.items() if p != player}
        free = [c for c in allowed if c not in taken]
        if not free:
            return
        current = self.colours.get(player)
        following = free[(free.index(current) + 1) % len(free)] if current in free else free[0]
        self.colours[player] = following
        self.redraw()

    def shown_colours(self) -> dict[str, str | None]:
        """Each seated player's colour as the game will show it: the one chosen here, else the profile's."""
        colours: dict[str, str | None] = self.shell.table.app.seat_colours(self.game, self.seated,
                                                                            {"colors": self.colours})
        return colours

    def make_choice(self, value: object) -> None:
        """The game's own choice changed (the next board)."""
        self.choice = value
        self.redraw()

    def start(self, confirmed: Any = None) -> None:
        """Keep each player's colour as shown as their preference, then start the game (refusals shown).

        Keeping every shown colour makes the game's badges and board show what this screen showed.
        ``confirmed`` is what the game's setup form confirmed (the form is not shown again); its
        :class:`~ui.games.StartDetails` go into the game.
        """
        app = self.shell.table.app
        form = (games.setup_form(app, self.game, list(self.seated), self._form_confirmed, self.close_form)
                if confirmed is None else None)
        if form is not None:
            self.form = form
            self.redraw()
            return
        shown = self.shown_colours()
        for player, colour in shown.items():
            if colour and not self.shell.succeeds(app.set_preferred_colour, player, self.game, colour):
                return
        details: dict[str, Any] = {}
        keeps_colours = descriptor(self.game).colours_in_setup
        if keeps_colours and all(shown.values()):
            details["colours"] = shown
        elif keeps_colours and self.colours:
            details["colours"] = {p: c for p, c in self.colours.items() if p in self.seated}
        if self.choice_setup:
            details["setup"] = dict(self.choice_setup)
        if isinstance(confirmed, games.StartDetails):
            details["options"] = dict(confirmed.options)
            details["setup"] = {**details.get("setup", {}), **confirmed.setup}
        if games.start_instead(self.shell, self.game, self.choice, list(self.seated), details):
            return  # the game's choice asked for more than one game (a championship): started by its part
        self.shell.attempt(self.shell.table.start, self.game, list(self.seated), **details)


load_rules(__file__)
