"""Restoring a backup: checked to be the companion's own schema, put in place as a repair would.

Part of the doctor (:mod:`companion.storage.doctor`).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from companion.games.base import one_line
from companion.games.messages import Message, msg
from companion.registry import get_game
from companion.storage.checking import GameLookup, _examine_db, _refuse_newer
from companion.storage.migrations import MIGRATIONS
from companion.storage.repairing import (
    _build,
    _copy_aside,
    _put_in_place,
    _remove_aside,
    _remove_files,
    _writer,
)
from companion.storage.rows import DB_ERRORS
from companion.storage.store import StoreError, connect_reading, page_check


#: Objects a fresh store has that SQLite makes itself (their ``sql`` is NULL or internal).
def fresh_schema(version: int) -> set[tuple[str, str, str, str | None]]:
    """What ``sqlite_schema`` of a store created by this companion at ``version`` holds."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    try:
        for migration in MIGRATIONS[:version]:
            migration(db)
        return _schema_of(db)
    finally:
        db.close()


def _schema_of(db: sqlite3.Connection) -> set[tuple[str, str, str, str | None]]:
    return {(str(kind), str(name), str(table), sql) for kind, name, table, sql in
            db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")}


def _check_backup(source: sqlite3.Connection, backup: Path) -> None:
    """Refuse, in one line, a file not of this companion's own schema, or whose pages are damaged.

    The schema must be exactly a fresh store's at the file's version: no
    trigger, view, table or index more or less (a trigger that deletes moves
    would otherwise come back with the restore), and ``integrity_check`` must
    pass, judged as every connection judges it (:func:`page_check`).
    """
    try:
        version = source.execute("PRAGMA user_version").fetchone()[0]
        schema = _schema_of(source)
    except DB_ERRORS as error:
        raise StoreError(msg("doctor.restore.not_backup", path=str(backup), reason=str(error))) from None
    if version > len(MIGRATIONS):
        _refuse_newer(source, backup)
    if version < 1 or "sessions" not in {name for kind, name, _, _ in schema if kind == "table"}:
        raise StoreError(msg("doctor.restore.no_sessions", path=str(backup)))
    fresh = fresh_schema(version)
    foreign = sorted(schema - fresh) + sorted(fresh - schema)
    if foreign:
        kind, name, _, _ = foreign[0]
        raise StoreError(msg("doctor.restore.foreign", path=str(backup), kind=kind, name=one_line(name)[:40]))
    problems = page_check(source, "integrity_check")
    if problems:
        raise StoreError(msg("doctor.restore.damaged", path=str(backup), reason=problems[0]))


@dataclass
class RestoreReport:
    """Where the old store went (``None``: there was none); what was kept of a backup with damaged rows."""

    aside: Path | None
    lines: list[Message] = field(default_factory=list)


def restore(path: Path, backup: Path, *, clock: Callable[[], datetime] | None = None,
            games: GameLookup = get_game) -> RestoreReport:
    """Put the backup file ``backup`` in place of the store; says where the old store was copied.

    The backup is checked first (:func:`_check_backup`); nothing is changed
    if it is refused. A backup whose sessions are all good is copied as it
    is; one with damaged rows is rebuilt as a repair would, so that the
    companion starts and plays on the restored store whatever the backup held.
    """
    clock = clock or (lambda: datetime.now(UTC))
    if not backup.is_file():
        raise StoreError(msg("doctor.restore.no_file", path=str(backup)))
    source = connect_reading(backup)
    try:
        _check_backup(source, backup)
        checkup = _examine_db(source, backup, games, full=False)
        path.parent.mkdir(parents=True, exist_ok=True)
        with _writer(path):
            aside = _copy_aside(path, "before-restore", clock) if path.exists() else None
            built_path = path.with_name(f".{path.name}.restoring")
            lines: list[Message] = []
            try:
                if checkup.is_good:
                    _copy_whole(source, built_path)
                else:
                    lines = _build(source, checkup, built_path, clock)
                _put_in_place(built_path, path)
            except BaseException:
                if aside is not None:
                    _remove_aside(aside)
                raise
            finally:
                _remove_files(built_path)
    finally:
        source.close()
    return RestoreReport(aside, lines)


def _copy_whole(source: sqlite3.Connection, built_path: Path) -> None:
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
