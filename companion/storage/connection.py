"""Opening the store's file: what may be opened, how, and how sound its pages are.

Split out of :mod:`companion.storage.store` (the connection; the journal is
:mod:`companion.storage.journal`, the schema :mod:`companion.storage.migrations`).
Every connection here reads text leniently (:func:`companion.storage.rows.lenient`):
a value that is not UTF-8 is judged where it is read, never raised while fetching,
and the text of ``integrity_check`` (which quotes damaged bytes) always decodes.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from companion.games.messages import Message, msg
from companion.storage.errors import StoreError
from companion.storage.lock import LockHeld, WriterLock
from companion.storage.migrations import MIGRATIONS, Migration
from companion.storage.rows import DB_ERRORS, connect


def damaged_message(path: Path, damage: Sequence[str | Message]) -> Message:
    """The one line that says a store has damaged pages, and what to do."""
    if len(damage) > 1:
        return msg("store.damaged_more", path=str(path), first=damage[0], count=len(damage) - 1)
    return msg("store.damaged", path=str(path), first=damage[0])


def read_only_message(directory: Path) -> Message:
    return msg("store.read_only", path=str(directory))


def refuse_outside_damage(path: Path) -> None:
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
    db = connect(uri, uri=True, isolation_level=None, timeout=5.0)
    try:
        db.execute("PRAGMA user_version").fetchone()
    except sqlite3.OperationalError as error:  # (a damaged or foreign file: DatabaseError, the caller's)
        db.close()
        wal = path.with_name(path.name + "-wal")
        if os.access(path.parent, os.W_OK):
            raise StoreError(msg("store.cannot_open", path=str(path), reason=str(error))) from None
        if wal.exists() and wal.stat().st_size:
            raise StoreError(msg("store.read_only_wal", path=str(path.parent))) from None
        db = connect(uri + "&immutable=1", uri=True, isolation_level=None)
    except DB_ERRORS:
        pass  # the caller finds it again and says what it is
    db.execute("PRAGMA query_only=ON")
    return db


def is_corrupt(error: BaseException) -> bool:
    """Whether SQLite found damaged pages (rather than, say, a file that is no database at all);
    an error whose text does not decode quotes damaged bytes of the schema."""
    return isinstance(error, UnicodeDecodeError) or getattr(error, "sqlite_errorname", "") == "SQLITE_CORRUPT"


def damage_found(db: sqlite3.Connection, path: Path, known: int, *,
                 writable: bool) -> list[str | Message]:
    """Refuse a newer schema; then what ``quick_check`` finds wrong (an unreadable schema included),
    and any object that is not the companion's own (a trigger deleting moves is damage too)."""
    try:
        refuse_newer(db, path, known)
    except DB_ERRORS as error:
        if is_corrupt(error):
            return [str(error)]
        raise
    found: list[str | Message] = list(page_check(db, "quick_check", writable=writable))
    if not found:
        try:
            found += [msg("store.foreign_object", kind=kind, name=name[:40])
                      for kind, name in foreign_objects(db)]
            found += [msg("store.missing_object", kind=kind, name=name) for kind, name in missing_objects(db)]
        except DB_ERRORS as error:
            found.append(str(error))
    return found


def take_lock(path: Path) -> WriterLock:
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
        db = connect(f"{copy.resolve().as_uri()}?mode=ro", uri=True)
        try:
            found = int(db.execute("PRAGMA user_version").fetchone()[0])
            problems = page_check(db, "quick_check")
        finally:
            db.close()
    except (sqlite3.Error, UnicodeDecodeError) as error:
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
def closed_on_failure(db: sqlite3.Connection, path: Path) -> Iterator[None]:
    """Close ``db`` if opening fails; a file SQLite cannot read is named as not a companion store."""
    try:
        yield
    except DB_ERRORS as error:
        db.close()
        raise StoreError(msg("store.not_a_database", path=str(path), reason=str(error))) from None
    except BaseException:
        db.close()
        raise


