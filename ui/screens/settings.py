"""Settings, kept in the store: language (every screen redraws), the OLED's brightness and timeout,
the backlight's timeout, the table's name, backups kept, the live page for phones (a switch, and its
QR code: "follow on your phone"), each game's BoardGameGeek id, each game's own rows, the player
profiles, and switching the appliance off (long presses).

The rows of the simple settings come from the settings table
(:data:`companion.service.settings.SETTINGS`): one row per setting, in the
table's order, with its limits and type from there. Numbers change by steps
with − and + (no keyboard needed); texts are typed and kept with a tap. Each
change is checked by the service; a refusal names the setting and changes
nothing. A game whose settings are more than simple values (a table of
them) brings its own rows through its touchscreen part
(:attr:`ui.games.part.UiPart.settings_rows`): the screen adds them once and
refreshes them with its own, and names no game. The layout is
``settings.kv``; the rows are built once and updated from the store on every
redraw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.i18n import LANGUAGES, current_language, text
from companion.registry import descriptors, game_names, get_game
from companion.service.power import perform as perform_power
from companion.service.settings import (
    LANGUAGE,
    SETTINGS,
    bgg_id_key,
    kept_setting,
    shown_setting,
    whole_number,
)
from companion.service.web_link import WEB_SETTING
from companion.storage import stick
from companion.storage.backup import BACKUPS_KEPT
from companion.system import power
from ui import theme
from ui.games import settings_rows, tools
from ui.screens import ShellScreen, fill_tools, load_rules, show
from ui.screens.follow import served_url
from ui.screens.game_over import qr_texture
from ui.widgets import LongTap, Tap

if TYPE_CHECKING:
    from ui.shell_interface import ShellInterface

#: The number settings changed with − and +: key -> (the step, the message code of its label).
#: Their limits and defaults are the settings table's (:mod:`companion.service.settings`).
STEPPED: dict[str, tuple[int, str]] = {
    "oled.brightness": (10, "ui.settings.oled_brightness"),
    "oled.timeout": (60, "ui.settings.oled_timeout"),
    "backlight.timeout": (60, "ui.settings.backlight_timeout"),
    BACKUPS_KEPT: (1, "ui.settings.backups_kept"),
}

#: The yes/no settings, switched with a tap: key -> the message code of its label.
SWITCHED: dict[str, str] = {WEB_SETTING: "ui.settings.web"}

#: The message codes of the labels of the settings typed in (the BoardGameGeek ids are worded per game).
TYPED: dict[str, str] = {
    "table.name": "ui.settings.table_name",
    # each game's own settings, worded by the game (its descriptor names the message code)
    **{setting.key: setting.label for known in descriptors() for setting in known.settings},
}


def setting_label(key: str) -> str:
    """The words beside the setting ``key`` on the screen (the key itself for one the screen has no
    words for yet: still shown, still changeable)."""
    if key in STEPPED:
        return text(STEPPED[key][1])
    if key in SWITCHED:
        return text(SWITCHED[key])
    if key in TYPED:
        return text(TYPED[key])
    for game in game_names():
        if key == bgg_id_key(game):
            return text("ui.settings.bgg_id", game=get_game(game).title)
    return key


#: The power actions, each a long press (pulling the plug must not be the only way): action -> label code.
POWER_HOLDS: dict[power.PowerAction, str] = {
    power.PowerAction.POWER_OFF: "ui.settings.power_off_hold",
    power.PowerAction.RESTART: "ui.settings.restart_hold",
    power.PowerAction.MAINTENANCE: "ui.settings.maintenance_hold",
}


class SettingRow(BoxLayout):
    """A row of the settings screen: what it knows of the screen and the language its words are in."""

    screen = ObjectProperty(None, allownone=True)
    language = StringProperty("")


class StepperRow(SettingRow):
    """A whole-number setting changed with − and + by ``step``, within the settings table's limits."""

    key = StringProperty("")
    label = StringProperty("")
    value = StringProperty("")
    step = NumericProperty(1)


