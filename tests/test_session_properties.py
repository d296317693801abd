"""Property tests of the Session with the Campanile engine over random legal move sequences.

Moves are drawn among those the engine accepts (see helpers_campanile), so
every sequence is a game that could have happened at the table.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from companion.service.app import Companion
from companion.service.records import replay
from companion.service.session import Session
from companion.storage.store import Store
from tests import helpers_campanile as camp

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def draw_game(data: st.DataObject, max_moves: int = 30, min_moves: int = 0) -> list:
    """A random legal move list (Finito allowed: then the game ends)."""
    game = camp.engine()
    state = camp.initial()
    length = data.draw(st.integers(min_moves, max_moves), label="length")
    moves = []
    for _ in range(length):
        legal = camp.legal_moves(state)
        if not legal:
            break
        move = data.draw(st.sampled_from(legal), label=f"move {len(moves) + 1}")
        state = game.apply(state, move)
        moves.append(move)
    return moves


def live_session(moves: list) -> Session:
    session = Session(camp.engine(), camp.PLAYERS, camp.initial())
    for move in moves:
        session.propose(move)
    return session


@SETTINGS
@given(st.data())
def test_undo_restores_state_and_log_exactly(data: st.DataObject) -> None:
    moves = draw_game(data, min_moves=1)
    session = live_session(moves[:-1])
    before_state, before_log = session.state, session.log
    session.propose(moves[-1])
    assert session.undo() == moves[-1]
    assert session.state == before_state
    assert session.log == before_log
    assert session.redo_stack == (moves[-1],)


@SETTINGS
@given(st.data())
def test_undo_then_redo_is_identity(data: st.DataObject) -> None:
    moves = draw_game(data, min_moves=1)
    session = live_session(moves)
    depth = data.draw(st.integers(1, len(moves)), label="undo depth")
    state, log, redo = session.state, session.log, session.redo_stack
    for _ in range(depth):
        session.undo()
    for _ in range(depth):
        session.redo()
    assert (session.state, session.log, session.redo_stack) == (state, log, redo)


@SETTINGS
@given(st.data())
def test_amending_a_move_to_itself_is_identity(data: st.DataObject) -> None:
    moves = draw_game(data, min_moves=1)
    session = live_session(moves)
    index = data.draw(st.integers(0, len(moves) - 1), label="index")
    states = [session.state_before(i) for i in range(len(moves) + 1)]
    session.amend(index, moves[index])
    assert session.log == tuple(moves)
    assert [session.state_before(i) for i in range(len(moves) + 1)] == states


@SETTINGS
@given(st.data())
def test_replaying_the_log_equals_incremental_application(data: st.DataObject) -> None:
    moves = draw_game(data)
    session = live_session(moves)
    states = replay(session.game, camp.initial(), session.log)
    assert states[-1] == session.state
    assert states == [session.state_before(i) for i in range(len(moves) + 1)]
    rebuilt = Session(session.game, camp.PLAYERS, camp.initial(), session.log)
    assert rebuilt.state == session.state


class StoredSessionMachine(RuleBasedStateMachine):
    """Random proposals, undos, redos and amends on a stored session; reopening always agrees."""

    def __init__(self) -> None:
        super().__init__()
        self._dir = tempfile.TemporaryDirectory()
        self.store = Store.open(Path(self._dir.name) / "companion.sqlite3")
        self.app = Companion(self.store)
        live = self.app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
        self.sid, self.session = live.id, live.session

    def teardown(self) -> None:
        self.store.close()
        self._dir.cleanup()

    @rule(data=st.data())
    def propose(self, data: st.DataObject) -> None:
        legal = camp.legal_moves(self.session.state)
        if legal:
            self.session.propose(data.draw(st.sampled_from(legal)))

    @precondition(lambda self: self.session.can_undo)
    @rule()
    def undo(self) -> None:
        self.session.undo()

    @precondition(lambda self: self.session.can_redo)
    @rule()
    def redo(self) -> None:
        self.session.redo()

    @precondition(lambda self: self.session.can_undo)
    @rule(data=st.data())
    def amend_to_itself(self, data: st.DataObject) -> None:
        index = data.draw(st.integers(0, len(self.session.log) - 1))
        self.session.amend(index, self.session.log[index])

    @invariant()
    def reopened_session_equals_the_live_one(self) -> None:
        reopened = self.app.open_game(self.sid).session
        assert reopened.log == self.session.log
        assert reopened.redo_stack == self.session.redo_stack
        assert reopened.state == self.session.state
        row = self.store.session(self.sid)
        assert row.is_finished == self.session.game.is_finished(self.session.state)


TestStoredSession = StoredSessionMachine.TestCase
TestStoredSession.settings = settings(max_examples=25, stateful_step_count=25, deadline=None,
                                      suppress_health_check=[HealthCheck.too_slow])
