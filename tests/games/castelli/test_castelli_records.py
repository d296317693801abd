"""Records, structure checks, board validation, layouts, export and the CLI."""

from __future__ import annotations

import copy
import json

import pytest
from castelli_testkit import GAME, PLAYGROUND

from companion.cli.main import main
from companion.games.base import RecordError
from companion.games.castelli import layout_names, load_layout, validate_board
from companion.games.castelli.board import board_to_json
from companion.i18n import render
from companion.service.records import final_state, parse_record, record_json
from tests.conftest import EXAMPLES
from tests.refusals import assert_message, rejects_record

EXAMPLE = EXAMPLES / "castelli.json"
EXPECTED = EXAMPLES / "castelli.expected.json"


def example():
    return json.loads(EXAMPLE.read_text())


def test_shipped_example_record_matches_expected():
    record = parse_record(example())
    summary = GAME.summary(final_state(record))
    for key, value in json.loads(EXPECTED.read_text()).items():
        assert summary[key] == value, key
    assert summary["final"]["Csaba"] == {"cards": 0, "resources": 5, "silver": 4}
    assert summary["evaluations"][-1]["kind"] == "mine"


def test_export_writes_everything_and_replays_the_same():
    record = parse_record(example())
    state = final_state(record)
    exported = record_json(GAME, record.players, state, record.moves)
    assert exported["options"] == {"modules": [], "neutral": "void", "silver_tie": "shared"}
    assert exported["setup"]["mine"] == 22 and isinstance(exported["setup"]["board"], dict)
    again = parse_record(json.loads(json.dumps(exported)))
    assert GAME.summary(final_state(again)) == GAME.summary(state)
    for move in record.moves:
        assert GAME.parse_move(GAME.move_to_json(move)) == move


#: A record error of this game: its code (checked in every language), or None for the shared
#: field readers' own (companion/games/fields.py), and the English words a player reads.
@pytest.mark.parametrize(("change", "code", "message"), [
    (lambda r: r["options"].update(neutral="share"), None, "options: neutral must be one of void, split"),
    (lambda r: r["options"].update(modules=["battle", "battle"]), "castelli.options.module_twice",
        'options.modules[1]: "battle" is listed twice'),
    (lambda r: r["options"].update(modules=["battles"]), "castelli.options.module_unknown",
        'options.modules[0]: must be one of dilemma, battle (not "battles")'),
    (lambda r: r["options"].update(silvr=1), None, 'options: unknown field "silvr"'),
    (lambda r: r["setup"]["colors"].update(Dora="blue"), "castelli.setup.colour_taken",
        "setup.colors.Dora: blue is already Csaba's colour"),
    (lambda r: r["setup"]["colors"].update(Dora="black"), "castelli.setup.colour_unknown",
        'setup.colors.Dora: must be one of blue, yellow, red, green (not "black")'),
    (lambda r: r["setup"]["colors"].update(Zed="black"), "castelli.setup.colors_not_player",
        'setup.colors: "Zed" is not one of the players'),
    (lambda r: r["setup"]["colors"].pop("Dora"), "castelli.setup.no_colour",
        "setup.colors: Dora has no colour"),
    (lambda r: r["setup"].update(board="castelli-real"), "castelli.board.unknown_layout",
        'setup.board: unknown board layout "castelli-real"; the companion ships example-2p, '
        'example-2p-extra-mine and example-4p'),
    (lambda r: r["setup"].update(board=7), "castelli.setup.board_type",
        "setup.board: must be a layout name or an inline board"),
    (lambda r: r["setup"]["board"]["spaces"]["s12"]["sides"].update(N="a99"), "castelli.board.no_area",
     'setup.board.spaces.s12.sides.N: no area "a99" on this board'),
    # a move's own errors are checked by their codes in test_move_structure_errors
    (lambda r: r["moves"][0]["shields"].update(N=["green", 7]), None,
     'move 1: shields.N must be [colour, 1–6 or "card"]'),
    (lambda r: r["moves"][0].update(silvr=1), None, 'move 1: unknown field "silvr"'),
    (lambda r: r["moves"][6].update(value=6), None, "move 7: value must be one of 3, 4, 5"),
    (lambda r: r["moves"][0]["shields"].update(N=["yellow", 2]), None,
        "move 1: shields must show four different colours"),
])
def test_record_errors_name_the_field(change, code, message):
    data = example()
    change(data)
    with pytest.raises(RecordError) as info:
        parse_record(data)
    assert str(info.value).startswith(message), str(info.value)
    if code is not None:
        assert_message(info.value.message, code)


