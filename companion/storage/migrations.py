"""The store's schema, as the ordered list of migrations that build it.

``PRAGMA user_version`` is the number of migrations applied. Opening a store
applies the missing ones in order, each in its own transaction together with
the new version number, so a crash mid-migration leaves the old schema. A
database whose version is higher than ``len(MIGRATIONS)`` was written by a
newer companion and is refused (see :mod:`companion.storage.store`).

To change the schema, append a function; never edit one that has shipped::

    def _add_locations(db: sqlite3.Connection) -> None:
        db.execute("ALTER TABLE sessions ADD COLUMN location TEXT")

    MIGRATIONS.append(_add_locations)   # becomes schema version 2
"""

from __future__ import annotations

import hashlib
import sqlite3
import uuid
from collections.abc import Callable, Iterable

Migration = Callable[[sqlite3.Connection], None]


def _create_schema(db: sqlite3.Connection) -> None:
    """Version 1: every table of the first release."""
    statements = [
        # Player profiles: every name that ever sat at the table, for the
        # player picker; sessions keep their own list of names (the record's).
        """CREATE TABLE players (
               id          INTEGER PRIMARY KEY,
               name        TEXT NOT NULL UNIQUE,
               created     TEXT NOT NULL,
               last_played TEXT NOT NULL
           )""",
        # One game: what a record needs to replay it anywhere (the engine's
        # options_json/setup_json of the opening state), plus when it was
        # played. ``record_hash`` is set for imported records (no duplicates).
        """CREATE TABLE sessions (
               id          INTEGER PRIMARY KEY,
               game        TEXT NOT NULL,
               players     TEXT NOT NULL,
               options     TEXT NOT NULL,
               setup       TEXT NOT NULL,
               started     TEXT NOT NULL,
               finished    TEXT,
               source      TEXT NOT NULL DEFAULT 'table'
                           CHECK (source IN ('table', 'import')),
               record_hash TEXT UNIQUE
           )""",
        "CREATE INDEX sessions_unfinished ON sessions (finished, started)",
        # The accepted move log; idx is 0-based and dense.
        """CREATE TABLE moves (
               session_id INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
               idx        INTEGER NOT NULL CHECK (idx >= 0),
               move       TEXT NOT NULL,
               PRIMARY KEY (session_id, idx)
           ) WITHOUT ROWID""",
        # The redo stack; pos 0 is the bottom, the next move to redo is last.
        """CREATE TABLE redo (
               session_id INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
               pos        INTEGER NOT NULL CHECK (pos >= 0),
               move       TEXT NOT NULL,
               PRIMARY KEY (session_id, pos)
           ) WITHOUT ROWID""",
        # Local settings (confirmed 2-player flags, board layouts, language...).
        """CREATE TABLE settings (
               key     TEXT PRIMARY KEY,
               value   TEXT NOT NULL,
               updated TEXT NOT NULL
           ) WITHOUT ROWID""",
        # Final scores of finished sessions, for statistics.
        """CREATE TABLE results (
               session_id INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
               seat       INTEGER NOT NULL,
               player     TEXT NOT NULL,
               score      INTEGER NOT NULL,
               winner     INTEGER NOT NULL CHECK (winner IN (0, 1)),
               PRIMARY KEY (session_id, seat)
           ) WITHOUT ROWID""",
    ]
    for statement in statements:
        db.execute(statement)


def _profiles_and_abandoned(db: sqlite3.Connection) -> None:
    """Version 2: the colour each player prefers per game, and abandoned sessions.

    An abandoned session keeps its log (it can still be exported) but is no
    longer offered for resuming.
    """
    db.execute("ALTER TABLE sessions ADD COLUMN abandoned TEXT")
    db.execute(
        """CREATE TABLE player_colours (
               player_id INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
               game      TEXT NOT NULL,
               colour    TEXT NOT NULL,
               PRIMARY KEY (player_id, game)
           ) WITHOUT ROWID""")


def _log_versions(db: sqlite3.Connection) -> None:
    """Version 3: a version number per session's log, checked and raised by every save.

    A save that expects another version than the stored one was made on a
    stale copy of the log (two writers) and is refused, never merged.
    """
    db.execute("ALTER TABLE sessions ADD COLUMN log_version INTEGER NOT NULL DEFAULT 0")


def _date_unsure(db: sqlite3.Connection) -> None:
    """Version 4: a game started before the clock was synchronised has an unsure date.

    The players confirm or set it before the game goes to BG Stats (companion/system/clock.py).
    """
    db.execute("ALTER TABLE sessions ADD COLUMN date_unsure INTEGER NOT NULL DEFAULT 0")


def _played_seconds(db: sqlite3.Connection) -> None:
    """Version 5: how long each game was open, measured by the monotonic clock (seconds).

    Added up at every saved change and when the game is put down; the wall clock
    (which a Pi without network may have wrong, or which may jump when it is set)
    plays no part. NULL for the games stored before it was measured.
    """
    db.execute("ALTER TABLE sessions ADD COLUMN played_seconds REAL")


def _set_aside(db: sqlite3.Connection) -> None:
    """Version 6: the sessions a repair set aside because they cannot be replayed at all.

    A session whose game, players, options or setup no longer read cannot be
    started, so it must never be resumed; but it is kept, as it was read (its
    row's values and its moves, as JSON text), with why and when, for the
    doctor to name and for anyone to look at.
    """
    db.execute(
        """CREATE TABLE set_aside (
               id         INTEGER PRIMARY KEY,
               session_id INTEGER NOT NULL,
               reason     TEXT NOT NULL,
               content    TEXT NOT NULL,
               set_aside  TEXT NOT NULL
           )""")


