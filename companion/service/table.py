"""The table: what every front end shares while people play.

The touchscreen, the OLED with its buttons, the seat panels and the console
all look at the same game and change it the same way. :class:`Table` holds
that shared part, so that no front end keeps its own idea of "the game being
played":

- the application service (:class:`~companion.service.app.Companion`) and the game
  open now (:attr:`Table.live`), switched by :meth:`start`, :meth:`resume`,
  :meth:`rematch` or :meth:`open`;
- the one command queue through which other threads reach it (buttons,
  panels): the table's methods run on the main loop's thread, and
  :meth:`submit` posts a call of one of them from anywhere;
- the events every front end redraws from (:class:`TableEvent`): a move
  stored, undone, redone or amended, a game opened, and a **refusal** with
  its reason and the front end it came from — a refused move changes
  nothing, but the OLED shows the reason and the panel that entered it is
  told, whichever front end it came from.

It holds no rules (those are the engines') and no words (the catalogues'):
a refusal is the engine's :class:`~companion.games.messages.Message`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Literal

from companion.games.base import IllegalMove
from companion.games.messages import Message, msg
from companion.service.app import Companion, LiveGame
from companion.service.command_queue import CommandQueue
from companion.service.session import AnySession, Change, SessionError
from companion.storage.store import StoreError

log = logging.getLogger(__name__)

EventKind = Literal["opened", "closed", "move", "undo", "redo", "amend", "truncate", "refused"]


@dataclass(frozen=True)
class TableEvent:
    """What happened at the table, for the front ends to redraw from.

    ``index`` is the 0-based move index a change starts at (as in
    :class:`~companion.service.session.Change`); ``reason`` is set for a refusal;
    ``source`` names the front end that asked ("touch", "buttons",
    "panel:Birgit", "console"), so a seat panel answers only its own refusals.
    """

    kind: EventKind
    index: int = 0
    reason: Message | str | None = None
    source: str | None = None


TableListener = Callable[["Table", TableEvent], None]


class NoGame(SessionError):
    """A move, undo or redo with no game open at the table."""


class Table:
    """The service, the game open now, the command queue and the listeners of every front end."""

    def __init__(self, app: Companion, commands: CommandQueue | None = None) -> None:
        self.app = app
        self.commands = commands if commands is not None else CommandQueue()
        self.live: LiveGame | None = None
        self._listeners: list[TableListener] = []
        self._unsubscribe: Callable[[], None] | None = None

    # -- listening ---------------------------------------------------------
    def listen(self, listener: TableListener) -> Callable[[], None]:
        """Call ``listener(table, event)`` after every event; returns the function that stops it.

        A listener that raises is logged and the others still run: a broken
        OLED must not keep the touchscreen from redrawing.
        """
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _tell(self, event: TableEvent) -> None:
        for listener in tuple(self._listeners):
            try:
                listener(self, event)
            except Exception:
                log.exception("a table listener failed after %s", event.kind)

    # -- the game being played ----------------------------------------------
    @property
    def session(self) -> AnySession | None:
        """The open game's session, or ``None`` between games."""
        return self.live.session if self.live is not None else None

    def open(self, live: LiveGame) -> LiveGame:
        """Play ``live`` from now on (the previous game stays stored as it is)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self.live is not None and self.live is not live:
            self.app.put_down(self.live)
        self.live = live
        self._unsubscribe = live.session.subscribe(self._session_changed, msg("app.listener.table"))
        self._tell(TableEvent("opened", len(live.session.log)))
        return live

    def close(self) -> None:
        """Leave the open game (it stays stored, unfinished or not)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.live is not None:
            self.app.put_down(self.live)
            self.live = None
            self._tell(TableEvent("closed"))

    def start(self, game: str, players: Sequence[str], *, options: Mapping[str, Any] | None = None,
              setup: Mapping[str, Any] | None = None,
              colours: Mapping[str, str] | None = None, colours_by_seat: bool = False,
              championship: tuple[int, int] | None = None) -> LiveGame:
        """Start a new game (see :meth:`Companion.start`) and open it."""
        return self.open(self.app.start(game, players, options=options, setup=setup, colours=colours,
                                        colours_by_seat=colours_by_seat, championship=championship))

    def resume(self, session_id: int | None = None) -> LiveGame:
        """Open a stored unfinished game (the latest one when ``session_id`` is ``None``)."""
        return self.open(self.app.resume(session_id))

    def rematch(self, setup: Mapping[str, Any] | None = None) -> LiveGame:
        """Start the same game with the same players in the same seats, and open it."""
        return self.open(self.app.rematch(self._playing().id, setup=setup))

    def _session_changed(self, session: AnySession, change: Change) -> None:
        self._tell(TableEvent(change.kind, change.index))

    def _playing(self) -> LiveGame:
        if self.live is None:
            raise NoGame(msg("app.table.no_game"))
        return self.live

    # -- changing the game ---------------------------------------------------
    def propose(self, move: object, source: str | None = None) -> object:
        """Validate, store and announce ``move``; returns the new state.

        A refused move raises :class:`IllegalMove` to the caller, as the
        session does, and is announced as a ``refused`` event with the reason
        and ``source`` first, so every display can say why.
        """
        session = self._playing().session
        try:
            self.app.store.refuse_writing()
        except StoreError as error:  # a damaged store: refused like a move, so every front end says why
            refusal = IllegalMove(error.args[0])
            self._tell(TableEvent("refused", len(session.log), refusal.reason, source))
            raise refusal from None
        try:
            return session.propose(move)
        except IllegalMove as refusal:
            self._tell(TableEvent("refused", len(session.log), refusal.reason, source))
            raise

    def undo(self) -> object:
        """Take back the last move (kept for redo); returns it."""
        return self._playing().session.undo()

    def redo(self) -> object:
        """Apply the last undone move again; returns it."""
        return self._playing().session.redo()

    # -- from other threads ----------------------------------------------------
    def submit(self, command: Callable[[Table], Any]) -> Future[Any]:
        """Run ``command(table)`` on the main loop; safe from any thread (a button's, a panel's).

        The returned future holds the result or the exception (a refused
        move's :class:`IllegalMove`), for a poster that wants to answer.
        """
        return self.commands.submit(lambda: command(self))
