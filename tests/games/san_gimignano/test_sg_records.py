"""Records: the shipped example, structural errors with their paths, export and the CLI."""

from __future__ import annotations

import copy
import json

import pytest

from companion.cli.main import main
from companion.games.base import RecordError
from companion.games.san_gimignano.geometry import space_name
from companion.registry import get_game
from companion.service.records import ReplayError, final_state, parse_record, record_json
from tests.conftest import EXAMPLES
from tests.refusals import rejects_record

G1, G2, G3, G4 = "guild-1", "guild-2", "guild-3", "guild-4"


def example() -> dict:
    return json.loads((EXAMPLES / "san-gimignano.json").read_text())


def test_the_registry_finds_the_engine():
    game = get_game("san-gimignano")
    assert (game.name, game.title, game.min_players, game.max_players) == (
        "san-gimignano", "San Gimignano", 2, 4)


def test_the_shipped_example_gives_the_expected_summary():
    record = parse_record(example())
    summary = record.game.summary(final_state(record))
    expected = json.loads((EXAMPLES / "san-gimignano.expected.json").read_text())
    for key, value in expected.items():
        assert summary[key] == value, key
    assert summary["scores"] == summary["towers"] == {"Ada": 1, "Bo": 1, "Cy": 2}
    assert summary["game"] == "san-gimignano" and summary["players"] == ["Ada", "Bo", "Cy"]
    # tokens on the board match the board listing; towers stand on emptied spaces
    listed = {p: 0 for p in summary["players"]}
    for entry in summary["board"]:
        for owner in entry["tokens"]:
            listed[owner] += 1
        if entry["tower"] is not None:
            assert entry["tokens"] == []
    assert listed == summary["tokens"]
    assert sum(1 for entry in summary["board"] if entry["tower"]) == 4
    assert len(summary["board"]) == 3 * 12


def test_the_example_exported_replays_the_same():
    record = parse_record(example())
    state = final_state(record)
    exported = record_json(record.game, record.players, state, record.moves)
    assert exported["options"] == {"rules": "rulebook", "variant": "four"}
    assert exported["setup"]["guilds"] == [G1, G2, G3, G4]
    assert exported["setup"]["hands"] == {"Ada": 3, "Bo": 3, "Cy": 3}
    assert len(exported["setup"]["segments"]) == 3
    again = parse_record(json.loads(json.dumps(exported)))
    assert final_state(again) == state
    for move in record.moves:
        assert record.game.parse_move(record.game.move_to_json(move)) == move


def test_defaults_are_written_out_on_export():
    data = example()
    data["setup"].pop("hands")
    record = parse_record(data)
    assert record.game.setup_json(record.initial)["hands"] == {"Ada": 3, "Bo": 3, "Cy": 3}
    data["players"] = ["Ada", "Bo"]
    data["setup"]["segments"] = data["setup"]["segments"][:2]
    data["moves"] = []
    record = parse_record(data)
    assert record.game.setup_json(record.initial)["hands"] == {"Ada": 4, "Bo": 4}
    data["options"] = {"rules": "clarified", "variant": "string"}
    record = parse_record(data)
    assert record.game.options_json(record.initial) == {"rules": "clarified", "variant": "string"}
    assert record.game.setup_json(record.initial)["pool"] == 12
    assert "hands" not in record.game.setup_json(record.initial)


def broken(change) -> RecordError:
    data = example()
    change(data)
    with pytest.raises(RecordError) as caught:
        parse_record(data)
    return caught.value


def seg_edges(index, edges):
    return lambda d: d["setup"]["segments"][index].__setitem__("edges", edges)


