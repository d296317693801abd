"""The TOML configuration: how the box is wired. Read once at start, never changed at run time.

Everything a player changes on the screen is a setting in the store
(:mod:`companion.service.settings`); this file holds what the person who built the
box decides: the data directory, the button pins, the encoder, the OLED,
the serial seat panels, the screen's rotation and the log level.

Every key, its default and what it accepts are in :data:`KEYS`, the one
place the example file (``companion.example.toml``) and the reference
(``docs/config.md``) follow; a test keeps all three in step. Loading checks
everything: each unknown key, wrong type or bad value is one line naming the
file and the key. A bad hardware key falls back to its default with a
warning (the appliance must not refuse to start over a typo in a pin); a bad
``data_dir`` is fatal, since falling back would quietly open another, empty
store. ``companion config check FILE`` reports every problem and exits 2.
"""

from __future__ import annotations

import logging
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from companion.games.base import one_line
from companion.games.messages import Message, msg
from companion.games.naming import field_word, name_problem, unsafe_character

#: A key's check: ``None`` when the value is usable, else what is wrong (a message).
Check = Callable[[Any], Message | str | None]

_TYPE_CODES = {bool: "records.type.bool", int: "records.type.whole_number", float: "config.type.number",
               str: "records.type.text", list: "records.type.list", dict: "config.type.table"}


def _type_name(value: object) -> Message:
    code = _TYPE_CODES.get(type(value))
    return msg(code) if code else msg("records.type.other", name=type(value).__name__)


def _whole(low: int, high: int, pin: bool = False) -> Check:
    def check(value: object) -> Message | None:
        if isinstance(value, bool) or not isinstance(value, int):
            return msg("config.pin.not_whole_number" if pin else "config.whole.not_whole_number",
                       kind=_type_name(value))
        if not low <= value <= high:
            return msg("config.pin.range" if pin else "config.whole.range", low=low, high=high, value=value)
        return None
    return check


def _pin(value: object) -> Message | str | None:
    return _whole(0, 27, pin=True)(value)


def _address(value: object) -> Message | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return msg("config.address.not_whole_number", kind=_type_name(value))
    if not 0x03 <= value <= 0x77:
        return msg("config.address.range", value=f"{value:#04x}")
    return None


def _seconds(low: float, high: float) -> Check:
    def check(value: object) -> Message | None:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return msg("config.seconds.not_number", kind=_type_name(value))
        if not low <= value <= high:
            return msg("config.seconds.range", low=low, high=high, value=value)
        return None
    return check


def _choice(*choices: object) -> Check:
    def check(value: object) -> Message | None:
        if value in choices and type(value) is type(choices[0]):
            return None
        shown = ", ".join(str(c) for c in choices)
        return msg("config.choice", choices=shown, value=_shown(value))
    return check


def _boolean(value: object) -> Message | None:
    return None if isinstance(value, bool) else msg("config.bool", kind=_type_name(value))


def _ports(value: object) -> Message | None:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        return msg("config.ports.not_list")
    if len(set(value)) != len(value):
        return msg("config.ports.twice")
    return None


