"""Checking a store: every page, every table, every value the companion reads back.

Part of the doctor (:mod:`companion.storage.doctor`). :func:`examine` reports
each session as good or damaged — its log replayed, its moves counted against
the bookkeeping kept with every save (schema 8: a log shorter than it was, or
changed, is damage) — every championship and its rounds, every row of the
other tables (settings, profiles, colours, rows set aside), and every object
that is not the companion's own schema. Text is read as bytes where it may
not decode; nothing a store holds makes it fail.
"""

from __future__ import annotations

import json
import math
import sqlite3
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.games.base import Game, IllegalMove, RecordError, Summary, one_line
from companion.games.messages import Message, json_problem, msg
from companion.registry import get_game, looks_like_a_name
from companion.storage import rows as read
from companion.storage.championship_check import NOW, ChampionshipHealth, RoundMend, judge_championships
from companion.storage.connection import foreign_objects, fresh_objects, lenient_name
from companion.storage.migrations import MIGRATIONS, log_hash
from companion.storage.outbox_check import outbox_lines
from companion.storage.plain_check import AsideEntry, _bad_plain_rows, _set_aside_rows
from companion.storage.rows import DB_ERRORS
from companion.storage.salvage import (
    _columns,
    _has_header,
    _is_empty,
    _resized_copy,
    _rows,
    _salvage,
    _wal,
    with_first_page,
)
from companion.storage.store import StoreError, connect_reading, is_corrupt, page_check

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
    #: How many moves the store had saved (the bookkeeping of every save, schema 8; ``None``: unknown,
    #: then the moves found count).
    expected: int | None = None
    #: The log itself is damaged (a move missing, unreadable, refused; fewer moves than saved).
    log_damaged: bool = False

    @property
    def is_good(self) -> bool:
        return self.problem is None

    @property
    def log_whole(self) -> bool:
        """Every stored move (and the redo stack) replays; at most a value of the row is mended."""
        return not self.log_damaged and self.lost == 0

    @property
    def kept(self) -> int:
        """Moves a repair keeps as the game's log (all stored ones of a game not installed here)."""
        if self.not_installed:
            return self.stored
        return self.good if self.replayable else 0

    @property
    def aside(self) -> int:
        """Moves a repair keeps in ``set_aside`` with the session (one that cannot be started)."""
        return 0 if self.replayable or self.not_installed else len(self.raw_moves)

    @property
    def lost(self) -> int:
        """Moves saved once that a repair can keep neither as the log nor aside."""
        saved = self.stored if self.expected is None else self.expected
        return max(0, saved - self.kept - self.aside)


@dataclass
class Checkup:
    """The whole store: its pages, its sessions, and what could not be read."""

    path: Path
    pages: list[str | Message]  # integrity_check problems; [] when the pages are sound
    sessions: list[SessionHealth]
    unreadable: list[Message]  # rows or tables that could not be read at all
    #: Sessions (and championships) an earlier repair set aside; named, never damage.
    set_aside: list[AsideEntry] = field(default_factory=list)
    championships: list[ChampionshipHealth] = field(default_factory=list)
    #: Sessions marked as rounds they cannot be (kept as games on their own by a repair).
    rounds: list[RoundMend] = field(default_factory=list)
    #: Objects that are not the companion's own schema (a trigger, a view...): a repair leaves them out.
    foreign: list[Message] = field(default_factory=list)
    #: Rows of ``set_aside`` that do not read (a repair writes them again, readable).
    bad_aside: list[dict[str, Any]] = field(default_factory=list, repr=False)

    @property
    def bad_aside_lines(self) -> list[Message]:
        return [msg("doctor.rows.bad_value", table="set_aside", row=one_line(repr(tuple(r.values())))[:60])
                for r in self.bad_aside]

    @property
    def is_good(self) -> bool:
        return (not self.pages and not self.unreadable and not self.foreign and not self.bad_aside
                and all(s.is_good for s in self.sessions) and all(c.is_good for c in self.championships))


