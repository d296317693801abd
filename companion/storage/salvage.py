"""Reading what can still be read of a damaged store: rows past damaged pages, pages from a WAL.

Part of the doctor (:mod:`companion.storage.doctor`): rows are read one by one
where whole tables cannot be (a damaged page costs the rows on it, not the
table); a truncated file is read with its true page count, a lost first page
replaced by a fresh store's, an empty file rebuilt from its ``-wal``.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.games.messages import Message, msg
from companion.storage.migrations import MIGRATIONS
from companion.storage.rows import DB_ERRORS


def _rows(db: sqlite3.Connection, sql: str,
          params: Sequence[Any] = ()) -> tuple[list[tuple[Any, ...]], str | None]:
    """The rows of ``sql`` up to the first unreadable one, and the error that stopped it (if any)."""
    rows: list[tuple[Any, ...]] = []
    try:
        for row in db.execute(sql, params):
            rows.append(row)
    except DB_ERRORS as error:
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


def _wal_pages(wal: Path) -> tuple[int, dict[int, bytes]]:
    """The page size and the pages of ``wal``'s committed frames, the newest copy of each ((0, {}): none)."""
    try:
        data = wal.read_bytes()
    except FileNotFoundError:
        return 0, {}
    if len(data) < 32:
        return 0, {}
    magic, _version, page_size, _sequence, salt1, salt2 = struct.unpack(">6I", data[:24])
    if magic not in _WAL_MAGIC or page_size < 512 or page_size & (page_size - 1):
        return 0, {}
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
    return page_size, pages


def _write_pages(pages: dict[int, bytes], page_size: int, target: Path) -> None:
    """A rollback-journal database file of ``pages`` (page 1 given, or a fresh one); missing pages zeroed."""
    first = bytearray(pages[1] if 1 in pages else _fresh_first_page(page_size, target))
    first[18:20] = b"\x01\x01"  # read and write versions: legacy journal, no -wal needed
    size = max(max(pages), struct.unpack(">I", first[28:32])[0])  # every root page must be inside
    first[28:32] = struct.pack(">I", size)  # the database size, in pages
    pages[1] = bytes(first)
    with open(target, "wb") as handle:
        for number in range(1, size + 1):
            handle.write(pages.get(number, bytes(page_size)))


def pages_from_wal(wal: Path, target: Path) -> int:
    """Write the pages of ``wal``'s committed frames into a database file ``target``; returns how many.

    For a store whose main file is lost (0 bytes) but whose ``-wal`` is not:
    every page changed since the last checkpoint is in the WAL, the newest
    committed copy wins; pages it lacks read as damaged and are skipped by
    the salvage. The file is marked as a rollback-journal database, so that
    reading it needs no ``-wal`` of its own.
    """
    page_size, pages = _wal_pages(wal)
    if not pages:
        return 0
    _write_pages(pages, page_size, target)
    return len(pages)


_HEADER = b"SQLite format 3\x00"


#: The first byte of a b-tree page (interior and leaf, index and table), or of a page never used.
_PAGE_KINDS = (0x02, 0x05, 0x0A, 0x0D, 0x00)


def _has_header(path: Path) -> bool:
    with open(path, "rb") as handle:
        return handle.read(len(_HEADER)) == _HEADER


def with_first_page(source: Path, target: Path) -> bool:
    """Write ``source`` with a fresh first page (and its ``-wal``'s pages) to ``target``; ``False`` if it
    does not look like a store that lost only its first page.

    Page 1 holds the header and the list of tables; every store is created
    by the same migrations in the same order, so a fresh store's page 1
    points at the same root pages. The file must still look like a store's
    pages (its size a whole number of pages, page 2 a b-tree page): a file
    that is something else altogether is left for what it is.
    """
    page_size, pages = _wal_pages(_wal(source))
    page_size = page_size or 4096  # the page size this companion creates its stores with
    data = source.read_bytes()
    if len(data) < 2 * page_size or len(data) % page_size or data[page_size] not in _PAGE_KINDS:
        return False
    found = {number + 1: data[number * page_size:(number + 1) * page_size]
             for number in range(1, len(data) // page_size)}
    found.update({number: page for number, page in pages.items() if number != 1 or page[:16] == _HEADER})
    _write_pages(found, page_size, target)
    return True


def _wal(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


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
