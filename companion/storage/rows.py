"""Rows as the store reads them back, and the one judgement of every stored value.

The store (:class:`~companion.storage.store.Store`) and the doctor
(:mod:`companion.storage.checking`) judge a value by the same functions here,
so that what the doctor calls good is exactly what the store reads without
failing, and what it calls damaged is what the store refuses with
:class:`~companion.storage.errors.DamagedRow`.

Text is read as bytes where it may not decode (:func:`lenient_text`, the
connections' ``text_factory``): a value that is not UTF-8 becomes
:class:`Undecoded`, which no judgement takes for text.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from companion.games.messages import msg
from companion.storage.errors import DamagedRow

#: What reading a damaged store may raise: SQLite's errors, and a ``UnicodeDecodeError`` when an
#: error's own text quotes damaged bytes (a damaged name in the list of tables), which Python decodes.
DB_ERRORS = (sqlite3.DatabaseError, UnicodeDecodeError)


class Undecoded(bytes):
    """A stored text that is not UTF-8 (its bytes): damage, never a name or JSON."""


def lenient_text(data: bytes) -> str | Undecoded:
    """SQLite text as ``str``, or :class:`Undecoded` when it is not UTF-8 (nothing raises while fetching)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return Undecoded(data)


def lenient(db: sqlite3.Connection) -> sqlite3.Connection:
    """``db`` with its text read leniently (:func:`lenient_text`)."""
    db.text_factory = lenient_text
    return db


def _damaged_schema(error: UnicodeDecodeError) -> sqlite3.DatabaseError:
    """SQLite's error about a damaged schema whose text quotes bytes that are not UTF-8 (Python fails to
    decode the error itself): the same error, as SQLite's kind, so every caller meets one kind."""
    found = sqlite3.DatabaseError(f"malformed database schema (text that is not UTF-8: {error.reason})")
    found.sqlite_errorname = "SQLITE_CORRUPT"
    return found


class _Cursor(sqlite3.Cursor):
    """A cursor whose every step raises :class:`sqlite3.DatabaseError`, never ``UnicodeDecodeError``."""

    def execute(self, sql: str, parameters: Any = (), /) -> _Cursor:
        try:
            return super().execute(sql, parameters)
        except UnicodeDecodeError as error:
            raise _damaged_schema(error) from None

    def executemany(self, sql: str, parameters: Any, /) -> _Cursor:
        try:
            return super().executemany(sql, parameters)
        except UnicodeDecodeError as error:
            raise _damaged_schema(error) from None

    def __next__(self) -> Any:
        try:
            return super().__next__()
        except UnicodeDecodeError as error:
            raise _damaged_schema(error) from None

    def fetchone(self) -> Any:
        try:
            return super().fetchone()
        except UnicodeDecodeError as error:
            raise _damaged_schema(error) from None

    def fetchall(self) -> list[Any]:
        try:
            return super().fetchall()
        except UnicodeDecodeError as error:
            raise _damaged_schema(error) from None


class _Connection(sqlite3.Connection):
    """A connection of the store: its errors are SQLite's kinds whatever bytes they quote."""

    def cursor(self, factory: Any = _Cursor) -> Any:
        return super().cursor(factory)

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        cursor: _Cursor = self.cursor()
        return cursor.execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        cursor: _Cursor = self.cursor()
        return cursor.executemany(sql, parameters)


def connect(database: str | Path, **options: Any) -> sqlite3.Connection:
    """A connection to a store that reads text leniently and raises only SQLite's kinds of error."""
    return lenient(sqlite3.connect(database, factory=_Connection, **options))


@dataclass(frozen=True)
class SessionRow:
    """One stored session, as listed (no moves)."""

    id: int
    game: str
    players: tuple[str, ...]
    options: dict[str, Any]
    setup: dict[str, Any]
    started: datetime
    finished: datetime | None
    moves: int
    source: str
    abandoned: datetime | None = None
    #: Started before the clock was synchronised: ``started`` may be wrong until the players confirm it.
    date_unsure: bool = False
    #: Seconds the game was open to play, by the monotonic clock; ``None``: not measured (older games).
    played_seconds: float | None = None
    #: The championship the game is a round of, and which round (``None``: a game on its own).
    championship: int | None = None
    championship_round: int | None = None

    @property
    def is_finished(self) -> bool:
        return self.finished is not None


@dataclass(frozen=True)
class ChampionshipRow:
    """One stored championship, as its row holds it (its rounds are sessions that name it)."""

    id: int
    variant: int
    players: tuple[str, ...]
    options: dict[str, Any]
    decisions: list[dict[str, Any]]
    created: datetime
    source: str
    abandoned: datetime | None = None


@dataclass(frozen=True)
class Result:
    """One seat's final result, as the application works it out from the engine's summary."""

    player: str
    score: int
    winner: bool