class SwitchRow(SettingRow):
    """A yes/no setting: its words, and a button saying whether it is on that switches it."""

    key = StringProperty("")
    label = StringProperty("")
    on = BooleanProperty(False)


class TextSettingRow(SettingRow):
    """A setting typed in and kept with a tap (or Enter)."""

    key = StringProperty("")
    label = StringProperty("")
    field = ObjectProperty(None, allownone=True)


class ProfileRow(SettingRow):
    """A player profile, removed with a long press."""

    name = StringProperty("")


class LanguageChoice(Tap):
    """A language the screens can speak (its name in that language's words); the one spoken is the accent."""

    screen = ObjectProperty(None, allownone=True)
    language = StringProperty("")
    code = StringProperty("")


class PowerHold(LongTap):
    """A power action on a long press; ``label`` is the message code of its words."""

    screen = ObjectProperty(None, allownone=True)
    language = StringProperty("")
    action = ObjectProperty(None, allownone=True)
    label = StringProperty("")


class SettingsPage(BoxLayout):
    """The settings screen's widgets (``settings.kv``), built when the screen is first shown: the
    page is the largest of the shell, and start-up should not wait for it."""

    screen = ObjectProperty(None, allownone=True)


class SettingsScreen(ShellScreen):
    """Every setting on one scrolling page."""

    #: What the last backup to the stick said (shown under its button until the screen is left).
    stick_said = StringProperty("")
    #: The live page's URL as a QR code ("follow on your phone"; 4 px a module, error correction M,
    #: as the BG Stats code), ``None`` while no page is served (switched off, or not running).
    follow_texture = ObjectProperty(None, allownone=True)
    #: The page's URL as the QR code holds it ("" while there is none).
    follow_url = StringProperty("")

    def __init__(self, shell: ShellInterface, **kwargs: object) -> None:
        super().__init__(shell, **kwargs)
        #: The fields typed in, by setting key (the games' own rows' keys and "profile" too).
        self.fields: dict[str, Any] = {}
        self.steppers: dict[str, StepperRow] = {}
        self.switches: dict[str, SwitchRow] = {}
        self.texts: dict[str, TextSettingRow] = {}
        self.choices: list[LanguageChoice] = []
        self.profile_rows: list[ProfileRow] = []
        #: Each game's own rows (:func:`ui.games.settings_rows`), refreshed with the screen.
        self.game_rows: list[Any] = []
        self.page: SettingsPage | None = None

    def _build(self) -> SettingsPage:
        """The page, and on it one row per setting of the settings table, once (a redraw only sets
        their values)."""
        self.page = SettingsPage(screen=self)
        self.add_widget(self.page)
        ids = self.page.ids
        for key in SETTINGS:
            if key == LANGUAGE:
                self.choices = [self._row(LanguageChoice, ids.languages, code=language)
                                for language in LANGUAGES]
            elif key in STEPPED:
                self.steppers[key] = self._row(StepperRow, ids.numbers, key=key, step=STEPPED[key][0])
            elif isinstance(SETTINGS[key].default, bool):
                self.switches[key] = self._row(SwitchRow, ids.switches, key=key)
            else:
                typed = self._row(TextSettingRow, ids.texts, key=key)
                self.texts[key] = typed
                self.fields[key] = typed.field
        for rows in settings_rows(self):
            self.bind(language=rows.setter("language"))
            ids.games.add_widget(rows)
            self.game_rows.append(rows)
            self.fields.update(rows.fields)
        self.fields["profile"] = ids.profile
        for action, label in POWER_HOLDS.items():
            self._row(PowerHold, ids.power, action=action, label=label)
        return self.page

    def _row(self, kind: type[Any], group: Widget, **values: object) -> Any:
        """A ``kind`` of row added to ``group``, speaking the screen's language from now on."""
        row = kind(screen=self, language=self.language, **values)
        self.bind(language=row.setter("language"))
        group.add_widget(row)
        return row

    def refresh(self) -> None:
        page = self.page or self._build()
        app = self.shell.table.app
        values = app.settings()
        for choice in self.choices:
            choice.accent = values[LANGUAGE] == choice.code
        for key, stepper in self.steppers.items():
            stepper.label = setting_label(key)
            stepper.value = str(values[key])
        for key, typed in self.texts.items():
            typed.label = setting_label(key)
            typed.field.text = shown_setting(key, values[key], current_language())  # "Guild 1", not guild-1
        for key, switch in self.switches.items():
            switch.label = setting_label(key)
            switch.on = bool(values[key])
        self._refresh_follow()
        offered = [tool for _, tool in tools("settings")]
        fill_tools(page.ids.tools, offered, self.shell.go, width=theme.TOUCH * 6)
        show(page.ids.tools, bool(offered))
        for rows in self.game_rows:
            rows.refresh()
        self._refresh_profiles([profile.name for profile in app.profiles()])

    def _refresh_follow(self) -> None:
        """The QR code of the page ``companion web`` serves now (the URL file it keeps beside the
        store), drawn again only when the URL changes."""
        url = served_url(self.shell.table.app) or ""
        if url != self.follow_url:
            self.follow_texture = qr_texture(url) if url else None
            self.follow_url = url

    def _refresh_profiles(self, names: list[str]) -> None:
        """As many profile rows as profiles (rows kept, added or taken off), each with its name."""
        while len(self.profile_rows) < len(names):
            self.profile_rows.append(self._row(ProfileRow, self._ids().profiles))
        while len(self.profile_rows) > len(names):
            self._ids().profiles.remove_widget(self.profile_rows.pop())
        for row, name in zip(self.profile_rows, names, strict=True):
            row.name = name

    def _ids(self) -> Any:
        """The page's widgets by id (the page is built by then: every change follows a redraw)."""
        page = self.page if self.page is not None else self._build()
        return page.ids

    def on_leave(self, *args: object) -> None:
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
        # shown in place (bound to stick_said), and scrolled into view: the answer to this tap
        view, words = self._ids().view, self._ids().stick_words
        Clock.schedule_once(lambda _dt: view.scroll_to(words, padding=8, animate=False), 0)

    # -- changes -----------------------------------------------------------------------
    def step(self, key: str, by: int) -> None:
        app = self.shell.table.app
        value = whole_number(key).clamp(app.settings()[key] + by)
        self.shell.attempt(app.change_setting, key, value)
        self.redraw()

    def keep_text(self, key: str) -> None:
        typed = self.fields[key].text.strip()
        value: Any = kept_setting(key, typed, current_language())
        if isinstance(SETTINGS[key].default, int):
            if not typed.isdigit():
                self.shell.refuse(text("ui.settings.whole_number", setting=key, value=typed))
                return
            value = int(typed)
        if self.shell.attempt(self.shell.table.app.change_setting, key, value) is not None:
            self.redraw()

    def switch(self, key: str) -> None:
        app = self.shell.table.app
        self.shell.attempt(app.change_setting, key, not app.settings()[key])
        self.redraw()

    def add_profile(self) -> None:
        if self.shell.attempt(self.shell.table.app.add_profile, self.fields["profile"].text) is not None:
            self.redraw()

    def remove_profile(self, name: str) -> None:
        self.shell.attempt(self.shell.table.app.remove_profile, name)
        self.redraw()

    def power(self, action: power.PowerAction) -> None:
        """Switch off, restart or stop for maintenance; a refusal (no polkit rule, a laptop) in the banner."""
        refusal = perform_power(action, self.shell.options.power_run)
        if refusal is not None:
            self.shell.refuse(str(refusal))


load_rules(__file__)