@pytest.mark.parametrize(("data", "code", "message"), [
    ({"type": "play", "player": "A", "card": "steward"}, "castelli.move.play_card_own_move",
        'a steward is its own move, "type": "steward"'),
    ({"type": "play", "player": "A", "card": "count"}, "castelli.move.play_card_with_build",
        "played with a build move"),
    ({"type": "play", "player": "A", "card": "dragon"}, "castelli.move.play_card",
        'card must be one of king, thief, bandits, robber-baron, traitor, peasant, prince, arsonist '
        '(not "dragon")'),
    ({"type": "play", "player": "A"}, "castelli.move.play_card", "(not missing)"),
    ({"type": "play", "player": "A", "card": "king"}, None, '"value" is missing'),
    ({"type": "play", "player": "A", "card": "thief", "target": "B"}, None, 'unknown field "target"'),
    ({"type": "build", "player": "A", "area": "a", "card": "abbot"}, "castelli.move.build_card",
        'card without "on" must be one of'),
    ({"type": "build", "player": "A", "area": "a", "on": "B", "card": "count"}, "castelli.move.build_card_on",
        'card with "on" must be one of'),
    ({"type": "build", "player": "A", "area": "a", "silver_for": "gold"}, None,
        "silver_for must be one of wood"),
    ({"type": "play", "player": "A", "card": "king", "value": 6}, "castelli.move.king_value",
        "value must be one of 3, 4, 5 (the Kings' values), not 6"),
    ({"type": "reveal", "player": "A", "space": "s",
      "shields": {"N": ["green", 7], "E": ["red", 1], "S": ["blue", 1], "W": ["yellow", 1]}},
     "castelli.shields.side", 'shields.N must be [colour, 1–6 or "card"] with colour one of blue, yellow'),
    ({"type": "reveal", "player": "A", "space": "s",
      "shields": {"N": ["red", 2], "E": ["red", 1], "S": ["blue", 1], "W": ["yellow", 1]}},
     "castelli.shields.colours", "shields must show four different colours (not red, red, blue, yellow)"),
    ({"type": "sell", "player": "A", "cards": 0}, None, "cards must be at least 1"),
    ({"type": "reveal", "player": "A", "space": "s", "shields": {}}, None, '"N" is missing'),
    ({"type": "reveal", "player": "A", "space": "s", "shields": None}, "castelli.shields.missing",
        '"shields" is missing'),
    ({"type": "reveal", "player": "A", "space": "s", "shields": []}, "castelli.shields.not_object",
        "shields must be an object with N, E, S and W"),
    ({"type": "reveal", "player": "A", "space": "s", "silver": 3,
      "shields": {"N": ["blue", 1], "E": ["red", 1], "S": ["green", 1], "W": ["yellow", 1]}},
     None, "silver must be from 0 to 2"),
    ({"type": "pass", "player": "A"}, "castelli.move.type", "type must be one of"),
    ({"type": "end", "player": "A"}, None, 'unknown field "player"'),
])
def test_move_structure_errors(data, code, message):
    with pytest.raises(RecordError) as info:
        GAME.parse_move(data)
    assert message in str(info.value)
    if code is not None:
        assert_message(info.value.message, code)