def _championships(db: sqlite3.Connection) -> None:
    """Version 7: championships (four players, rounds of two 2-player games at once), and their rounds.

    A championship keeps what no round holds: its variant, its four players in
    the order named (the pairings follow it), its readings (options) and the
    decisions the players made (a JSON list, replaced whole by one update). Each
    round is a stored game like any other, marked with its championship and its
    number, so that starting a round is the one transaction that stores the game.
    """
    db.execute(
        """CREATE TABLE championships (
               id          INTEGER PRIMARY KEY,
               variant     INTEGER NOT NULL CHECK (variant IN (1, 2)),
               players     TEXT NOT NULL,
               options     TEXT NOT NULL,
               decisions   TEXT NOT NULL DEFAULT '[]',
               created     TEXT NOT NULL,
               source      TEXT NOT NULL DEFAULT 'table' CHECK (source IN ('table', 'import')),
               record_hash TEXT UNIQUE,
               abandoned   TEXT
           )""")
    db.execute("ALTER TABLE sessions ADD COLUMN championship INTEGER REFERENCES championships (id)")
    db.execute("ALTER TABLE sessions ADD COLUMN championship_round INTEGER")
    db.execute("CREATE UNIQUE INDEX sessions_championship_round "
               "ON sessions (championship, championship_round) WHERE championship IS NOT NULL")


#: The running hash of an empty log.
LOG_HASH_START = ""


def log_hash_step(previous: str, move: bytes) -> str:
    """The running hash of a log after one more move (its stored text, as UTF-8 bytes)."""
    return hashlib.sha256(previous.encode("ascii") + b"\n" + move).hexdigest()


def log_hash(moves: Iterable[bytes]) -> str:
    found = LOG_HASH_START
    for move in moves:
        found = log_hash_step(found, move)
    return found


def stored_log_hash(db: sqlite3.Connection, session_id: int, count: int | None = None) -> tuple[int, str]:
    """How many moves session ``session_id`` has stored (the first ``count``), and their running hash.

    Read as bytes (``CAST(move AS BLOB)``), so a text that is not UTF-8 is hashed, not refused.
    """
    limit = -1 if count is None else int(count)
    moves = [bytes(m) for (m,) in db.execute(
        "SELECT CAST(move AS BLOB) FROM moves WHERE session_id = ? ORDER BY idx LIMIT ?",
        (session_id, limit))]
    return len(moves), log_hash(moves)


def _log_bookkeeping(db: sqlite3.Connection) -> None:
    """Version 8: what a repair needs to know of each log.

    Each session keeps the number of its stored moves and a running hash of
    their texts, written in the same transaction as every save of its log
    (:mod:`companion.storage.journal`); a repair that keeps fewer moves than
    these say tells how many were lost, and from which game, never "whole".
    Existing stores get them here, from the moves they hold.

    (No table is added: the list of tables must stay within the first page,
    which the repair replaces by a fresh store's when it is lost.)
    """
    db.execute("ALTER TABLE sessions ADD COLUMN log_count INTEGER")
    db.execute("ALTER TABLE sessions ADD COLUMN log_hash TEXT")
    for (sid,) in db.execute("SELECT id FROM sessions").fetchall():
        count, digest = stored_log_hash(db, sid)
        db.execute("UPDATE sessions SET log_count = ?, log_hash = ? WHERE id = ?", (count, digest, sid))


def _club(db: sqlite3.Connection) -> None:
    """Version 9: a stable id (a UUID) for every game and championship, and the club's outbox.

    A club of tables keeps plays by these ids (docs/club.md), so an id never changes once given;
    the games and championships stored before get theirs here. The outbox holds the games
    finished while the club was configured, one row per game, written in the same transaction as
    the move that finished it (:mod:`companion.storage.outbox`); ``sent`` is set once the
    club's broker acknowledged the play. ``sure``: whether the clock was synchronised then.

    Its text is as short as it can be: the list of tables must stay within the first page
    (see version 8), and this table leaves a few bytes of it.
    """
    db.execute("ALTER TABLE sessions ADD COLUMN uuid TEXT")
    db.execute("ALTER TABLE championships ADD COLUMN uuid TEXT")
    db.execute("CREATE TABLE outbox (session_id INTEGER PRIMARY KEY, queued TEXT NOT NULL, sure INTEGER, "
               "sent TEXT)")
    for table in ("sessions", "championships"):
        for (row_id,) in db.execute(f"SELECT id FROM {table}").fetchall():
            db.execute(f"UPDATE {table} SET uuid = ? WHERE id = ?", (new_uuid(), row_id))


def new_uuid() -> str:
    """A new stable id: lowercase, 36 characters with hyphens (the club's topics name it)."""
    return str(uuid.uuid4())


#: Schema migrations in order; ``MIGRATIONS[i]`` takes version ``i`` to ``i + 1``.
MIGRATIONS: list[Migration] = [_create_schema, _profiles_and_abandoned, _log_versions, _date_unsure,
                               _played_seconds, _set_aside, _championships, _log_bookkeeping, _club]
