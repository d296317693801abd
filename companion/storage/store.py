"""The durable store: one SQLite file holding players, sessions, moves, settings and results.

Durability rules (see ``docs/storage.md``):

- WAL journal, ``synchronous=FULL``, foreign keys on; every accepted move is
  one transaction (:meth:`StoreJournal.save`): the moves from the changed
  index on and the redo stack are replaced together, or not at all.
- The schema is versioned by ``PRAGMA user_version`` and built by the
  migrations of :mod:`companion.storage.migrations`, applied in order at open. A
  database from a newer companion is refused, never modified.
- The move log is the truth. Whether a session is finished, and its results,
  are derived from it by the application (:mod:`companion.service.app`), which
  writes them here right after the move that ends (or un-ends, by undo) the
  game and reconciles them whenever a session is opened.

Storage only: rows in, rows out. This module builds no session and reads no
engine summary; :mod:`companion.service.app` does. Only the store (and the CLI that
calls it) reads the clock; engines never do.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from companion.games.base import Game
from companion.games.messages import Message, msg
from companion.registry import get_game
from companion.storage import outbox
from companion.storage.championships import StoredChampionships
from companion.storage.connection import (
    MAX_NAME,
    check_copy,
    check_new_name,
    closed_on_failure,
    configure,
    connect_reading,
    create_atomically,
    damage_found,
    damaged_message,
    fsync_path,
    is_corrupt,
    migrate,
    page_check,
    read_only_message,
    refuse_outside_damage,
    take_lock,
    write_transaction,
)
from companion.storage.errors import DamagedRow, StaleLog, StoreError
from companion.storage.journal import StoreJournal, insert_moves, save_log
from companion.storage.lock import WriterLock
from companion.storage.migrations import LOG_HASH_START, MIGRATIONS, Migration, new_uuid
from companion.storage.outbox import OUTBOX_VERSION, StoredOutbox
from companion.storage.rows import (
    DB_ERRORS,
    ChampionshipRow,
    Result,
    ResultRow,
    SessionRow,
    connect,
    dumps,
    is_integer,
    is_text,
    json_value,
    move_object,
    reading,
    session_row,
)

#: Names other modules import from here (the store was one module before it was split).
__all__ = [
    "MAX_NAME", "ChampionshipRow", "Clock", "DamagedRow", "GameLookup", "Result", "ResultRow", "SessionRow",
    "StaleLog", "Store", "StoreError", "StoreJournal", "check_copy", "check_new_name", "connect_reading",
    "damaged_message", "fsync_path", "is_corrupt", "page_check", "read_only_message",
]

Clock = Callable[[], datetime]
_Row = TypeVar("_Row")
GameLookup = Callable[[str], Game[Any, Any]]


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _stamp(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("the store's clock must give timezone-aware times")
    return moment.astimezone(UTC).isoformat(timespec="seconds")


class Store(StoredChampionships, StoredOutbox):
    """The companion's SQLite database. Open with :meth:`open`; one per process and thread."""

    def __init__(self, db: sqlite3.Connection, path: Path, clock: Clock, games: GameLookup) -> None:
        self._db = db
        self.path = path
        self._clock = clock
        self._games = games
        #: Opened for reading only (``read_only=True``, or damaged pages): every write is refused.
        self.read_only = False
        #: What ``PRAGMA quick_check`` found at open (empty: the pages are sound).
        self.damage: list[str | Message] = []
        self._lock: WriterLock | None = None
        #: Rows a listing left out because a value does not read (:class:`DamagedRow`'s message, by
        #: row): ``companion doctor`` names them, ``companion doctor --repair`` mends or keeps them aside.
        self.unreadable_rows: dict[str, Message] = {}

    # -- opening -----------------------------------------------------------
    @classmethod
    def open(cls, path: str | Path, *, clock: Clock | None = None,
             games: GameLookup = get_game, migrations: Sequence[Migration] | None = None,
             read_only: bool = False) -> Store:
        """Open (creating if needed) the store at ``path`` and bring its schema up to date.

        ``clock`` gives aware datetimes (default: now, UTC); ``games`` finds an
        engine by name (default: the registry); ``migrations`` replaces the
        project's list (tests of the migration mechanism only).

        Writing takes the store's one-writer lock (:mod:`companion.storage.lock`); a
        second writer is refused naming the holder. ``read_only`` opens
        without the lock and never writes: no file created, no migration, no
        WAL switch, no reconciling; a missing file reads as an empty store.
        Either way ``PRAGMA quick_check`` runs first: a store with damaged
        pages is opened read-only, its problems in :attr:`damage`.
        """
        path = Path(path)
        migrations = MIGRATIONS if migrations is None else migrations
        refuse_outside_damage(path)
        if read_only:
            return cls._open_reading(path, clock or _utc_now, games, migrations)
        lock = take_lock(path)
        try:
            if not path.exists():
                create_atomically(path, migrations)
            try:
                db = connect(path, isolation_level=None, timeout=5.0)
            except (sqlite3.Error, UnicodeDecodeError) as error:
                raise StoreError(msg("store.cannot_open_database", path=str(path),
                                     reason=str(error))) from None
            with closed_on_failure(db, path):
                damage = damage_found(db, path, len(migrations), writable=True)
                if damage:
                    db.close()
                    store = cls._open_reading(path, clock or _utc_now, games, migrations)
                    store.damage = store.damage or damage  # never read-only with no damage named
                    store._lock = lock
                    return store
                configure(db, path)
                migrate(db, path, migrations)
        except BaseException:
            lock.release()
            raise
        store = cls(db, path, clock or _utc_now, games)
        store._lock = lock
        return store

    @classmethod
    def _open_reading(cls, path: Path, clock: Clock, games: GameLookup,
                      migrations: Sequence[Migration]) -> Store:
        if not path.exists():  # nothing stored yet: an empty store in memory, nothing created
            db = connect(":memory:", isolation_level=None)
            migrate(db, path, migrations)
            store = cls(db, path, clock, games)
            store.read_only = True
            return store
        db = connect_reading(path)
        with closed_on_failure(db, path):
            damage = damage_found(db, path, len(migrations), writable=False)
        store = cls(db, path, clock, games)
        store.read_only = True
        store.damage = damage
        return store

    def close(self) -> None:
        self._db.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def copy_to(self, target: Path) -> Path:
        """A consistent copy of the whole store at ``target`` (SQLite's online backup API).

        Safe while a game is played (a reader's snapshot). The copy is written
        in a private folder made beside ``target`` (only this process may
        write it, so no link planted under a guessable name is ever followed),
        synced, read back (:func:`check_copy`), and only then renamed to
        ``target``: a rename replaces a name, it never writes through a link. A
        ``target`` that exists already, of whatever kind, is refused.
        """
        check_new_name(target)
        private = Path(tempfile.mkdtemp(prefix=".companion-copy-", dir=target.parent))
        temporary = private / "copy.sqlite3"
        try:
            copy = sqlite3.connect(temporary)
            try:
                self._db.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            finally:
                copy.close()
            fsync_path(temporary)
            check_copy(temporary, self.schema_version)
            check_new_name(target)
            os.replace(temporary, target)
        finally:
            shutil.rmtree(private, ignore_errors=True)
        return target

    @property
    def schema_version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def pragma(self, name: str) -> Any:
        """The value of a read-only pragma (``journal_mode``, ``synchronous``, ``integrity_check``)."""
        if not name.replace("_", "").isalnum():
            raise ValueError(f"not a pragma name: {name!r}")
        return self._db.execute(f"PRAGMA {name}").fetchone()[0]

    def refuse_writing(self) -> None:
        """:class:`StoreError` saying why this store cannot be written, if it cannot."""
        if self.damage:
            raise StoreError(damaged_message(self.path, self.damage))
        if self.read_only:
            raise StoreError(msg("store.reading_only", path=str(self.path)))

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self.refuse_writing()
        with write_transaction(self._db) as db:
            yield db

    def _now(self) -> str:
        return _stamp(self._clock())

    def now(self) -> datetime:
        """The store's clock (the one its time stamps come from)."""
        return self._clock()

    # -- players -----------------------------------------------------------
    def _touch_players(self, db: sqlite3.Connection, players: Sequence[str], now: str) -> None:
        db.executemany(
            "INSERT INTO players (name, created, last_played) VALUES (?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET last_played = excluded.last_played",
            [(name, now, now) for name in players])

    def players(self) -> list[str]:
        """Every player profile, the most recently seated first (for a player picker)."""
        rows = self._db.execute("SELECT id, name FROM players ORDER BY last_played DESC, name")
        return [self._text("players", pid, name) for pid, name in rows]

    @staticmethod
    def _text(table: str, row: object, value: object) -> str:
        """A stored name; :class:`DamagedRow` when it is not text (a blob, a number, not UTF-8)."""
        if not is_text(value):
            with reading(table, row):
                raise ValueError(value)
        assert isinstance(value, str)
        return value

    def add_player(self, name: str) -> bool:
        """Add a profile (no game played yet); ``False`` when it exists already."""
        now = self._now()
        with self._transaction() as db:
            cursor = db.execute("INSERT INTO players (name, created, last_played) VALUES (?, ?, ?) "
                                "ON CONFLICT (name) DO NOTHING", (name, now, now))
        return cursor.rowcount == 1

    def remove_player(self, name: str) -> bool:
        """Remove a profile and its colours (its games keep the name); ``False`` when there was none."""
        with self._transaction() as db:
            cursor = db.execute("DELETE FROM players WHERE name = ?", (name,))
        return cursor.rowcount == 1

    def player_colours(self) -> dict[str, dict[str, str]]:
        """Every profile's preferred colour per game: ``{player: {game: colour}}``."""
        table: dict[str, dict[str, str]] = {}
        for pid, name, game, colour in self._db.execute(
                "SELECT p.id, p.name, c.game, c.colour FROM player_colours c "
                "JOIN players p ON p.id = c.player_id"):
            colours = table.setdefault(self._text("players", pid, name), {})
            colours[self._text("player_colours", pid, game)] = self._text("player_colours", pid, colour)
        return table

    def set_player_colour(self, name: str, game: str, colour: str | None) -> None:
        """Set (or, with ``None``, clear) the colour ``name`` prefers at ``game``; the profile must exist."""
        with self._transaction() as db:
            found = db.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()
            if found is None:
                raise StoreError(msg("store.no_profile", name=name))
            if colour is None:
                db.execute("DELETE FROM player_colours WHERE player_id = ? AND game = ?", (found[0], game))
            else:
                db.execute("INSERT INTO player_colours (player_id, game, colour) VALUES (?, ?, ?) "
                           "ON CONFLICT (player_id, game) DO UPDATE SET colour = excluded.colour",
                           (found[0], game, colour))

    # -- sessions ----------------------------------------------------------
    def insert_session(self, game: str, players: Sequence[str], options: Mapping[str, Any],
                       setup: Mapping[str, Any], *, moves: Sequence[dict[str, Any]] = (),
                       results: Sequence[Result] | None = None, source: str = "table",
                       record_hash: str | None = None, date_unsure: bool = False,
                       championship: tuple[int, int] | None = None) -> int:
        """Store a session as given (rows in, checked by the caller); returns its id.

        ``options``/``setup`` are the engine's complete JSON, ``moves`` the
        record JSON of its log, ``results`` (finished games) one per seat,
        ``championship`` the championship and round number the game is. One
        transaction: the session, its moves and results, and the players' profiles.
        """
        with self._transaction() as db:
            return self._insert_session(db, game, players, options, setup, moves=moves, results=results,
                                        source=source, record_hash=record_hash, date_unsure=date_unsure,
                                        championship=championship)

    def _insert_session(self, db: sqlite3.Connection, game: str, players: Sequence[str],
                        options: Mapping[str, Any], setup: Mapping[str, Any], *,
                        moves: Sequence[dict[str, Any]], results: Sequence[Result] | None, source: str,
                        record_hash: str | None, date_unsure: bool,
                        championship: tuple[int, int] | None) -> int:
        """:meth:`insert_session` inside the caller's transaction."""
        now = self._now()
        cursor = db.execute(
            "INSERT INTO sessions (game, players, options, setup, started, source, record_hash) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game, dumps(list(players)), dumps(options), dumps(setup), now, source, record_hash))
        session_id = int(cursor.lastrowid or 0)
        if self.schema_version >= OUTBOX_VERSION:  # the stable id the club knows the game by
            db.execute("UPDATE sessions SET uuid = ? WHERE id = ?", (new_uuid(), session_id))
        if date_unsure:
            db.execute("UPDATE sessions SET date_unsure = 1 WHERE id = ?", (session_id,))
        if source == "table" and self.schema_version >= 5:  # measured from now on (a record has no times)
            db.execute("UPDATE sessions SET played_seconds = 0 WHERE id = ?", (session_id,))
        insert_moves(db, session_id, 0, [dumps(m) for m in moves], (0, LOG_HASH_START),
                     bookkeeping=self.schema_version >= 8)
        if results is not None:
            self._write_results(db, session_id, results, now)
        if championship is not None:
            db.execute("UPDATE sessions SET championship = ?, championship_round = ? WHERE id = ?",
                       (championship[0], championship[1], session_id))
        self._touch_players(db, players, now)
        return session_id

    def session_with_hash(self, record_hash: str) -> int | None:
        """The id of the imported session stored with ``record_hash``, if any."""
        known = self._db.execute("SELECT id FROM sessions WHERE record_hash = ?", (record_hash,)).fetchone()
        return None if known is None else int(known[0])

    # -- compatibility: sessions are built by companion.service.app ----------------------
    # These three delegate to the application service and remain only for callers
    # not yet moved to it (the crash-consistency test); new code uses Companion.
    def _readable(self, read: Callable[[Any], _Row], records: Iterable[Any]) -> list[_Row]:
        """The rows of a listing that read; one that does not is left out and kept in
        :attr:`unreadable_rows` (one damaged game must not hide the others, nor stop the boot)."""
        found = []
        for record in records:
            try:
                found.append(read(record))
            except DamagedRow as error:
                self.unreadable_rows[f"{error.message.params.get('table')}/{record[0]}"] = error.message
        return found

    def _row(self, record: sqlite3.Row | tuple[Any, ...]) -> SessionRow:
        """:class:`DamagedRow` when a value of the row does not read (see :mod:`companion.storage.rows`)."""
        with reading("sessions", record[0]):
            return session_row(record)

    # Ordered by id, the store's own sequence: never by the wall clock, which a Pi without
    # network may have wrong (companion/system/clock.py).
    @property
    def _select(self) -> str:
        return self._select_counting("(SELECT COUNT(*) FROM moves m WHERE m.session_id = s.id)")

    def _select_counting(self, moves: str) -> str:
        # A store opened read-only is not migrated: one from before version 4 has no date_unsure.
        unsure = "s.date_unsure" if self.schema_version >= 4 else "0"
        played = "s.played_seconds" if self.schema_version >= 5 else "NULL"
        rounds = "s.championship, s.championship_round" if self.schema_version >= 7 else "NULL, NULL"
        return ("SELECT s.id, s.game, s.players, s.options, s.setup, s.started, s.finished, s.source, "
                f"{moves}, s.abandoned, {unsure}, {played}, {rounds} FROM sessions s ")

    def _salvaged_sessions(self) -> list[SessionRow]:
        """Every session whose row still reads, the most recent first, on a store with damaged pages.

        One damaged page of moves must not hide every game from ``sessions`` while
        ``stats`` and ``export`` still read them: each row is read on its own, and
        its moves counted up to the first that does not read.
        """
        ids: list[int] = []
        after, steps = 0, 0
        while steps < 10_000:  # past a damaged page of the sessions table, one id at a time
            try:
                for (sid,) in self._db.execute("SELECT id FROM sessions WHERE id > ? ORDER BY id", (after,)):
                    ids.append(int(sid))
                    after = int(sid)
                break
            except DB_ERRORS:
                after, steps = after + 1, steps + 1
        found = []
        for sid in reversed(ids):
            with contextlib.suppress(*DB_ERRORS, DamagedRow):
                record = self._db.execute(self._select_counting("0") + "WHERE s.id = ?", (sid,)).fetchone()
                found.append(self._row((*record[:8], self._readable_moves(sid), *record[9:])))
        return found

    def _readable_moves(self, session_id: int) -> int:
        count = 0
        with contextlib.suppress(*DB_ERRORS):
            for _ in self._db.execute("SELECT idx FROM moves WHERE session_id = ? ORDER BY idx",
                                      (session_id,)):
                count += 1
        return count

    def session(self, session_id: int) -> SessionRow:
        """The stored session ``session_id``; :class:`StoreError` when there is none."""
        record = self._db.execute(self._select + "WHERE s.id = ?", (session_id,)).fetchone()
        if record is None:
            raise StoreError(msg("store.no_session", session=session_id))
        return self._row(record)

    def list_sessions(self) -> list[SessionRow]:
        """Every session, the most recent first (on damaged pages: every one that still reads)."""
        try:
            return self._readable(self._row, self._db.execute(self._select + "ORDER BY s.id DESC"))
        except DB_ERRORS:
            if not self.damage:
                raise
            return self._salvaged_sessions()

    def latest_session(self, *, finished: bool | None = None) -> SessionRow | None:
        """The most recent session (only finished / unfinished ones when ``finished`` is given)."""
        where = "" if finished is None else ("WHERE s.finished IS NOT NULL " if finished
                                             else "WHERE s.finished IS NULL ")
        for record in self._db.execute(self._select + where + "ORDER BY s.id DESC"):
            found = self._readable(self._row, [record])
            if found:
                return found[0]
        return None

    def resumable_sessions(self) -> list[SessionRow]:
        """Sessions neither finished nor abandoned, the most recent first."""
        return self._readable(self._row, self._db.execute(
            self._select + "WHERE s.finished IS NULL AND s.abandoned IS NULL "
                           "ORDER BY s.id DESC"))

    def confirm_date(self, session_id: int, started: datetime | None = None) -> None:
        """The players confirmed the game's date (``started`` when they set it anew): no longer unsure."""
        self.session(session_id)
        with self._transaction() as db:
            if started is None:
                db.execute("UPDATE sessions SET date_unsure = 0 WHERE id = ?", (session_id,))
            else:
                db.execute("UPDATE sessions SET date_unsure = 0, started = ? WHERE id = ?",
                           (_stamp(started), session_id))

    def abandon_session(self, session_id: int) -> None:
        """Mark a session abandoned now: kept (and exportable), no longer offered for resuming."""
        self.session(session_id)
        with self._transaction() as db:
            db.execute("UPDATE sessions SET abandoned = ? WHERE id = ?", (self._now(), session_id))

    def delete_session(self, session_id: int) -> None:
        """Remove a session with its moves, redo stack and results."""
        self.session(session_id)
        with self._transaction() as db:
            if self.schema_version >= OUTBOX_VERSION:
                db.execute("DELETE FROM outbox WHERE session_id = ?", (session_id,))
            db.execute("DELETE FROM sessions WHERE id = ?", (session_id,))

    def stored_moves(self, session_id: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The stored move log and redo stack of a session, as record JSON."""
        return (self._moves("moves", "idx", session_id), self._moves("redo", "pos", session_id))

    def _moves(self, table: str, order: str, session_id: int) -> list[dict[str, Any]]:
        """A session's moves (or undone moves) as record JSON; :class:`DamagedRow` naming the first that
        does not read, or the first missing from the count (a log is dense from 0)."""
        found = []
        for position, (index, text) in enumerate(self._db.execute(
                f"SELECT {order}, move FROM {table} WHERE session_id = ? ORDER BY {order}", (session_id,))):
            with reading(table, f"{session_id}/{index}"):
                if table == "moves" and index != position:  # (the redo stack is an order, not a count)
                    raise IndexError(position)
                found.append(move_object(text))
        return found

    # -- the journal and the derived results ---------------------------------
    def log_version(self, session_id: int) -> int:
        """How many times the session's log has been saved (each save checks and raises it)."""
        found = self._db.execute("SELECT log_version FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if found is None:
            raise StoreError(msg("store.no_session", session=session_id))
        return int(found[0])

    def _save_log(self, session_id: int, first: int, moves: Sequence[dict[str, Any]],
                  redo: Sequence[dict[str, Any]], *, expected: int | None = None, played: float = 0.0,
                  finished: bool | None = None, sure: bool = True) -> int:
        """Write the log change in one transaction (:func:`companion.storage.journal.save_log`);
        returns the new log version. :class:`StaleLog` when ``expected`` is not the stored version.

        ``finished`` (the club is configured): whether the saved log ends the game; the club's
        outbox row is queued or withdrawn in the same transaction (:mod:`companion.storage.outbox`).
        """
        with self._transaction() as db:
            version = save_log(db, session_id, first, moves, redo, expected=expected, played=played,
                               bookkeeping=self.schema_version >= 8)
            if finished is not None and self.schema_version >= OUTBOX_VERSION:
                if finished:
                    outbox.queue(db, session_id, self._now(), sure)
                else:
                    outbox.withdraw(db, session_id)
            return version

    def add_played(self, session_id: int, seconds: float) -> None:
        """Add ``seconds`` (monotonic) to how long the game was open; nothing for a game not measured."""
        with self._transaction() as db:
            db.execute("UPDATE sessions SET played_seconds = played_seconds + ? WHERE id = ?",
                       (float(seconds), session_id))

    def write_results(self, session_id: int, results: Sequence[Result] | None) -> None:
        """Mark the session finished now with ``results`` (one per seat), or unfinished with ``None``."""
        with self._transaction() as db:
            db.execute("DELETE FROM results WHERE session_id = ?", (session_id,))
            if results is None:
                db.execute("UPDATE sessions SET finished = NULL WHERE id = ?", (session_id,))
            else:
                self._write_results(db, session_id, results, self._now())

    @staticmethod
    def _write_results(db: sqlite3.Connection, session_id: int, results: Sequence[Result],
                       when: str) -> None:
        db.executemany(
            "INSERT INTO results (session_id, seat, player, score, winner) VALUES (?, ?, ?, ?, ?)",
            [(session_id, seat, r.player, int(r.score), int(r.winner)) for seat, r in enumerate(results)])
        db.execute("UPDATE sessions SET finished = ? WHERE id = ?", (when, session_id))

    def results(self) -> list[ResultRow]:
        """Every player's result in every finished session, oldest session first, seats in order."""
        rows = self._db.execute(
            "SELECT r.session_id, s.game, r.player, r.score, r.winner "
            "FROM results r JOIN sessions s ON s.id = r.session_id "
            "WHERE s.finished IS NOT NULL ORDER BY s.id, r.seat")
        found = []
        for sid, game, player, score, winner in rows:
            with reading("results", sid):
                if not (is_text(game) and is_text(player) and is_integer(score) and winner in (0, 1)):
                    raise ValueError(sid)
                found.append(ResultRow(sid, game, player, score, bool(winner)))
        return found

    # -- settings --------------------------------------------------------------
    def get_setting(self, key: str, default: Any = None) -> Any:
        """The JSON value stored under ``key``, or ``default``."""
        record = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        if record is None:
            return default
        with reading("settings", key):
            return json_value(record[0])

    def set_setting(self, key: str, value: object) -> None:
        """Store a JSON-serialisable ``value`` under ``key`` (replacing any earlier one)."""
        text = dumps(value)
        with self._transaction() as db:
            db.execute("INSERT INTO settings (key, value, updated) VALUES (?, ?, ?) "
                       "ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated = excluded.updated",
                       (key, text, self._now()))

    def delete_setting(self, key: str) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM settings WHERE key = ?", (key,))

    def settings(self) -> dict[str, Any]:
        """Every setting, by key."""
        found: dict[str, Any] = {}
        for key, value in self._db.execute("SELECT key, value FROM settings ORDER BY key"):
            with reading("settings", key if is_text(key) else repr(key)):
                if not is_text(key):
                    raise ValueError(key)
                found[key] = json_value(value)
        return found