def test_moves_round_trip():
    samples = [
        {"type": "reveal", "player": "A", "space": "s", "silver": 1, "swap": True,
         "shields": {"N": ["blue", "card"], "E": ["red", 6], "S": ["green", 1], "W": ["yellow", 2]}},
        {"type": "steward", "player": "B",
         "shields": {"N": ["red", 6], "E": ["green", 1], "S": ["yellow", 2], "W": ["blue", "card"]}},
        {"type": "build", "player": "A", "area": "a", "silver_for": "wood", "card": "knights", "on": "B"},
        {"type": "guard", "player": "B"}, {"type": "play", "player": "A", "card": "traitor", "target": "B"},
        {"type": "play", "player": "A", "card": "arsonist", "area": "a"},
        {"type": "sell", "player": "A", "cards": 2},
        {"type": "end"},
    ]
    for data in samples:
        move = GAME.parse_move(data)
        written = GAME.move_to_json(move)
        # every field given is read and written back with its value (a field parse_move
        # ignored would come back as its default); fields left out come back as defaults
        assert {**written, **data} == written
        assert GAME.parse_move(GAME.move_to_json(move)) == move


@pytest.mark.parametrize(("change", "path", "code", "message"), [
    (lambda b: b["areas"]["R"].update(kind="lake"), "areas.R", "castelli.board.kind",
        "kind must be one of forest"),
    (lambda b: b["areas"]["R"].pop("kind"), "areas.R", "castelli.board.kind", "(not missing)"),
    (lambda b: b["areas"]["R"].update(tents=2), "areas.R", "castelli.board.field_for_kind",
        'unknown field "tents" for a rock'),
    (lambda b: b["areas"]["R"].update(spots=0), "areas.R", None, "spots must be from 1 to 4"),
    (lambda b: b["areas"]["M"].update(at=[1]), "areas.M.at", "castelli.board.at", "at must be [row, column]"),
    (lambda b: b["areas"]["M"].update(at=[1, 1]), "areas.M.at", "castelli.board.area_at",
        "area M is at [1, 1] like R"),
    (lambda b: b["areas"].update(X2={"kind": "mine", "at": [9, 9]}), "areas", "castelli.board.mines",
        "at most one mine (found X and X2)"),
    (lambda b: b["areas"].update(F9={"kind": "forest", "at": [9, 9]}), "areas.F9",
        "castelli.board.unbordered",
        "no tile space borders this forest"),
    (lambda b: b["spaces"]["s1"]["sides"].update(N="frame:gold"), "spaces.s1.sides.N",
        "castelli.board.frame_gift", "frame gift must be one of"),
    (lambda b: b["spaces"]["s1"]["sides"].update(N=3), "spaces.s1.sides.N", "castelli.board.side_type",
        "must name an area or frame:GIFT"),
    (lambda b: b["spaces"]["s1"]["sides"].pop("W"), "spaces.s1.sides", None, '"W" is missing'),
    (lambda b: b["spaces"]["s2"].update(at=[0, 1]), "spaces.s2.at", "castelli.board.space_at",
        "space s2 is at [0, 1] like s1"),
    (lambda b: b["settlements"].update(R="village"), "settlements.R", "castelli.board.settlement_not_plain",
        "villages and towns stand on plain areas, and R is a rock"),
    (lambda b: b["settlements"].update(Q="village"), "settlements.Q", "castelli.board.no_area",
        'no area "Q" on this board'),
    (lambda b: b["settlements"].update(T="castle"), "settlements.T", "castelli.board.settlement_kind",
        'must be "village" or "town"'),
    (lambda b: b.update(spaces={}), "spaces", "castelli.board.no_spaces", "at least one tile space"),
    (lambda b: b.update(areas={}), "areas", "castelli.board.no_areas", "a board needs at least one area"),
])
def test_board_validation_messages(change, path, code, message):
    board = copy.deepcopy(PLAYGROUND)
    change(board)
    with pytest.raises(RecordError) as info:
        validate_board(board)
    assert info.value.path == path
    assert message in info.value.text
    if code is not None:
        assert_message(info.value.message, code)


def test_too_many_settlements_are_refused_by_kind():
    towns = copy.deepcopy(PLAYGROUND)
    towns["areas"].update({f"x{i}": {"kind": "plain", "at": [20, i]} for i in range(8)})
    towns["settlements"].update({f"x{i}": "town" for i in range(8)})
    with rejects_record("castelli.board.too_many_towns", "settlements", supply=8, count=9) as info:
        validate_board(towns)
    assert render(info.value.message, "en") == "the game has 8 towns, this board places 9"
    villages = copy.deepcopy(PLAYGROUND)
    villages["areas"].update({f"y{i}": {"kind": "plain", "at": [21, i]} for i in range(13)})
    villages["settlements"].update({f"y{i}": "village" for i in range(13)})
    with rejects_record("castelli.board.too_many_villages", "settlements", supply=13, count=14):
        validate_board(villages)


