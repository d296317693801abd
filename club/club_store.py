"""The club server's own SQLite store: every play by its id, each table's last status, the championships.

It lives in the club's folder of the data directory (``<data dir>/club/club.sqlite3``), never in a
table's store: the club server may run on a laptop beside no table at all. Only messages the
validation (:mod:`club.inbox`) accepted reach it, already in the shape kept here.

The schema is built as the project's store builds its own (:mod:`companion.storage.migrations`):
an ordered list of migrations, ``PRAGMA user_version`` the number applied, each applied in its own
transaction with its number, and a store written by a newer club server refused rather than
misread. To change the schema, append a function to :data:`MIGRATIONS`; never edit a shipped one.

One writer (the subscriber's thread) and any number of readers (the page's thread, ``club
standings``): WAL, a busy timeout, short transactions. A play is inserted with ``INSERT OR
IGNORE`` on its id, so a play delivered twice (a retained message after a reconnect, a table that
sent again after a lost acknowledgement) is kept once.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from companion.storage.connection import apply_migrations, write_transaction

#: The club's folder inside the data directory, and the store's file in it.
CLUB_FOLDER = "club"
STORE_FILENAME = "club.sqlite3"
#: Milliseconds a connection waits for the other's transaction before it gives up.
BUSY_MILLISECONDS = 5000

Migration = Callable[[sqlite3.Connection], None]


def _create_schema(db: sqlite3.Connection) -> None:
    """Version 1: plays, tables' statuses, championships and the club server's own settings."""
    for statement in (
        # One finished game at a club table. ``played_at`` is the moment it is dated by (the
        # table's ``finished_at`` when its clock was sure, else ``received_at``, the club server's
        # clock), in UTC ISO form so that text order is time order. ``players``, ``scores`` and
        # ``winners`` are the play's own (a Championship round's group: that group's); ``ranked``
        # is 0 for a game not installed here (kept and listed, not ranked).
        """CREATE TABLE plays (
               seq         INTEGER PRIMARY KEY,
               id          TEXT NOT NULL UNIQUE,
               club        TEXT NOT NULL,
               table_name  TEXT NOT NULL,
               game        TEXT NOT NULL,
               ranked      INTEGER NOT NULL CHECK (ranked IN (0, 1)),
               played_at   TEXT NOT NULL,
               finished_at TEXT,
               clock_sure  INTEGER NOT NULL CHECK (clock_sure IN (0, 1)),
               received_at TEXT NOT NULL,
               players     TEXT NOT NULL,
               scores      TEXT NOT NULL,
               winners     TEXT NOT NULL,
               championship TEXT,
               record      TEXT NOT NULL,
               summary     TEXT NOT NULL
           )""",
        "CREATE INDEX plays_by_time ON plays (played_at, seq)",
        # Each table's last status as it sent it (its last will included), and when it came.
        """CREATE TABLE tables (
               club        TEXT NOT NULL,
               name        TEXT NOT NULL,
               online      INTEGER NOT NULL CHECK (online IN (0, 1)),
               status      TEXT NOT NULL,
               received_at TEXT NOT NULL,
               PRIMARY KEY (club, name)
           ) WITHOUT ROWID""",
        # A championship as its table last described it (its rounds grow as they are played).
        """CREATE TABLE championships (
               id          TEXT PRIMARY KEY,
               club        TEXT NOT NULL,
               table_name  TEXT NOT NULL,
               message     TEXT NOT NULL,
               received_at TEXT NOT NULL
           ) WITHOUT ROWID""",
        # The club server's own settings: its MQTT client id (a persistent session is the broker's
        # memory of one client id: it must stay the same from one start to the next).
        """CREATE TABLE meta (
               key   TEXT PRIMARY KEY,
               value TEXT NOT NULL
           ) WITHOUT ROWID""",
    ):
        db.execute(statement)


#: The schema, in order; ``PRAGMA user_version`` is how many are applied.
MIGRATIONS: list[Migration] = [_create_schema]


class ClubStoreError(Exception):
    """The club's store cannot be used (written by a newer club server, not a database)."""


@dataclass(frozen=True)
class StoredPlay:
    """One play as the store keeps it (what the standings, the page and ``club standings`` read)."""

    seq: int
    id: str
    club: str
    table: str
    game: str
    ranked: bool
    played_at: datetime
    clock_sure: bool
    players: tuple[str, ...]
    scores: dict[str, int]
    winners: tuple[str, ...]
    championship: dict[str, Any] | None


@dataclass(frozen=True)
class StoredTable:
    """A table's last status: the message as validated, and when the club server received it."""

    club: str
    name: str
    online: bool
    status: dict[str, Any]
    received_at: datetime


def store_path(data_dir: Path) -> Path:
    """Where the club's store of the data directory ``data_dir`` is."""
    return data_dir / CLUB_FOLDER / STORE_FILENAME


