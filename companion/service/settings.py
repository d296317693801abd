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

from companion.games.messages import Message, msg
from companion.games.registry import GAMES
from companion.i18n import LANGUAGES as CATALOGUE_LANGUAGES

#: The Campanile 2-player flag table the players confirmed from their cards:
#: ``{"intermezzo": [[...], ...4], "finito": [[...], ...5]}``.
CAMPANILE_TWO_PLAYER_FLAGS = "campanile.flags.2p"

#: Castelli boards entered on this companion: ``{name: board JSON}``. A game
#: started on one carries the board inline in its setup.
CASTELLI_BOARDS = "castelli.boards"

#: How many daily automatic backups the data directory's ``backups/`` keeps
#: (a whole number; 0 turns them off). See :mod:`companion.storage.backup`.
BACKUPS_KEPT = "backups.kept"

#: The table's language (``en``, ``hu``): what the screens and the commands that
#: open the store speak unless ``--lang`` or ``$COMPANION_LANG`` says otherwise.
LANGUAGE = "language"

#: San Gimignano's four guild names for new games, by commas ("guild-1, guild-2, guild-3, guild-4"):
#: the rulebook names none. A game keeps the names in its own record.
SAN_GIMIGNANO_GUILDS = "san_gimignano.guilds"
#: The colours the touchscreen draws the four guilds in, by commas, in the order of the guilds.
SAN_GIMIGNANO_GUILD_COLOURS = "san_gimignano.guild_colours"
#: The colours a guild may be drawn in (the touchscreen's palette has each).
GUILD_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "purple", "orange", "brown", "grey")

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

    def __call__(self, value: Any) -> Message | None:
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
    def check(value: Any) -> Message | None:
        return None if value in choices else msg("app.setting.not_choice", choices=", ".join(choices),
                                                 value=repr(value))
    return check


def _short_text(limit: int) -> Callable[[Any], Message | None]:
    def check(value: Any) -> Message | None:
        if not isinstance(value, str):
            return msg("app.setting.not_text", value=repr(value))
        if len(value.strip()) > limit or any(ord(c) < 32 for c in value):
            return msg("app.setting.too_long", limit=limit)
        return None
    return check


def split_words(value: str) -> list[str]:
    """A setting's list typed by commas ("a, b, c"), each word stripped."""
    return [word.strip() for word in value.split(",")]


def _four_guilds(value: Any) -> Message | None:
    if not isinstance(value, str):
        return msg("app.setting.not_text", value=repr(value))
    names = split_words(value)
    if len(names) != 4 or not all(names) or len({n.casefold() for n in names}) != 4 or len(value) > 120:
        return msg("ui.san_gimignano.setting.guilds", value=repr(value))
    return None


def _four_colours(value: Any) -> Message | None:
    if not isinstance(value, str):
        return msg("app.setting.not_text", value=repr(value))
    colours = split_words(value)
    if len(colours) != 4 or len(set(colours)) != 4 or not set(colours) <= set(GUILD_COLOURS):
        return msg("ui.san_gimignano.setting.colours", value=repr(value), colours=", ".join(GUILD_COLOURS))
    return None


@dataclass(frozen=True)
class Setting:
    """One setting a player may change: its key in the store, default and what it accepts."""

    key: str
    default: Any
    check: Callable[[Any], Message | None]
    help: str


def _bgg_key(game: str) -> str:
    return f"bgg_id.{game}"


#: Every simple setting, by key. The flag table, the boards and the profiles
#: have their own structured values and methods in :mod:`companion.service.app`.
SETTINGS: dict[str, Setting] = {s.key: s for s in [
    Setting(LANGUAGE, "en", _choice(LANGUAGES), "the language of the screens and messages"),
    Setting("oled.brightness", 100, WholeNumber(1, 100), "OLED brightness in percent"),
    Setting("oled.timeout", 600, WholeNumber(0, DAY),
            "seconds without an event before the OLED blanks (0: never)"),
    Setting("backlight.timeout", 900, WholeNumber(0, DAY),
            "seconds without a touch before the screen's backlight goes off (0: never)"),
    Setting("table.name", "", _short_text(60), "this table's name, the location of BG Stats plays"),
    Setting(BACKUPS_KEPT, 7, WholeNumber(0, 365), "how many daily backups of the store to keep (0: none)"),
    Setting(SAN_GIMIGNANO_GUILDS, "guild-1, guild-2, guild-3, guild-4", _four_guilds,
            "San Gimignano's four guild names for new games, by commas"),
    Setting(SAN_GIMIGNANO_GUILD_COLOURS, "red, blue, green, yellow", _four_colours,
            "the colours the touchscreen draws San Gimignano's four guilds in, by commas"),
    *[Setting(_bgg_key(game), 0, WholeNumber(0),
              f"the BoardGameGeek id of {game} for BG Stats (0: let the app match it by name)")
      for game in GAMES],
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


def check_setting(key: str, value: Any) -> Any:
    """``value`` if ``key`` accepts it; :class:`SettingError` naming the key otherwise."""
    setting = SETTINGS.get(key)
    if setting is None:
        raise SettingError(msg("cli.settings.unknown", key=key, keys=", ".join(SETTINGS)))
    problem = setting.check(value)
    if problem is not None:
        raise SettingError(msg("records.at", path=key, reason=problem))
    return value.strip() if isinstance(value, str) else value


def effective_settings(stored: Mapping[str, Any]) -> dict[str, Any]:
    """Every simple setting: the stored value where it is usable, else the default."""
    result = {}
    for key, setting in SETTINGS.items():
        value = stored.get(key, setting.default)
        result[key] = setting.default if setting.check(value) is not None else value
    return result
