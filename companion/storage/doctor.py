"""Checking a store, and rebuilding a damaged one from everything that can still be read.

Two kinds of damage, two answers (``companion doctor``):

- **Damaged pages** (SQLite's ``integrity_check`` fails; the card corrupted a
  page): the store is only read until it is repaired.
- **A damaged row** in sound pages (a move that no longer parses or
  replays): only that session is damaged; every other game goes on.

:func:`examine` reports each session as good or damaged (every value the
companion reads back included, judged as every connection judges it);
:func:`repair` copies the damaged file (and its ``-wal``) aside under a new
numbered name and builds a new store under a temporary name from what can
be read — every session whose moves replay (a session whose log breaks at
move N keeps moves 1…N−1), a session that cannot be started set aside in its
own table (never resumed, so the companion starts and plays whatever one row
holds), and every readable row of the other tables (settings, profiles,
boards and flag tables) — then renames it into place. :func:`restore` puts a
backup in place the same way, after checking that its schema is exactly the
companion's own. Both take the store's writer lock.

Reading is done row by row where whole tables cannot be read: a damaged page
costs the rows on it, not the table.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import re
import shutil
import sqlite3
import struct
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.games.base import Game, IllegalMove, RecordError, Summary, one_line
from companion.games.messages import Message, json_problem, msg
from companion.registry import descriptor, get_game, looks_like_a_name
from companion.storage.lock import LockHeld, WriterLock
from companion.storage.migrations import MIGRATIONS
from companion.storage.store import (
    StoreError,
    connect_reading,
    fsync_path,
    is_corrupt,
    page_check,
    read_only_message,
)

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
    summary: Summary | None = field(default=None, repr=False)
    #: False: the session cannot even be started (its game, players, options or setup do not
    #: read); a repair sets it aside instead of keeping it as a game to resume.
    replayable: bool = True
    #: Values of the row that do not read as the store reads them, and what a repair puts instead.
    mend: dict[str, Any] = field(default_factory=dict, repr=False)
    #: The stored move texts as read (kept with a session set aside).
    raw_moves: list[Any] = field(default_factory=list, repr=False)
    #: Its game is not installed here (no package declares it, or its plug-in fails to load): not
    #: damage; the session is kept exactly as stored, for the day the game is installed again.
    not_installed: bool = False

    @property
    def is_good(self) -> bool:
        return self.problem is None

    @property
    def log_whole(self) -> bool:
        """Every stored move (and the redo stack) replays; at most a value of the row is mended."""
        return self.problem is None or bool(self.mend)


@dataclass
class Checkup:
    """The whole store: its pages, its sessions, and what could not be read."""

    path: Path
    pages: list[str | Message]  # integrity_check problems; [] when the pages are sound
    sessions: list[SessionHealth]
    unreadable: list[Message]  # rows or tables that could not be read at all
    #: Sessions an earlier repair set aside: (session id, why, when); named, never damage.
    set_aside: list[tuple[int, Message | str, str]] = field(default_factory=list)

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
    health = SessionHealth(sid, str(row.get("game")), (), len(moves), 0, False, row=row,
                           raw_moves=[text for _, text in moves])

    def damaged(problem: Message) -> SessionHealth:
        health.problem = problem
        return health

    def unstartable(problem: Message) -> SessionHealth:
        health.replayable = False
        return damaged(problem)

    try:
        game = games(str(row["game"]))
    except (RecordError, ImportError) as error:
        if looks_like_a_name(row.get("game")):  # a game's name nobody here declares: not installed,
            health.not_installed = True        # kept as it is, never set aside for that
            return health
        return unstartable(msg("app.game.unknown", game=repr(row.get("game")), reason=str(error)))
    try:
        players, options, setup = _opening(row)
        health.players = tuple(players)
        state = game.start(tuple(players), options, setup)
    except json.JSONDecodeError as error:
        return unstartable(msg("doctor.problem.setup_unreadable", reason=json_problem(error)))
    except (TypeError, ValueError) as error:
        return unstartable(msg("doctor.problem.setup_unreadable", reason=one_line(str(error))))
    except RecordError as error:
        return unstartable(msg("doctor.problem.setup", reason=error.as_message()))
    for position, (index, text) in enumerate(moves):
        number = position + 1
        if index != position:
            return damaged(msg("doctor.problem.move_missing", number=number))
        try:
            move = game.parse_move(_move_object(text))
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
            health.redo.append(game.move_to_json(game.parse_move(_move_object(text))))
        except (TypeError, ValueError, RecordError) as error:
            health.redo = []
            return damaged(msg("doctor.problem.undone_unreadable", number=number,
                               reason=one_line(str(error))))
    health.mend = _row_mends(row)
    if health.mend:
        column = next(iter(health.mend))
        return damaged(msg("doctor.problem.value", column=column, value=one_line(repr(row[column]))[:40]))
    return health


def _move_object(text: Any) -> dict[str, Any]:
    """A stored move's JSON object; :class:`ValueError` (or :class:`TypeError`) when it is none."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("a move is a JSON object")
    return data