@dataclass(frozen=True)
class ResultRow:
    """One player's result in one finished session (the input of :mod:`companion.service.stats`)."""

    session_id: int
    game: str
    player: str
    score: int
    winner: bool


# -- judging one value ---------------------------------------------------------------------

def is_text(value: object) -> bool:
    return isinstance(value, str) and not isinstance(value, Undecoded)


def is_integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def moment(value: object) -> datetime:
    """A stored time; :class:`ValueError` when it is none (or not aware)."""
    if not is_text(value):
        raise ValueError("a time is text")
    assert isinstance(value, str)
    found = datetime.fromisoformat(value)
    if found.tzinfo is None:
        raise ValueError("a stored time names its time zone")
    return found


def is_moment(value: object) -> bool:
    try:
        moment(value)
    except ValueError:
        return False
    return True


def maybe_moment(value: object) -> datetime | None:
    return None if value is None else moment(value)


def dumps(value: object) -> str:
    """A value as the store writes JSON (compact, keys sorted): the form :func:`json_value` reads back.

    Here, beside the reading, rather than in the journal: the championships and the
    store both write JSON, and the journal itself depends on the store.
    """
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def json_value(value: object) -> Any:
    """Stored JSON text, parsed; :class:`ValueError` when it is not JSON text (or not UTF-8)."""
    if not is_text(value):
        raise ValueError("JSON is stored as text")
    assert isinstance(value, str)
    return json.loads(value)


def names(value: object) -> tuple[str, ...]:
    """A stored JSON list of names (players)."""
    found = json_value(value)
    if not isinstance(found, list) or not found or not all(isinstance(p, str) for p in found):
        raise ValueError("the players are not a list of names")
    return tuple(found)


def four_names(value: object) -> tuple[str, ...]:
    """A championship's players: four different names."""
    found = names(value)
    if len(found) != 4 or len(set(found)) != 4:
        raise ValueError("a championship has four different players")
    return found


def json_object(value: object) -> dict[str, Any]:
    found = json_value(value)
    if not isinstance(found, dict):
        raise ValueError("not a JSON object")
    return found


def move_object(value: object) -> dict[str, Any]:
    """A stored move's JSON object; :class:`ValueError` when it is none."""
    found = json_value(value)
    if not isinstance(found, dict):
        raise ValueError("a move is a JSON object")
    return found


def decisions(value: object) -> list[dict[str, Any]]:
    found = json_value(value)
    if not isinstance(found, list) or not all(isinstance(d, dict) for d in found):
        raise ValueError("the decisions are not a list of JSON objects")
    return found


def source(value: object) -> str:
    if value not in ("table", "import"):
        raise ValueError("a source is 'table' or 'import'")
    assert isinstance(value, str)
    return value


def integer(value: object) -> int:
    if not is_integer(value):
        raise ValueError("not a whole number")
    assert isinstance(value, int)
    return value


def maybe_integer(value: object) -> int | None:
    return None if value is None else integer(value)


def seconds(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0 \
            or value == float("inf"):
        raise ValueError("not a count of seconds")
    return float(value)


def flag(value: object) -> bool:
    if value not in (0, 1) or isinstance(value, float):
        raise ValueError("not 0 or 1")
    return bool(value)


def session_row(record: tuple[Any, ...] | sqlite3.Row) -> SessionRow:
    """A ``sessions`` row as selected by the store; :class:`ValueError` when a value does not read."""
    (sid, game, players, options, setup, started, finished, source_, moves, abandoned, unsure,
     played, championship, number) = record
    if not is_text(game):
        raise ValueError("the game is not a name")
    return SessionRow(integer(sid), game, names(players), json_object(options), json_object(setup),
                      moment(started), maybe_moment(finished), integer(moves), source(source_),
                      maybe_moment(abandoned), flag(unsure), seconds(played),
                      maybe_integer(championship), maybe_integer(number))


def championship_row(record: tuple[Any, ...] | sqlite3.Row) -> ChampionshipRow:
    """A ``championships`` row as selected by the store; :class:`ValueError` when a value does not read."""
    cid, variant, players, options, decided, created, source_, abandoned = record
    if variant not in (1, 2) or not is_integer(variant):
        raise ValueError("a variant is 1 or 2")
    return ChampionshipRow(integer(cid), variant, four_names(players), json_object(options),
                           decisions(decided), moment(created), source(source_), maybe_moment(abandoned))


@contextlib.contextmanager
def reading(table: str, row: object) -> Iterator[None]:
    """Turn a value that does not read (while fetching or parsing) into :class:`DamagedRow`."""
    try:
        yield
    except sqlite3.OperationalError as error:
        if "decode" not in str(error):
            raise
        raise DamagedRow(msg("store.damaged_row", table=table, row=str(row))) from None
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        raise DamagedRow(msg("store.damaged_row", table=table, row=str(row))) from None