def _wired(value: object) -> Message | None:
    """Fixed wiring: ``"PORT=SEAT"`` strings, seat 1 to 9, no port or seat twice."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return msg("config.wired.not_list")
    ports: list[str] = []
    seats: list[str] = []
    for entry in value:
        port, _, seat = entry.rpartition("=")
        if not port.strip() or seat not in {str(n) for n in range(1, 10)}:
            return msg("config.wired.entry", entry=_shown(entry))
        ports.append(port)
        seats.append(seat)
    if len(set(ports)) != len(ports) or len(set(seats)) != len(seats):
        return msg("config.wired.twice")
    return None


def _data_dir(value: object) -> Message | None:
    if not isinstance(value, str):
        return msg("config.data_dir.not_text", kind=_type_name(value))
    if "\0" in value:
        return msg("config.data_dir.not_path")
    if value and not Path(value).expanduser().is_absolute():
        return msg("config.data_dir.relative", value=value)
    if value and Path(value).expanduser().exists() and not Path(value).expanduser().is_dir():
        return msg("config.data_dir.not_directory", value=value)
    return None


def _mount_point(value: object) -> Message | None:
    if not isinstance(value, str) or "\0" in value or not Path(value).is_absolute():
        return msg("appliance.config.stick_path", value=_shown(value))
    return None


#: What an MQTT topic level may not hold: its wildcards and its separator (docs/club.md).
TOPIC_FORBIDDEN = ("+", "#", "/")


def topic_name_problem(value: object, field: str) -> Message | None:
    """Why ``value`` may not name a club (``field="club"``) or a table (``"table"``) in the club's
    topics: the one name rule (:mod:`companion.games.naming`), and none of MQTT's ``+ # /``."""
    problem = name_problem(value, field)
    if problem is not None:
        return problem
    assert isinstance(value, str)
    found = next((ch for ch in value if ch in TOPIC_FORBIDDEN), None)
    return None if found is None else msg("club.table.config.topic_character", field=field_word(field),
                                          character=found)


def _club_name(field: str) -> Check:
    def check(value: object) -> Message | None:
        return None if value == "" else topic_name_problem(value, field)
    return check


def broker_problem(value: object) -> Message | None:
    """Why ``value`` is no broker address (``mqtt://host[:port]`` or ``mqtts://host[:port]``), or ``None``."""
    bad = msg("club.table.config.broker", value=_shown(value))
    if not isinstance(value, str) or unsafe_character(value) or " " in value:
        return bad
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError:
        return bad
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname or parts.username or parts.password:
        return bad
    if parts.path not in ("", "/") or parts.query or parts.fragment or port == 0:
        return bad
    return None


def _broker(value: object) -> Message | None:
    return None if value == "" else broker_problem(value)


def _file(value: object) -> Message | None:
    if value == "":
        return None
    if not isinstance(value, str) or "\0" in value or not Path(value).expanduser().is_absolute():
        return msg("club.table.config.file", value=_shown(value))
    return None


@dataclass(frozen=True)
class Key:
    """One configuration key: dotted name, default, what it accepts, and why it is there."""

    name: str
    default: Any
    check: Check
    help: str
    fatal: bool = False


LOG_LEVELS = ("debug", "info", "warning", "error")

