"""Checking the rows beside the move log: the plain tables and what a repair set aside.

Part of the doctor (:mod:`companion.storage.checking` names these among its
findings; :mod:`companion.storage.repairing` copies only the rows judged
readable here). Profiles, their colours and the settings are judged value by
value as the store reads them back; a row of ``set_aside`` as a whole. Split
out of :mod:`companion.storage.checking` to keep each module small.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.base import RecordError, one_line
from companion.games.messages import Message, msg
from companion.registry import descriptor
from companion.storage import rows as read
from companion.storage.salvage import _columns, _salvage


@dataclass(frozen=True)
class AsideEntry:
    """A session or a championship an earlier repair set aside: named by every doctor."""

    kind: str  # "session" or "championship"
    id: int
    reason: Message | str
    when: str


#: What each column of the plain tables must hold for the store to read it back ("json": JSON text).
_PLAIN_COLUMNS: dict[str, dict[str, str]] = {
    "players": {"name": "text", "created": "text", "last_played": "text"},
    "player_colours": {"player_id": "integer", "game": "text", "colour": "text"},
    "settings": {"key": "text", "value": "json", "updated": "text"},
    "outbox": {"session_id": "integer", "queued": "text", "sure": "flag", "sent": "text or null"},
}


def _readable_value(value: object, kind: str) -> bool:
    if kind == "text or null" and value is None:
        return True
    if kind == "flag":
        return value in (0, 1) and not isinstance(value, bool)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if not isinstance(value, str):
        return False
    if kind == "json":
        try:
            json.loads(value)
        except ValueError:
            return False
    return True


def _plain_row_readable(table: str, columns: Sequence[str], row: Sequence[Any]) -> bool:
    kinds = _PLAIN_COLUMNS.get(table, {})
    values = dict(zip(columns, row, strict=True))
    if not all(_readable_value(value, kinds[column]) for column, value in values.items() if column in kinds):
        return False
    if table == "player_colours" and {"game", "colour"} <= set(values):
        return _known_colour(values["game"], values["colour"])
    return True


def _known_colour(game: str, colour: str) -> bool:
    """Whether ``colour`` is a piece colour of the known game ``game`` (a profile's preferred colour)."""
    try:
        allowed = descriptor(game).piece_colours
    except RecordError:
        return False
    return allowed is None or colour in allowed


def _bad_plain_rows(db: sqlite3.Connection, tables: set[str]) -> list[Message]:
    """A line for each row of the plain tables that the store could not read back (a repair leaves it out)."""
    found: list[Message] = []
    for table in _PLAIN_COLUMNS:
        if table not in tables:
            continue
        columns = [c for c in _columns(db, table) if c in _PLAIN_COLUMNS[table]]
        rows, _ = _salvage(db, table, columns)
        for row in rows:
            if not _plain_row_readable(table, columns, row):
                found.append(msg("doctor.rows.bad_value", table=table,
                                 row=one_line(repr(tuple(row)))[:60]))
    return found


def _set_aside_rows(db: sqlite3.Connection,
                    tables: set[str]) -> tuple[list[AsideEntry], list[dict[str, Any]]]:
    """What an earlier repair set aside (a negative id is a championship's), and the rows that do not read.

    A row is judged as a whole: its session id a whole number, its reason and content JSON text, its
    time a time; one that is not is named as damage (a repair writes it again, readable), never a crash.
    """
    if "set_aside" not in tables:
        return [], []
    columns = _columns(db, "set_aside")
    rows, _ = _salvage(db, "set_aside", columns)
    found: list[AsideEntry] = []
    bad: list[dict[str, Any]] = []
    for values in rows:
        row = dict(zip(columns, values, strict=True))
        sid, reason, content, when = (row.get(c) for c in ("session_id", "reason", "content", "set_aside"))
        try:
            read.json_value(reason), read.json_value(content), read.moment(when)
            number = read.integer(sid)
        except (ValueError, TypeError):
            bad.append(row)
            continue
        kind = "championship" if number < 0 else "session"
        found.append(AsideEntry(kind, abs(number), _message_from_text(reason), str(when)))
    return found, bad


def _message_from_text(text: Any) -> Message | str:
    """A message stored as JSON by :meth:`Message.to_json` (plain text if it is not one)."""
    try:
        found = _message_from_json(json.loads(text))
    except (TypeError, ValueError):
        return one_line(str(text))
    return found if isinstance(found, Message) else one_line(str(text))


def _message_from_json(data: object) -> Any:
    if isinstance(data, dict) and set(data) == {"code", "params"} and isinstance(data["params"], dict):
        return Message(str(data["code"]), {k: _message_from_json(v) for k, v in data["params"].items()})
    if isinstance(data, list):
        return [_message_from_json(item) for item in data]
    return data