def test_shipped_layouts_are_examples_and_valid():
    assert set(layout_names()) == {"example-2p", "example-2p-extra-mine", "example-4p"}
    four, two = load_layout("example-4p"), load_layout("example-2p")
    other = load_layout("example-2p-extra-mine")
    assert len(four.spaces) == 32 and len(four.areas) == 32 and four.mine
    assert len(two.spaces) == 16 and two.mine
    # the other two parts, seen from their side: the extra mine tile where example-2p has its mine
    assert len(other.spaces) == 16 and other.mine == "a35" == two.mine
    assert validate_board(board_to_json(other), "example-2p-extra-mine") == other
    # the inline JSON of a layout reads back as the same board (export keeps every field)
    assert validate_board(board_to_json(four), "example-4p") == four
    assert validate_board(board_to_json(two), "example-2p") == two
    state = GAME.start(["A", "B"], {}, {"colors": {"A": "red", "B": "blue"}, "board": "example-2p"})
    assert state.mine == 11 and GAME.setup_json(state)["board"]["areas"]["a35"]["kind"] == "mine"


def test_cli_replay_and_errors(tmp_path, capsys):
    assert main(["replay", str(EXAMPLE), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["winners"] == ["Csaba"]
    data = example()
    data["moves"][4]["cards"] = 3
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["replay", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == "companion: move 5 (Dora): you have 1 card in hand; you cannot sell 3"
    assert captured.out == ""
    assert main(["replay", str(EXAMPLE)]) == 0
    assert "Csaba (blue) has the most (5)" in capsys.readouterr().out


def test_cli_resolve(capsys):
    assert main(["castelli", "resolve", "--kind", "rock", "--yield", "2", "--shield", "blue:5",
                 "--shield", "yellow:4", "--player", "Anna=blue", "--player", "Bela=yellow"]) == 0
    out = capsys.readouterr().out
    assert "Anna: 2 stone" in out and "beating Bela (yellow) 4" in out
    assert main(["castelli", "resolve", "--kind", "market", "--tents", "2", "--shield", "green:3",
                 "--shield", "yellow:3", "--shield", "red:card", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["awards"] == {"yellow": {"cards": 1}, "green": {"cards": 1}}
    assert main(["castelli", "resolve", "--kind", "field", "--shield", "blue:9"]) == 2
    assert "the value must be 1-6" in capsys.readouterr().err
    assert main(["castelli", "resolve", "--kind", "field", "--shield", "red:4", "--shield", "blue:4",
                 "--player", "A=blue", "--neutral", "split"]) == 0
    assert "A: 1 grain" in capsys.readouterr().out


def test_cli_board_validate(tmp_path, capsys):
    good = tmp_path / "board.json"
    good.write_text(json.dumps(PLAYGROUND))
    assert main(["board", "validate", str(good)]) == 0
    assert capsys.readouterr().out.startswith("ok: 8 tile spaces, 10 areas")
    broken = copy.deepcopy(PLAYGROUND)
    broken["spaces"]["s3"]["sides"]["E"] = "Nope"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(broken))
    assert main(["board", "validate", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f'companion: {bad}: spaces.s3.sides.E: no area "Nope" on this board'
    assert main(["board", "validate", str(tmp_path / "missing.json")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_cli_resolve_lists_influence_best_first_with_names(capsys):
    assert main(["castelli", "resolve", "--kind", "market", "--tents", "2", "--shield", "red:1",
                 "--shield", "green:3", "--shield", "yellow:3", "--player", "Anna=green",
                 "--player", "Bela=yellow", "--player", "Csaba=red"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "influence: Bela (yellow) 3, Anna (green) 3 and Csaba (red) 1"
    assert lines[1:3] == ["Bela: 1 card", "Anna: 1 card"]
