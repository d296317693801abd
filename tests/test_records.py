"""Strict record parsing: every structural error names its JSON path, in words."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import RecordError
from companion.registry import game_names
from companion.service.records import ReplayError, final_state, parse_record, record_json
from tests.conftest import EXAMPLES
from tests.refusals import rejects_record

CAMPANILE = json.loads((EXAMPLES / "campanile-3p.json").read_text())


def _with(**changes):
    record = copy.deepcopy(CAMPANILE)
    record.update(changes)
    return record


def _error(record) -> str:
    with pytest.raises(RecordError) as caught:
        parse_record(record)
    return str(caught.value)


@pytest.mark.parametrize(("change", "code", "message"), [
    ({"format": "companion-record/2"}, "records.format.wrong",
     'format: must be "companion-record/1" (this file says "companion-record/2")'),
    ({"game": "chess"}, "records.game.unknown",
     f'game: unknown game "chess"; the companion knows {", ".join(game_names())}'),
    ({"game": 3}, "records.game.not_text", "game: must be a game name, not a whole number"),
    ({"players": ["A", "A", "B"]}, "records.players.duplicate", 'players[1]: duplicate name "A"'),
    ({"players": ["A", "", "B"]}, "common.name.empty", "players[1]: a player's name may not be empty"),
    ({"players": ["A", "x" * 25, "B"]}, "common.name.too_long",
     "players[1]: a player's name is at most 24 characters, not 25"),
    ({"players": ["A", "mine", "B"]}, "records.players.reserved",
     "players[1]: \"mine\" is reserved and cannot be a player's name"),
    ({"players": ["A", 7, "B"]}, "common.name.not_text",
     "players[1]: a player's name must be a text, not a whole number"),
    ({"players": "A, B"}, "records.players.not_list", "players: must be a list of names, not a text"),
    ({"players": ["A"]}, "records.players.count", "players: Campanile is for 2 to 5 players, not 1"),
    ({"moves": {}}, "records.moves.not_list", "moves: must be a list, not an object"),
    ({"options": []}, "records.not_object", "options: must be an object, not a list"),
    ({"extra": 1}, "records.field.unknown", 'unknown field "extra"'),
])
def test_structural_errors_name_the_field(change, code, message):
    path = message.split(": ")[0] if ": " in message and not message.startswith("unknown") else ""
    with rejects_record(code, path=path):  # the code, and its words in every language
        parse_record(_with(**change))
    assert _error(_with(**change)) == message


def test_a_missing_required_field_is_named():
    record = _with()
    del record["players"]
    with rejects_record("records.field.missing", path="", key="players"):
        parse_record(record)
    assert _error(record) == '"players" is missing'


def test_a_bad_move_is_named_by_its_number():
    record = _with()
    record["moves"][6] = {"type": "build", "player": "Birgit", "tower": "grey", "stories": 4}
    assert _error(record) == "move 7: stories must be 1, 2 or 3"


def test_an_unknown_move_field_is_an_error():
    record = _with()
    record["moves"][0]["storeys"] = 2
    with rejects_record("records.field.unknown", path="move 1", key="storeys"):
        parse_record(record)
    assert _error(record) == 'move 1: unknown field "storeys"'


def test_the_whole_structure_is_checked_before_any_move_is_applied():
    record = _with()
    record["moves"][0]["player"] = "Birgit"          # illegal, but only when applied
    record["moves"][-1] = {"type": "dance"}          # structural, found first
    assert _error(record).startswith(f"move {len(record['moves'])}: type must be one of")


def test_an_illegal_move_stops_the_replay_and_names_move_and_player():
    record = _with()
    record["moves"][2]["player"] = "Franziska"
    parsed = parse_record(record)
    with pytest.raises(ReplayError) as caught:
        final_state(parsed)
    assert str(caught.value) == "move 3 (Franziska): it is Birgit's turn to build, not Franziska's"
    assert caught.value.index == 2


def test_export_writes_every_option_and_replays_the_same():
    parsed = parse_record(CAMPANILE)
    state = final_state(parsed)
    exported = record_json(parsed.game, parsed.players, parsed.initial, parsed.moves)
    assert set(exported["options"]) == {"two_player_move", "flags"}
    again = parse_record(json.loads(json.dumps(exported)))
    assert parsed.game.summary(final_state(again)) == parsed.game.summary(state)


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=10)
EXAMPLE_RECORDS = [json.loads(path.read_text()) for path in sorted(EXAMPLES.glob("*.json"))
                   if not path.name.endswith(".expected.json")]


@st.composite
def near_records(draw):
    """An example record of some game with one top-level field replaced, removed or added.

    The other fields stay right, so the check of every field (format, game, players,
    options, setup, moves) is reached, not only the first one.
    """
    record = copy.deepcopy(draw(st.sampled_from(EXAMPLE_RECORDS)))
    key = draw(st.sampled_from([*sorted(record), "extra"]))
    if key in record and draw(st.booleans()):
        del record[key]
    else:
        record[key] = draw(JSON_VALUES)
    return record


TOP_FIELDS = ("record", "format", "game", "players", "options", "setup", "moves", "move ")


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES | near_records())
def test_fuzzed_records_are_refused_with_a_record_error_only(data):
    """Any JSON value is either a valid record or a one-line RecordError; nothing else escapes."""
    try:
        parse_record(data)
    except RecordError as error:
        message = str(error)
        assert message and "\n" not in message
        assert error.path == "" or error.path.startswith(TOP_FIELDS), error.path


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=len(CAMPANILE["moves"]) - 1),
       st.sampled_from(["type", "player", "tower", "stories", "phase"]),
       st.one_of(st.none(), st.booleans(), st.integers(-5, 9), st.text(max_size=6), st.lists(st.integers())))
def test_fuzzed_moves_give_a_record_or_replay_error(index, key, value):
    record = _with()
    record["moves"][index][key] = value
    try:
        final_state(parse_record(record))
    except RecordError as error:
        # only move ``index`` was changed, so only it can be malformed
        assert error.path == f"move {index + 1}", str(error)
        assert str(error).startswith(f"move {index + 1}: ")
    except ReplayError as error:
        # the moves before it are those of a legal game, so the replay cannot stop earlier
        assert error.index >= index, str(error)
        assert str(error).startswith(f"move {error.index + 1}")