def club_folder(data_dir: Path) -> Path:
    """The club's folder of ``data_dir`` (made 0700 when missing: the page's token lives there)."""
    folder = data_dir / CLUB_FOLDER
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def migrate(db: sqlite3.Connection, path: Path, migrations: Sequence[Migration] = MIGRATIONS) -> None:
    """Apply the missing migrations, each in its own transaction with its number; refuse a newer store."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > len(migrations):
        raise ClubStoreError(f"{path} was written by a newer club server (schema {version}, "
                             f"this one knows {len(migrations)})")
    apply_migrations(db, migrations)


class ClubStore:
    """One connection to the club's store; safe to share between threads (one lock around it)."""

    def __init__(self, path: Path, *, create: bool = True) -> None:
        self.path = path
        if not create and not path.exists():
            raise ClubStoreError(f"{path} does not exist")
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                                       timeout=BUSY_MILLISECONDS / 1000)
            self._db.execute(f"PRAGMA busy_timeout = {BUSY_MILLISECONDS}")
            self._db.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL: a power cut may lose the last moments' messages, never corrupt; the
            # broker still holds them (retained, the persistent session) and sends them again.
            self._db.execute("PRAGMA synchronous=NORMAL")
            migrate(self._db, path)
        except sqlite3.DatabaseError as error:
            raise ClubStoreError(f"{path}: {error}") from None
        self._lock = threading.RLock()
        self.version = self._count()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> ClubStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock, write_transaction(self._db) as db:
            yield db

    def _count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM plays").fetchone()[0])

    # -- the subscriber writes ---------------------------------------------------------------

    def has_play(self, play_id: str) -> bool:
        """Whether the play ``play_id`` is held already (a repeat is not validated again)."""
        with self._lock:
            return self._db.execute("SELECT 1 FROM plays WHERE id = ?", (play_id,)).fetchone() is not None

    def add_play(self, *, id: str, club: str, table: str, game: str, ranked: bool, played_at: datetime,
                 finished_at: str | None, clock_sure: bool, received_at: datetime,
                 players: Sequence[str], scores: dict[str, int], winners: Sequence[str],
                 championship: dict[str, Any] | None, record: object, summary: object) -> bool:
        """Keep a play; ``False`` when a play of that id is held already (nothing changes then)."""
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO plays (id, club, table_name, game, ranked, played_at, finished_at,"
                " clock_sure, received_at, players, scores, winners, championship, record, summary)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (id, club, table, game, int(ranked), _utc(played_at), finished_at, int(clock_sure),
                 _utc(received_at), _dumps(list(players)), _dumps(scores), _dumps(list(winners)),
                 None if championship is None else _dumps(championship), _dumps(record), _dumps(summary)))
            added = cursor.rowcount == 1
        if added:
            self.version += 1
        return added

    def set_status(self, club: str, table: str, status: dict[str, Any], received_at: datetime) -> None:
        """A table's status replaces the one before (online or its last will)."""
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO tables (club, name, online, status, received_at)"
                       " VALUES (?, ?, ?, ?, ?)",
                       (club, table, int(bool(status.get("online"))), _dumps(status), _utc(received_at)))

    def set_championship(self, championship_id: str, club: str, table: str, message: dict[str, Any],
                         received_at: datetime) -> None:
        """A championship as its table last described it."""
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO championships (id, club, table_name, message, received_at)"
                       " VALUES (?, ?, ?, ?, ?)",
                       (championship_id, club, table, _dumps(message), _utc(received_at)))

    def client_id(self) -> str:
        """The club server's MQTT client id, made once and kept (its persistent session's name)."""
        with self._transaction() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'client_id'").fetchone()
            if row is not None:
                return str(row[0])
            made = f"companion-club-{uuid.uuid4().hex[:16]}"
            db.execute("INSERT INTO meta (key, value) VALUES ('client_id', ?)", (made,))
            return made

    # -- everybody reads ---------------------------------------------------------------------

    def plays_mark(self) -> tuple[int, int]:
        """How many plays are held and the last one's number: it changes when, and only when, a play
        is added (a reader keeps the plays it read until then)."""
        with self._lock:
            count, last = self._db.execute("SELECT count(*), coalesce(max(seq), 0) FROM plays").fetchone()
        return int(count), int(last)

    def plays(self) -> list[StoredPlay]:
        """Every play held, in the order they are dated (then as received)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, id, club, table_name, game, ranked, played_at, clock_sure, players, scores,"
                " winners, championship FROM plays ORDER BY played_at, seq").fetchall()
        return [StoredPlay(int(seq), id_, club, table, game, bool(ranked), datetime.fromisoformat(played_at),
                           bool(sure), tuple(json.loads(players)), dict(json.loads(scores)),
                           tuple(json.loads(winners)), None if champ is None else dict(json.loads(champ)))
                for seq, id_, club, table, game, ranked, played_at, sure, players, scores, winners, champ
                in rows]

    def tables(self) -> list[StoredTable]:
        """Every table's last status, by name."""
        with self._lock:
            rows = self._db.execute(
                "SELECT club, name, online, status, received_at FROM tables ORDER BY name, club").fetchall()
        return [StoredTable(club, name, bool(online), dict(json.loads(status)), datetime.fromisoformat(at))
                for club, name, online, status, at in rows]

    def championships(self) -> list[dict[str, Any]]:
        """Every championship's last message, the most recently received first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT message FROM championships ORDER BY received_at DESC, id").fetchall()
        return [dict(json.loads(message)) for (message,) in rows]


def _utc(moment: datetime) -> str:
    """``moment`` as UTC ISO text (text order is time order)."""
    from datetime import UTC

    return moment.astimezone(UTC).isoformat(timespec="microseconds")