def _opening(row: dict[str, Any]) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
    """The players, options and setup of a stored session; :class:`ValueError` if they do not read."""
    players = json.loads(row["players"])
    options = json.loads(row["options"])
    setup = json.loads(row["setup"])
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ValueError("the players are not a list of names")
    if not isinstance(options, dict) or not isinstance(setup, dict):
        raise ValueError("the options or the setup are not a JSON object")
    return players, options, setup


def _is_moment(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def _row_mends(row: dict[str, Any]) -> dict[str, Any]:
    """The row's values that the store could not read back (each column as ``Store`` reads it),
    with what a repair writes instead: a time that does not read becomes the repair's time (and
    the date unsure), a source outside its two words what the record hash says it was."""
    mend: dict[str, Any] = {}
    if not _is_moment(row.get("started")):
        mend["started"] = _NOW
        mend["date_unsure"] = 1
    for column in ("finished", "abandoned"):
        if row.get(column) is not None and not _is_moment(row[column]):
            mend[column] = _NOW
    if row.get("record_hash") is not None and not isinstance(row["record_hash"], str):
        mend["record_hash"] = None
    if row.get("source") not in ("table", "import"):
        mend["source"] = "import" if isinstance(row.get("record_hash"), str) else "table"
    if "date_unsure" in row and row["date_unsure"] not in (0, 1):
        mend["date_unsure"] = 1
    played = row.get("played_seconds")
    if played is not None and (isinstance(played, bool) or not isinstance(played, (int, float))
                               or not math.isfinite(played) or played < 0):
        mend["played_seconds"] = None
    version = row.get("log_version", 0)
    if isinstance(version, bool) or not isinstance(version, int):
        mend["log_version"] = 0
    return mend


#: Stands for "the repair's time" among a row's mended values (the time is known only then).
_NOW = object()


def _examine_db(db: sqlite3.Connection, path: Path, games: GameLookup, *, full: bool) -> Checkup:
    # SQLite's own words for damaged pages (they have no code of ours), then our messages;
    # judged on a writable copy, as every connection of the store judges them (store.page_check)
    problems: list[str | Message] = list(page_check(db, "integrity_check" if full else "quick_check"))
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
        if health.problem is None and health.finished and row.get("finished") is not None:
            _check_results(db, health)
        sessions.append(health)
    sessions.sort(key=lambda s: s.id)
    unreadable += _bad_plain_rows(db, tables)
    orphans, _ = _rows(db, "PRAGMA foreign_key_check")
    unreadable += [msg("doctor.rows.orphan", table=str(table), parent=str(parent))
                   for table, parent in sorted({(row[0], row[2]) for row in orphans})]
    return Checkup(path, problems, sessions, unreadable, _set_aside_rows(db, tables))


def expected_results(health: SessionHealth) -> list[tuple[int, str, int, int]]:
    """A finished session's results rows as its replayed summary gives them (seat, player, score, won)."""
    if health.summary is None:
        return []
    scores, winners = health.summary.get("scores", {}), set(health.summary.get("winners", []))
    return [(seat, name, int(scores.get(name, 0)), int(name in winners))
            for seat, name in enumerate(health.players)]


def _check_results(db: sqlite3.Connection, health: SessionHealth) -> None:
    """A finished session's stored results must be what its moves give (statistics read them)."""
    stored, error = _rows(db, "SELECT seat, player, score, winner FROM results WHERE session_id = ? "
                              "ORDER BY seat", (health.id,))
    if error is not None or [tuple(row) for row in stored] != expected_results(health):
        health.problem = msg("doctor.problem.results")
        health.mend = {"results": None}


#: What each column of the plain tables must hold for the store to read it back ("json": JSON text).
_PLAIN_COLUMNS: dict[str, dict[str, str]] = {
    "players": {"name": "text", "created": "text", "last_played": "text"},
    "player_colours": {"player_id": "integer", "game": "text", "colour": "text"},
    "settings": {"key": "text", "value": "json", "updated": "text"},
}


def _readable_value(value: object, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if not isinstance(value, str):
        return False
    if kind == "json":
        try:
            json.loads(value)
        except ValueError:
            return False
    return True


def _plain_row_readable(table: str, columns: Sequence[str], row: Sequence[Any]) -> bool:
    kinds = _PLAIN_COLUMNS.get(table, {})
    values = dict(zip(columns, row, strict=True))
    if not all(_readable_value(value, kinds[column]) for column, value in values.items() if column in kinds):
        return False
    if table == "player_colours" and {"game", "colour"} <= set(values):
        return _known_colour(values["game"], values["colour"])
    return True


def _known_colour(game: str, colour: str) -> bool:
    """Whether ``colour`` is a piece colour of the known game ``game`` (a profile's preferred colour)."""
    try:
        allowed = descriptor(game).piece_colours
    except RecordError:
        return False
    return allowed is None or colour in allowed


def _bad_plain_rows(db: sqlite3.Connection, tables: set[str]) -> list[Message]:
    """A line for each row of the plain tables that the store could not read back (a repair leaves it out)."""
    found: list[Message] = []
    for table in _PLAIN_COLUMNS:
        if table not in tables:
            continue
        columns = [c for c in _columns(db, table) if c in _PLAIN_COLUMNS[table]]
        rows, _ = _salvage(db, table, columns)
        for row in rows:
            if not _plain_row_readable(table, columns, row):
                found.append(msg("doctor.rows.bad_value", table=table,
                                 row=one_line(repr(tuple(row)))[:60]))
    return found


def _set_aside_rows(db: sqlite3.Connection, tables: set[str]) -> list[tuple[int, Message | str, str]]:
    """The sessions an earlier repair set aside: (id, why, when)."""
    if "set_aside" not in tables:
        return []
    rows, _ = _rows(db, "SELECT session_id, reason, set_aside FROM set_aside ORDER BY id")
    return [(int(sid), _message_from_text(reason), str(when)) for sid, reason, when in rows]


def _message_from_text(text: Any) -> Message | str:
    """A message stored as JSON by :meth:`Message.to_json` (plain text if it is not one)."""
    try:
        found = _message_from_json(json.loads(text))
    except (TypeError, ValueError):
        return str(text)
    return found if isinstance(found, Message) else str(text)


def _message_from_json(data: object) -> Any:
    if isinstance(data, dict) and set(data) == {"code", "params"} and isinstance(data["params"], dict):
        return Message(str(data["code"]), {k: _message_from_json(v) for k, v in data["params"].items()})
    if isinstance(data, list):
        return [_message_from_json(item) for item in data]
    return data


def examine(path: Path, *, games: GameLookup = get_game) -> Checkup:
    """Check the store at ``path`` without writing anything: its pages, then every session's log.

    :class:`StoreError` when the file is not a store at all (empty, missing, not SQLite).
    """
    _refuse_unusable(path)
    if not _has_header(path):
        with tempfile.TemporaryDirectory(prefix="companion-doctor-") as scratch:
            readable = Path(scratch) / path.name
            if with_first_page(path, readable):
                db = connect_reading(readable)
                try:
                    if _schema_readable(db, path):
                        checkup = _examine_db(db, path, games, full=True)
                        checkup.pages.insert(0, msg("doctor.pages.first_page"))
                        checkup.path = path
                        return checkup
                finally:
                    db.close()
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
    """Fill the new store ``target`` from the readable copy, in one transaction: what was kept, cut and lost.

    Plain tables are copied row by row; sessions are written from the
    checkup (its readable moves), not copied, so a damaged log ends where it
    can still be replayed.
    """
    target.execute("BEGIN")
    lines = _copy_plain_tables(source, target)
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
    target.execute("COMMIT")
    lines += [msg("doctor.repair.lost", what=what) for what in checkup.unreadable]
    return lines


def _copy_plain_tables(source: sqlite3.Connection, target: sqlite3.Connection) -> list[Message]:
    """Copy every readable row of the tables that are not a game's log, the columns both schemas have.

    Returns a line for each table where some rows could not be read.
    """
    lines: list[Message] = []
    old_tables = {name for (name,) in _rows(source, "SELECT name FROM sqlite_master WHERE type = 'table'")[0]}
    new_tables = [name for (name,) in target.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    for table in new_tables:
        if table in _LOG_TABLES or table not in old_tables:
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
    row = {k: mended.get(k, v) for k, v in health.row.items() if k in session_columns and k != "log_version"}
    row["finished"] = (row.get("finished") or now) if health.finished else None
    _insert_session(target, row)
    target.executemany("INSERT INTO moves (session_id, idx, move) VALUES (?, ?, ?)",
                       [(health.id, i, _dumps(m)) for i, m in enumerate(health.moves)])
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
    _insert_session(target, {k: v for k, v in health.row.items() if k in session_columns})
    for table, columns in (("moves", "idx, move"), ("redo", "pos, move"),
                           ("results", "seat, player, score, winner")):
        rows, _ = _rows(source, f"SELECT {columns} FROM {table} WHERE session_id = ?", (health.id,))
        marks = ", ".join("?" for _ in range(columns.count(",") + 2))
        target.executemany(f"INSERT INTO {table} (session_id, {columns}) VALUES ({marks})",
                           [(health.id, *values) for values in rows])


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
    if health.is_good:
        return msg("doctor.repair.kept_whole", session=health.id, count=health.good)
    if health.log_whole:
        return msg("doctor.repair.kept_mended", session=health.id, reason=health.problem)
    if health.good:
        return msg("doctor.repair.kept_some", session=health.id, good=health.good, reason=health.problem)
    return msg("doctor.repair.kept_none", session=health.id, reason=health.problem)


def _room_error(error: BaseException) -> bool:
    """Whether a failed write ran out of room (a full card, a quota)."""
    return getattr(error, "errno", None) in (errno.ENOSPC, errno.EDQUOT) or \
        getattr(error, "sqlite_errorname", "") == "SQLITE_FULL"


def _refuse_newer_file(path: Path) -> None:
    """Refuse a store of a newer companion before anything is copied or written.

    Only a file with SQLite's header is opened (SQLite drops the ``-wal`` of an empty one).
    """
    if _is_empty(path) or not _has_header(path):
        return
    try:
        db = connect_reading(path)
    except (StoreError, sqlite3.Error):
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
    if not _has_header(aside):
        readable = path.with_name(f".{path.name}.first-page")
        if not with_first_page(aside, readable):
            raise Unusable(msg("doctor.not_a_database", path=str(path), reason="no SQLite header"))
        return readable
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
            except sqlite3.Error as error:
                raise StoreError(msg("doctor.copy_unreadable", path=str(readable),
                                     reason=str(error))) from None
            try:
                checkup = _examine_db(source, path, games, full=True)
                lines = _build(source, checkup, built_path, clock)
            finally:
                source.close()
                _tidy_aside(aside, with_wal)
            _put_in_place(built_path, path)
        except (OSError, sqlite3.Error) as error:
            if aside is not None:
                _remove_aside(aside)
            if not _room_error(error):
                raise
            raise StoreError(msg("doctor.repair.no_room", path=str(path),
                                 reason=getattr(error, "strerror", None) or str(error))) from None
        finally:
            for leftover in (built_path, _wal(built_path), readable if readable != aside else None):
                if leftover is not None:
                    with contextlib.suppress(FileNotFoundError):
                        leftover.unlink()
    return RepairReport(aside, with_wal, checkup, lines)


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
    except sqlite3.DatabaseError as error:
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
                with contextlib.suppress(FileNotFoundError):
                    built_path.unlink()
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
