"""The game in progress: the move log, the redo stack and the state they produce.

The log is the truth; the states are a cache of it (``states[i]`` is the
state before move ``i``, the last one is the current state), so undo is a
pop, redo is a push, and an amended old move replays only what follows it.
Every change is validated first and written to the journal (the store)
before listeners hear of it, so a refused move or a failed write leaves the
session exactly as it was.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol

from companion.games.base import Game, IllegalMove, MoveT, StateT, one_line
from companion.games.messages import Message, msg
from companion.service.records import MoveRefusal, ReplayError, replay

log = logging.getLogger(__name__)


class Journal(Protocol):
    """Where a session makes its log durable (the SQLite store, or nothing in tests)."""

    def save(self, first: int, moves: Sequence[dict[str, Any]], redo: Sequence[dict[str, Any]], *,
             finished: bool = False) -> None:
        """Replace the stored moves from index ``first`` on with ``moves``, and the redo stack.

        Must be atomic: after a crash either the old or the new log is stored. ``finished``: the
        saved log ends the game (the store queues it for the club in the same transaction).
        """


class SessionError(Exception):
    """A session command that cannot be done (nothing to undo, no such move)."""


class AmendRefused(SessionError, MoveRefusal):
    """An amended move makes a later move illegal; nothing was changed.

    ``index`` is the 0-based index of the later move that no longer fits;
    ``reason`` the rule it would break.
    """

    by_player = "app.amend.breaks_by"
    without_player = "app.amend.breaks"


EventKind = Literal["move", "undo", "redo", "amend", "truncate"]


@dataclass(frozen=True)
class Change:
    """What a listener is told after the log changed: the kind and the first index affected."""

    kind: EventKind
    index: int


Listener = Callable[["AnySession", Change], None]


@dataclass(frozen=True)
class ListenerFault:
    """A listener that raised after a change: the change stands (it is stored), the listener failed.

    A screen or the console shows it next to the confirmation ("stored, but the
    results could not be written: ..."), never instead of it.
    """

    listener: str | Message
    error: Exception

    def __str__(self) -> str:
        return one_line(str(self.error) or type(self.error).__name__)


@dataclass(frozen=True)
class AmendVerdict:
    """What :meth:`Session.amend` would do, decided without changing anything.

    ``accepted``: the amend would be stored as it is. Otherwise ``reason`` says
    why not, and ``conflict`` is the 0-based index of the later move that no
    longer fits (``None`` when the amended move itself is refused), so a screen
    can offer :meth:`Session.amend_and_drop` as an explicit choice.
    """

    accepted: bool
    reason: str = ""
    conflict: int | None = None
    #: ``reason`` as a message (its code and parameters), for a screen that shows it later.
    message: Message | None = None


class Session(Generic[StateT, MoveT]):
    """One game's move log, with undo, redo and amend.

    Generic in its engine's state and move types (``Session[State, Move]``); a
    front end that holds whichever game is open uses :data:`AnySession`.

    Single-threaded by design: hardware threads post to a
    :class:`~companion.service.command_queue.CommandQueue` that the main loop drains.
    """

    def __init__(self, game: Game[StateT, MoveT], players: Sequence[str], initial: StateT,
                 moves: Sequence[MoveT] = (), redo: Sequence[MoveT] = (),
                 journal: Journal | None = None) -> None:
        self.game = game
        self.players = tuple(players)
        self._states: list[StateT] = replay(game, initial, moves)  # ReplayError names a bad move
        self._log: list[MoveT] = list(moves)
        self._redo: list[MoveT] = list(redo)
        self._journal = journal
        self._listeners: list[Listener] = []
        #: The listeners that failed after the latest change (empty when all of them ran).
        self.last_faults: tuple[ListenerFault, ...] = ()
        self._names: dict[int, str | Message] = {}

    # -- reading -----------------------------------------------------------
    @property
    def state(self) -> StateT:
        """The current state (after the last move in the log)."""
        return self._states[-1]

    @property
    def log(self) -> tuple[MoveT, ...]:
        """The accepted moves, oldest first."""
        return tuple(self._log)

    @property
    def redo_stack(self) -> tuple[MoveT, ...]:
        """Undone moves, the next one to redo last."""
        return tuple(self._redo)

    def state_before(self, index: int) -> StateT:
        """The state before move ``index`` (``len(log)`` gives the current state)."""
        return self._states[index]

    @property
    def can_undo(self) -> bool:
        return bool(self._log)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    # -- listeners ---------------------------------------------------------
    def subscribe(self, listener: Listener, name: str | Message | None = None) -> Callable[[], None]:
        """Call ``listener(session, change)`` after every change; returns the unsubscribe function.

        ``name`` says what the listener keeps up to date ("the results", "the
        OLED"), for the message when it fails.
        """
        self._listeners.append(listener)
        if name is not None:
            self._names[id(listener)] = name
        return lambda: self._listeners.remove(listener)

    def _notify(self, change: Change) -> None:
        """Tell every listener; one that raises is logged and kept in :attr:`last_faults`.

        By the time listeners run, the change is stored: a failing screen or
        results writer must neither hide the change from the listeners after
        it nor turn the stored change into an error for the caller.
        """
        faults = []
        for listener in tuple(self._listeners):
            try:
                listener(self, change)
            except Exception as error:
                name = self._names.get(id(listener)) or str(getattr(listener, "__qualname__", repr(listener)))
                log.exception("listener %s failed after %s %d", name, change.kind, change.index + 1)
                faults.append(ListenerFault(name, error))
        self.last_faults = tuple(faults)

    def _save(self, first: int, log: Sequence[MoveT], redo: Sequence[MoveT], ends: StateT) -> None:
        """Store the new log; ``ends``: the state it leads to (whether it finishes the game is stored
        with it, in the same transaction)."""
        if self._journal is not None:
            to_json = self.game.move_to_json
            self._journal.save(first, [to_json(m) for m in log[first:]], [to_json(m) for m in redo],
                               finished=self.game.is_finished(ends))

    # -- changing ----------------------------------------------------------
    def propose(self, move: MoveT) -> StateT:
        """Validate, append, persist and announce ``move``; returns the new state.

        Raises :class:`IllegalMove` (nothing changes) when the rules refuse it.
        A new move clears the redo stack, as in every editor.
        """
        new_state = self.game.apply(self.state, move)
        index = len(self._log)
        redo: list[MoveT] = []
        if self._redo and self._redo[-1] == move:
            redo = self._redo[:-1]  # proposing exactly the undone move is a redo
        self._save(index, [*self._log, move], redo, new_state)
        self._log.append(move)
        self._states.append(new_state)
        self._redo = redo
        self._notify(Change("move", index))
        return new_state

    def undo(self) -> MoveT:
        """Take back the last move and keep it for redo; returns the move."""
        if not self._log:
            raise SessionError(msg("app.undo.nothing"))
        move = self._log[-1]
        index = len(self._log) - 1
        self._save(index, self._log[:-1], [*self._redo, move], self._states[-2])
        self._log.pop()
        self._states.pop()
        self._redo.append(move)
        self._notify(Change("undo", index))
        return move

    def redo(self) -> MoveT:
        """Apply again the last undone move; returns it."""
        if not self._redo:
            raise SessionError(msg("app.redo.nothing"))
        move = self._redo[-1]
        new_state = self.game.apply(self.state, move)
        index = len(self._log)
        self._save(index, [*self._log, move], self._redo[:-1], new_state)
        self._redo.pop()
        self._log.append(move)
        self._states.append(new_state)
        self._notify(Change("redo", index))
        return move

    def amend(self, index: int, move: MoveT) -> StateT:
        """Replace move ``index`` with ``move`` and replay the moves after it.

        If the new move is illegal, :class:`IllegalMove`; if a later move no
        longer fits, :class:`AmendRefused` naming it. Either way nothing changes.
        """
        states = self._amended_states(index, move)
        new_log = [*self._log[:index], move, *self._log[index + 1:]]
        self._save(index, new_log, self._redo, states[-1])
        self._log = new_log
        self._states = [*self._states[:index + 1], *states]
        self._notify(Change("amend", index))
        return self.state

    def _amended_states(self, index: int, move: MoveT) -> list[StateT]:
        """The states after move ``index`` once it is ``move``; raises as :meth:`amend` does."""
        if not 0 <= index < len(self._log):
            raise SessionError(msg("app.amend.no_move", number=index + 1))
        amended = self.game.apply(self._states[index], move)
        try:
            return replay(self.game, amended, self._log[index + 1:])
        except ReplayError as error:
            raise AmendRefused(index + 1 + error.index, error.player, error.reason) from None

    def try_amend(self, index: int, move: MoveT) -> AmendVerdict:
        """The verdict :meth:`amend` would give, changing nothing (shown before the players confirm)."""
        try:
            self._amended_states(index, move)
        except AmendRefused as refusal:
            return AmendVerdict(False, str(refusal), refusal.index, refusal.message)
        except IllegalMove as refusal:
            reason = refusal.reason
            return AmendVerdict(False, str(refusal), message=reason if isinstance(reason, Message) else None)
        except SessionError as refusal:
            said = refusal.args[0] if refusal.args else None
            return AmendVerdict(False, str(refusal), message=said if isinstance(said, Message) else None)
        return AmendVerdict(True)

    def amend_and_drop(self, index: int, move: MoveT) -> StateT:
        """Replace move ``index`` and drop every move after it (the explicit choice a screen offers)."""
        if not 0 <= index < len(self._log):
            raise SessionError(msg("app.amend.no_move", number=index + 1))
        new_state = self.game.apply(self._states[index], move)
        new_log = [*self._log[:index], move]
        self._save(index, new_log, [], new_state)
        self._log = new_log
        self._states = [*self._states[:index + 1], new_state]
        self._redo = []
        self._notify(Change("truncate", index))
        return new_state


#: A session of whichever game is open (its state and move types unknown to the caller).
AnySession = Session[Any, Any]