class _Damage(Exception):
    """The first damage found in a session, raised by the step that finds it.

    The steps of :func:`_check_session` stop at the first damage; raising it lets each
    step say only what it judges, and the check mark the session in one place.
    ``startable``: the game itself cannot start (unknown, or a setup that does not read).
    """

    def __init__(self, problem: Message, *, startable: bool = True) -> None:
        super().__init__(problem)
        self.problem = problem
        self.startable = startable


def _check_session(row: dict[str, Any], moves: list[tuple[int, Any, bytes]], read_error: str | None,
                   redo: list[Any], games: GameLookup) -> SessionHealth:
    """One session judged as the store would replay it: its game, setup, moves, undone moves,
    bookkeeping and row values in turn, stopping at the first damage (what a repair keeps is
    the log up to there)."""
    health = _new_health(row, moves, read_error)
    try:
        game = games(str(row["game"]))
    except (RecordError, ImportError) as error:
        if looks_like_a_name(row.get("game")):  # a game's name nobody here declares: not installed,
            health.not_installed = True        # kept as it is, never set aside for that
            return health
        return _damaged(health, msg("app.game.unknown", game=repr(row.get("game")), reason=str(error)),
                        startable=False)
    try:
        _replay(health, game, _started(health, game, row), moves)
        if read_error is not None:
            raise _Damage(msg("doctor.problem.moves_from", number=len(moves) + 1, reason=read_error))
        _read_redo(health, game, redo)
        _check_bookkeeping(health, moves, row.get("log_hash"))
        _check_row_values(health, row)
    except _Damage as damage:
        return _damaged(health, damage.problem, startable=damage.startable)
    return health


def _new_health(row: dict[str, Any], moves: list[tuple[int, Any, bytes]],
                read_error: str | None) -> SessionHealth:
    """The session before judging, with the move count its bookkeeping expects.

    A count that disagrees with moves whose hash is still the one saved is the count's own
    damage, not lost moves: then no count is expected (the row's values judge it).
    """
    health = SessionHealth(int(row["id"]), _shown_game(row.get("game")), (), len(moves), 0, False, row=row,
                           raw_moves=[text for _, text, _ in moves])
    count, digest = row.get("log_count"), row.get("log_hash")
    if isinstance(count, int) and read.is_integer(count) and count >= 0 and read.is_text(digest):
        health.expected = count
        if count != len(moves) and read_error is None and log_hash(blob for _, _, blob in moves) == digest:
            health.expected = None  # the moves are the ones saved: the count is what is damaged
    return health


def _damaged(health: SessionHealth, problem: Message, *, startable: bool = True) -> SessionHealth:
    """Mark the session's log damaged (and not replayable at all when its game cannot start)."""
    if not startable:
        health.replayable = False
    health.problem = problem
    health.log_damaged = True
    return health


def _started(health: SessionHealth, game: Game[Any, Any], row: dict[str, Any]) -> Any:
    """The game's first state from the stored players, options and setup (which must read first)."""
    try:
        players, options, setup = _opening(row)
        health.players = tuple(players)
        return game.start(tuple(players), options, setup)
    except UnicodeDecodeError:
        raise _Damage(msg("doctor.problem.setup_unreadable", reason=msg("doctor.problem.not_utf8")),
                      startable=False) from None
    except json.JSONDecodeError as error:
        raise _Damage(msg("doctor.problem.setup_unreadable", reason=json_problem(error)),
                      startable=False) from None
    except (TypeError, ValueError) as error:
        raise _Damage(msg("doctor.problem.setup_unreadable", reason=one_line(str(error))),
                      startable=False) from None
    except RecordError as error:
        raise _Damage(msg("doctor.problem.setup", reason=error.as_message()), startable=False) from None


def _replay(health: SessionHealth, game: Game[Any, Any], state: Any,
            moves: list[tuple[int, Any, bytes]]) -> None:
    """Replay the stored moves in order, counting each good one (kept by a repair) as it goes."""
    for position, (index, text, _) in enumerate(moves):
        number = position + 1
        if index != position:
            raise _Damage(msg("doctor.problem.move_missing", number=number))
        move = _parsed_move(game, text, number)
        state = _applied(game, state, move, number)
        health.good = number
        health.moves.append(game.move_to_json(move))
        health.finished = game.is_finished(state)
        health.summary = game.summary(state) if health.finished else None


