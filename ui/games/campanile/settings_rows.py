"""The 2-player flag table's rows on the settings screen: the values typed, confirmed, forgotten.

The settings screen names no game: it asks every game's touchscreen part for
its own rows (:attr:`ui.games.part.UiPart.settings_rows`), adds them once
below the simple settings and calls :meth:`FlagTableRows.refresh` on every
redraw. These rows are Campanile's: the table the form in
:mod:`ui.games.campanile.flags` asks for before the first 2-player game,
here typed as text ("3 1, 2, 1") for correcting it later, or forgotten
(a long press). The service checks the table; a refusal goes to the shell's
banner and changes nothing. Their layout is the rule in ``campanile.kv``.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.i18n import text
from companion.service.campanile import CampanileService
from ui.games.campanile import widgets  # noqa: F401  (loads campanile.kv, where the rows' rules are)

#: The two parts of the table, in the order the rows show them.
PARTS = ("intermezzo", "finito")


def flags_text(flags: list[list[int]]) -> str:
    """A flag table row as typed: flags by commas, values by spaces ("3 1, 2, 1")."""
    return ", ".join(" ".join(str(v) for v in flag) for flag in flags)


def read_flags(typed: str) -> list[list[int]] | str:
    """What :func:`flags_text` writes, read back; a string is the value that is not a number."""
    flags: list[list[int]] = []
    for part in typed.split(","):
        values = []
        for word in part.split():
            if not word.lstrip("-").isdigit():
                return word
            values.append(int(word))
        flags.append(values)
    return flags


class FlagsRow(BoxLayout):
    """One part of the 2-player flag table ("intermezzo", "finito"), typed as :func:`flags_text` writes it."""

    language = StringProperty("")
    part = StringProperty("")
    field = ObjectProperty(None, allownone=True)


class FlagTableRows(BoxLayout):
    """The heading, the two typed parts and Confirm / Hold to forget, for the settings ``screen``."""

    screen = ObjectProperty(None, allownone=True)
    #: The settings screen's language (bound by the screen: the rule's words follow it).
    language = StringProperty("")
    #: Whether the players confirmed a table (then it can be forgotten).
    confirmed = BooleanProperty(False)

    @property
    def fields(self) -> dict[str, Any]:
        """The typed fields by key, for the settings screen's ``fields``."""
        return {f"flags.{part}": self.ids[part].field for part in PARTS}

    def refresh(self) -> None:
        """The stored table into the fields (empty while none is confirmed)."""
        stored = CampanileService.of(self.screen.shell.table.app).flag_table()
        self.confirmed = stored is not None
        for part in PARTS:
            self.ids[part].field.text = flags_text(stored[part]) if stored else ""

    def confirm(self) -> None:
        """Keep the typed table; a value that is not a number, or the service's refusal, in the banner."""
        shell = self.screen.shell
        table: dict[str, Any] = {}
        for part in PARTS:
            read = read_flags(self.ids[part].field.text)
            if isinstance(read, str):
                shell.refuse(text("ui.settings.flags_not_number", part=part, value=read))
                return
            table[part] = read
        if shell.attempt(CampanileService.of(shell.table.app).confirm_flag_table, table) is not None:
            self.screen.redraw()

    def forget(self) -> None:
        shell = self.screen.shell
        shell.attempt(CampanileService.of(shell.table.app).forget_flag_table)
        self.screen.redraw()


def settings_rows(screen: Any) -> FlagTableRows:
    """The settings screen's hook (:attr:`ui.games.part.UiPart.settings_rows`)."""
    return FlagTableRows(screen=screen, language=screen.language)
