"""The 2-player flag table, confirmed once on the touchscreen before the first 2-player game.

The rulebook does not print the values of the 2-player flag cards, so the
companion must not invent them (docs/rules.md): the players copy
them from their cards. Every field starts empty, so nothing invented can be
confirmed by one tap; the 3–5 player values are shown beside each flag as a
reminder of the layout. A value is entered in two taps (the field, then the
number), with no keyboard. The service checks the table
(:meth:`~companion.service.app.Companion.confirm_flag_table`); a refusal names the
flag and changes nothing.

The shell shows :class:`FlagTableForm` when :func:`needs_flag_table` says a
2-player Campanile game cannot start yet, and starts the game from
``on_confirmed``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.games.base import RecordError
from companion.games.campanile import tables
from companion.i18n import text as say
from companion.service.app import Companion
from ui.games.campanile.widgets import TapButton
from ui.theme import FONT_SMALL, REFUSED, SPACING, TEXT, TEXT_QUIET, TOUCH

#: Values per flag the form offers (the rulebook's cards carry one to three).
FIELDS_PER_FLAG = 3
#: The numbers on the pad: the flag values printed on the rulebook's cards.
PAD = (1, 2, 3, 4, 5, 6)
PHASES = ("intermezzo", "finito")
_PATH = re.compile(r"^(intermezzo|finito)(?:\[(\d+)\])?")


def needs_flag_table(app: Companion, game: str, players: Sequence[str]) -> bool:
    """Whether a game of ``game`` for ``players`` must wait for the 2-player flag table."""
    return game == "campanile" and len(players) == 2 and app.flag_table() is None


def setup_form(app: Companion, game: str, players: Sequence[str],
               on_confirmed: Callable[[dict[str, Any]], None],
               on_back: Callable[[], None]) -> FlagTableForm | None:
    """The new-game screen's hook (:func:`ui.games.setup_form`): the flag form when the table needs it."""
    return FlagTableForm(app, on_confirmed, on_back) if needs_flag_table(app, game, players) else None


