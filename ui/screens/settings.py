"""Settings, kept in the store: language (every screen redraws), the OLED's brightness and timeout,
the backlight's timeout, the table's name, backups kept, each game's BoardGameGeek id, the 2-player
Campanile flag table, the player profiles, and switching the appliance off (long presses).

Numbers change by steps with − and + (no keyboard needed); texts are typed
and kept with a tap. Each change is checked by the service; a refusal names
the setting and changes nothing.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.uix.scrollview import ScrollView

from companion.games.registry import GAMES, get_game
from companion.i18n import LANGUAGES, text
from companion.service.settings import (
    BACKUPS_KEPT,
    LANGUAGE,
    SAN_GIMIGNANO_GUILD_COLOURS,
    SAN_GIMIGNANO_GUILDS,
    SETTINGS,
    bgg_id_key,
    whole_number,
)
from companion.storage import stick
from companion.system import power
from ui import theme
from ui.screens import ShellScreen, column, row, scrolling_list
from ui.widgets import Field, LongTap, Tap, Words

#: The number settings changed with − and +: key -> (the step, the message code of its label).
#: Their limits and defaults are the settings table's (:mod:`companion.service.settings`).
STEPPED: dict[str, tuple[int, str]] = {
    "oled.brightness": (10, "ui.settings.oled_brightness"),
    "oled.timeout": (60, "ui.settings.oled_timeout"),
    "backlight.timeout": (60, "ui.settings.backlight_timeout"),
    BACKUPS_KEPT: (1, "ui.settings.backups_kept"),
}


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


#: The power actions, each a long press (pulling the plug must not be the only way): action -> label code.
POWER_HOLDS: dict[power.PowerAction, str] = {
    power.PowerAction.POWER_OFF: "ui.settings.power_off_hold",
    power.PowerAction.RESTART: "ui.settings.restart_hold",
    power.PowerAction.MAINTENANCE: "ui.settings.maintenance_hold",
}


class SettingsScreen(ShellScreen):
    """Every setting on one scrolling page."""

    #: What the last backup to the stick said (shown under its button until the screen is left).
    stick_said: str = ""

    def redraw(self) -> None:
        self.clear_widgets()
        app = self.shell.table.app
        values = app.settings()
        body = column()
        top = self.home_row(text("ui.settings.title"))
        editor = Tap(text=text("ui.editor.open"), size_hint_x=None, width=theme.TOUCH * 6)  # Castelli boards
        editor.bind(on_release=lambda *_: self.shell.go("editor"))
        top.add_widget(editor)
        body.add_widget(top)
        view, grid = scrolling_list()
        self.fields: dict[str, Field] = {}

        line = row()
        line.add_widget(Words(text=text("ui.settings.language")))
        for language in LANGUAGES:
            choice = Tap(text=text(f"ui.language.{language}"), accent=values[LANGUAGE] == language,
                         size_hint_x=None, width=theme.TOUCH * 3)
            choice.bind(on_release=lambda _b, chosen=language: self.shell.set_language(chosen))
            line.add_widget(choice)
        grid.add_widget(line)

        for key, (step, label) in STEPPED.items():
            line = row()
            line.add_widget(Words(text=text(label)))
            less = Tap(text="−", size_hint_x=None, width=theme.TOUCH)
            less.bind(on_release=lambda _b, k=key, s=step: self.step(k, -s))
            more = Tap(text="+", size_hint_x=None, width=theme.TOUCH)
            more.bind(on_release=lambda _b, k=key, s=step: self.step(k, s))
            line.add_widget(less)
            shown = Words(text=str(values[key]), size_hint_x=None, width=theme.TOUCH * 1.8, halign="center")
            line.add_widget(shown)
            line.add_widget(more)
            grid.add_widget(line)

        self._text_row(grid, "table.name", text("ui.settings.table_name"), str(values["table.name"]))
        for game in GAMES:
            key = bgg_id_key(game)
            self._text_row(grid, key, text("ui.settings.bgg_id", game=get_game(game).title), str(values[key]))
        self._text_row(grid, SAN_GIMIGNANO_GUILDS, text("ui.san_gimignano.settings.guilds"),
                       str(values[SAN_GIMIGNANO_GUILDS]))
        self._text_row(grid, SAN_GIMIGNANO_GUILD_COLOURS, text("ui.san_gimignano.settings.colours"),
                       str(values[SAN_GIMIGNANO_GUILD_COLOURS]))

        grid.add_widget(Words(text=text("ui.settings.flags"), bold=True, color=theme.ACCENT))
        confirmed = app.flag_table()
        grid.add_widget(Words(text=text("ui.settings.flags_help")))
        for part in ("intermezzo", "finito"):
            line = row()
            line.add_widget(Words(text=text(f"ui.settings.flags_{part}"), size_hint_x=None, width=150))
            field = Field(text=flags_text(confirmed[part]) if confirmed else "", hint_text="3 1, 2, 1")
            self.fields[f"flags.{part}"] = field
            line.add_widget(field)
            grid.add_widget(line)
        line = row()
        keep = Tap(text=text("ui.settings.flags_confirm"), accent=confirmed is None)
        keep.bind(on_release=lambda *_: self.confirm_flags())
        line.add_widget(keep)
        forget = LongTap(text=text("ui.settings.flags_forget_hold"), disabled=confirmed is None)
        forget.bind(on_long_press=lambda *_: self.forget_flags())
        line.add_widget(forget)
        grid.add_widget(line)

        grid.add_widget(Words(text=text("ui.settings.profiles"), bold=True, color=theme.ACCENT))
        for profile in app.profiles():
            line = row()
            line.add_widget(Words(text=profile.name))
            drop = LongTap(text=text("ui.settings.profile_remove_hold"), size_hint_x=None,
                           width=theme.TOUCH * 5)
            drop.bind(on_long_press=lambda _b, name=profile.name: self.remove_profile(name))
            line.add_widget(drop)
            grid.add_widget(line)
        line = row()
        field = Field(hint_text=text("ui.new.name_hint"))
        self.fields["profile"] = field
        line.add_widget(field)
        add = Tap(text=text("ui.new.add"), size_hint_x=None, width=theme.TOUCH * 2.5)
        add.bind(on_release=lambda *_: self.add_profile())
        line.add_widget(add)
        grid.add_widget(line)

        self._stick_rows(grid)
        grid.add_widget(Words(text=text("ui.settings.power"), bold=True, color=theme.ACCENT))
        for action, label in POWER_HOLDS.items():
            line = row()
            hold = LongTap(text=text(label))
            hold.bind(on_long_press=lambda _b, chosen=action: self.power(chosen))
            line.add_widget(hold)
            grid.add_widget(line)
        body.add_widget(view)
        self.add_widget(body)

    def _text_row(self, grid: Any, key: str, label: str, value: str) -> None:
        line = row()
        line.add_widget(Words(text=label))
        field = Field(text=value, size_hint_x=None, width=260)
        field.bind(on_text_validate=lambda *_: self.keep_text(key))
        self.fields[key] = field
        line.add_widget(field)
        keep = Tap(text=text("ui.settings.keep"), size_hint_x=None, width=theme.TOUCH * 2)
        keep.bind(on_release=lambda *_: self.keep_text(key))
        line.add_widget(keep)
        grid.add_widget(line)

    def _stick_rows(self, grid: Any) -> None:
        """"Back up to the stick", and under it what the last backup said (safe to remove, or why not)."""
        grid.add_widget(Words(text=text("appliance.stick.heading"), bold=True, color=theme.ACCENT))
        line = row()
        backup = Tap(text=text("appliance.stick.button"))
        backup.bind(on_release=lambda *_: self.back_up_to_stick())
        line.add_widget(backup)
        grid.add_widget(line)
        self.stick_words = Words(text=self.stick_said, size_hint_y=None, height=theme.TOUCH * 1.5)
        grid.add_widget(self.stick_words)

    def on_leave(self, *args: Any) -> None:
        self.stick_said = ""

    def back_up_to_stick(self) -> None:
        """Write the backup onto the stick and say it may be pulled; a refusal also in the banner."""
        try:
            done = stick.backup_to_stick(self.shell.table.app.store, self.shell.options.stick_mount)
        except stick.StickError as error:
            self.stick_said = str(error)
            self.shell.refuse(self.stick_said)
        else:
            self.stick_said = str(done.message)
            self.shell.banner.hide()  # an earlier "no stick" is answered now
        self.stick_words.text = self.stick_said  # in place, and scrolled into view: the answer to this tap
        view = self.stick_words.parent.parent if self.stick_words.parent is not None else None
        if isinstance(view, ScrollView):
            Clock.schedule_once(lambda _dt: view.scroll_to(self.stick_words, padding=8, animate=False), 0)

    # -- changes -----------------------------------------------------------------------
    def step(self, key: str, by: int) -> None:
        app = self.shell.table.app
        value = whole_number(key).clamp(app.settings()[key] + by)
        self.shell.attempt(app.change_setting, key, value)
        self.redraw()

    def keep_text(self, key: str) -> None:
        typed = self.fields[key].text.strip()
        value: Any = typed
        if isinstance(SETTINGS[key].default, int):
            if not typed.isdigit():
                self.shell.refuse(text("ui.settings.whole_number", setting=key, value=typed))
                return
            value = int(typed)
        if self.shell.attempt(self.shell.table.app.change_setting, key, value) is not None:
            self.redraw()

    def confirm_flags(self) -> None:
        table: dict[str, Any] = {}
        for part in ("intermezzo", "finito"):
            read = read_flags(self.fields[f"flags.{part}"].text)
            if isinstance(read, str):
                self.shell.refuse(text("ui.settings.flags_not_number", part=part, value=read))
                return
            table[part] = read
        if self.shell.attempt(self.shell.table.app.confirm_flag_table, table) is not None:
            self.redraw()

    def forget_flags(self) -> None:
        self.shell.attempt(self.shell.table.app.forget_flag_table)
        self.redraw()

    def add_profile(self) -> None:
        if self.shell.attempt(self.shell.table.app.add_profile, self.fields["profile"].text) is not None:
            self.redraw()

    def remove_profile(self, name: str) -> None:
        self.shell.attempt(self.shell.table.app.remove_profile, name)
        self.redraw()

    def power(self, action: power.PowerAction) -> None:
        """Switch off, restart or stop for maintenance; a refusal (no polkit rule, a laptop) in the banner."""
        run = self.shell.options.power_run
        refusal = power.perform(action) if run is None else power.perform(action, run=run)
        if refusal is not None:
            self.shell.refuse(str(refusal))
