"""Checking a store, and rebuilding a damaged one from everything that can still be read.

Two kinds of damage, two answers (``companion doctor``):

- **Damaged pages** (SQLite's ``integrity_check`` fails; the card corrupted a
  page): the store is only read until it is repaired.
- **A damaged row** in sound pages (a move that no longer parses or
  replays): only that session is damaged; every other game goes on.

:func:`examine` reports each session as good or damaged; :func:`repair`
copies the damaged file (and its ``-wal``) aside with a timestamp and builds
a new store under a temporary name from what can be read — every session
whose moves replay (a session whose log breaks at move N keeps moves
1…N−1), and every readable row of the other tables (settings, profiles,
boards and flag tables) — then renames it into place. :func:`restore` puts a
backup in place the same way. Both take the store's writer lock.

Reading is done row by row where whole tables cannot be read: a damaged page
costs the rows on it, not the table.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import struct
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.games.base import Game, IllegalMove, RecordError, one_line
from companion.games.messages import Message, msg
from companion.games.registry import get_game
from companion.storage.lock import LockHeld, WriterLock
from companion.storage.migrations import MIGRATIONS
from companion.storage.store import StoreError, connect_reading, fsync_path, is_corrupt, read_only_message

GameLookup = Callable[[str], Game[Any, Any]]


class Unusable(StoreError):
    """The store file is not a store at all (empty, or not SQLite): outside damage, left untouched."""

#: Tables whose rows are checked against the move log rather than copied as they are.
_LOG_TABLES = ("sessions", "moves", "redo", "results")


@dataclass
class SessionHealth:
    """One stored session as the doctor found it."""

    id: int
    game: str
    players: tuple[str, ...]
    stored: int  # moves found in the store
    good: int  # moves, from the first, that read and replay
    finished: bool  # the good moves end the game
    problem: Message | None = None  # None: good
    row: dict[str, Any] = field(default_factory=dict, repr=False)
    moves: list[dict[str, Any]] = field(default_factory=list, repr=False)
    redo: list[dict[str, Any]] = field(default_factory=list, repr=False)
    summary: dict[str, Any] | None = field(default=None, repr=False)

    @property
    def is_good(self) -> bool:
        return self.problem is None


@dataclass
class Checkup:
    """The whole store: its pages, its sessions, and what could not be read."""

    path: Path
    pages: list[str | Message]  # integrity_check problems; [] when the pages are sound
    sessions: list[SessionHealth]
    unreadable: list[Message]  # rows or tables that could not be read at all

    @property
    def is_good(self) -> bool:
        return not self.pages and not self.unreadable and all(s.is_good for s in self.sessions)


# -- reading what can be read -------------------------------------------------------------

def _rows(db: sqlite3.Connection, sql: str,
          params: Sequence[Any] = ()) -> tuple[list[tuple[Any, ...]], str | None]:
    """The rows of ``sql`` up to the first unreadable one, and the error that stopped it (if any)."""
    rows: list[tuple[Any, ...]] = []
    try:
        for row in db.execute(sql, params):
            rows.append(row)
    except sqlite3.DatabaseError as error:
        return rows, str(error)
    return rows, None


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in db.execute(f'PRAGMA table_info("{table}")')]


def _has_rowid(db: sqlite3.Connection, table: str) -> bool:
    try:
        db.execute(f'SELECT rowid FROM "{table}" LIMIT 0')
    except sqlite3.OperationalError:
        return False
    return True


def _salvage(db: sqlite3.Connection, table: str,
             columns: Sequence[str]) -> tuple[list[tuple[Any, ...]], list[Message]]:
    """Every readable row of ``table`` (``columns`` only), skipping past damaged pages by rowid."""
    names = ", ".join(f'"{c}"' for c in columns)
    if not _has_rowid(db, table):
        rows, error = _rows(db, f'SELECT {names} FROM "{table}" NOT INDEXED')
        return rows, [] if error is None else [msg("doctor.rows.after_first", table=table, count=len(rows),
                                                   reason=error)]
    found: list[tuple[Any, ...]] = []
    problems: list[Message] = []
    after = -(2 ** 63)
    while True:
        rows, error = _rows(db, f'SELECT rowid, {names} FROM "{table}" NOT INDEXED WHERE rowid > ? '
                                'ORDER BY rowid', (after,))
        found += [row[1:] for row in rows]
        if error is None:
            return found, problems
        last = rows[-1][0] if rows else after
        problems.append(msg("doctor.rows.after_rowid", table=table, rowid=last, reason=error))
        for step in (2 ** k for k in range(0, 40)):  # seek past the damaged page
            probe, probe_error = _rows(db, f'SELECT rowid FROM "{table}" NOT INDEXED WHERE rowid > ? '
                                           'ORDER BY rowid LIMIT 1', (last + step,))
            if probe_error is None:
                break
        else:
            return found, problems
        if not probe:
            return found, problems
        after = probe[0][0] - 1


# -- checking sessions against their logs --------------------------------------------------

def _check_session(row: dict[str, Any], moves: list[tuple[int, str]], read_error: str | None,
                   redo: list[str], games: GameLookup) -> SessionHealth:
    sid = int(row["id"])
    health = SessionHealth(sid, str(row.get("game")), (), len(moves), 0, False, row=row)

    def damaged(problem: Message) -> SessionHealth:
        health.problem = problem
        return health

    try:
        game = games(str(row["game"]))
    except (RecordError, ImportError) as error:
        return damaged(msg("app.game.unknown", game=repr(row.get("game")), reason=str(error)))
    try:
        players = json.loads(row["players"])
        options = json.loads(row["options"])
        setup = json.loads(row["setup"])
        health.players = tuple(str(p) for p in players)
        state = game.start(tuple(players), options, setup)
    except (TypeError, ValueError) as error:
        return damaged(msg("doctor.problem.setup_unreadable", reason=one_line(str(error))))
    except RecordError as error:
        return damaged(msg("doctor.problem.setup", reason=error.as_message()))
    for position, (index, text) in enumerate(moves):
        number = position + 1
        if index != position:
            return damaged(msg("doctor.problem.move_missing", number=number))
        try:
            data = json.loads(text)
            move = game.parse_move(data)
        except (TypeError, ValueError) as error:
            return damaged(msg("doctor.problem.move_unreadable", number=number, reason=one_line(str(error))))
        except RecordError as error:
            return damaged(msg("doctor.problem.move_invalid", number=number, reason=error.as_message()))
        try:
            state = game.apply(state, move)
        except IllegalMove as error:
            who = game.actor(move)
            if who:
                return damaged(msg("doctor.problem.replay_by", number=number, player=one_line(who),
                                   reason=error.reason))
            return damaged(msg("doctor.problem.replay", number=number, reason=error.reason))
        health.good = number
        health.moves.append(game.move_to_json(move))
        health.finished = game.is_finished(state)
        health.summary = game.summary(state) if health.finished else None
    if read_error is not None:
        return damaged(msg("doctor.problem.moves_from", number=len(moves) + 1, reason=read_error))
    for number, text in enumerate(redo, start=1):
        try:
            health.redo.append(game.move_to_json(game.parse_move(json.loads(text))))
        except (TypeError, ValueError, RecordError) as error:
            health.redo = []
            return damaged(msg("doctor.problem.undone_unreadable", number=number,
                               reason=one_line(str(error))))
    return health


def _examine_db(db: sqlite3.Connection, path: Path, games: GameLookup, *, full: bool) -> Checkup:
    pragma = "integrity_check" if full else "quick_check"
    pages, error = _rows(db, f"PRAGMA {pragma}")
    # SQLite's own words for damaged pages (they have no code of ours), then our messages
    problems: list[str | Message] = [str(r[0]) for r in pages if r[0] != "ok"]
    if error is not None:
        problems.append(error)
    tables = {name for (name,) in _rows(db, "SELECT name FROM sqlite_master WHERE type = 'table'")[0]}
    if "sessions" not in tables:
        return Checkup(path, problems, [], [] if not problems else [msg("doctor.lost.sessions_list")])
    columns = _columns(db, "sessions")
    rows, unreadable = _salvage(db, "sessions", columns)
    sessions = []
    for values in rows:
        row = dict(zip(columns, values, strict=True))
        moves, read_error = _rows(db, "SELECT idx, move FROM moves WHERE session_id = ? ORDER BY idx",
                                  (row["id"],))
        redo, redo_error = _rows(db, "SELECT move FROM redo WHERE session_id = ? ORDER BY pos", (row["id"],))
        health = _check_session(row, moves, read_error, [] if redo_error else [r[0] for r in redo], games)
        if redo_error and health.problem is None:
            health.problem = msg("doctor.problem.undone_moves", reason=redo_error)
        sessions.append(health)
    sessions.sort(key=lambda s: s.id)
    return Checkup(path, problems, sessions, unreadable)


def examine(path: Path, *, games: GameLookup = get_game) -> Checkup:
    """Check the store at ``path`` without writing anything: its pages, then every session's log.

    :class:`StoreError` when the file is not a store at all (empty, missing, not SQLite).
    """
    _refuse_unusable(path)
    try:
        db = connect_reading(path)
    except StoreError as error:
        if isinstance(error.args[0], Message) and error.args[0].code.startswith("store.read_only"):
            raise
        raise Unusable(msg("doctor.left_as_it_is", reason=error.args[0])) from None
    try:
        if _schema_readable(db, path):
            return _examine_db(db, path, games, full=True)
    finally:
        db.close()
    with tempfile.TemporaryDirectory(prefix="companion-doctor-") as scratch:
        readable = Path(scratch) / path.name
        _resized_copy(path, readable)
        db = connect_reading(readable)
        try:
            if not _schema_readable(db, path):
                return Checkup(path, [msg("doctor.pages.no_tables")], [], [msg("doctor.lost.every_table")])
            checkup = _examine_db(db, path, games, full=True)
        finally:
            db.close()
    checkup.pages.insert(0, msg("doctor.pages.truncated"))
    checkup.path = path
    return checkup


def _schema_readable(db: sqlite3.Connection, path: Path) -> bool:
    """Refuse a newer or foreign file; ``False`` when SQLite cannot even read the list of tables."""
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as error:
        if is_corrupt(error):
            return False
        raise Unusable(msg("doctor.not_a_database", path=str(path), reason=str(error))) from None
    if version > len(MIGRATIONS):
        _refuse_newer(db, path)
    return True


def _resized_copy(source: Path, target: Path) -> None:
    """Copy a truncated store, its header's page count cut to the pages the file really has.

    SQLite trusts the header's count and takes the missing pages for damage
    to the schema itself; with the true count every surviving page reads.
    """
    shutil.copyfile(source, target)
    with open(target, "r+b") as handle:
        header = handle.read(100)
        page_size = struct.unpack(">H", header[16:18])[0] or 65536
        pages = target.stat().st_size // page_size
        handle.seek(18)
        handle.write(b"\x01\x01")  # a rollback-journal file: no -wal of its own
        handle.seek(28)
        handle.write(struct.pack(">I", pages))


def _is_empty(path: Path) -> bool:
    return path.is_file() and path.stat().st_size == 0


def _refuse_unusable(path: Path, *, repairing: bool = False) -> None:
    """Name a store file SQLite must not open (SQLite drops the ``-wal`` of an empty file)."""
    if not path.exists():
        raise StoreError(msg("doctor.no_store_yet", path=str(path)))
    if _is_empty(path):
        wal = _wal(path)
        if not (wal.exists() and wal.stat().st_size):
            raise Unusable(msg("doctor.empty_no_wal", path=str(path)))
        if not repairing:
            raise Unusable(msg("doctor.empty_wal", path=str(path)))


_WAL_MAGIC = (0x377F0682, 0x377F0683)


def _fresh_first_page(page_size: int, beside: Path) -> bytes:
    """Page 1 (header and schema) of a store created by this companion, for a WAL that lacks it.

    In WAL mode page 1 is rewritten only when the schema changes, so a WAL
    often lacks it. Every store is created by the same migrations in the
    same order, so its tables' root pages are the same as a fresh one's.
    """
    scratch = beside.with_name(beside.name + ".schema")
    db = _new_database(scratch, page_size=page_size)
    db.close()
    try:
        with open(scratch, "rb") as handle:
            return handle.read(page_size)
    finally:
        scratch.unlink()


def pages_from_wal(wal: Path, target: Path) -> int:
    """Write the pages of ``wal``'s committed frames into a database file ``target``; returns how many.

    For a store whose main file is lost (0 bytes) but whose ``-wal`` is not:
    every page changed since the last checkpoint is in the WAL, the newest
    committed copy wins; pages it lacks read as damaged and are skipped by
    the salvage. The file is marked as a rollback-journal database, so that
    reading it needs no ``-wal`` of its own.
    """
    data = wal.read_bytes()
    if len(data) < 32:
        return 0
    magic, _version, page_size, _sequence, salt1, salt2 = struct.unpack(">6I", data[:24])
    if magic not in _WAL_MAGIC or page_size < 512 or page_size & (page_size - 1):
        return 0
    pages: dict[int, bytes] = {}
    pending: dict[int, bytes] = {}
    offset = 32
    while offset + 24 + page_size <= len(data):
        number, commit, frame_salt1, frame_salt2 = struct.unpack(">4I", data[offset:offset + 16])
        if (frame_salt1, frame_salt2) != (salt1, salt2) or number == 0:
            break  # frames of an older generation, or garbage: the valid log ends here
        pending[number] = data[offset + 24:offset + 24 + page_size]
        if commit:
            pages.update(pending)
            pending = {}
        offset += 24 + page_size
    if not pages:
        return 0
    first = bytearray(pages[1] if 1 in pages else _fresh_first_page(page_size, target))
    first[18:20] = b"\x01\x01"  # read and write versions: legacy journal, no -wal needed
    size = max(max(pages), struct.unpack(">I", first[28:32])[0])  # every root page must be inside
    first[28:32] = struct.pack(">I", size)  # the database size, in pages
    pages[1] = bytes(first)
    with open(target, "wb") as handle:
        for number in range(1, size + 1):
            handle.write(pages.get(number, bytes(page_size)))
    return len(pages)



def _refuse_newer(db: sqlite3.Connection, path: Path) -> None:
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as error:
        raise Unusable(msg("doctor.not_a_database", path=str(path), reason=str(error))) from None
    if version > len(MIGRATIONS):
        raise StoreError(msg("doctor.newer", path=str(path), version=version, known=len(MIGRATIONS)))


# -- rebuilding ------------------------------------------------------------------------------

def _wal(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def _stamp(clock: Callable[[], datetime]) -> str:
    return clock().astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


@contextlib.contextmanager
def _writer(path: Path) -> Iterator[None]:
    if not os.access(path.parent, os.W_OK):
        raise StoreError(read_only_message(path.parent))
    try:
        lock = WriterLock.acquire(path)
    except LockHeld as held:
        raise StoreError(msg("doctor.in_use", path=str(path), holder=str(held.holder))) from None
    try:
        yield
    finally:
        lock.release()


def _copy_aside(path: Path, label: str) -> Path:
    """Copy the store file and its ``-wal`` to ``NAME.LABEL`` (and ``NAME.LABEL-wal``), synced."""
    aside = path.with_name(f"{path.name}.{label}")
    for source, target in ((path, aside), (_wal(path), _wal(aside))):
        if source.exists() and (source == path or source.stat().st_size):
            shutil.copyfile(source, target)
            with open(target, "rb") as handle:
                os.fsync(handle.fileno())
    return aside


def _tidy_aside(aside: Path, had_wal: bool) -> None:
    """Remove what reading the copy added beside it (an empty ``-wal``, the ``-shm``)."""
    with contextlib.suppress(FileNotFoundError):
        aside.with_name(aside.name + "-shm").unlink()
    wal = _wal(aside)
    if not had_wal and wal.exists() and wal.stat().st_size == 0:
        wal.unlink()


def _put_in_place(built: Path, path: Path) -> None:
    """Replace the store with ``built`` (one file, synced): its old ``-wal`` must not outlive it."""
    for stale in (_wal(path), path.with_name(path.name + "-shm")):
        with contextlib.suppress(FileNotFoundError):
            stale.unlink()
    os.replace(built, path)
    fsync_path(path.parent)


def _new_database(path: Path, *, page_size: int | None = None) -> sqlite3.Connection:
    for leftover in (path, _wal(path)):
        with contextlib.suppress(FileNotFoundError):
            leftover.unlink()
    db = sqlite3.connect(path, isolation_level=None)
    if page_size is not None:
        db.execute(f"PRAGMA page_size = {int(page_size)}")
    db.execute("PRAGMA journal_mode=DELETE")  # one file to rename; the store switches to WAL at open
    for target, migration in enumerate(MIGRATIONS, start=1):
        migration(db)
        db.execute(f"PRAGMA user_version = {target}")
    return db


def _dumps(move: dict[str, Any]) -> str:
    return json.dumps(move, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


@dataclass
class RepairReport:
    """What :func:`repair` kept, cut and lost."""

    aside: Path
    with_wal: bool  # the store's -wal was copied aside too
    checkup: Checkup
    lines: list[Message]


def _rebuild(source: sqlite3.Connection, checkup: Checkup, target: sqlite3.Connection,
             now: str) -> list[Message]:
    lines: list[Message] = []
    old_tables = {name for (name,) in _rows(source, "SELECT name FROM sqlite_master WHERE type = 'table'")[0]}
    new_tables = [name for (name,) in target.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    target.execute("BEGIN")
    for table in new_tables:
        if table in _LOG_TABLES or table not in old_tables:
            continue
        columns = [c for c in _columns(target, table) if c in set(_columns(source, table))]
        rows, problems = _salvage(source, table, columns)
        marks = ", ".join("?" for _ in columns)
        names = ", ".join(f'"{c}"' for c in columns)
        target.executemany(f'INSERT OR IGNORE INTO "{table}" ({names}) VALUES ({marks})', rows)
        lines += [msg("doctor.repair.lost_some", table=table, reason=p) for p in problems]
    session_columns = _columns(target, "sessions")
    for health in checkup.sessions:
        row = {k: v for k, v in health.row.items() if k in session_columns and k != "log_version"}
        row["finished"] = (row.get("finished") or now) if health.finished else None
        names = ", ".join(f'"{c}"' for c in row)
        target.execute(f"INSERT INTO sessions ({names}) VALUES ({', '.join('?' for _ in row)})",
                       list(row.values()))
        target.executemany("INSERT INTO moves (session_id, idx, move) VALUES (?, ?, ?)",
                           [(health.id, i, _dumps(m)) for i, m in enumerate(health.moves)])
        if health.is_good:
            target.executemany("INSERT INTO redo (session_id, pos, move) VALUES (?, ?, ?)",
                               [(health.id, i, _dumps(m)) for i, m in enumerate(health.redo)])
        if health.finished and health.summary is not None:
            scores, winners = health.summary.get("scores", {}), set(health.summary.get("winners", []))
            target.executemany(
                "INSERT INTO results (session_id, seat, player, score, winner) VALUES (?, ?, ?, ?, ?)",
                [(health.id, seat, name, int(scores.get(name, 0)), int(name in winners))
                 for seat, name in enumerate(health.players)])
        if health.is_good:
            lines.append(msg("doctor.repair.kept_whole", session=health.id, count=health.good))
        elif health.good:
            lines.append(msg("doctor.repair.kept_some", session=health.id, good=health.good,
                             reason=health.problem))
        else:
            lines.append(msg("doctor.repair.kept_none", session=health.id, reason=health.problem))
    target.execute("COMMIT")
    lines += [msg("doctor.repair.lost", what=what) for what in checkup.unreadable]
    return lines


def repair(path: Path, *, clock: Callable[[], datetime] | None = None,
           games: GameLookup = get_game) -> RepairReport:
    """Copy the store aside and rebuild it from what can still be read (see the module's docstring)."""
    clock = clock or (lambda: datetime.now(UTC))
    _refuse_unusable(path, repairing=True)
    with _writer(path):
        aside = _copy_aside(path, f"damaged-{_stamp(clock)}")
        with_wal = _wal(aside).exists()
        readable = aside
        if not _is_empty(aside):
            probe = connect_reading(aside)
            try:
                whole = _schema_readable(probe, path)
            finally:
                probe.close()
            if not whole:
                readable = path.with_name(f".{path.name}.resized")
                _resized_copy(aside, readable)
        else:
            readable = path.with_name(f".{path.name}.from-wal")
            if not pages_from_wal(_wal(aside), readable):
                raise Unusable(msg("doctor.wal_empty", path=str(path), aside=str(aside)))
        try:
            source = connect_reading(readable)
            _refuse_newer(source, path)
        except sqlite3.Error as error:
            raise StoreError(msg("doctor.copy_unreadable", path=str(readable), reason=str(error))) from None
        built_path = path.with_name(f".{path.name}.repairing")
        try:
            checkup = _examine_db(source, path, games, full=True)
            target = _new_database(built_path)
            try:
                now = clock().astimezone(UTC).isoformat(timespec="seconds")
                lines = _rebuild(source, checkup, target, now)
            finally:
                target.close()
        finally:
            source.close()
            _tidy_aside(aside, with_wal)
            if readable != aside:
                readable.unlink()
        with open(built_path, "rb") as handle:
            os.fsync(handle.fileno())
        _put_in_place(built_path, path)
    return RepairReport(aside, with_wal, checkup, lines)


def restore(path: Path, backup: Path, *, clock: Callable[[], datetime] | None = None) -> Path | None:
    """Put the backup file ``backup`` in place of the store; returns where the old store was copied.

    The backup is checked first (a companion store whose pages are sound, of
    a schema this companion reads); nothing is changed if it is not.
    """
    clock = clock or (lambda: datetime.now(UTC))
    if not backup.is_file():
        raise StoreError(msg("doctor.restore.no_file", path=str(backup)))
    source = connect_reading(backup)
    try:
        try:
            version = source.execute("PRAGMA user_version").fetchone()[0]
            tables = {n for (n,) in source.execute("SELECT name FROM sqlite_master")}
            problems = [r[0] for r in source.execute("PRAGMA integrity_check") if r[0] != "ok"]
        except sqlite3.DatabaseError as error:
            raise StoreError(msg("doctor.restore.not_backup", path=str(backup), reason=str(error))) from None
        if version > len(MIGRATIONS):
            _refuse_newer(source, backup)
        if "sessions" not in tables:
            raise StoreError(msg("doctor.restore.no_sessions", path=str(backup)))
        if problems:
            raise StoreError(msg("doctor.restore.damaged", path=str(backup), reason=problems[0]))
    except BaseException:
        source.close()
        raise
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with _writer(path):
            aside = _copy_aside(path, f"before-restore-{_stamp(clock)}") if path.exists() else None
            built_path = path.with_name(f".{path.name}.restoring")
            with contextlib.suppress(FileNotFoundError):
                built_path.unlink()
            target = sqlite3.connect(built_path)
            try:
                source.backup(target)
                target.execute("PRAGMA journal_mode=DELETE")
            finally:
                target.close()
            with open(built_path, "rb") as handle:
                os.fsync(handle.fileno())
            _put_in_place(built_path, path)
    finally:
        source.close()
    return aside