def create_atomically(path: Path, migrations: Sequence[Migration]) -> None:
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
        configure(db, temporary)
        migrate(db, temporary, migrations)
    finally:
        db.close()  # checkpoints: the new store is one file
    fsync_path(temporary)
    os.replace(temporary, path)
    fsync_path(path.parent)


def refuse_newer(db: sqlite3.Connection, path: Path, known: int) -> None:
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
            rows = _check_rows(db, pragma)
        except DB_ERRORS as error:
            return [str(error)]
        return [] if rows == ["ok"] else rows
    copy = sqlite3.connect(":memory:", isolation_level=None)
    try:
        try:
            db.backup(copy)
            checked = copy
        except DB_ERRORS:
            checked = db
        rows = _check_rows(checked, pragma)
    except DB_ERRORS as error:
        return [str(error)]
    finally:
        copy.close()
    return [] if rows == ["ok"] else rows


def _check_rows(db: sqlite3.Connection, pragma: str) -> list[str]:
    """The lines of a check, as text whatever bytes they quote (a damaged name, a damaged value)."""
    cursor = db.cursor()
    cursor.row_factory = None
    saved = db.text_factory
    db.text_factory = bytes
    try:
        return [row[0].decode("utf-8", "replace") if isinstance(row[0], bytes) else str(row[0])
                for row in cursor.execute(f"PRAGMA {pragma}")]
    finally:
        db.text_factory = saved


def configure(db: sqlite3.Connection, path: Path) -> None:
    """WAL, ``synchronous=FULL``, foreign keys: every writing connection of the store."""
    mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    if str(mode).lower() != "wal":
        raise StoreError(msg("store.no_wal", path=str(path), mode=repr(mode)))
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")


@contextmanager
def write_transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` on a connection in autocommit mode (``isolation_level=None``):
    the writer's lock taken at the start, so a transaction never fails half-way for want of it;
    anything raised inside rolls the whole of it back."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def apply_migrations(db: sqlite3.Connection, migrations: Sequence[Migration]) -> None:
    """Apply the migrations past the store's ``user_version``, each in its own transaction with its
    number (the caller has refused a store newer than ``migrations``)."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    for target in range(version + 1, len(migrations) + 1):
        with write_transaction(db):
            migrations[target - 1](db)
            db.execute(f"PRAGMA user_version = {int(target)}")


def migrate(db: sqlite3.Connection, path: Path, migrations: Sequence[Migration]) -> None:
    """Apply the missing migrations, each in its own transaction with its version number."""
    refuse_newer(db, path, len(migrations))
    apply_migrations(db, migrations)


@functools.cache
def fresh_objects(version: int) -> frozenset[tuple[str, str]]:
    """The (kind, name) of every object of a store created by this companion at ``version``."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    try:
        for migration in MIGRATIONS[:version]:
            migration(db)
        return frozenset((str(kind), str(name)) for kind, name in
                         db.execute("SELECT type, name FROM sqlite_master"))
    finally:
        db.close()


def foreign_objects(db: sqlite3.Connection) -> list[tuple[str, str]]:
    """Objects in the store that are not the companion's own schema (a trigger, a view, a table...).

    A trigger that deletes earlier moves would make every confirmed move
    vanish; so the live store is judged too, not only a backup being restored.
    SQLite's statistics tables (``ANALYZE``) are not foreign. Judged by kind and
    name: the SQL text of a table differs between SQLite versions.
    """
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > len(MIGRATIONS):
        return []
    found = {(lenient_name(kind), lenient_name(name)) for kind, name in
             db.execute("SELECT type, name FROM sqlite_master")}
    return sorted(o for o in found - fresh_objects(version) if not o[1].startswith("sqlite_stat"))


def missing_objects(db: sqlite3.Connection) -> list[tuple[str, str]]:
    """The companion's tables the list of tables no longer names (a damaged first page)."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > len(MIGRATIONS):
        return []
    found = {(lenient_name(kind), lenient_name(name)) for kind, name in
             db.execute("SELECT type, name FROM sqlite_master")}
    return sorted(o for o in fresh_objects(version) - found if o[0] == "table")


def lenient_name(value: object) -> str:
    """A name read from the schema, as text whatever its bytes."""
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)

