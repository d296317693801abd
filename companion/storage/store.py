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
import errno
import json
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.games.base import Game
from companion.games.messages import Message, msg
from companion.registry import get_game
from companion.storage.lock import LockHeld, WriterLock
from companion.storage.migrations import MIGRATIONS, Migration

Clock = Callable[[], datetime]
GameLookup = Callable[[str], Game[Any, Any]]


class StoreError(Exception):
    """The store cannot do what was asked (newer schema, no such session, damaged data)."""


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


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _stamp(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("the store's clock must give timezone-aware times")
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def _moment(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


class StaleLog(StoreError):
    """A save whose session was changed by someone else since it was read: refused, never merged."""


def damaged_message(path: Path, damage: Sequence[str]) -> Message:
    """The one line that says a store has damaged pages, and what to do."""
    if len(damage) > 1:
        return msg("store.damaged_more", path=str(path), first=damage[0], count=len(damage) - 1)
    return msg("store.damaged", path=str(path), first=damage[0])


def read_only_message(directory: Path) -> Message:
    return msg("store.read_only", path=str(directory))


def _refuse_outside_damage(path: Path) -> None:
    """A store file that is empty or unreadable is named and left untouched (SQLite would reuse it)."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return
    except OSError as error:
        raise StoreError(msg("store.unreadable", path=str(path),
                             reason=error.strerror or str(error))) from None
    if path.is_dir():
        raise StoreError(msg("store.directory", path=str(path)))
    if size == 0:
        wal = path.with_name(path.name + "-wal")
        raise StoreError(msg("store.empty_wal" if wal.exists() and wal.stat().st_size else "store.empty",
                             path=str(path)))
    if not os.access(path, os.R_OK):
        raise StoreError(msg("store.permission", path=str(path)))


def connect_reading(path: Path) -> sqlite3.Connection:
    """A connection that can only read ``path`` and creates nothing it need not.

    SQLite reads a WAL database through its ``-shm`` file, which it creates
    if missing; in a read-only directory it cannot, so a store whose WAL is
    empty (closed cleanly) is opened as immutable there. One whose ``-wal``
    still holds changes cannot be read in place, and says so.
    """
    uri = f"{path.resolve().as_uri()}?mode=ro"
    db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=5.0)
    try:
        db.execute("PRAGMA user_version").fetchone()
    except sqlite3.OperationalError as error:  # (a damaged or foreign file: DatabaseError, the caller's)
        db.close()
        wal = path.with_name(path.name + "-wal")
        if os.access(path.parent, os.W_OK):
            raise StoreError(msg("store.cannot_open", path=str(path), reason=str(error))) from None
        if wal.exists() and wal.stat().st_size:
            raise StoreError(msg("store.read_only_wal", path=str(path.parent))) from None
        db = sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None)
    except sqlite3.DatabaseError:
        pass  # the caller finds it again and says what it is
    db.execute("PRAGMA query_only=ON")
    return db


def is_corrupt(error: sqlite3.Error) -> bool:
    """Whether SQLite found damaged pages (rather than, say, a file that is no database at all)."""
    return getattr(error, "sqlite_errorname", "") == "SQLITE_CORRUPT"


def _damage(db: sqlite3.Connection, path: Path, known: int, *, writable: bool) -> list[str]:
    """Refuse a newer schema; then what ``quick_check`` finds wrong (an unreadable schema included)."""
    try:
        _refuse_newer(db, path, known)
    except sqlite3.DatabaseError as error:
        if is_corrupt(error):
            return [str(error)]
        raise
    return page_check(db, "quick_check", writable=writable)


def _take_lock(path: Path) -> WriterLock:
    directory = path.parent
    if not os.access(directory, os.W_OK):
        raise StoreError(read_only_message(directory))
    if path.exists() and not os.access(path, os.W_OK):  # the file, not the folder, is protected
        raise StoreError(msg("store.read_only_file", path=str(path)))
    try:
        return WriterLock.acquire(path)
    except LockHeld as held:
        raise StoreError(msg("store.in_use", path=str(path), holder=str(held.holder))) from None
    except OSError as error:
        if error.errno in (errno.EROFS, errno.EACCES):
            raise StoreError(read_only_message(directory)) from None
        raise StoreError(msg("store.cannot_lock", path=str(path),
                             reason=error.strerror or str(error))) from None


#: The longest file name a backup is given (FAT and ext4 take 255 bytes).
MAX_NAME = 200


def check_new_name(target: Path) -> None:
    """Refuse to write a copy at ``target`` if the name is there already (a file, a link) or too long."""
    if len(target.name.encode("utf-8")) > MAX_NAME:
        raise StoreError(msg("store.copy.name_too_long", name=target.name[:40] + "…"))
    if os.path.lexists(target):
        raise StoreError(msg("store.copy.exists", path=str(target)))


def check_copy(copy: Path, version: int) -> None:
    """Read a written copy back before anyone is told it is safe: a regular file, a store of
    ``version``, its pages sound. :class:`StoreError` naming what is wrong."""
    if copy.is_symlink() or not copy.is_file():
        raise StoreError(msg("store.copy.not_a_file", path=str(copy)))
    try:
        db = sqlite3.connect(f"{copy.resolve().as_uri()}?mode=ro", uri=True)
        try:
            found = int(db.execute("PRAGMA user_version").fetchone()[0])
            problems = page_check(db, "quick_check")
        finally:
            db.close()
    except sqlite3.Error as error:
        raise StoreError(msg("store.copy.unreadable", path=str(copy), reason=str(error))) from None
    if found != version or problems:
        raise StoreError(msg("store.copy.unreadable", path=str(copy),
                             reason=problems[0] if problems else f"schema {found}"))


def fsync_path(path: Path) -> None:
    """Make a file's contents, or a directory's entries, durable before going on."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def _closed_on_failure(db: sqlite3.Connection, path: Path) -> Iterator[None]:
    """Close ``db`` if opening fails; a file SQLite cannot read is named as not a companion store."""
    try:
        yield
    except sqlite3.DatabaseError as error:
        db.close()
        raise StoreError(msg("store.not_a_database", path=str(path), reason=str(error))) from None
    except BaseException:
        db.close()
        raise


def _create_atomically(path: Path, migrations: Sequence[Migration]) -> None:
    """Build a new store under a temporary name, then rename it: a crash never leaves a half-made file.

    (An empty file at ``path`` would be taken for a damaged store.) Called with the lock held.
    """
    temporary = path.with_name(f".{path.name}.creating")
    for leftover in (temporary, temporary.with_name(temporary.name + "-wal"),
                     temporary.with_name(temporary.name + "-shm")):
        with contextlib.suppress(FileNotFoundError):
            leftover.unlink()
    db = sqlite3.connect(temporary, isolation_level=None)
    try:
        Store._configure(db, temporary)
        Store._migrate(db, temporary, migrations)
    finally:
        db.close()  # checkpoints: the new store is one file
    fsync_path(temporary)
    os.replace(temporary, path)
    fsync_path(path.parent)


def _refuse_newer(db: sqlite3.Connection, path: Path, known: int) -> None:
    """Refuse a store from a newer companion before anything (WAL switch included) touches it."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > known:
        raise StoreError(msg("store.newer", path=str(path), version=version, known=known))


def page_check(db: sqlite3.Connection, pragma: str = "integrity_check", *,
               writable: bool = False) -> list[str]:
    """What ``PRAGMA quick_check`` or ``integrity_check`` finds wrong, the same on every connection.

    SQLite skips the CHECK constraints on a read-only connection, so a value
    written past one (a bit flip, another program) was damage to the writer
    and none to a reader: the store opened read-only with no damage named. The
    check therefore runs on a writable copy in memory (SQLite's backup API
    copies pages, whatever they hold); only when the pages cannot even be
    copied does it run on ``db`` itself, whose pages are then damaged anyway.
    ``writable``: ``db`` is a read-write connection, which checks the
    constraints itself (the writer's open, at every start, needs no copy).
    """
    if pragma not in ("quick_check", "integrity_check"):
        raise ValueError(f"not a check: {pragma!r}")
    if writable:
        try:
            rows = [str(row[0]) for row in db.execute(f"PRAGMA {pragma}")]
        except sqlite3.DatabaseError as error:
            return [str(error)]
        return [] if rows == ["ok"] else rows
    copy = sqlite3.connect(":memory:", isolation_level=None)
    try:
        try:
            db.backup(copy)
            checked = copy
        except sqlite3.DatabaseError:
            checked = db
        rows = [str(row[0]) for row in checked.execute(f"PRAGMA {pragma}")]
    except sqlite3.DatabaseError as error:
        return [str(error)]
    finally:
        copy.close()
    return [] if rows == ["ok"] else rows


class StoreJournal:
    """A session's :class:`~companion.service.session.Journal` writing to one stored session."""

    def __init__(self, store: Store, session_id: int, clock: Callable[[], float] | None = None) -> None:
        self.store = store
        self.session_id = session_id
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

    def save(self, first: int, moves: Sequence[dict[str, Any]], redo: Sequence[dict[str, Any]]) -> None:
        """Replace moves ``first``.. and the redo stack, in one transaction.

        The time since the game was opened (or since the last save) is added to
        the game's time in the same transaction. :class:`StaleLog` (nothing
        written) when the stored log changed since it was read.
        """
        now, played = self._lap()
        self.version = self.store._save_log(self.session_id, first, moves, redo, expected=self.version,
                                            played=played)
        self._mark = now

    def put_down(self) -> None:
        """The game is left (another one opened, the app closed): the time since the last save counts."""
        now, played = self._lap()
        if played and not self.store.read_only:
            self.store.add_played(self.session_id, played)
        self._mark = now


class Store:
    """The companion's SQLite database. Open with :meth:`open`; one per process and thread."""

    def __init__(self, db: sqlite3.Connection, path: Path, clock: Clock, games: GameLookup) -> None:
        self._db = db
        self.path = path
        self._clock = clock
        self._games = games
        #: Opened for reading only (``read_only=True``, or damaged pages): every write is refused.
        self.read_only = False
        #: What ``PRAGMA quick_check`` found at open (empty: the pages are sound).
        self.damage: list[str] = []
        self._lock: WriterLock | None = None

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
        _refuse_outside_damage(path)
        if read_only:
            return cls._open_reading(path, clock or _utc_now, games, migrations)
        lock = _take_lock(path)
        try:
            if not path.exists():
                _create_atomically(path, migrations)
            try:
                db = sqlite3.connect(path, isolation_level=None, timeout=5.0)
            except sqlite3.Error as error:
                raise StoreError(msg("store.cannot_open_database", path=str(path),
                                     reason=str(error))) from None
            with _closed_on_failure(db, path):
                damage = _damage(db, path, len(migrations), writable=True)
                if damage:
                    db.close()
                    store = cls._open_reading(path, clock or _utc_now, games, migrations)
                    store.damage = store.damage or damage  # never read-only with no damage named
                    store._lock = lock
                    return store
                cls._configure(db, path)
                cls._migrate(db, path, migrations)
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
            db = sqlite3.connect(":memory:", isolation_level=None)
            cls._migrate(db, path, migrations)
            store = cls(db, path, clock, games)
            store.read_only = True
            return store
        db = connect_reading(path)
        with _closed_on_failure(db, path):
            damage = _damage(db, path, len(migrations), writable=False)
        store = cls(db, path, clock, games)
        store.read_only = True
        store.damage = damage
        return store

    @staticmethod
    def _configure(db: sqlite3.Connection, path: Path) -> None:
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError(msg("store.no_wal", path=str(path), mode=repr(mode)))
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")

    @staticmethod
    def _migrate(db: sqlite3.Connection, path: Path, migrations: Sequence[Migration]) -> None:
        _refuse_newer(db, path, len(migrations))
        version = db.execute("PRAGMA user_version").fetchone()[0]
        for target in range(version + 1, len(migrations) + 1):
            db.execute("BEGIN IMMEDIATE")
            try:
                migrations[target - 1](db)
                db.execute(f"PRAGMA user_version = {int(target)}")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

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
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

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
        rows = self._db.execute("SELECT name FROM players ORDER BY last_played DESC, name")
        return [name for (name,) in rows]

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
        for name, game, colour in self._db.execute(
                "SELECT p.name, c.game, c.colour FROM player_colours c JOIN players p ON p.id = c.player_id"):
            table.setdefault(name, {})[game] = colour
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
            (game, _dumps(list(players)), _dumps(options), _dumps(setup), now, source, record_hash))
        session_id = int(cursor.lastrowid or 0)
        if date_unsure:
            db.execute("UPDATE sessions SET date_unsure = 1 WHERE id = ?", (session_id,))
        if source == "table" and self.schema_version >= 5:  # measured from now on (a record has no times)
            db.execute("UPDATE sessions SET played_seconds = 0 WHERE id = ?", (session_id,))
        db.executemany("INSERT INTO moves (session_id, idx, move) VALUES (?, ?, ?)",
                       [(session_id, i, _dumps(m)) for i, m in enumerate(moves)])
        if results is not None:
            self._write_results(db, session_id, results, now)
        if championship is not None:
            db.execute("UPDATE sessions SET championship = ?, championship_round = ? WHERE id = ?",
                       (championship[0], championship[1], session_id))
        self._touch_players(db, players, now)
        return session_id

    # -- championships -------------------------------------------------------
    def _championship_row(self, record: tuple[Any, ...]) -> ChampionshipRow:
        cid, variant, players, options, decisions, created, source, abandoned = record
        return ChampionshipRow(int(cid), int(variant), tuple(json.loads(players)), json.loads(options),
                               list(json.loads(decisions)), datetime.fromisoformat(created), source,
                               _moment(abandoned))

    _CHAMPIONSHIP = ("SELECT id, variant, players, options, decisions, created, source, abandoned "
                     "FROM championships ")

    def insert_championship(self, variant: int, players: Sequence[str], options: Mapping[str, Any], *,
                            decisions: Sequence[Mapping[str, Any]] = (), source: str = "table",
                            record_hash: str | None = None,
                            rounds: Sequence[Mapping[str, Any]] = ()) -> int:
        """Store a championship as given (checked by the caller); returns its id.

        ``rounds`` (an import's) are sessions stored with it, each the keywords of
        :meth:`insert_session` (``game``, ``players``, ``options``, ``setup``, ``moves``,
        ``results``, ``record_hash``), numbered 1, 2 ... in order; or ``{"session": id}``: a game
        stored on its own before (a round imported alone), made that round. One transaction.
        """
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO championships (variant, players, options, decisions, created, source, "
                "record_hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (int(variant), _dumps(list(players)), _dumps(options), _dumps([dict(d) for d in decisions]),
                 self._now(), source, record_hash))
            championship = int(cursor.lastrowid or 0)
            for number, game in enumerate(rounds, start=1):
                if game.get("session") is not None:  # never a round of another championship
                    made = db.execute("UPDATE sessions SET championship = ?, championship_round = ? "
                                      "WHERE id = ? AND championship IS NULL",
                                      (championship, number, int(game["session"])))
                    if made.rowcount != 1:
                        raise StoreError(msg("store.no_session", session=game["session"]))
                    continue
                self._insert_session(db, game["game"], game["players"], game["options"], game["setup"],
                                     moves=game.get("moves", ()), results=game.get("results"), source=source,
                                     record_hash=game.get("record_hash"), date_unsure=False,
                                     championship=(championship, number))
            self._touch_players(db, players, self._now())
        return championship

    def championship(self, championship_id: int) -> ChampionshipRow:
        """The stored championship ``championship_id``; :class:`StoreError` when there is none."""
        if self.schema_version < 7:
            raise StoreError(msg("store.no_championship", championship=championship_id))
        record = self._db.execute(self._CHAMPIONSHIP + "WHERE id = ?", (championship_id,)).fetchone()
        if record is None:
            raise StoreError(msg("store.no_championship", championship=championship_id))
        return self._championship_row(record)

    def list_championships(self) -> list[ChampionshipRow]:
        """Every championship, the most recent first (none in a store of an older schema, read as it is)."""
        if self.schema_version < 7:
            return []
        return [self._championship_row(r) for r in self._db.execute(self._CHAMPIONSHIP + "ORDER BY id DESC")]

    def championship_with_hash(self, record_hash: str) -> int | None:
        """The id of the imported championship stored with ``record_hash``, if any."""
        known = self._db.execute("SELECT id FROM championships WHERE record_hash = ?",
                                 (record_hash,)).fetchone()
        return None if known is None else int(known[0])

    def championship_rounds(self, championship_id: int) -> list[SessionRow]:
        """The championship's rounds, round 1 first."""
        if self.schema_version < 7:
            return []
        return [self._row(r) for r in self._db.execute(
            self._select + "WHERE s.championship = ? ORDER BY s.championship_round", (championship_id,))]

    def set_championship_decisions(self, championship_id: int,
                                   decisions: Sequence[Mapping[str, Any]]) -> None:
        """Replace the championship's decisions (the whole list, in one update)."""
        self.championship(championship_id)
        with self._transaction() as db:
            db.execute("UPDATE championships SET decisions = ? WHERE id = ?",
                       (_dumps([dict(d) for d in decisions]), championship_id))

    def delete_championship(self, championship_id: int) -> None:
        """Remove a championship that has no round (one whose first round could not be started)."""
        with self._transaction() as db:
            db.execute("DELETE FROM championships WHERE id = ? AND NOT EXISTS "
                       "(SELECT 1 FROM sessions WHERE championship = ?)", (championship_id, championship_id))

    def abandon_championship(self, championship_id: int) -> None:
        """Mark a championship abandoned now: kept (and exportable), no longer offered to go on with."""
        self.championship(championship_id)
        with self._transaction() as db:
            db.execute("UPDATE championships SET abandoned = ? WHERE id = ?", (self._now(), championship_id))

    def session_with_hash(self, record_hash: str) -> int | None:
        """The id of the imported session stored with ``record_hash``, if any."""
        known = self._db.execute("SELECT id FROM sessions WHERE record_hash = ?", (record_hash,)).fetchone()
        return None if known is None else int(known[0])

    # -- compatibility: sessions are built by companion.service.app ----------------------
    # These three delegate to the application service and remain only for callers
    # not yet moved to it (the crash-consistency test); new code uses Companion.
    def _row(self, record: sqlite3.Row | tuple[Any, ...]) -> SessionRow:
        (sid, game, players, options, setup, started, finished, source, moves, abandoned, unsure,
         played, championship, number) = record
        return SessionRow(int(sid), game, tuple(json.loads(players)), json.loads(options),
                          json.loads(setup), datetime.fromisoformat(started), _moment(finished),
                          int(moves), source, _moment(abandoned), bool(unsure),
                          None if played is None else float(played),
                          None if championship is None else int(championship),
                          None if number is None else int(number))

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
            except sqlite3.DatabaseError:
                after, steps = after + 1, steps + 1
        found = []
        for sid in reversed(ids):
            with contextlib.suppress(sqlite3.DatabaseError, ValueError, TypeError):
                record = self._db.execute(self._select_counting("0") + "WHERE s.id = ?", (sid,)).fetchone()
                found.append(self._row((*record[:8], self._readable_moves(sid), *record[9:])))
        return found

    def _readable_moves(self, session_id: int) -> int:
        count = 0
        with contextlib.suppress(sqlite3.DatabaseError):
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
            return [self._row(r) for r in self._db.execute(self._select + "ORDER BY s.id DESC")]
        except sqlite3.DatabaseError:
            if not self.damage:
                raise
            return self._salvaged_sessions()

    def latest_session(self, *, finished: bool | None = None) -> SessionRow | None:
        """The most recent session (only finished / unfinished ones when ``finished`` is given)."""
        where = "" if finished is None else ("WHERE s.finished IS NOT NULL " if finished
                                             else "WHERE s.finished IS NULL ")
        record = self._db.execute(self._select + where + "ORDER BY s.id DESC LIMIT 1"
                                  ).fetchone()
        return None if record is None else self._row(record)

    def resumable_sessions(self) -> list[SessionRow]:
        """Sessions neither finished nor abandoned, the most recent first."""
        return [self._row(r) for r in self._db.execute(
            self._select + "WHERE s.finished IS NULL AND s.abandoned IS NULL "
                           "ORDER BY s.id DESC")]

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
            db.execute("DELETE FROM sessions WHERE id = ?", (session_id,))

    def stored_moves(self, session_id: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The stored move log and redo stack of a session, as record JSON."""
        moves = [json.loads(m) for (m,) in self._db.execute(
            "SELECT move FROM moves WHERE session_id = ? ORDER BY idx", (session_id,))]
        redo = [json.loads(m) for (m,) in self._db.execute(
            "SELECT move FROM redo WHERE session_id = ? ORDER BY pos", (session_id,))]
        return moves, redo

    # -- the journal and the derived results ---------------------------------
    def log_version(self, session_id: int) -> int:
        """How many times the session's log has been saved (each save checks and raises it)."""
        found = self._db.execute("SELECT log_version FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if found is None:
            raise StoreError(msg("store.no_session", session=session_id))
        return int(found[0])

    def _save_log(self, session_id: int, first: int, moves: Sequence[dict[str, Any]],
                  redo: Sequence[dict[str, Any]], *, expected: int | None = None, played: float = 0.0) -> int:
        """Write the log change in one transaction; returns the new log version.

        With ``expected``, the stored version is checked inside the
        transaction: if the log was saved by anyone else since, the change is
        refused (:class:`StaleLog`), never merged into what is stored. ``played``
        (seconds, monotonic) is added to the game's time in the same transaction.
        """
        with self._transaction() as db:
            bumped = db.execute(
                "UPDATE sessions SET log_version = log_version + 1, played_seconds = played_seconds + ? "
                "WHERE id = ?" + ("" if expected is None else " AND log_version = ?"),
                (float(played), session_id) if expected is None else (float(played), session_id, expected))
            if bumped.rowcount != 1:
                raise StaleLog(msg("store.stale", session=session_id))
            db.execute("DELETE FROM moves WHERE session_id = ? AND idx >= ?", (session_id, first))
            db.executemany("INSERT INTO moves (session_id, idx, move) VALUES (?, ?, ?)",
                           [(session_id, first + offset, _dumps(m)) for offset, m in enumerate(moves)])
            db.execute("DELETE FROM redo WHERE session_id = ?", (session_id,))
            db.executemany("INSERT INTO redo (session_id, pos, move) VALUES (?, ?, ?)",
                           [(session_id, pos, _dumps(m)) for pos, m in enumerate(redo)])
            version = db.execute("SELECT log_version FROM sessions WHERE id = ?", (session_id,)).fetchone()
        return int(version[0])

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
        return [ResultRow(sid, game, player, score, bool(winner))
                for sid, game, player, score, winner in rows]

    # -- settings --------------------------------------------------------------
    def get_setting(self, key: str, default: Any = None) -> Any:
        """The JSON value stored under ``key``, or ``default``."""
        record = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return default if record is None else json.loads(record[0])

    def set_setting(self, key: str, value: object) -> None:
        """Store a JSON-serialisable ``value`` under ``key`` (replacing any earlier one)."""
        text = _dumps(value)
        with self._transaction() as db:
            db.execute("INSERT INTO settings (key, value, updated) VALUES (?, ?, ?) "
                       "ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated = excluded.updated",
                       (key, text, self._now()))

    def delete_setting(self, key: str) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM settings WHERE key = ?", (key,))

    def settings(self) -> dict[str, Any]:
        """Every setting, by key."""
        return {key: json.loads(value) for key, value in self._db.execute(
            "SELECT key, value FROM settings ORDER BY key")}
