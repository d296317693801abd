"""The journal: a session's log saved in one transaction, with what a repair needs to know of it.

Split out of :mod:`companion.storage.store`. :func:`save_log` replaces the
moves from an index on and the redo stack, raises the session's log version
(refusing a save made on a stale copy), adds the time played, and keeps the
session's bookkeeping — the number of stored moves and a running hash of
their texts (:func:`companion.storage.migrations.log_hash_step`) — all in the
same ``BEGIN IMMEDIATE … COMMIT``. A repair compares what it could keep with
these, so it says how many moves were lost and never calls a shortened log whole.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from companion.games.messages import msg
from companion.storage.errors import StaleLog
from companion.storage.migrations import log_hash_step, stored_log_hash
from companion.storage.rows import dumps


class JournalStore(Protocol):
    """What a :class:`StoreJournal` needs of :class:`~companion.storage.store.Store`.

    Named as a protocol, not imported: the store imports this module (it saves
    logs with :func:`save_log`), so naming the store here would close a circle.
    """

    read_only: bool

    def log_version(self, session_id: int) -> int:
        """How many times the session's log has been saved."""

    def _save_log(self, session_id: int, first: int, moves: Sequence[dict[str, Any]],
                  redo: Sequence[dict[str, Any]], *, expected: int | None = ..., played: float = ...,
                  finished: bool | None = ..., sure: bool = ...) -> int:
        """The log change in one transaction; the new log version."""

    def add_played(self, session_id: int, seconds: float) -> None:
        """Add ``seconds`` to how long the game was open."""


def insert_moves(db: sqlite3.Connection, session_id: int, first: int, texts: Sequence[str],
                 previous: tuple[int, str] | None = None, *, bookkeeping: bool = True) -> None:
    """Insert ``texts`` as moves ``first``… and set the session's move count and running hash.

    ``previous``: the count and hash of moves ``0..first-1`` when known (else read from the store).
    ``bookkeeping``: the store has the columns (schema 8; the tests of older schemas have not).
    """
    db.executemany("INSERT INTO moves (session_id, idx, move) VALUES (?, ?, ?)",
                   [(session_id, first + offset, text) for offset, text in enumerate(texts)])
    if not bookkeeping:
        return
    count, digest = previous if previous is not None else stored_log_hash(db, session_id, first)
    for text in texts:
        digest = log_hash_step(digest, text.encode("utf-8"))
    db.execute("UPDATE sessions SET log_count = ?, log_hash = ? WHERE id = ?",
               (count + len(texts), digest, session_id))


def save_log(db: sqlite3.Connection, session_id: int, first: int, moves: Sequence[dict[str, Any]],
             redo: Sequence[dict[str, Any]], *, expected: int | None, played: float,
             bookkeeping: bool = True) -> int:
    """The log change inside the caller's transaction; returns the new log version (see the module)."""
    bumped = db.execute(
        "UPDATE sessions SET log_version = log_version + 1, played_seconds = played_seconds + ? "
        "WHERE id = ?" + ("" if expected is None else " AND log_version = ?"),
        (float(played), session_id) if expected is None else (float(played), session_id, expected))
    if bumped.rowcount != 1:
        raise StaleLog(msg("store.stale", session=session_id))
    previous = None
    if bookkeeping:
        kept = db.execute("SELECT log_count, log_hash FROM sessions WHERE id = ?", (session_id,)).fetchone()
        previous = (first, str(kept[1])) if kept[0] == first and isinstance(kept[1], str) else None
    db.execute("DELETE FROM moves WHERE session_id = ? AND idx >= ?", (session_id, first))
    insert_moves(db, session_id, first, [dumps(m) for m in moves], previous, bookkeeping=bookkeeping)
    db.execute("DELETE FROM redo WHERE session_id = ?", (session_id,))
    db.executemany("INSERT INTO redo (session_id, pos, move) VALUES (?, ?, ?)",
                   [(session_id, pos, dumps(m)) for pos, m in enumerate(redo)])
    version = db.execute("SELECT log_version FROM sessions WHERE id = ?", (session_id,)).fetchone()
    return int(version[0])


class StoreJournal:
    """A session's :class:`~companion.service.session.Journal` writing to one stored session."""

    def __init__(self, store: JournalStore, session_id: int,
                 clock: Callable[[], float] | None = None, *, outbox: bool = False,
                 clock_sure: Callable[[], bool] | None = None) -> None:
        self.store = store
        self.session_id = session_id
        #: The club is configured: a save that finishes the game queues it in the club's outbox, in
        #: the save's own transaction (:mod:`companion.storage.outbox`); ``clock_sure`` says whether
        #: the wall clock could be trusted when it finished.
        self.outbox = outbox
        self._clock_sure = clock_sure
        #: The session's log version when its moves were read; every save expects it.
        #: (A reader never saves, and may read a store of an older schema.)
        self.version = 0 if store.read_only else store.log_version(session_id)
        #: The monotonic clock the game's time is measured by (``None``: not measured), and
        #: its reading when the time up to now was last counted (at opening, then at each save).
        self._clock = clock
        self._mark = clock() if clock is not None else 0.0

    def _lap(self) -> tuple[float, float]:
        """The monotonic time now, and the seconds since the last count."""
        if self._clock is None:
            return 0.0, 0.0
        now = self._clock()
        return now, max(0.0, now - self._mark)

    def save(self, first: int, moves: Sequence[dict[str, Any]], redo: Sequence[dict[str, Any]], *,
             finished: bool = False) -> None:
        """Replace moves ``first``.. and the redo stack, in one transaction.

        The time since the game was opened (or since the last save) is added to
        the game's time in the same transaction, and so is the club's outbox row
        when the club is configured (``finished``: the saved log ends the game).
        :class:`StaleLog` (nothing written) when the stored log changed since it was read.
        """
        now, played = self._lap()
        sure = self._clock_sure() if self.outbox and finished and self._clock_sure is not None else True
        self.version = self.store._save_log(self.session_id, first, moves, redo, expected=self.version,
                                            played=played, finished=finished if self.outbox else None,
                                            sure=sure)
        self._mark = now

    def put_down(self) -> None:
        """The game is left (another one opened, the app closed): the time since the last save counts."""
        now, played = self._lap()
        if played and not self.store.read_only:
            self.store.add_played(self.session_id, played)
        self._mark = now