def _parsed_move(game: Game[Any, Any], text: Any, number: int) -> Any:
    """Stored move ``number`` as the game's move: text that is UTF-8 JSON the game accepts."""
    try:
        if isinstance(text, read.Undecoded):
            raise UnicodeDecodeError("utf-8", bytes(text), 0, 1, "not UTF-8")
        return game.parse_move(read.move_object(text))
    except UnicodeDecodeError:
        raise _Damage(msg("doctor.problem.move_unreadable", number=number,
                          reason=msg("doctor.problem.not_utf8"))) from None
    except (TypeError, ValueError) as error:
        raise _Damage(msg("doctor.problem.move_unreadable", number=number,
                          reason=one_line(str(error)))) from None
    except RecordError as error:
        raise _Damage(msg("doctor.problem.move_invalid", number=number, reason=error.as_message())) from None


def _applied(game: Game[Any, Any], state: Any, move: Any, number: int) -> Any:
    """The state after move ``number``; a move the rules refuse is damage (naming who made it, if known)."""
    try:
        return game.apply(state, move)
    except IllegalMove as error:
        who = game.actor(move)
        if who:
            raise _Damage(msg("doctor.problem.replay_by", number=number, player=one_line(who),
                              reason=error.reason)) from None
        raise _Damage(msg("doctor.problem.replay", number=number, reason=error.reason)) from None


def _read_redo(health: SessionHealth, game: Game[Any, Any], redo: list[Any]) -> None:
    """The undone moves (redo stack), each of which must read as a move; kept all or none."""
    for number, text in enumerate(redo, start=1):
        try:
            health.redo.append(game.move_to_json(game.parse_move(read.move_object(text))))
        except (TypeError, ValueError, RecordError) as error:
            health.redo = []
            raise _Damage(msg("doctor.problem.undone_unreadable", number=number,
                              reason=one_line(str(error)))) from None


def _check_bookkeeping(health: SessionHealth, moves: list[tuple[int, Any, bytes]], digest: object) -> None:
    """The moves against the count and hash kept with every save: fewer, or changed, is damage."""
    if health.expected is None:
        return
    if len(moves) != health.expected:
        raise _Damage(msg("doctor.problem.moves_lost", count=health.expected, found=len(moves)))
    if log_hash(blob for _, _, blob in moves) != digest:
        raise _Damage(msg("doctor.problem.log_changed", count=health.expected))


def _check_row_values(health: SessionHealth, row: dict[str, Any]) -> None:
    """The row's own values the store could not read back: damage naming the first, mended by a repair."""
    health.mend = _row_mends(row, health.expected)
    if health.mend:
        column = next(iter(health.mend))
        raise _Damage(msg("doctor.problem.value", column=column, value=one_line(repr(row[column]))[:40]))


def _shown_game(value: object) -> str:
    return value if read.is_text(value) else one_line(repr(value))[:40]  # type: ignore[return-value]


def _opening(row: dict[str, Any]) -> tuple[tuple[str, ...], dict[str, Any], dict[str, Any]]:
    """The players, options and setup of a stored session; :class:`ValueError` if they do not read
    (judged as the store reads them: :mod:`companion.storage.rows`)."""
    return read.names(row["players"]), read.json_object(row["options"]), read.json_object(row["setup"])


def _row_mends(row: dict[str, Any], expected: int | None = None) -> dict[str, Any]:
    """The row's values that the store could not read back (each column as ``Store`` reads it),
    with what a repair writes instead: a time that does not read becomes the repair's time (and
    the date unsure), a source outside its two words what the record hash says it was.

    In the order of the columns judged (the first names the damage), whichever group finds it.
    """
    mend: dict[str, Any] = {}
    mend.update(_time_mends(row))
    mend.update(_origin_mends(row))
    mend.update(_counter_mends(row, expected))
    return mend


