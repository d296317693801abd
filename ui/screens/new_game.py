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

from companion.games.registry import descriptor, game_names, get_game
from companion.i18n import text
from companion.service.names import initials, same_name
from ui import games, theme
from ui.screens import ShellScreen, column, filler, row, scrolling_list
from ui.widgets import Field, Tap, Words, badge


class NewGameScreen(ShellScreen):
    """Choose the game, the players in their seats and their colours, then start."""

    def __init__(self, shell: Any, **kwargs: Any) -> None:
        super().__init__(shell, **kwargs)
        self.game = next(iter(game_names()))
        self.seated: list[str] = []
        self.colours: dict[str, str] = {}
        #: What the game's own choice (:func:`ui.games.new_game_choice`) has chosen, and the setup it gives.
        self.choice: Any = None
        self.choice_setup: dict[str, Any] = {}
        #: The game's setup form while it is shown (see :meth:`start`), else ``None``.
        self.form: Any = None

    def redraw(self) -> None:
        self.clear_widgets()
        if self.form is not None:
            self._show_form()
            return
        body = column()
        top = self.home_row()
        for name in game_names():
            choice = Tap(text=get_game(name).title, accent=name == self.game)
            choice.bind(on_release=lambda _b, game=name: self.choose_game(game))
            top.add_widget(choice)
        body.add_widget(top)

        middle = row(size_hint_y=1, height=0)
        profiles = column(padding=0)
        profiles.add_widget(Words(text=text("ui.new.profiles")))
        view, grid = scrolling_list(columns=2)
        for profile in self.shell.table.app.profiles():
            pick = Tap(text=profile.name, accent=profile.name in self.seated, size_hint_y=None,
                       height=theme.TOUCH)
            pick.bind(on_release=lambda _b, name=profile.name: self.toggle(name))
            grid.add_widget(pick)
        profiles.add_widget(view)
        adding = row()
        self.name_field = Field(hint_text=text("ui.new.name_hint"))
        self.name_field.bind(on_text_validate=lambda *_: self.add_player())
        adding.add_widget(self.name_field)
        add = Tap(text=text("ui.new.add"), size_hint_x=None, width=theme.TOUCH * 2.5)
        add.bind(on_release=lambda *_: self.add_player())
        adding.add_widget(add)
        profiles.add_widget(adding)
        middle.add_widget(profiles)

        seats = column(padding=0)
        seats.add_widget(Words(text=text("ui.new.seating", count=len(self.seated))))
        tags = initials(self.seated)
        shown = self.shown_colours()
        allowed = descriptor(self.game).piece_colours
        for seat, name in enumerate(self.seated):
            line = row()
            line.add_widget(badge(tags[name], shown[name]))
            line.add_widget(Words(text=text("ui.new.seat", seat=seat + 1, player=name)))
            if allowed:
                colour = self.colours.get(name)
                step = Tap(text=text(f"ui.colour.{colour}") if colour else text("ui.new.colour"),
                           size_hint_x=None, width=theme.TOUCH * 2.5)
                step.bind(on_release=lambda _b, player=name: self.next_colour(player))
                line.add_widget(step)
            up = Tap(text=text("ui.new.up"), size_hint_x=None, width=theme.TOUCH * 1.5, disabled=seat == 0)
            up.bind(on_release=lambda _b, at=seat: self.move_up(at))
            line.add_widget(up)
            seats.add_widget(line)
        offered = games.new_game_choice(self.shell.table.app, self.game, self.choice, self.make_choice)
        self.choice_setup = {} if offered is None else offered[1]
        if offered is not None:
            seats.add_widget(offered[0])
        seats.add_widget(filler())
        engine = get_game(self.game)
        start = Tap(text=text("ui.new.start", game=engine.title), accent=True,
                    disabled=not engine.min_players <= len(self.seated) <= engine.max_players,
                    size_hint_y=None, height=theme.TOUCH)
        start.bind(on_release=lambda *_: self.start())
        seats.add_widget(start)
        seats.add_widget(Words(text=text("ui.new.players_range", low=engine.min_players,
                                         high=engine.max_players)))
        middle.add_widget(seats)
        body.add_widget(middle)
        self.add_widget(body)

    def _show_form(self) -> None:
        """The game's setup form (its "back" returns to the choices; nothing is kept until confirmed)."""
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

    def make_choice(self, value: Any) -> None:
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
        self.shell.attempt(self.shell.table.start, self.game, list(self.seated), **details)