#: Every key, in the order of the example file.
KEYS: tuple[Key, ...] = (
    Key("data_dir", "", _data_dir, 'where games are stored; "" means $COMPANION_DATA, '
        "else systemd's $STATE_DIRECTORY, else the user data folder", fatal=True),
    Key("log_level", "info", _choice(*LOG_LEVELS), "how much the log says: debug, info, warning or error"),
    Key("screen.rotation", 0, _choice(0, 90, 180, 270), "the touchscreen's rotation in degrees"),
    Key("buttons.backend", "auto", _choice("auto", "real", "mock", "none"),
        "the buttons' GPIO: real, mock (simulated), none, or auto (real on a Raspberry Pi); "
        "$COMPANION_BUTTONS overrides it"),
    Key("buttons.undo", 5, _pin, "BCM GPIO pin of the Undo button (active low, internal pull-up)"),
    Key("buttons.confirm", 6, _pin, "BCM GPIO pin of the Next/Confirm button"),
    Key("buttons.valuation", 13, _pin, "BCM GPIO pin of the Valuation button (the game's preview)"),
    Key("buttons.menu", 19, _pin, "BCM GPIO pin of the Menu button"),
    Key("buttons.hold_time", 0.8, _seconds(0.2, 5.0), "seconds a button is held for a long press"),
    Key("encoder.enabled", False, _boolean, "whether a rotary encoder is fitted"),
    Key("encoder.a", 17, _pin, "BCM GPIO pin of the encoder's A line"),
    Key("encoder.b", 27, _pin, "BCM GPIO pin of the encoder's B line"),
    Key("encoder.push", 22, _pin, "BCM GPIO pin of the encoder's push switch"),
    Key("oled.backend", "auto", _choice("auto", "real", "mock", "none"),
        "the OLED: real, mock (drawn in memory), none, or auto (real on a Raspberry Pi); "
        "$COMPANION_OLED overrides it"),
    Key("oled.driver", "ssd1306", _choice("ssd1306", "sh1106", "ssd1309", "none"),
        'the OLED controller: ssd1306, sh1106, ssd1309, or "none" without an OLED'),
    Key("oled.interface", "i2c", _choice("i2c", "spi"), "how the OLED is wired: i2c or spi"),
    Key("oled.bus", 1, _whole(0, 31), "the I2C bus number (1 on a Raspberry Pi)"),
    Key("oled.address", 0x3C, _address, "the OLED's I2C address"),
    Key("oled.rotation", 0, _choice(0, 1, 2, 3), "the OLED's rotation in quarter turns"),
    Key("oled.spi_port", 0, _whole(0, 1), "the SPI port of an OLED on SPI"),
    Key("oled.spi_device", 0, _whole(0, 1), "the SPI chip select of an OLED on SPI"),
    Key("serial.panels", [], _ports, 'serial ports of the seat panels (e.g. "/dev/ttyACM0"; "loop://" '
        "simulates one)"),
    Key("serial.wired", [], _wired, 'panels wired inside the box, seated by the wire without a question: '
        '"PORT=SEAT" each, e.g. "/dev/ttyAMA0=1" (a USB panel is allowed on the OLED instead)'),
    Key("serial.baudrate", 115200, _choice(9600, 19200, 38400, 57600, 115200, 230400),
        "the seat panels' baud rate"),
    Key("backup.stick", "/media/COMPANION", _mount_point,
        "where the backup stick labelled COMPANION is mounted (systemd/media-COMPANION.automount)"),
    Key("club.broker", "", _broker, 'the club\'s MQTT broker, "mqtt://host[:port]" or "mqtts://host[:port]"; '
        '"" means this table is in no club (docs/club.md)'),
    Key("club.club", "", _club_name("club"), "the club's name in its topics (no + # /)"),
    Key("club.table", "", _club_name("table"), 'this table\'s name in the club; "" means the table\'s name '
        "in the settings"),
    Key("club.ca_file", "", _file, 'the certificate authority that signed an mqtts:// broker\'s certificate '
        '(absolute path; "" means the system\'s)'),
    Key("club.credentials_file", "", _file, 'a file of two lines, the user name and the password at the '
        'broker, readable by the service user alone (absolute path; "" means none)'),
)

_BY_NAME = {key.name: key for key in KEYS}
_SECTIONS = {name.split(".")[0] for name in _BY_NAME if "." in name}
_PINS = ("buttons.undo", "buttons.confirm", "buttons.valuation", "buttons.menu")
_ENCODER_PINS = ("encoder.a", "encoder.b", "encoder.push")


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a configuration file, as one line naming the file and the key."""

    file: str
    key: str
    message: Message | str
    fatal: bool = False

    def __str__(self) -> str:
        where = f"{self.file}: {self.key}: " if self.key else f"{self.file}: "
        return one_line(where + str(self.message))


class ConfigError(Exception):
    """The configuration cannot be used at all (unreadable, not TOML, a bad ``data_dir``)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem)
        self.problem = problem


class ConfigValues(Protocol):
    """What the hardware adapters read from the configuration: a value by its key (``"oled.driver"``).

    :class:`Config` is one, and so is a plain ``dict`` of keys (the tests
    build adapters from one), so the adapters name this rather than either.
    """

    def __getitem__(self, name: str, /) -> Any: ...


@dataclass(frozen=True)
class Config:
    """The configuration in force: every key's value (the default where the file had none or a bad one)."""

    values: Mapping[str, Any]
    source: str | None = None
    problems: tuple[Problem, ...] = field(default=())

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    @property
    def data_dir(self) -> str | None:
        """The configured data directory, or ``None`` for the default."""
        return self.values["data_dir"] or None

    @property
    def log_level(self) -> int:
        return int(getattr(logging, str(self.values["log_level"]).upper()))