def _time_mends(row: dict[str, Any]) -> dict[str, Any]:
    """Times that do not read: the repair's time instead (a start so mended makes the date unsure)."""
    mend: dict[str, Any] = {}
    if not read.is_moment(row.get("started")):
        mend["started"] = _NOW
        mend["date_unsure"] = 1
    for column in ("finished", "abandoned"):
        if row.get(column) is not None and not read.is_moment(row[column]):
            mend[column] = _NOW
    return mend


def _origin_mends(row: dict[str, Any]) -> dict[str, Any]:
    """Where the session came from: a record hash that is not text is dropped, and a source outside
    'table'/'import' becomes what the (kept) record hash says it was."""
    mend: dict[str, Any] = {}
    if row.get("record_hash") is not None and not read.is_text(row["record_hash"]):
        mend["record_hash"] = None
    if row.get("source") not in ("table", "import"):
        kept_hash = mend.get("record_hash", row.get("record_hash"))
        mend["source"] = "import" if read.is_text(kept_hash) else "table"
    return mend


def _counter_mends(row: dict[str, Any], expected: int | None) -> dict[str, Any]:
    """The flag and the counters: date-unsure a 0/1, the time played a finite duration, the log
    version a whole number, and a move count kept only beside a hash the check could trust."""
    mend: dict[str, Any] = {}
    if "date_unsure" in row and row["date_unsure"] not in (0, 1):
        mend["date_unsure"] = 1
    played = row.get("played_seconds")
    if played is not None and not _is_duration(played):
        mend["played_seconds"] = None
    version = row.get("log_version", 0)
    if isinstance(version, bool) or not isinstance(version, int):
        mend["log_version"] = 0
    if "log_count" in row and (expected is None or not (read.is_integer(row["log_count"])
                                                        and row["log_count"] >= 0
                                                        and read.is_text(row.get("log_hash")))):
        mend["log_count"] = None  # (written again from the moves kept, as every repair writes it)
    return mend


def _is_duration(value: object) -> bool:
    """A number of seconds the store reads back: a finite, non-negative int or float (not a bool)."""
    return (not isinstance(value, bool) and isinstance(value, (int, float))
            and math.isfinite(value) and value >= 0)


#: Stands for "the repair's time" among a row's mended values (the time is known only then).
_NOW = NOW


def _examine_db(db: sqlite3.Connection, path: Path, games: GameLookup, *, full: bool) -> Checkup:
    """The whole checkup of an open store: pages, sessions, the other rows, championships, foreign objects."""
    # SQLite's own words for damaged pages (they have no code of ours), then our messages;
    # judged on a writable copy, as every connection of the store judges them (store.page_check)
    problems: list[str | Message] = list(page_check(db, "integrity_check" if full else "quick_check"))
    tables = {name for (name,) in _rows(db, "SELECT name FROM sqlite_master WHERE type = 'table'")[0]}
    if "sessions" not in tables:
        return Checkup(path, problems, [], [] if not problems else [msg("doctor.lost.sessions_list")])
    sessions, unreadable = _judge_sessions(db, games)
    unreadable += _bad_plain_rows(db, tables)
    unreadable += _orphan_lines(db)
    unreadable += outbox_lines(db, tables)
    championships, rounds, lost = judge_championships(
        db, tables, [h.row for h in sessions], {h.id for h in sessions if not h.replayable})
    unreadable += lost
    _mark_bad_rounds(sessions, rounds)
    aside, bad_aside = _set_aside_rows(db, tables)
    return Checkup(path, problems, sessions, unreadable, aside, championships, rounds, _foreign_lines(db),
                   bad_aside)


def _judge_sessions(db: sqlite3.Connection, games: GameLookup) -> tuple[list[SessionHealth], list[Message]]:
    """Every session row that reads, judged (in id order), and a line for the rows that do not."""
    columns = _columns(db, "sessions")
    rows, unreadable = _salvage(db, "sessions", columns)
    sessions = [_judge_stored_session(db, dict(zip(columns, values, strict=True)), games) for values in rows]
    sessions.sort(key=lambda s: s.id)
    return sessions, unreadable


