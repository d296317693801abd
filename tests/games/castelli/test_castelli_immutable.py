"""Castelli's states are frozen: no move, accepted or refused, changes the state it is given.

Undo, previews and the screens all keep older states, so every legal move (the
templates of ``legal_moves``, observed fields filled in) is applied to every
state reached by the example record and by generated games, and the state must
still equal a deep copy taken before.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random

import pytest
from castelli_testkit import GAME, rv, start
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalMove
from companion.games.castelli.state import State
from companion.service.records import parse_record, replay
from tests.conftest import EXAMPLES
from tests.contract_kit import fill
from tests.contract_kit import start as start_random_game

EXAMPLE = EXAMPLES / "castelli.json"


def assert_every_legal_move_leaves(state: State, rnd: random.Random) -> int:
    """Apply each legal move (twice filled for a reveal) to ``state``; it must stay as it was."""
    before = copy.deepcopy(state)
    applied = 0
    for template in GAME.legal_moves(state):
        for filled in {json.dumps(fill(GAME, state, template), sort_keys=True),
                       json.dumps(fill(GAME, state, template, rnd), sort_keys=True)}:
            move = GAME.parse_move(json.loads(filled))
            GAME.apply(state, move)
            applied += 1
            assert state == before, f"{filled} changed the state it was applied to"
    return applied


def test_every_legal_move_of_the_example_game_leaves_its_state_unchanged():
    record = parse_record(json.loads(EXAMPLE.read_text()))
    rnd = random.Random(9)
    states = replay(GAME, record.initial, record.moves)
    applied = sum(assert_every_legal_move_leaves(state, rnd) for state in states)
    assert len(states) == len(record.moves) + 1
    assert applied > len(states)  # most states offer several moves, not just the recorded one


@st.composite
def generated_games(draw):
    """The states of a game whose every move hypothesis picks from ``legal_moves``."""
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    _, state = start_random_game("castelli", rnd)
    states = [state]
    while len(states) < 60 and (listed := GAME.legal_moves(state)):
        chosen = fill(GAME, state, draw(st.sampled_from(listed)), rnd)
        state = GAME.apply(state, GAME.parse_move(chosen))
        states.append(state)
    return states, rnd


@settings(max_examples=8)
@given(generated_games())
def test_every_legal_move_of_generated_games_leaves_its_state_unchanged(game):
    states, rnd = game
    for state in states:
        assert_every_legal_move_leaves(state, rnd)


def test_a_refused_move_leaves_the_state_unchanged_too():
    state = GAME.apply(start(), rv("Anna", "s5", "blue:1 yellow:1 red:1 green:1"))
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove):
        GAME.apply(state, rv("Anna", "s6", "blue:1 yellow:1 red:1 green:1"))
    assert state == before


@pytest.mark.parametrize("name", [f.name for f in dataclasses.fields(State)])
def test_no_field_of_a_state_can_be_assigned(name):
    state = start()
    kept = getattr(state, name)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(state, name, None)
    assert getattr(state, name) is kept


def test_a_move_shares_what_it_does_not_change():
    """A move builds new tables only where something changed: the board and the rest are shared."""
    before = start()
    after = GAME.apply(before, rv("Anna", "s5", "blue:1 yellow:1 red:1 green:1"))
    assert after.board is before.board
    assert after.castles is before.castles
    assert after.revealed is not before.revealed
    assert dict(before.revealed) == {} and "s5" in after.revealed


def test_with_builds_a_new_frozen_state_and_refuses_unknown_fields():
    before = start()
    after = before.with_(mine=before.mine - 1, card_played=True)
    assert (after.mine, after.card_played) == (before.mine - 1, True)
    assert (before.mine, before.card_played) == (after.mine + 1, False)
    assert after == dataclasses.replace(before, mine=before.mine - 1, card_played=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.mine = 0
    with pytest.raises(TypeError, match="no field silverr"):
        before.with_(silverr={})