def defaults() -> Config:
    """The configuration without a file: a simulated appliance on a laptop."""
    return Config({key.name: key.default for key in KEYS})


def _flatten(data: Mapping[str, Any], file: str, problems: list[Problem]) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for name, value in data.items():
        if name in _SECTIONS:
            if not isinstance(value, dict):
                problems.append(Problem(file, name, msg("config.section.not_table", section=name,
                                                        kind=_type_name(value))))
                continue
            for inner, inner_value in value.items():
                flat[f"{name}.{inner}"] = inner_value
        else:
            flat[name] = value
    return flat


def read_config(path: str | Path) -> Config:
    """Read and check ``path``; :class:`ConfigError` when it cannot be used at all.

    Every other problem is in :attr:`Config.problems`, its key keeping the
    default; the caller shows them and logs them (``companion run`` writes
    them to standard error, which is the journal on the appliance).
    """
    values, problems = _read(path)
    fatal = [problem for problem in problems if problem.fatal]
    if fatal:
        raise ConfigError(fatal[0])
    return Config(values, str(path), tuple(problems))


def check_file(path: str | Path) -> list[Problem]:
    """Every problem in ``path``, the fatal ones included, for ``companion config check``."""
    return _read(path)[1]


def _read(path: str | Path) -> tuple[dict[str, Any], list[Problem]]:
    file = str(path)
    values = {key.name: key.default for key in KEYS}
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        return values, [Problem(file, "", msg("config.file.missing"), fatal=True)]
    except IsADirectoryError:
        return values, [Problem(file, "", msg("config.file.directory"), fatal=True)]
    except OSError as error:
        return values, [Problem(file, "", msg("config.file.unreadable", reason=error.strerror or str(error)),
                                fatal=True)]
    except tomllib.TOMLDecodeError as error:
        return values, [Problem(file, "", msg("config.file.not_toml", reason=str(error)), fatal=True)]
    except UnicodeDecodeError:
        return values, [Problem(file, "", msg("config.file.not_utf8"), fatal=True)]
    problems: list[Problem] = []
    for name, value in _flatten(data, file, problems).items():
        key = _BY_NAME.get(name)
        if key is None:
            problems.append(Problem(file, name, msg("config.key.unknown")))
            continue
        message = key.check(value)
        if message is None:
            values[name] = value
        elif key.fatal:
            problems.append(Problem(file, name, message, fatal=True))
        else:
            problems.append(Problem(file, name, msg("config.key.default", reason=message,
                                                    default=_shown(key.default, name))))
    _check_pins(values, file, problems)
    return values, problems


def _shown(value: object, name: str = "") -> str:
    if name == "oled.address" and isinstance(value, int):
        return _hex(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def _check_pins(values: dict[str, Any], file: str, problems: list[Problem]) -> None:
    """A pin wired to two things: the later key is switched off (the first one keeps it)."""
    names = [*_PINS, *(_ENCODER_PINS if values["encoder.enabled"] else ())]
    taken: dict[int, str] = {}
    for name in names:
        pin = values[name]
        if pin is None:
            continue
        if pin in taken:
            problems.append(Problem(file, name, msg("config.pin.taken", pin=pin, other=taken[pin], key=name)))
            values[name] = None
        else:
            taken[pin] = name


def example_toml() -> str:
    """The example file's text: every key with its default and a comment saying what it is."""
    lines = ["# The companion's configuration: how this box is wired. Every key is optional;",
             "# the values below are the defaults. Check a file with `companion config check FILE`.",
             "# What players change on the screen (language, brightness, ...) is not here:",
             "# those are settings kept in the store.", ""]
    section = ""
    for key in KEYS:
        head, _, name = key.name.rpartition(".")
        if head != section:
            section = head
            lines += ["", f"[{head}]"]
        value = _hex(key.default) if key.name == "oled.address" else _toml(key.default)
        lines.append(f"# {key.help}")
        lines.append(f"{name or key.name} = {value}")
    return "\n".join(lines) + "\n"


def _hex(value: int) -> str:
    return f"0x{value:02X}"


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)
