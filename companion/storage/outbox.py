"""The club's outbox: the games finished at this table that the club's broker has yet to acknowledge.

A game finished while the club is configured (``[club]`` in ``companion.toml``, docs/club.md)
gets one ``outbox`` row, written by :func:`queue` inside the very transaction that stores the
finishing move (:meth:`~companion.storage.store.Store._save_log`): there is no moment when the
move is stored and its row is not. A move that un-finishes the game (undo) withdraws a row not
yet sent in the same way. The move path never touches the network: the publisher
(``companion club run``, a process of its own) reads the outbox and sends.

The publisher opens the store read-only, like the phone page, and has exactly one narrow way to
write: :func:`mark_sent` sets ``sent`` on the rows the broker acknowledged, in a short
transaction of its own (a busy timeout, never the writer's lock held long; the app's moves
never wait on the network). :func:`queue_since` (``companion club publish --since DATE``) adds
older finished games the same way. Neither takes the store's writer lock: they touch only the
outbox, never a game's log.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from companion.storage.connection import write_transaction

#: The schema version that has the outbox and the stable ids.
OUTBOX_VERSION = 9
#: How long a narrow write waits for the app's transaction to end (a move's is milliseconds).
BUSY_TIMEOUT_MS = 5000


@dataclass(frozen=True)
class OutboxRow:
    """One finished game in the outbox: its session, its stable id, when it finished, whether the
    clock was sure then, and when the broker acknowledged it (``None``: waiting)."""

    session_id: int
    uuid: str
    queued: str
    clock_sure: bool
    sent: str | None


def stamp(moment: datetime) -> str:
    """A time as the store keeps it (UTC, ISO 8601, seconds)."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def queue(db: sqlite3.Connection, session_id: int, when: str, sure: bool) -> None:
    """Inside the caller's transaction: the game ``session_id``, just finished by a move at this table,
    waits to be sent (once: a row that is there already, sent or not, stays as it is). A record
    imported unfinished and played to its end here is queued too: its end was at this table; a
    record imported finished never comes here (an import saves no move through a journal)."""
    db.execute("INSERT OR IGNORE INTO outbox (session_id, queued, sure, sent) "
               "SELECT id, ?, ?, NULL FROM sessions WHERE id = ?", (when, int(sure), session_id))


def withdraw(db: sqlite3.Connection, session_id: int) -> None:
    """Inside the caller's transaction: the game is no longer finished; a row not yet sent goes."""
    db.execute("DELETE FROM outbox WHERE session_id = ? AND sent IS NULL", (session_id,))


def read_outbox(db: sqlite3.Connection, *, waiting_only: bool = False) -> list[OutboxRow]:
    """The outbox's rows whose game is there (oldest finish first); none before schema 9."""
    if int(db.execute("PRAGMA user_version").fetchone()[0]) < OUTBOX_VERSION:
        return []
    where = " WHERE o.sent IS NULL" if waiting_only else ""
    rows = db.execute("SELECT o.session_id, s.uuid, o.queued, o.sure, o.sent FROM outbox o "
                      f"JOIN sessions s ON s.id = o.session_id{where} ORDER BY o.queued, o.session_id")
    return [OutboxRow(int(sid), str(uid), str(queued), sure == 1, None if sent is None else str(sent))
            for sid, uid, queued, sure, sent in rows]


@contextmanager
def _narrow(path: Path) -> Iterator[sqlite3.Connection]:
    """A short write transaction on the outbox alone, on a connection of its own."""
    db = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        db.execute("PRAGMA synchronous = FULL")
        with write_transaction(db):
            yield db
    finally:
        db.close()


def mark_sent(path: Path, session_ids: Iterable[int], when: datetime) -> int:
    """The broker acknowledged these games: their rows are sent (at ``when``). Returns how many rows
    changed (a row withdrawn meanwhile, or sent already, is left as it is)."""
    ids = [int(s) for s in session_ids]
    if not ids:
        return 0
    with _narrow(path) as db:
        changed = db.executemany("UPDATE outbox SET sent = ? WHERE session_id = ? AND sent IS NULL",
                                 [(stamp(when), sid) for sid in ids])
        return int(changed.rowcount)


def queue_since(path: Path, since: datetime) -> int:
    """Queue every game finished at this table since ``since`` (not imported, not abandoned) that the
    outbox does not hold yet; returns how many were added."""
    with _narrow(path) as db:
        added = db.execute("INSERT OR IGNORE INTO outbox (session_id, queued, sure, sent) "
                           "SELECT id, finished, 1 - date_unsure, NULL FROM sessions "
                           "WHERE finished IS NOT NULL AND finished >= ? AND source = 'table' "
                           "AND abandoned IS NULL", (stamp(since),))
        return int(added.rowcount)


class StoredOutbox:
    """The outbox's and the stable ids' reading methods of :class:`~companion.storage.store.Store`."""

    _db: sqlite3.Connection

    @property
    def schema_version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def outbox(self, *, waiting_only: bool = False) -> list[OutboxRow]:
        """The club's outbox, oldest finish first."""
        return read_outbox(self._db, waiting_only=waiting_only)

    def stable_id(self, table: str, row_id: int) -> str | None:
        """The stable id (UUID) of a game (``table="sessions"``) or a championship, ``None`` before
        schema 9 or when it has none."""
        if table not in ("sessions", "championships") or self.schema_version < OUTBOX_VERSION:
            return None
        found = self._db.execute(f"SELECT uuid FROM {table} WHERE id = ?", (row_id,)).fetchone()
        return found[0] if found is not None and isinstance(found[0], str) else None