class FlagTableForm(BoxLayout):
    """Every 2-player flag's values, entered from the cards; "Confirm" keeps them for every 2-player game."""

    def __init__(self, app: Companion, on_confirmed: Callable[[dict[str, Any]], None],
                 on_back: Callable[[], None] | None = None, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=SPACING, padding=SPACING, **kwargs)
        self.app = app
        self.on_confirmed = on_confirmed
        stored = app.flag_table() or {}
        #: (phase, flag index, field index) -> its button; the value is the button's text ("" = empty).
        self.fields: dict[tuple[str, int, int], TapButton] = {}
        self.selected: tuple[str, int, int] = ("intermezzo", 0, 0)

        self.add_widget(Label(text=say("ui.campanile.flags.title"), font_size=FONT_SMALL, color=TEXT,
                              size_hint_y=None, height=52, halign="left", valign="middle",
                              text_size=(784, 52)))
        columns = BoxLayout(orientation="horizontal", spacing=3 * SPACING)
        reminders = {"intermezzo": tables.INTERMEZZO_FLAGS, "finito": tables.FINITO_FLAGS}
        for phase in PHASES:
            column = BoxLayout(orientation="vertical", spacing=4)
            column.add_widget(Label(text=say(f"ui.campanile.phase.{phase}"), font_size=FONT_SMALL, bold=True,
                                    color=TEXT, size_hint_y=None, height=28))
            values = stored.get(phase, [])
            for index, reminder in enumerate(reminders[phase]):
                column.add_widget(self._flag_row(phase, index, reminder,
                                                 values[index] if index < len(values) else []))
            column.add_widget(Widget())
            columns.add_widget(column)
        self.add_widget(columns)
        self.problem = Label(text="", font_size=FONT_SMALL, color=REFUSED, size_hint_y=None, height=28,
                             halign="left", valign="middle", text_size=(784, 28))
        self.add_widget(self.problem)
        pad = BoxLayout(orientation="horizontal", spacing=SPACING, size_hint_y=None, height=TOUCH + 4)
        self.pad: dict[int | None, TapButton] = {}
        for number in (*PAD, None):
            key = TapButton(text=str(number) if number else say("ui.campanile.flags.clear"),
                            font_size=FONT_SMALL + 4, size_hint_x=None, width=TOUCH + 8 if number else 110)
            key.bind(on_release=lambda _w, n=number: self.enter(n))
            self.pad[number] = key
            pad.add_widget(key)
        pad.add_widget(Widget())
        if on_back is not None:  # leave without keeping anything
            self.back = TapButton(text=say("ui.common.back"), size_hint_x=None, width=100)
            self.back.bind(on_release=lambda _w: on_back())
            pad.add_widget(self.back)
        self.confirm = TapButton(text=say("ui.campanile.flags.confirm"), accent=True, size_hint_x=None,
                                 width=150)
        self.confirm.bind(on_release=lambda w: self.submit(w))
        pad.add_widget(self.confirm)
        self.add_widget(pad)
        self._show_selection()

    def _flag_row(self, phase: str, index: int, reminder: Sequence[int], values: Sequence[int]) -> BoxLayout:
        row = BoxLayout(orientation="horizontal", spacing=SPACING, size_hint_y=None, height=TOUCH)
        row.add_widget(Label(text=f"#{index + 1}", font_size=FONT_SMALL, color=TEXT_QUIET,
                             size_hint_x=None, width=36))
        for field in range(FIELDS_PER_FLAG):
            button = TapButton(text=str(values[field]) if field < len(values) else "",
                               font_size=FONT_SMALL + 4, bold=True, size_hint_x=None, width=TOUCH)
            button.bind(on_release=lambda _w, key=(phase, index, field): self.select(key))
            self.fields[(phase, index, field)] = button
            row.add_widget(button)
        row.add_widget(Label(text=say("ui.campanile.flags.reminder", flag="/".join(map(str, reminder))),
                             font_size=FONT_SMALL, color=TEXT_QUIET, halign="left", valign="middle",
                             text_size=(170, TOUCH)))
        return row

    # -- entering --------------------------------------------------------------------------
    def select(self, key: tuple[str, int, int]) -> None:
        self.selected = key
        self._show_selection()

    def enter(self, number: int | None) -> None:
        """The pad: the selected field takes ``number`` (or is cleared), then the next field is selected."""
        self.fields[self.selected].text = str(number) if number else ""
        keys = list(self.fields)
        if number:
            self.selected = keys[(keys.index(self.selected) + 1) % len(keys)]
        self._show_selection()

    def _show_selection(self) -> None:
        for key, button in self.fields.items():
            button.accent = key == self.selected

    def table(self) -> dict[str, list[list[int]]]:
        """The values as entered, each flag's in field order (empty fields left out)."""
        found: dict[str, list[list[int]]] = {phase: [] for phase in PHASES}
        for (phase, index, _field), button in self.fields.items():
            while len(found[phase]) <= index:
                found[phase].append([])
            if button.text:
                found[phase][index].append(int(button.text))
        return found

    def submit(self, widget: Any) -> bool:
        """Confirm: the service checks and keeps the table; a refusal names the flag and keeps nothing."""
        try:
            confirmed = self.app.confirm_flag_table(self.table())
        except RecordError as refusal:
            widget.flash()
            self.problem.text = self._problem(refusal)
            return False
        self.problem.text = ""
        self.on_confirmed(confirmed)
        return True

    @staticmethod
    def _problem(refusal: RecordError) -> str:
        found = _PATH.match(refusal.path)
        if found is None:
            return refusal.text
        phase = say(f"ui.campanile.phase.{found.group(1)}")
        if found.group(2) is None:
            return say("ui.campanile.flags.problem.phase", phase=phase, problem=refusal.text)
        return say("ui.campanile.flags.problem", phase=phase, rank=int(found.group(2)) + 1,
                   problem=refusal.text)
