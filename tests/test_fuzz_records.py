"""Mutated records of every game fail only with a record or replay error, never a crash.

The acceptance contract is exit 2 with a one-line reason for any bad record
or illegal move; an unexpected exception (KeyError, TypeError, ...) would be
exit 1 and a confused player. These tests take the example record of each
game, damage one move or one setup field in random ways, and replay it.
"""

from __future__ import annotations

import copy
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import RecordError
from companion.service.records import ReplayError, final_state, parse_record
from tests.conftest import EXAMPLES
from tests.contract_kit import key, keys, template

RECORDS = {p.stem: json.loads(p.read_text()) for p in sorted(EXAMPLES.glob("*.json"))
           if not p.name.endswith(".expected.json")}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.sampled_from(
        ["Anna", "Bela", "Ada", "Bo", "Albert", "Birgit", "red", "blue", "green", "yellow", "card",
         "guild-1", "guild-4", "N", "a22", "s12", "intermezzo", "finito", "wood", "king", "", "x"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["N", "E", "S", "W", "type", "player", "x"]), inner, max_size=4),
    max_leaves=8)


def _replay(record: dict) -> str | None:
    """The one-line refusal of ``record``, or ``None`` when it replays."""
    try:
        final_state(parse_record(record))
    except (RecordError, ReplayError) as error:
        message = str(error)
        assert message and "\n" not in message
        return message
    return None


def _refused_at_or_after(message: str | None, index: int) -> None:
    """A record damaged at move ``index`` (0-based) is refused naming that move or a later one."""
    if message is None:
        return
    named = re.match(r"move (\d+)", message)
    assert named, f"the refusal names no move: {message}"
    assert int(named.group(1)) >= index + 1, message


def _listed_before(record: dict, index: int) -> None:
    """A damaged move the engine accepted was among the legal moves listed before it."""
    parsed = parse_record(record)
    game, state = parsed.game, parsed.initial
    for move in parsed.moves[:index]:
        state = game.apply(state, move)
    reduced = template(game.move_to_json(parsed.moves[index]))
    assert key(reduced) in keys(game.legal_moves(state))


@pytest.mark.parametrize("name", sorted(RECORDS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_damaged_move_is_refused_cleanly(name, data):
    record = copy.deepcopy(RECORDS[name])
    index = data.draw(st.integers(0, len(record["moves"]) - 1), label="move")
    move = record["moves"][index]
    key = data.draw(st.sampled_from([*sorted(move), "extra"]), label="field")
    if data.draw(st.booleans(), label="delete") and key in move:
        del move[key]
    else:
        move[key] = data.draw(json_values, label="value")
    message = _replay(record)
    _refused_at_or_after(message, index)
    if message is None:
        _listed_before(record, index)


@pytest.mark.parametrize("name", sorted(RECORDS))
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_moves_in_a_shuffled_order_are_refused_cleanly(name, data):
    record = copy.deepcopy(RECORDS[name])
    moves = record["moves"]
    i = data.draw(st.integers(0, len(moves) - 1), label="i")
    j = data.draw(st.integers(0, len(moves) - 1), label="j")
    moves[i], moves[j] = moves[j], moves[i]
    record["moves"] = moves[: data.draw(st.integers(0, len(moves)), label="cut")]
    _refused_at_or_after(_replay(record), min(i, j))


@pytest.mark.parametrize("name", sorted(RECORDS))
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_damaged_options_and_setup_are_refused_cleanly(name, data):
    record = copy.deepcopy(RECORDS[name])
    section = data.draw(st.sampled_from(["options", "setup"]), label="section")
    target = record.setdefault(section, {})
    key = data.draw(st.sampled_from([*sorted(target), "flags", "towers", "display", "colors", "board",
                                     "mine", "modules", "neutral", "rules", "variant", "segments",
                                     "hands", "pool", "guilds"]), label="key")
    target[key] = data.draw(json_values, label="value")
    _replay(record)


def _leaves(value, path=()):
    """Every path to a value inside ``value`` (dict keys and list indices)."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))


@pytest.mark.parametrize("name", sorted(RECORDS))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_value_anywhere_replaced_is_refused_cleanly(name, data):
    record = copy.deepcopy(RECORDS[name])
    paths = [p for p in _leaves(record) if p]
    path = data.draw(st.sampled_from(paths), label="path")
    parent = record
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = data.draw(json_values, label="value")
    message = _replay(record)
    if path[0] == "moves" and len(path) > 1:
        _refused_at_or_after(message, path[1])
