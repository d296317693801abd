"""The table's club settings: the ``[club]`` section of ``companion.toml`` with the command line's
overrides, checked as a whole (docs/club.md, "A table in the club").

A wrong club setting is the person's to correct, so it is refused with one line naming the key
(:class:`ClubConfigError`; the commands exit 2): ``companion run`` only warns about a bad key and
goes on, but a publisher started with a broker it cannot read would publish nowhere, silently.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from companion.games.messages import Message, msg
from companion.service.config import Config, broker_problem, topic_name_problem

#: The broker's port when the address names none (MQTT's registered ports).
PORTS = {"mqtt": 1883, "mqtts": 8883}
#: A credentials file is two short lines: anything longer is not one.
MAX_CREDENTIALS = 4096


class ClubConfigError(Exception):
    """The club's settings cannot be used; the message names the key and says why."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class ClubSettings:
    """Where and as whom this table publishes."""

    broker: str
    host: str
    port: int
    tls: bool
    club: str
    table: str
    ca_file: Path | None = None
    username: str | None = None
    password: str | None = None

    @property
    def client_id(self) -> str:
        """The table's MQTT client id: one per club and table, so a second publisher of the same table
        takes over the first's session instead of both publishing."""
        return f"companion/{self.club}/{self.table}"


def club_configured(config: Config) -> bool:
    """Whether ``companion.toml`` puts this table in a club (``[club]`` names a broker)."""
    return bool(config["club.broker"])


def _refuse(key: str, reason: Message) -> ClubConfigError:
    return ClubConfigError(msg("club.table.config.key", key=key, reason=reason))


def read_credentials(path: Path) -> tuple[str, str]:
    """The user name and password of ``path`` (two lines). Refused: a file others may read or write
    (the password is the table's), one that cannot be read, or one that is not two lines."""
    key = "club.credentials_file"
    try:
        with open(path, "rb") as handle:
            found = os.fstat(handle.fileno())
            data = handle.read(MAX_CREDENTIALS + 1)
    except OSError as error:
        raise _refuse(key, msg("club.table.config.unreadable", path=str(path),
                               reason=error.strerror or str(error))) from None
    if not stat.S_ISREG(found.st_mode):
        raise _refuse(key, msg("club.table.config.not_a_file", path=str(path)))
    if found.st_mode & 0o077:
        raise _refuse(key, msg("club.table.config.credentials_open", path=str(path),
                               mode=f"{stat.S_IMODE(found.st_mode):o}"))
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        lines = []
    lines = [line.strip() for line in lines if line.strip()]
    if len(data) > MAX_CREDENTIALS or len(lines) != 2:
        raise _refuse(key, msg("club.table.config.credentials_lines", path=str(path)))
    return lines[0], lines[1]


def club_settings(config: Config, table_setting: str = "", *, broker: str | None = None,
                  club: str | None = None, table: str | None = None) -> ClubSettings:
    """The club settings in force: the file's ``[club]`` keys, each replaced by its option when given;
    the table's name, when neither names it, is the table's name in the settings (``table_setting``).

    :class:`ClubConfigError` naming the key for anything wrong, a bad ``[club]`` key of the file
    included (which ``companion run`` would only warn about).
    """
    for found in config.problems:
        if found.key.startswith("club."):  # the reason, not "using the default": nothing is used
            said = found.message
            reason = said.params.get("reason", said) if isinstance(said, Message) else said
            raise _refuse(found.key, reason if isinstance(reason, Message) else msg(
                "club.table.config.problem", problem=str(reason)))
    address = broker if broker is not None else str(config["club.broker"])
    if not address:
        raise _refuse("club.broker", msg("club.table.config.no_broker"))
    problem = broker_problem(address)
    if problem is not None:
        raise _refuse("club.broker", problem)
    parts = urlsplit(address)
    names = {"club.club": club if club is not None else str(config["club.club"]),
             "club.table": table if table is not None
             else (str(config["club.table"]) or table_setting.strip())}
    for key, value in names.items():
        if not value:
            raise _refuse(key, msg("club.table.config.no_name" if key == "club.club"
                                   else "club.table.config.no_table"))
        problem = topic_name_problem(value, key.removeprefix("club."))
        if problem is not None:
            raise _refuse(key, problem)
    ca_file = Path(str(config["club.ca_file"])).expanduser() if config["club.ca_file"] else None
    if ca_file is not None and not ca_file.is_file():
        raise _refuse("club.ca_file", msg("club.table.config.not_a_file", path=str(ca_file)))
    username = password = None
    if config["club.credentials_file"]:
        username, password = read_credentials(Path(str(config["club.credentials_file"])).expanduser())
    return ClubSettings(address, str(parts.hostname), parts.port or PORTS[parts.scheme],
                        parts.scheme == "mqtts", names["club.club"], names["club.table"], ca_file, username,
                        password)
