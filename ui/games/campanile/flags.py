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
``on_confirmed``. Its layout is the rules in ``campanile.kv``; a row per flag
is made once, and entering a value changes a field's text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.games.base import RecordError
from companion.games.campanile import tables
from companion.i18n import current_language
from companion.i18n import text as say
from companion.service.app import Companion
from companion.service.campanile import CampanileService
from ui.games.campanile.widgets import TapButton

#: Values per flag the form offers (the rulebook's cards carry one to three; a FlagFieldRow's fields).
FIELDS_PER_FLAG = 3
#: The numbers on the pad: the flag values printed on the rulebook's cards.
PAD = (1, 2, 3, 4, 5, 6)
PHASES = ("intermezzo", "finito")
_PATH = re.compile(r"^(intermezzo|finito)(?:\[(\d+)\])?")


def needs_flag_table(app: Companion, game: str, players: Sequence[str]) -> bool:
    """Whether a game of ``game`` for ``players`` must wait for the 2-player flag table."""
    return game == "campanile" and len(players) == 2 and CampanileService.of(app).flag_table() is None


def setup_form(app: Companion, game: str, players: Sequence[str],
               on_confirmed: Callable[[dict[str, Any]], None],
               on_back: Callable[[], None]) -> FlagTableForm | None:
    """The new-game screen's hook (:func:`ui.games.setup_form`): the flag form when the table needs it."""
    return FlagTableForm(app, on_confirmed, on_back) if needs_flag_table(app, game, players) else None


class FlagField(TapButton):
    """One value of one flag: tapped to select it (then the pad fills it); its text is the value."""

    #: (phase, flag index, field index).
    key = ObjectProperty(None, allownone=True)


class FlagFieldRow(BoxLayout):
    """A flag's number, its fields and the 3–5 player values as a reminder (its rule: ``campanile.kv``)."""

    number = StringProperty("")
    reminder = StringProperty("")
    language = StringProperty("")


class FlagTableForm(BoxLayout):
    """Every 2-player flag's values, entered from the cards; "Confirm" keeps them for every 2-player game.

    The layout is the rule in ``campanile.kv``; a row per flag is made once, with its fields.
    """

    language = StringProperty("")
    #: What the service said of the last table confirmed (a refusal names the flag), or "".
    problem_text = StringProperty("")

    def __init__(self, app: Companion, on_confirmed: Callable[[dict[str, Any]], None],
                 on_back: Callable[[], None] | None = None, **kwargs: object) -> None:
        super().__init__(language=current_language(), **kwargs)
        self.app = app
        self.on_confirmed = on_confirmed
        self.on_back = on_back
        stored = CampanileService.of(app).flag_table() or {}
        ids = self.ids
        #: (phase, flag index, field index) -> its button; the value is the button's text ("" = empty).
        self.fields: dict[tuple[str, int, int], TapButton] = {}
        self.selected: tuple[str, int, int] = ("intermezzo", 0, 0)
        reminders = {"intermezzo": tables.INTERMEZZO_FLAGS, "finito": tables.FINITO_FLAGS}
        for phase in PHASES:
            values = stored.get(phase, [])
            for index, reminder in enumerate(reminders[phase]):
                ids[phase].ids.flags.add_widget(self._flag_row(phase, index, reminder,
                                                               values[index] if index < len(values) else []))
        self.problem: Label = ids.problem.__self__
        self.pad: dict[int | None, TapButton] = {number: ids[f"key{number}" if number else "clear"].__self__
                                                 for number in (*PAD, None)}
        self.confirm: TapButton = ids.confirm.__self__
        if on_back is None:  # nowhere to go back to: no button for it
            ids.pad.remove_widget(ids.back)
        else:  # leave without keeping anything
            self.back: TapButton = ids.back.__self__
        self._show_selection()

    def _flag_row(self, phase: str, index: int, reminder: Sequence[int], values: Sequence[int]) -> BoxLayout:
        row = FlagFieldRow(number=f"#{index + 1}", language=self.language,
                           reminder="/".join(map(str, reminder)))
        for field in range(FIELDS_PER_FLAG):
            button = row.ids[f"field{field}"]
            button.key = (phase, index, field)
            button.text = str(values[field]) if field < len(values) else ""
            button.bind(on_release=lambda w: self.select(w.key))
            self.fields[(phase, index, field)] = button.__self__
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

    def submit(self, widget: Widget) -> bool:
        """Confirm: the service checks and keeps the table; a refusal names the flag and keeps nothing."""
        try:
            confirmed = CampanileService.of(self.app).confirm_flag_table(self.table())
        except RecordError as refusal:
            widget.flash()
            self.problem_text = self._problem(refusal)
            return False
        self.problem_text = ""
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
