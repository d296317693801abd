"""The store as the web process sees it: read-only, watched for changes, reopened when replaced.

The web process must never get in the app's way: it opens the store with
``read_only=True`` (no writer lock, no migration, no file created; SQLite's WAL lets
it read while the app writes) and asks only what the pages show. Every call comes from
one thread (:class:`web.events.StoreThread`): a SQLite connection belongs to the thread
that opened it, and one reader at a time is plenty for a table's phones.

Changes are seen by polling: ``PRAGMA data_version`` on the reading connection changes
whenever another connection commits (a move stored, undone, amended; a game started),
and costs a few microseconds. A restore or repair *replaces* the store file (a new
inode), and a person may copy a store over it in place (the same inode); the old
connection would go on reading what it had, so the file's identity is checked at every
poll too — its inode, size and time of change and its 100-byte SQLite header (page count,
change counter, schema cookie) — and a file that is another one is opened anew.

A store that cannot be read (damaged pages, text that is no UTF-8, a newer schema, no
store at all but a foreign file) is not an error of the page: every page then says the
store needs a repair (:class:`StoreUnavailable`), and the page follows again as soon as
the file changes.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.games.messages import Message
from companion.registry import game_names
from companion.service.app import AppError, Companion
from companion.service.settings import effective_settings
from companion.service.stats import PlayerStats, player_stats
from companion.service.web_link import WEB_SETTING
from companion.storage.errors import DamagedRow
from companion.storage.store import SessionRow, Store, StoreError

#: The most finished games the index lists (the page stays small; older ones are in the statistics).
MAX_LISTED = 100
#: Records and BG Stats links kept (a table looks at a few games; each is some kB).
MAX_KEPT = 64


#: The file's identity: its device, inode, size, time of change and SQLite header.
Identity = tuple[int, int, int, int, bytes]

#: Bytes of SQLite's header read for the identity: the page count, change counter and schema
#: cookie are in it (a store copied in place over another differs there, whatever its inode).
HEADER_BYTES = 100


def _identity(path: Path) -> Identity | None:
    """Which file ``path`` names now, and as it is now; ``None`` while there is none (or it cannot
    be read: opening it says why)."""
    try:
        with open(path, "rb") as file:
            found = os.fstat(file.fileno())
            header = file.read(HEADER_BYTES)
    except OSError:
        return None
    return found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, header


@dataclass(frozen=True)
class Listing:
    """The games the index shows: every unfinished one (newest first), then the finished ones, with
    each finished game's winners and each player's preferred colour per game (their profiles')."""

    in_progress: list[SessionRow]
    finished: list[SessionRow]
    winners: dict[int, tuple[str, ...]]
    preferred: dict[str, dict[str, str]]

    def colours(self, row: SessionRow) -> dict[str, str | None]:
        """Each player's colour in ``row``: the record's own, else the profile's (as the touchscreen)."""
        recorded = row.setup.get("colors") if isinstance(row.setup, dict) else None
        if isinstance(recorded, dict):
            return {p: recorded.get(p) for p in row.players}
        return {p: self.preferred.get(p, {}).get(row.game) for p in row.players}


class StoreUnavailable(Exception):
    """The store cannot be read now (damaged, from a newer companion); the message says why."""


#: What reading a store whose content is damaged can raise beyond :class:`StoreError`: SQLite's
#: own errors (text that is no UTF-8: "Could not decode to UTF-8 column …"), a JSON column that is
#: no JSON. The page says the store needs a repair rather than failing.
CONTENT_ERRORS: tuple[type[Exception], ...] = (StoreError, sqlite3.DatabaseError, UnicodeError,
                                              json.JSONDecodeError)


class StoreReader:
    """The read-only store, opened lazily and reopened when its file is replaced."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._app: Companion | None = None
        self._identity: Identity | None = None
        self._data_version: int | None = None
        #: Why the store could not be opened, the last time it was tried.
        self.problem: Message | str | None = None
        #: How many changes were seen since the process started (the ``/events`` version).
        self.version = 0
        self._opened = False
        #: The last opening failed unexpectedly: try again at the next poll.
        self._broken = False
        #: Records and links made, by what they depend on (:meth:`_kept`).
        self._made: dict[tuple[Any, ...], Any] = {}

    # -- opening and watching ------------------------------------------------
    def _open(self) -> None:
        """Open the file at the path now. A :class:`StoreError` (damaged, newer) is kept in
        :attr:`problem` and tried again only when the file changes; anything else (a file
        caught mid-replace) is raised and tried again at the next poll."""
        self.close()
        self._broken = True
        self._identity = _identity(self.path)
        try:
            store = Store.open(self.path, read_only=True)
        except CONTENT_ERRORS as error:
            self.problem = error.args[0] if isinstance(error, StoreError) and error.args else str(error)
            self._broken = False
            return
        if store.damage:  # damaged pages: the doctor's to mend, not the page's to show
            self.problem = store.damage[0]
            store.close()
            self._broken = False
            return
        self.problem = None
        self._app = Companion(store)
        self._data_version = int(store.pragma("data_version"))
        self._broken = False

    def close(self) -> None:
        if self._app is not None:
            self._app.close()
            self._app = None

    def poll(self) -> bool:
        """Whether the store changed since the last poll (a commit, or a new file at its path).

        The first poll opens it. A change raises :attr:`version`.
        """
        if not self._opened:
            self._opened = True
            self._open()
            return False
        if self._broken or _identity(self.path) != self._identity:
            self._open()
            self.version += 1
            return True
        if self._app is None:
            return False
        current = int(self._app.store.pragma("data_version"))
        if current == self._data_version:
            return False
        self._data_version = current
        self.version += 1
        return True

    def _companion(self) -> Companion:
        if not self._opened:
            self.poll()
        if self._app is None:
            raise StoreUnavailable(self.problem)
        return self._app

    # -- what the pages ask ----------------------------------------------------
    def enabled(self) -> bool:
        """Whether the table has the live page switched on (the Settings switch; on by default)."""
        if self._app is None:
            return True  # nothing stored yet: the default
        return bool(effective_settings(self._app.store.settings()).get(WEB_SETTING, True))

    def listing(self) -> Listing:
        """Every unfinished game (the one in progress first, then the others the touchscreen offers to
        resume: none is left where a phone cannot reach it), then finished games (newest first)."""
        store = self._companion().store
        rows = store.list_sessions()
        in_progress = [row for row in rows if not row.is_finished and row.abandoned is None]
        finished = [row for row in rows if row.is_finished][:MAX_LISTED]
        winners: dict[int, tuple[str, ...]] = {}
        for result in store.results():
            if result.winner:
                winners[result.session_id] = (*winners.get(result.session_id, ()), result.player)
        return Listing(in_progress, finished, winners, store.player_colours())

    def _kept(self, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        """``make()``, kept under ``key`` until what it depends on changes (at most :data:`MAX_KEPT`)."""
        if key in self._made:
            return self._made[key]
        made = self._made[key] = make()
        while len(self._made) > MAX_KEPT:
            self._made.pop(next(iter(self._made)))
        return made

    def record(self, session_id: int) -> tuple[SessionRow, dict[str, Any]] | None:
        """A stored game as its record (what ``companion export`` writes), or ``None`` if there is none.

        Kept while the game's log is unchanged (its log version): after a move only the game
        played is replayed again, not every finished game a phone looks at.
        """
        app = self._companion()
        try:
            row = app.store.session(session_id)
            version = app.store.log_version(session_id) if app.store.schema_version >= 3 else row.moves
            return row, self._kept(("record", self._identity, session_id, version, row.moves),
                                   lambda: app.export_record(session_id))
        except DamagedRow as error:  # the game is there but does not read: "repair needed", not "no game"
            raise StoreUnavailable(error.message) from error
        except (StoreError, AppError):
            return None

    def bgstats_link(self, session_id: int) -> str | list[str] | None:
        """The BG Stats link of a finished game (the game-over screen's QR code) — a Championship
        round's two 2-player games give one link each — or ``None`` (unfinished, its date unsure,
        or the link cannot be made). Kept while the game, its dates and the settings it carries
        (the table's name, the game's id) are unchanged: fitting the link to a code's size is most
        of a finished game's page."""
        app = self._companion()
        try:
            row = app.store.session(session_id)
        except StoreError:
            return None
        key = ("bgstats", self._identity, session_id, row.moves, row.finished, row.date_unsure,
               json.dumps(app.settings(), sort_keys=True))

        groups = row.setup.get("groups") if isinstance(row.setup, dict) else None

        def make() -> str | list[str] | None:
            try:
                if isinstance(groups, list):
                    return [app.bgstats_scan_link(session_id, number) for number in range(1, len(groups) + 1)]
                return app.bgstats_scan_link(session_id)
            except (StoreError, AppError):
                return None

        link: str | list[str] | None = self._kept(key, make)
        return link

    def championship(self, row: SessionRow) -> Any:
        """The status of the championship the game ``row`` is a round of (its standings, the round
        being played), or ``None`` for a game on its own. Worked out from the rounds each time it
        is asked: the page is made again only when the store has changed."""
        if row.championship is None:
            return None
        try:
            return self._companion().championships.status(row.championship)
        except (StoreError, AppError):
            return None

    def preferred(self, game: str, players: tuple[str, ...]) -> dict[str, str | None]:
        """The players' profile colours at ``game`` (for a record that keeps none)."""
        table = self._companion().store.player_colours()
        return {p: table.get(p, {}).get(game) for p in players}

    def stats(self) -> list[PlayerStats]:
        """The same figures as the touchscreen's statistics screen."""
        return player_stats(self._companion().store.results(), game_names())