@pytest.mark.parametrize(("change", "path", "code", "params", "english"), [
    (seg_edges(2, [G3, G1, G1, G4, G3, G3]), "setup.segments[2].edges", "san_gimignano.edges.pairs",
     {"field": "edges"}, "edges must be three pairs of equal guilds"),
    (seg_edges(1, [G3, G3, G2, G2, G3, G3]), "setup.segments[1].edges", "san_gimignano.edges.three_guilds",
     {"field": "edges"}, "edges must show three different guilds"),
    (seg_edges(1, [G3, G3, G2, G2, G1]), "setup.segments[1].edges", "san_gimignano.edges.six",
     {"field": "edges"}, "edges must list six guilds, one per edge"),
    (seg_edges(1, "g1 g1 g2 g2 g3 g3"), "setup.segments[1].edges", "san_gimignano.edges.not_list",
     {"field": "edges"}, "edges must be a list of six guild names, not a text"),
    (seg_edges(1, [G3, G3, G2, G2, 1, 1]), "setup.segments[1].edges", "san_gimignano.edges.not_names",
     {"field": "edges"}, "edges must be a list of six guild names"),
    (seg_edges(1, [G3, G3, G2, G2, G1, G1]), "setup.segments[1].edges", "san_gimignano.segment.same_guild",
     {}, "two touching edges may not show the same guild"),
    (lambda d: d["setup"]["segments"][1].__setitem__("at", [0, 0]), "setup.segments[1].at",
     "san_gimignano.segment.occupied", {"q": 0, "r": 0}, "there is already a segment at [0, 0]"),
    (lambda d: d["setup"]["segments"][1].__setitem__("at", [1]), "setup.segments[1].at",
     "san_gimignano.position.shape", {"field": "at"}, "at must be [q, r], two whole numbers"),
    (lambda d: d["setup"]["segments"].__setitem__(1, [1, 0]), "setup.segments[1]",
     "san_gimignano.setup.segment_kind", {}, "a segment must be an object, not a list"),
    (lambda d: d["setup"].__setitem__("segments", []), "setup.segments",
     "san_gimignano.setup.no_segments", {}, "at least one segment must be laid out before play"),
    (lambda d: d["setup"].__setitem__("guilds", ["a", "b", "c"]), "setup.guilds",
     "san_gimignano.setup.guild_count", {"count": 4}, "guilds must name exactly 4 guilds"),
    (lambda d: d["setup"].__setitem__("guilds", ["a", "b", " ", "d"]), "setup.guilds[2]",
     "common.name.empty", {}, "a guild's name may not be empty"),
    (lambda d: d["setup"].__setitem__("guilds", ["a", "b\u202e", "c", "d"]), "setup.guilds[1]",
     "common.name.unsafe_in", {"character": "U+202E RIGHT-TO-LEFT OVERRIDE"},
     "a guild's name may not hold the invisible or control character U+202E RIGHT-TO-LEFT OVERRIDE"),
    (lambda d: d["setup"].__setitem__("guilds", ["a", "b", "a", "d"]), "setup.guilds",
     "san_gimignano.setup.guilds_repeat", {}, "guild names must differ"),
    (lambda d: d["setup"].__setitem__("guilds", ["a", "b", "c", "d"]), "setup.segments[0].edges",
     "san_gimignano.guild.unknown", {"guild": G4, "guilds": ["a", "b", "c", "d"]},
     '"guild-4" is not one of the guilds (a, b, c and d)'),
    (lambda d: d["setup"].__setitem__("hands", {"Ada": 3, "Zed": 1}), "setup.hands",
     "common.player.not_playing", {"player": "Zed"}, '"Zed" is not playing in this game'),
    (lambda d: d["setup"].__setitem__("hands", [3, 3, 3]), "setup.hands",
     "san_gimignano.setup.hands_kind", {}, "hands must be an object (player -> segments), not a list"),
    (lambda d: d["setup"].__setitem__("pool", 3), "setup.pool", "san_gimignano.setup.pool_with_rulebook",
     {}, "pool belongs to the clarified rules; the rulebook uses hands"),
    (lambda d: d["options"].__setitem__("rules", "clarified"), "setup.hands",
     "san_gimignano.setup.hands_with_clarified", {},
     "hands belong to the rulebook rules; the clarified rules use pool"),
])
def test_structural_errors_name_the_field(change, path, code, params, english):
    data = example()
    change(data)
    with rejects_record(code, path, **params) as caught:
        parse_record(data)
    assert caught.value.text == english


