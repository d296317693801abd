"""Repairing a store: a copy set aside, a new store built from what can be read, put in place.

Part of the doctor (:mod:`companion.storage.doctor`). :func:`repair` copies the
store file (and its ``-wal``) aside under a new numbered name, builds a new
store under a temporary name from what :func:`~companion.storage.checking.examine`
found readable — every session whose moves replay, a session that cannot be
started set aside in its own table, every readable row of the other tables —
and renames it into place.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import shutil
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.games.messages import Message, msg
from companion.registry import get_game
from companion.storage import outbox_check
from companion.storage.checking import (
    _LOG_TABLES,
    _NOW,
    Checkup,
    GameLookup,
    SessionHealth,
    Unusable,
    _examine_db,
    _refuse_newer,
    _refuse_unusable,
    _schema_readable,
    expected_results,
    schema_lost,
)
from companion.storage.journal import insert_moves
from companion.storage.lock import LockHeld, WriterLock
from companion.storage.migrations import LOG_HASH_START, stored_log_hash
from companion.storage.plain_check import _plain_row_readable
from companion.storage.rows import DB_ERRORS
from companion.storage.salvage import (
    _columns,
    _dumps,
    _has_header,
    _is_empty,
    _new_database,
    _resized_copy,
    _rows,
    _salvage,
    _wal,
    pages_from_wal,
    with_first_page,
)
from companion.storage.store import StoreError, connect_reading, fsync_path, read_only_message


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


#: A copy set aside by a repair or a restore:
#: ``NAME.damaged-NNNN-STAMP`` or ``NAME.before-restore-NNNN-STAMP``.
_ASIDE = re.compile(r"^(?P<base>.+)\.(?:damaged|before-restore)-(?P<number>\d{4,9})-\d{8}T\d{6}Z$")


def copies_aside(path: Path) -> list[Path]:
    """Every copy a repair or restore set aside beside the store ``path``, oldest (lowest number) first."""
    try:
        found = [(m, p) for p in path.parent.iterdir()
                 if (m := _ASIDE.match(p.name)) and m["base"] == path.name]
    except OSError:
        return []
    return [p for _, p in sorted(found, key=lambda pair: int(pair[0]["number"]))]


def _copy_new(source: Path, target: Path) -> None:
    """Copy ``source`` to a name that must be new (never over a file, never through a link), synced.

    :class:`FileExistsError` when ``target`` is taken; a copy that fails halfway is removed.
    """
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    try:
        with os.fdopen(fd, "wb") as out, open(source, "rb") as data:
            shutil.copyfileobj(data, out, 1 << 20)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            target.unlink()
        raise


def _copy_aside(path: Path, kind: str, clock: Callable[[], datetime]) -> Path:
    """Copy the store file and its ``-wal`` to ``NAME.KIND-NNNN-STAMP`` (and its ``-wal``), synced.

    NNNN is one more than the highest copy beside the store, as the daily
    backups are counted: two repairs or restores within one second never
    share a name, and no copy is ever written over another.
    """
    numbers = [int(m["number"]) for m in (_ASIDE.match(p.name) for p in copies_aside(path)) if m]
    number = max(numbers, default=0) + 1
    while True:
        aside = path.with_name(f"{path.name}.{kind}-{number:04d}-{_stamp(clock)}")
        try:
            _copy_new(path, aside)
        except FileExistsError:
            number += 1
            continue
        break
    wal = _wal(path)
    try:
        if wal.exists() and wal.stat().st_size:
            _copy_new(wal, _wal(aside))
    except BaseException:
        aside.unlink()
        raise
    fsync_path(path.parent)
    return aside


def _remove_files(path: Path) -> None:
    """Remove a file this repair made, with the ``-wal``, ``-shm`` or ``-journal`` SQLite may have made."""
    for part in (path, *(path.with_name(path.name + end) for end in ("-wal", "-shm", "-journal"))):
        with contextlib.suppress(FileNotFoundError):
            part.unlink()


def _remove_aside(aside: Path) -> None:
    """Take back a copy set aside for a change that did not happen (the store is as it was)."""
    for part in (aside, _wal(aside), aside.with_name(aside.name + "-shm")):
        with contextlib.suppress(FileNotFoundError):
            part.unlink()


def _tidy_aside(aside: Path, had_wal: bool) -> None:
    """Remove what reading the copy added beside it (an empty ``-wal``, the ``-shm``)."""
    with contextlib.suppress(FileNotFoundError):
        aside.with_name(aside.name + "-shm").unlink()
    wal = _wal(aside)
    if not had_wal and wal.exists() and wal.stat().st_size == 0:
        wal.unlink()


def _put_in_place(built: Path, path: Path) -> None:
    """Replace the store with ``built`` (one file, synced): its old ``-wal`` must not outlive it.

    The old ``-wal`` would be read over the new file (SQLite checks no more than
    its own checksums), so it goes before the rename; and it goes only once its
    contents are in the old store file (:func:`_checkpoint`). A kill at any
    step leaves the old store whole (its WAL, or its WAL written into it) or
    the new one; the copy set aside holds both files as they were.
    """
    _checkpoint(path)
    for stale in (_wal(path), path.with_name(path.name + "-shm")):
        with contextlib.suppress(FileNotFoundError):
            stale.unlink()
    os.replace(built, path)
    fsync_path(path.parent)


def _checkpoint(path: Path) -> None:
    """Write the live store's ``-wal`` into the store file and empty it (SQLite's own checkpoint,
    crash-safe: the WAL is emptied only after the file holding its pages was synced).

    A store SQLite cannot open at all has its WAL's pages in the copy set aside only.
    """
    wal = _wal(path)
    if not (wal.exists() and wal.stat().st_size) or not path.exists():
        return
    try:
        db = sqlite3.connect(path, isolation_level=None, timeout=5.0)
        try:
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        finally:
            db.close()  # (the last connection of a WAL store checkpoints again and removes it)
    except DB_ERRORS:
        return


@dataclass
class RepairReport:
    """What :func:`repair` kept, cut and lost."""

    aside: Path
    with_wal: bool  # the store's -wal was copied aside too
    checkup: Checkup
    lines: list[Message]


def _rebuild(source: sqlite3.Connection, checkup: Checkup, target: sqlite3.Connection,
             now: str) -> list[Message]:
    """Fill the new store ``target`` from the readable copy, in one transaction: what was kept, cut and lost.

    Plain tables are copied row by row; sessions are written from the
    checkup (its readable moves), not copied, so a damaged log ends where it
    can still be replayed.
    """
    target.execute("BEGIN")
    lines = _copy_plain_tables(source, target)
    lines += _write_championships(target, checkup, now)
    lines += _write_set_aside_rows(source, target, checkup, now)
    session_columns = _columns(target, "sessions")
    for health in checkup.sessions:
        if health.not_installed:
            _write_untouched(source, target, health, session_columns)
        elif health.replayable:
            _write_session(target, health, session_columns, now)
        else:
            _write_aside(target, health, now)
        lines.append(_kept(health))
    # a profile's colours whose profile is gone (the log tables are written from the sessions kept)
    target.execute("DELETE FROM player_colours WHERE player_id NOT IN (SELECT id FROM players)")
    outbox_check.mend(target)  # the club's outbox: rows of games finished here; an id for each game
    target.execute("COMMIT")
    lines += [msg("doctor.repair.lost", what=what) for what in checkup.unreadable]
    lines += [msg("doctor.repair.foreign_left", what=what) for what in checkup.foreign]
    return lines


_ASIDE_INSERT = "INSERT INTO set_aside (session_id, reason, content, set_aside) VALUES (?, ?, ?, ?)"
#: Tables a repair writes itself from what the checkup judged, never copied as they are.
_JUDGED_TABLES = (*_LOG_TABLES, "championships", "set_aside")


def _write_championships(target: sqlite3.Connection, checkup: Checkup, now: str) -> list[Message]:
    """Every championship: kept (its unreadable times and words mended), or kept aside with its rounds
    named (``set_aside``, its id negative), never dropped."""
    lines: list[Message] = []
    columns = set(_columns(target, "championships"))
    for health in checkup.championships:
        if health.aside:
            content = {"championship": {k: _plain(v) for k, v in health.row.items()},
                       "rounds": {str(n): sid for n, sid in sorted(health.rounds.items())}}
            reason = health.problem.to_json() if health.problem else {}
            target.execute(_ASIDE_INSERT, (-health.id, json.dumps(reason, ensure_ascii=False),
                                           json.dumps(content, ensure_ascii=False), now))
            lines.append(msg("doctor.repair.championship_aside", championship=health.id,
                             reason=health.problem, rounds=_listed(health.rounds.values())))
            continue
        row = {k: (now if v is _NOW else v) for k, v in {**health.row, **health.mend}.items() if k in columns}
        names = ", ".join(f'"{c}"' for c in row)
        target.execute(f"INSERT INTO championships ({names}) VALUES ({', '.join('?' for _ in row)})",
                       list(row.values()))
        lines.append(msg("doctor.repair.championship_mended", championship=health.id, reason=health.problem)
                     if health.problem else msg("doctor.repair.championship_kept", championship=health.id,
                                                rounds=_listed(health.rounds.values())))
    return lines


def _write_set_aside_rows(source: sqlite3.Connection, target: sqlite3.Connection, checkup: Checkup,
                          now: str) -> list[Message]:
    """What earlier repairs set aside, as it was; a row that does not read written again so that it
    does (its values kept in its content), named."""
    columns = [c for c in _columns(target, "set_aside") if c != "id"]
    rows, _ = _salvage(source, "set_aside", ["id", *columns]) if "set_aside" in _tables(source) else ([], [])
    bad_ids = {row.get("id") for row in checkup.bad_aside}
    lines: list[Message] = []
    for values in rows:
        if values[0] in bad_ids:
            continue
        marks = ", ".join("?" for _ in columns)
        target.execute(f"INSERT INTO set_aside ({', '.join(columns)}) VALUES ({marks})", values[1:])
    for row in checkup.bad_aside:
        sid = row.get("session_id")
        number = sid if isinstance(sid, int) and not isinstance(sid, bool) else 0
        content = {"unreadable_row": {k: _plain(v) for k, v in row.items()}}
        target.execute(_ASIDE_INSERT,
                       (number, json.dumps(msg("doctor.aside.row_unreadable").to_json(), ensure_ascii=False),
                        json.dumps(content, ensure_ascii=False), now))
        lines.append(msg("doctor.repair.aside_row", row=str(row.get("id"))))
    return lines


def _listed(numbers: Iterable[int]) -> str:
    """Session ids as a player reads them (``2, 5``; ``-`` for none)."""
    return ", ".join(str(n) for n in sorted(numbers)) or "-"


def _tables(db: sqlite3.Connection) -> set[str]:
    return {str(name) for (name,) in _rows(db, "SELECT name FROM sqlite_master WHERE type = 'table'")[0]}


def _copy_plain_tables(source: sqlite3.Connection, target: sqlite3.Connection) -> list[Message]:
    """Copy every readable row of the tables that are not a game's log, the columns both schemas have.

    Returns a line for each table where some rows could not be read.
    """
    lines: list[Message] = []
    old_tables = {name for (name,) in _rows(source, "SELECT name FROM sqlite_master WHERE type = 'table'")[0]}
    new_tables = [name for (name,) in target.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    for table in new_tables:
        if table in _JUDGED_TABLES or table not in old_tables:
            continue
        columns = [c for c in _columns(target, table) if c in set(_columns(source, table))]
        rows, problems = _salvage(source, table, columns)
        rows = [row for row in rows if _plain_row_readable(table, columns, row)]  # the doctor named the rest
        marks = ", ".join("?" for _ in columns)
        names = ", ".join(f'"{c}"' for c in columns)
        target.executemany(f'INSERT OR IGNORE INTO "{table}" ({names}) VALUES ({marks})', rows)
        lines += [msg("doctor.repair.lost_some", table=table, reason=p) for p in problems]
    return lines


def _write_session(target: sqlite3.Connection, health: SessionHealth, session_columns: list[str],
                   now: str) -> None:
    """One session as the checkup found it: its row, its good moves, its redo stack and result if whole.

    A finished game with no finishing time gets ``now``; a damaged log keeps
    no redo stack (it was made for moves that are gone).
    """
    mended = {k: (now if v is _NOW else v) for k, v in health.mend.items()}
    row = {k: mended.get(k, v) for k, v in health.row.items()
           if k in session_columns and k not in ("log_version", "log_count", "log_hash")}
    row["finished"] = (row.get("finished") or now) if health.finished else None
    _insert_session(target, row)
    insert_moves(target, health.id, 0, [_dumps(m) for m in health.moves], (0, LOG_HASH_START))
    if health.log_whole:
        target.executemany("INSERT INTO redo (session_id, pos, move) VALUES (?, ?, ?)",
                           [(health.id, i, _dumps(m)) for i, m in enumerate(health.redo)])
    if health.finished and health.summary is not None:
        target.executemany(
            "INSERT INTO results (session_id, seat, player, score, winner) VALUES (?, ?, ?, ?, ?)",
            [(health.id, *result) for result in expected_results(health)])


def _insert_session(target: sqlite3.Connection, row: dict[str, Any]) -> None:
    """One ``sessions`` row, its columns named (a store of another version may have more or fewer)."""
    names = ", ".join(f'"{c}"' for c in row)
    target.execute(f"INSERT INTO sessions ({names}) VALUES ({', '.join('?' for _ in row)})",
                   list(row.values()))


def _write_untouched(source: sqlite3.Connection, target: sqlite3.Connection, health: SessionHealth,
                     session_columns: list[str]) -> None:
    """A session of a game not installed here, copied as stored: its row, moves, undone moves and
    results (what still reads of them), nothing judged, so that the game finds it whole later."""
    _insert_session(target, {k: v for k, v in health.row.items()
                             if k in session_columns and k not in ("log_count", "log_hash")})
    for table, columns in (("moves", "idx, move"), ("redo", "pos, move"),
                           ("results", "seat, player, score, winner")):
        rows, _ = _rows(source, f"SELECT {columns} FROM {table} WHERE session_id = ?", (health.id,))
        marks = ", ".join("?" for _ in range(columns.count(",") + 2))
        target.executemany(f"INSERT INTO {table} (session_id, {columns}) VALUES ({marks})",
                           [(health.id, *values) for values in rows])
    count, digest = stored_log_hash(target, health.id)
    target.execute("UPDATE sessions SET log_count = ?, log_hash = ? WHERE id = ?", (count, digest, health.id))


def _plain(value: object) -> Any:
    """A stored value as JSON can hold it (bytes as their hex digits)."""
    return value.hex() if isinstance(value, bytes) else value


def _write_aside(target: sqlite3.Connection, health: SessionHealth, now: str) -> None:
    """A session that cannot be started, kept as it was read in ``set_aside``: never resumed, not lost."""
    content = {"row": {k: _plain(v) for k, v in health.row.items()},
               "moves": [_plain(text) for text in health.raw_moves]}
    reason = health.problem.to_json() if health.problem is not None else {}
    target.execute("INSERT INTO set_aside (session_id, reason, content, set_aside) VALUES (?, ?, ?, ?)",
                   (health.id, json.dumps(reason, ensure_ascii=False),
                    json.dumps(content, ensure_ascii=False), now))


def _kept(health: SessionHealth) -> Message:
    """What the repair kept of one session: all of it, the moves before the damage, or none."""
    if health.not_installed:
        return msg("doctor.repair.kept_not_installed", session=health.id, game=health.game)
    if not health.replayable:
        return msg("doctor.repair.set_aside", session=health.id, reason=health.problem)
    if health.lost and not health.good:
        return msg("doctor.repair.kept_none_lost", session=health.id, game=health.game, lost=health.lost,
                   reason=health.problem)
    if health.lost:
        return msg("doctor.repair.kept_lost", session=health.id, game=health.game, good=health.good,
                   lost=health.lost, reason=health.problem)
    if health.is_good:
        return msg("doctor.repair.kept_whole", session=health.id, count=health.good)
    if health.log_whole:
        return msg("doctor.repair.kept_mended", session=health.id, reason=health.problem)
    if health.good:
        return msg("doctor.repair.kept_some", session=health.id, good=health.good, reason=health.problem)
    return msg("doctor.repair.kept_none", session=health.id, reason=health.problem)


def _room_error(error: BaseException, path: Path | None = None) -> bool:
    """Whether a failed write ran out of room (a full card, a quota).

    SQLite says so as ``SQLITE_FULL``, or only as a disk I/O error when its
    ``-shm`` cannot grow; so with ``path``, a failure while the folder has less
    room than two copies of the store is taken for one too.
    """
    if getattr(error, "errno", None) in (errno.ENOSPC, errno.EDQUOT) or \
            getattr(error, "sqlite_errorname", "") == "SQLITE_FULL":
        return True
    if path is None or not isinstance(error, (OSError, sqlite3.Error, StoreError)):
        return False
    try:
        size = sum(p.stat().st_size for p in (path, _wal(path)) if p.exists())
        return shutil.disk_usage(path.parent).free < 2 * size + (1 << 20)
    except OSError:
        return False


def _refuse_newer_file(path: Path) -> None:
    """Refuse a store of a newer companion before anything is copied or written.

    Only a file with SQLite's header is opened (SQLite drops the ``-wal`` of an empty one).
    """
    if _is_empty(path) or not _has_header(path):
        return
    try:
        db = connect_reading(path)
    except (StoreError, sqlite3.Error, UnicodeDecodeError):
        return  # not readable as it is: the repair finds out what it is
    try:
        _refuse_newer(db, path)
    except Unusable:
        pass
    finally:
        db.close()


def _readable_copy(aside: Path, path: Path) -> Path:
    """The file the repair reads: the copy aside itself, or one made readable beside the store.

    A truncated file gets its true page count, a lost first page a fresh
    one (:func:`with_first_page`), an empty file the pages of its ``-wal``.
    """
    if _is_empty(aside):
        readable = path.with_name(f".{path.name}.from-wal")
        if not pages_from_wal(_wal(aside), readable):
            raise Unusable(msg("doctor.wal_empty", path=str(path), aside=str(aside)))
        return readable
    if not _has_header(aside) or schema_lost(aside):
        readable = path.with_name(f".{path.name}.first-page")
        if with_first_page(aside, readable):
            return readable
        if not _has_header(aside):
            raise Unusable(msg("doctor.not_a_database", path=str(path), reason="no SQLite header"))
    probe = connect_reading(aside)
    try:
        whole = _schema_readable(probe, path)
    finally:
        probe.close()
    if whole:
        return aside
    readable = path.with_name(f".{path.name}.resized")
    _resized_copy(aside, readable)
    return readable


def _build(source: sqlite3.Connection, checkup: Checkup, built_path: Path,
           clock: Callable[[], datetime]) -> list[Message]:
    """A new store at ``built_path`` from ``source`` (what ``checkup`` found readable), synced."""
    target = _new_database(built_path)
    try:
        now = clock().astimezone(UTC).isoformat(timespec="seconds")
        lines = _rebuild(source, checkup, target, now)
    finally:
        target.close()
    with open(built_path, "rb") as handle:
        os.fsync(handle.fileno())
    return lines


def repair(path: Path, *, clock: Callable[[], datetime] | None = None,
           games: GameLookup = get_game) -> RepairReport:
    """Copy the store aside and rebuild it from what can still be read (see the module's docstring).

    Nothing is copied for a store of a newer companion; a repair that cannot
    finish (no room left) takes its copy and its partial store back and says
    why, the store as it was.
    """
    clock = clock or (lambda: datetime.now(UTC))
    _refuse_unusable(path, repairing=True)
    with _writer(path):
        _refuse_newer_file(path)
        built_path = path.with_name(f".{path.name}.repairing")
        aside: Path | None = None
        readable: Path | None = None
        try:
            aside = _copy_aside(path, "damaged", clock)
            with_wal = _wal(aside).exists()
            readable = _readable_copy(aside, path)
            try:
                source = connect_reading(readable)
                _refuse_newer(source, path)
            except (sqlite3.Error, UnicodeDecodeError) as error:
                raise StoreError(msg("doctor.copy_unreadable", path=str(readable),
                                     reason=str(error))) from None
            try:
                checkup = _examine_db(source, path, games, full=True)
                lines = _build(source, checkup, built_path, clock)
            finally:
                source.close()
                _tidy_aside(aside, with_wal)
            _put_in_place(built_path, path)
        except (OSError, sqlite3.Error, StoreError) as error:
            room = _room_error(error, path)
            if aside is not None and (room or not isinstance(error, StoreError)):
                _remove_aside(aside)
            if not room:
                raise
            raise StoreError(msg("doctor.repair.no_room", path=str(path),
                                 reason=msg("doctor.repair.no_room_words"))) from None
        finally:
            for leftover in (built_path, readable if readable != aside else None):
                if leftover is not None:
                    _remove_files(leftover)
    return RepairReport(aside, with_wal, checkup, lines)
