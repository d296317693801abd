"""The store's championships: rows in and out (the rounds are sessions that name their championship).

Split out of :mod:`companion.storage.store` (:class:`~companion.storage.store.Store` has these
methods); rows only: pairings and standings are the service's.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, TypeVar

from companion.games.messages import msg
from companion.storage.errors import StoreError
from companion.storage.migrations import new_uuid
from companion.storage.outbox import OUTBOX_VERSION
from companion.storage.rows import ChampionshipRow, SessionRow, championship_row, dumps, reading

_Row = TypeVar("_Row")


class StoredChampionships:
    """The championship methods of :class:`~companion.storage.store.Store`."""

    _db: sqlite3.Connection

    if TYPE_CHECKING:  # (the store's own, which these methods use)
        @property
        def schema_version(self) -> int: ...
        @property
        def _select(self) -> str: ...

        def _transaction(self) -> AbstractContextManager[sqlite3.Connection]: ...
        def _now(self) -> str: ...
        def _row(self, record: Any) -> SessionRow: ...
        def _readable(self, read: Callable[[Any], _Row], records: Iterable[Any]) -> list[_Row]: ...
        def _touch_players(self, db: sqlite3.Connection, players: Sequence[str], now: str) -> None: ...
        def _insert_session(self, db: sqlite3.Connection, game: str, players: Sequence[str],
                            options: Mapping[str, Any], setup: Mapping[str, Any], *,
                            moves: Sequence[dict[str, Any]], results: Any, source: str,
                            record_hash: str | None, date_unsure: bool,
                            championship: tuple[int, int] | None) -> int: ...

    def _championship_row(self, record: tuple[Any, ...]) -> ChampionshipRow:
        """:class:`DamagedRow` when a value of the row does not read (see :mod:`companion.storage.rows`)."""
        with reading("championships", record[0]):
            return championship_row(record)

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
                (int(variant), dumps(list(players)), dumps(options), dumps([dict(d) for d in decisions]),
                 self._now(), source, record_hash))
            championship = int(cursor.lastrowid or 0)
            if self.schema_version >= OUTBOX_VERSION:  # the stable id the club knows it by
                db.execute("UPDATE championships SET uuid = ? WHERE id = ?", (new_uuid(), championship))
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
        return self._readable(self._championship_row,
                              self._db.execute(self._CHAMPIONSHIP + "ORDER BY id DESC"))

    def championship_with_hash(self, record_hash: str) -> int | None:
        """The id of the imported championship stored with ``record_hash``, if any."""
        known = self._db.execute("SELECT id FROM championships WHERE record_hash = ?",
                                 (record_hash,)).fetchone()
        return None if known is None else int(known[0])

    def championship_rounds(self, championship_id: int) -> list[SessionRow]:
        """The championship's rounds, round 1 first."""
        if self.schema_version < 7:
            return []
        return self._readable(self._row, self._db.execute(
            self._select + "WHERE s.championship = ? ORDER BY s.championship_round", (championship_id,)))

    def set_championship_decisions(self, championship_id: int,
                                   decisions: Sequence[Mapping[str, Any]]) -> None:
        """Replace the championship's decisions (the whole list, in one update)."""
        self.championship(championship_id)
        with self._transaction() as db:
            db.execute("UPDATE championships SET decisions = ? WHERE id = ?",
                       (dumps([dict(d) for d in decisions]), championship_id))

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