@pytest.mark.parametrize(("index", "change", "code", "params", "english"), [
    (1, lambda m: m.__setitem__("edges", [G1, G1, G1, G1, G2, G2]),
     "san_gimignano.edges.three_guilds", {"field": "edges"}, "edges must show three different guilds"),
    (0, lambda m: m.__setitem__("space", [0, 0]), "san_gimignano.space.shape",
     {"field": "space"}, "space must be [q, r, guild]: two whole numbers and a guild name"),
    (26, lambda m: m["group"].__setitem__(1, [0, "1", G1]), "san_gimignano.space.shape",
     {"field": "group[1]"}, "group[1] must be [q, r, guild]: two whole numbers and a guild name"),
    (26, lambda m: m.__setitem__("group", []), "san_gimignano.group.empty", {},
     "group must list the spaces of the group"),
    (26, lambda m: m["group"].append([0, 1, G1]), "san_gimignano.group.repeated",
     {"space": space_name((0, 1, G1))}, "group lists guild-1 at [0, 1] twice"),
])
def test_move_errors_name_the_field(index, change, code, params, english):
    data = example()
    change(data["moves"][index])
    with rejects_record(code, "", **params) as caught:
        get_game("san-gimignano").parse_move(data["moves"][index])
    assert caught.value.text == english
    with pytest.raises(RecordError) as in_record:
        parse_record(data)
    assert (in_record.value.path, in_record.value.text) == (f"move {index + 1}", english)


@pytest.mark.parametrize(("change", "path", "message"), [
    # the shared field readers' words (companion/games/fields.py), not San Gimignano's own
    (lambda d: d["setup"]["segments"][0].__setitem__("edgs", []),
     "setup.segments[0]", 'unknown field "edgs"'),
    (lambda d: d["setup"].pop("segments"), "setup", '"segments" is missing'),
    (lambda d: d["setup"].__setitem__("hands", {"Ada": -1}), "setup.hands",
     "Ada must be at least 0 (not -1)"),
    (lambda d: d["options"].__setitem__("rules", "house"), "options",
     'rules must be one of rulebook, clarified (not "house")'),
    (lambda d: d["options"].__setitem__("variatn", "four"), "options",
     'unknown field "variatn" (this game takes `rules` and `variant`)'),
    (lambda d: d["moves"][0].__setitem__("spce", [0, 0, G1]), "move 1", 'unknown field "spce"'),
    (lambda d: d["moves"][0].__setitem__("type", "meeple"), "move 1",
     'type must be one of token, segment, tower, pass (not "meeple")'),
])
def test_field_errors_name_the_field(change, path, message):
    error = broken(change)
    assert error.text == message
    assert error.path == path


def test_a_move_that_is_no_object_is_refused_in_words():
    with rejects_record("san_gimignano.move.not_object") as caught:
        get_game("san-gimignano").parse_move([1, 2])
    assert caught.value.text == "a move must be an object, not a list"


def test_an_illegal_move_names_the_move_and_the_player():
    data = example()
    data["moves"][6]["space"] = [0, 0, G4]  # Ada onto a space holding Ada's and Cy's tokens
    record = parse_record(data)
    with pytest.raises(ReplayError) as caught:
        final_state(record)
    assert str(caught.value) == "move 7 (Ada): a space holds at most 2 tokens"


def test_the_cli_replays_and_refuses(tmp_path, capsys):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(example()))
    assert main(["replay", str(good), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["towers"] == {"Ada": 1, "Bo": 1, "Cy": 2}
    assert main(["replay", str(good)]) == 0
    assert "San Gimignano: in progress" in capsys.readouterr().out
    data = copy.deepcopy(example())
    data["moves"].insert(2, {"type": "token", "player": "Cy", "space": [0, 0, G1]})
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["replay", str(bad), "--json"]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert "move 3 (Cy): it is not Cy's turn: Bo plays next" in out.err
