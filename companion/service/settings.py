"""The settings players change on the screen, kept in the store, in one place.

Two places, two jobs: the TOML file (:mod:`companion.service.config`) says how the box
is wired and never changes at run time; everything a player changes lives in
the store's ``settings`` table, which is writable on the kiosk. This module
names those settings, their defaults and what each accepts.

A game never depends on settings at replay time: whatever a setting
contributes to a game (2-player flags, a board layout) is written into the
game's own record when it starts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.descriptor import split_words
from companion.games.messages import Message, msg
from companion.i18n import LANGUAGES as CATALOGUE_LANGUAGES
from companion.i18n import render
from companion.registry import descriptors, game_names
from companion.service.names import name_problem
from companion.service.web_link import WEB_SETTING
from companion.storage.backup import BACKUPS_KEPT, DEFAULT_KEPT

#: The table's language (``en``, ``hu``): what the screens and the commands that
#: open the store speak unless ``--lang`` or ``$COMPANION_LANG`` says otherwise.
LANGUAGE = "language"


#: The languages the companion's messages come in (those with catalogues).
LANGUAGES: tuple[str, ...] = CATALOGUE_LANGUAGES


#: The longest timeout (seconds): a screen that stays on longer than a day might as well never blank.
DAY = 24 * 3600


class SettingError(ValueError):
    """A setting value the companion cannot use; the message names the setting."""


@dataclass(frozen=True)
class WholeNumber:
    """The check of a whole-number setting, its limits readable: a screen steps inside them.

    ``high`` ``None``: no upper limit.
    """

    low: int
    high: int | None = None

    def __call__(self, value: object) -> Message | None:
        if isinstance(value, bool) or not isinstance(value, int):
            return msg("app.setting.not_whole_number", value=repr(value))
        if value < self.low or (self.high is not None and value > self.high):
            return (msg("app.setting.between", low=self.low, high=self.high) if self.high is not None
                    else msg("app.setting.at_least", low=self.low))
        return None

    def clamp(self, value: int) -> int:
        """``value`` moved inside the limits (where − and + stop)."""
        value = max(self.low, value)
        return value if self.high is None else min(self.high, value)


def _choice(choices: tuple[str, ...]) -> Callable[[Any], Message | None]:
    def check(value: object) -> Message | None:
        return None if value in choices else msg("app.setting.not_choice", choices=", ".join(choices),
                                                 value=repr(value))
    return check


def _yes_no(value: object) -> Message | None:
    return None if isinstance(value, bool) else msg("app.setting.not_yes_no", value=repr(value))


def _table_name(value: object) -> Message | None:
    """The table's name: none (empty), or a name by the one name rule (shown on the screens and in
    BG Stats plays, like a player's); spaces around it are trimmed when it is kept."""
    if isinstance(value, str) and not value.strip():
        return None
    return name_problem(value.strip() if isinstance(value, str) else value, "table")


@dataclass(frozen=True)
class Setting:
    """One setting a player may change: its key in the store, default and what it accepts."""

    key: str
    default: Any
    check: Callable[[Any], Message | None]


def _bgg_key(game: str) -> str:
    return f"bgg_id.{game}"


#: Every simple setting, by key. The flag table, the boards and the profiles
#: have their own structured values and methods in :mod:`companion.service.app`.
SETTINGS: dict[str, Setting] = {s.key: s for s in [
    Setting(LANGUAGE, "en", _choice(LANGUAGES)),  # the language of the screens and messages
    Setting("oled.brightness", 100, WholeNumber(1, 100)),  # percent
    Setting("oled.timeout", 600, WholeNumber(0, DAY)),  # seconds without an event before it blanks (0: never)
    Setting("backlight.timeout", 900, WholeNumber(0, DAY)),  # seconds without a touch to light-off (0: never)
    Setting("table.name", "", _table_name),  # this table's name, the location of BG Stats plays
    Setting(BACKUPS_KEPT, DEFAULT_KEPT, WholeNumber(0, 365)),  # daily backups of the store to keep (0: none)
    Setting(WEB_SETTING, True, _yes_no),  # the table's live page for phones (companion web) is served
    # each game's own simple settings (a game's guild names, say), from its descriptor
    *[Setting(s.key, s.default, s.check) for known in descriptors() for s in known.settings],
    # each game's BoardGameGeek id for BG Stats (0: let the app match it by name)
    *[Setting(_bgg_key(game), 0, WholeNumber(0)) for game in game_names()],
]}


def bgg_id_key(game: str) -> str:
    """The setting holding ``game``'s BoardGameGeek id."""
    return _bgg_key(game)


def whole_number(key: str) -> WholeNumber:
    """The limits of the whole-number setting ``key`` (a screen's − and + stay inside them)."""
    check = SETTINGS[key].check
    if not isinstance(check, WholeNumber):
        raise TypeError(f"{key} is not a whole-number setting")
    return check


def check_setting(key: str, value: object) -> Any:
    """``value`` if ``key`` accepts it; :class:`SettingError` naming the key otherwise."""
    setting = SETTINGS.get(key)
    if setting is None:
        raise SettingError(msg("cli.settings.unknown", key=key, keys=", ".join(SETTINGS)))
    problem = setting.check(value)
    if problem is not None:
        # led by the setting's name in the table's words ("a `language` beállítás: ...")
        raise SettingError(msg("cli.field.error", field=msg("cli.field.setting", key=key), reason=problem))
    return value.strip() if isinstance(value, str) else value


def effective_settings(stored: Mapping[str, Any]) -> dict[str, Any]:
    """Every simple setting: the stored value where it is usable, else the default."""
    result = {}
    for key, setting in SETTINGS.items():
        value = stored.get(key, setting.default)
        result[key] = setting.default if setting.check(value) is not None else value
    return result


def _named(key: str) -> Mapping[str, Message]:
    """The record values a game's setting ``key`` may hold that players read in words
    (:attr:`~companion.games.descriptor.TableSetting.named`); empty for any other setting."""
    for known in descriptors():
        for setting in known.settings:
            if setting.key == key:
                return setting.named
    return {}


def shown_setting(key: str, value: object, language: str) -> str:
    """A setting's value as the settings screen shows it: a list's record values in words
    (``guild-1, guild-2`` -> "Guild 1, Guild 2"); anything else as it is."""
    named = _named(key)
    if not named or not isinstance(value, str):
        return str(value)
    return ", ".join(render(named[part], language) if part in named else part for part in split_words(value))


def kept_setting(key: str, typed: str, language: str) -> str:
    """What a setting typed on the settings screen keeps: each part that is the words of a record
    value (:func:`shown_setting`'s, in ``language`` or English, any case) as that value, so the
    default guild names stay defaults in every language; anything else as typed."""
    named = _named(key)
    if not named:
        return typed
    spoken = {render(message, lang).casefold(): value for value, message in named.items()
              for lang in dict.fromkeys((language, "en"))}
    return ", ".join(spoken.get(part.casefold(), part) for part in split_words(typed))