def _judge_stored_session(db: sqlite3.Connection, row: dict[str, Any], games: GameLookup) -> SessionHealth:
    """One session with its moves and undone moves as they read from the store, and a finished
    game's results against what its moves give (an undone-move table that does not read is damage)."""
    moves, read_error = _rows(db, "SELECT idx, move, CAST(move AS BLOB) FROM moves WHERE session_id = ? "
                                  "ORDER BY idx", (row["id"],))
    redo, redo_error = _rows(db, "SELECT move FROM redo WHERE session_id = ? ORDER BY pos", (row["id"],))
    health = _check_session(row, moves, read_error, [] if redo_error else [r[0] for r in redo], games)
    if redo_error and health.problem is None:
        health.problem = msg("doctor.problem.undone_moves", reason=redo_error)
    if health.problem is None and health.finished and row.get("finished") is not None:
        _check_results(db, health)
    return health


def _orphan_lines(db: sqlite3.Connection) -> list[Message]:
    """A line for each table with rows whose parent row is gone (a session's championship is judged
    with the rounds, not here)."""
    orphans, _ = _rows(db, "PRAGMA foreign_key_check")
    return [msg("doctor.rows.orphan", table=str(table), parent=str(parent))
            for table, parent in sorted({(row[0], row[2]) for row in orphans})
            if (table, parent) != ("sessions", "championships")]


def _mark_bad_rounds(sessions: list[SessionHealth], rounds: list[RoundMend]) -> None:
    """Sessions marked as rounds they cannot be: a repair keeps them as games on their own."""
    by_id = {h.id: h for h in sessions}
    for mend in rounds:
        health = by_id[mend.session]
        health.mend.update(championship=None, championship_round=None)
        health.problem = health.problem or mend.problem


def _foreign_lines(db: sqlite3.Connection) -> list[Message]:
    """A line for each object that is not the companion's schema (none when the list does not read)."""
    try:
        return [msg("doctor.foreign_object", kind=kind, name=one_line(name)[:40])
                for kind, name in foreign_objects(db)]
    except DB_ERRORS:
        return []


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


def examine(path: Path, *, games: GameLookup = get_game) -> Checkup:
    """Check the store at ``path`` without writing anything: its pages, then every session's log.

    :class:`StoreError` when the file is not a store at all (empty, missing, not SQLite).
    """
    _refuse_unusable(path)
    if not _has_header(path) or schema_lost(path):
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


def schema_lost(path: Path) -> bool:
    """Whether the list of tables (on the first page) no longer names the companion's tables, though
    the file says it is a store of this version: a damaged name, a damaged statement. Its tables are
    then read through a fresh first page (:func:`~companion.storage.salvage.with_first_page`)."""
    try:
        db = connect_reading(path)
    except (StoreError, *DB_ERRORS):
        return False
    try:
        if int(db.execute("PRAGMA user_version").fetchone()[0]) != len(MIGRATIONS):
            return False
        found = {(lenient_name(kind), lenient_name(name))
                 for kind, name in db.execute("SELECT type, name FROM sqlite_master")}
        return not {o for o in fresh_objects(len(MIGRATIONS)) if o[0] == "table"} <= found
    except DB_ERRORS:
        return True
    finally:
        db.close()


def _schema_readable(db: sqlite3.Connection, path: Path) -> bool:
    """Refuse a newer or foreign file; ``False`` when SQLite cannot even read the list of tables."""
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
    except DB_ERRORS as error:
        if is_corrupt(error):
            return False
        raise Unusable(msg("doctor.not_a_database", path=str(path), reason=str(error))) from None
    if version > len(MIGRATIONS):
        _refuse_newer(db, path)
    return True


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


def _refuse_newer(db: sqlite3.Connection, path: Path) -> None:
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
    except DB_ERRORS as error:
        raise Unusable(msg("doctor.not_a_database", path=str(path), reason=str(error))) from None
    if version > len(MIGRATIONS):
        raise StoreError(msg("doctor.newer", path=str(path), version=version, known=len(MIGRATIONS)))
