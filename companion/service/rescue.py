"""Start-up that never ends on the store's content: the appliance always starts and says why not.

An appliance that refuses to start is worse than paper. Whatever the data
directory holds (a row that does not read, text that is not UTF-8, damaged
pages, a read-only card or file, a newer schema, a file that is no store at
all), ``companion run`` opens *something* and reaches its prompt (under
systemd: READY), and every front end says what is wrong in the players'
words and offers what can be done (:mod:`companion.service.damage`).

Three steps, each total:

1. :func:`open_companion` opens the store to write; failing that, to read
   (a read-only card: the games can be looked at, and backed up to the
   stick); failing that too, an empty **stand-in** in memory that can never
   be written (:attr:`~companion.service.app.Companion.standing_in`), so the
   screens have a store to ask while the real file waits for its repair.
2. :func:`first_game` finds the game to resume and reads what the first
   screens read (the settings, the profiles, the list of games, the
   championship of the resumed round); whatever of that fails puts the app on
   the stand-in, the reason kept in :attr:`~companion.service.app.Companion.trouble`.
3. :func:`reopen` does both again after a repair, a restore or a fresh store.

Nothing here writes the store file: what to do is the players' choice.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from companion.games.base import one_line
from companion.games.messages import Message, json_problem, msg
from companion.registry import get_game
from companion.service.app import Companion, LiveGame
from companion.service.errors import AppError
from companion.storage.migrations import MIGRATIONS
from companion.storage.store import Clock, GameLookup, Store, StoreError

log = logging.getLogger(__name__)

#: What reading a store may raise on content that is not what the companion wrote: the store's own
#: refusals, SQLite's (text that is not UTF-8, damaged pages, an I/O error), the decoders' (JSON,
#: dates), and whatever code that trusted the schema's CHECKs meets in a value of the wrong kind
#: (an index out of range, a missing key, a division by a zero that should not be there): any
#: :class:`Exception`. Each is logged; none ends the start.
CONTENT_ERRORS: tuple[type[Exception], ...] = (Exception,)


def reason_of(error: BaseException) -> Message:
    """The one line a front end shows for ``error`` met while reading the store."""
    if error.args and isinstance(error.args[0], Message):  # the store's refusal, already in words
        return msg("appliance.trouble.reason", reason=error.args[0])
    if isinstance(error, json.JSONDecodeError):  # Python's words speak of a parser
        return msg("appliance.trouble.unreadable", reason=json_problem(error))
    words = str(error) or type(error).__name__
    column = _NOT_UTF8.search(words) if isinstance(error, sqlite3.Error) else None
    if column is not None:
        return msg("appliance.trouble.not_utf8", column=column.group(1))
    return msg("appliance.trouble.unreadable", reason=one_line(words)[:200])


#: SQLite's words for a stored text that is not UTF-8 (the damaged bytes follow; they are not shown).
_NOT_UTF8 = re.compile(r"Could not decode to UTF-8 column '([^']{1,40})'")


def stand_in(path: Path, clock: Clock | None = None, games: GameLookup = get_game) -> Store:
    """An empty store in memory, of the current schema, that refuses every write; named ``path``
    (the file it stands in for: the repair, the restore and the fresh store act on that).

    It is what :meth:`Store.open` gives a reader for a file that is not there yet, asked of a
    name in an empty temporary folder (nothing is created there); without a temporary folder
    to ask in, it is built here the same way."""
    try:
        with tempfile.TemporaryDirectory(prefix="companion-stand-in-") as empty:
            store = Store.open(Path(empty) / path.name, clock=clock, games=games, read_only=True)
    except (OSError, StoreError, sqlite3.Error):
        db = sqlite3.connect(":memory:", isolation_level=None)
        for number, migration in enumerate(MIGRATIONS, start=1):
            migration(db)
            db.execute(f"PRAGMA user_version = {number}")
        store = Store(db, path, clock or _utc_now, games)
    store.path = path
    store.read_only = True
    return store


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _stray_wal(path: Path) -> bool:
    """A ``-wal`` that holds changes beside no store (a store moved aside halfway): a new store
    created here would take its pages for its own."""
    wal = path.with_name(path.name + "-wal")
    try:
        return not path.exists() and wal.exists() and wal.stat().st_size > 0
    except OSError:
        return False


#: The store's refusal when another companion holds its writer's lock (:func:`open_store` passes it on).
IN_USE = "store.in_use"


def open_store(path: Path, *, clock: Clock | None = None,
               games: GameLookup = get_game) -> tuple[Store, Message | None, bool]:
    """The store at ``path`` as well as it opens: to write, else to read, else the stand-in.

    Returns the store, what is wrong (``None``: nothing), and whether it is the stand-in. Only
    the refusal of a store another companion is writing is raised (:class:`StoreError`): the
    command line says who holds it, in one line, as every writing command does.
    """
    if _stray_wal(path):
        trouble = msg("appliance.trouble.stray_wal", path=str(path.with_name(path.name + "-wal")))
        return stand_in(path, clock, games), trouble, True
    try:
        return Store.open(path, clock=clock, games=games), None, False
    except CONTENT_ERRORS as error:
        if isinstance(error, StoreError) and getattr(error.args[0], "code", "") == IN_USE:
            raise  # another companion plays on it: not the store's content, and not this one's to show
        trouble = _card_full(path) or reason_of(error)
    try:
        store = Store.open(path, clock=clock, games=games, read_only=True)
    except CONTENT_ERRORS as error:
        log.warning("the store %s cannot be read either: %s", path, error)
        return stand_in(path, clock, games), trouble, True
    return store, trouble, False


#: Below this many free bytes the card counts as full (SQLite needs its ``-shm`` and room to write).
FULL_BELOW = 256 * 1024


def _card_full(path: Path) -> Message | None:
    """The words for a data directory on a card with no room left, if it is one (an open that fails
    there says only "disk I/O error")."""
    try:
        free = shutil.disk_usage(path.parent).free
    except OSError:
        return None
    return msg("appliance.trouble.full", path=str(path.parent)) if free < FULL_BELOW else None


def open_companion(path: Path, *, clock: Clock | None = None, games: GameLookup = get_game,
                   make: Callable[[Store], Companion] = Companion) -> Companion:
    """The service over the store at ``path``, opened as well as it opens (:func:`open_store`)."""
    store, trouble, standing_in = open_store(path, clock=clock, games=games)
    app = make(store)
    app.trouble, app.standing_in = trouble, standing_in
    return app


def _read_first_screens(app: Companion, live: LiveGame | None) -> None:
    """Read what the first screens and pages read, so that a row they would fail on is met now."""
    app.settings()
    app.profiles()
    app.sessions()
    app.championships.list()
    if live is not None and live.row.championship is not None:
        app.championships.status(live.row.championship, live=live)
    latest = app.championships.latest()  # the standings the screens show without a round open
    if latest is not None:
        app.championships.status(latest.id)


def first_game(app: Companion, session_id: int | None = None) -> LiveGame | None:
    """The game to resume (``session_id``, else the newest unfinished one), or ``None``.

    A game that cannot be opened is left out (:attr:`Companion.damaged_sessions`). If what the
    first screens read fails, the app goes on over the stand-in with the reason in
    :attr:`Companion.trouble`, and no game is resumed. An :class:`AppError` for a ``session_id``
    that is not there (or not to be resumed) is the caller's: a person named it.
    """
    try:
        live = app.latest_unfinished() if session_id is None else app.resume(session_id)
        _read_first_screens(app, live)
    except AppError as error:
        if session_id is not None and not app.standing_in:
            raise
        _to_stand_in(app, error)
        return None
    except CONTENT_ERRORS as error:
        _to_stand_in(app, error)
        return None
    return live


def _to_stand_in(app: Companion, error: BaseException | None) -> None:
    """Put the app on the stand-in (the real store closed), the reason kept; no game resumed."""
    if error is not None:
        log.warning("the store %s cannot be shown: %s", app.store.path, error)
        log.debug("what failed", exc_info=error)
        app.trouble = app.trouble or reason_of(error)
    if not app.standing_in:
        path, clock, games = app.store.path, app.store._clock, app.store._games
        app.store.close()  # (the writer's lock is released: the repair takes it)
        app.store = stand_in(path, clock, games)
        app.standing_in = True
    app.damaged_sessions = {}


def reopen(app: Companion, session_id: int | None = None) -> LiveGame | None:
    """Close the app's store and open it again as :func:`open_companion` would; the game to resume."""
    path, clock, games = app.store.path, app.store._clock, app.store._games
    app.store.close()
    app.store, app.trouble, app.standing_in = open_store(path, clock=clock, games=games)
    app.damaged_sessions = {}
    return first_game(app, session_id)
