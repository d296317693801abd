"""`companion moves FILE [--json]`: the legal moves at the end of a record (records.md)."""

from __future__ import annotations

import json

from tests.conftest import EXAMPLES

CAMPANILE = EXAMPLES / "campanile-3p.json"
CASTELLI = EXAMPLES / "castelli.json"


def test_moves_json_after_a_build_lists_the_builders_markers_and_the_next_build(run_cli, write_record):
    record = json.loads(CAMPANILE.read_text())
    record["moves"] = record["moves"][:1]
    first = record["moves"][0]
    code, out, err = run_cli("moves", write_record(record), "--json")
    assert code == 0 and err == ""
    listed = json.loads(out)
    kinds = {(m["type"], m.get("player")) for m in listed}
    assert ("influence", first["player"]) in kinds
    assert ("build", record["players"][1]) in kinds
    assert {"type": "valuation", "phase": "intermezzo"} in listed
    assert not any(m["type"] == "build" and m["player"] == first["player"] for m in listed)


def test_castelli_reveals_leave_out_the_observed_shields_and_silver(run_cli, write_record):
    record = json.loads(CASTELLI.read_text())
    record["moves"] = []
    code, out, _ = run_cli("moves", write_record(record), "--json")
    assert code == 0
    listed = json.loads(out)
    assert listed and all(m["type"] == "reveal" and set(m) == {"type", "player", "space"} for m in listed)
    assert {m["player"] for m in listed} == {record["players"][0]}


def test_a_finished_game_has_no_moves(run_cli):
    code, out, _ = run_cli("moves", str(CAMPANILE), "--json")
    assert code == 0 and json.loads(out) == []
    code, out, _ = run_cli("moves", str(CAMPANILE))
    assert code == 0 and "game is over" in out


def test_the_list_for_people_is_numbered(run_cli, write_record):
    record = json.loads(CAMPANILE.read_text())
    record["moves"] = []
    code, out, _ = run_cli("moves", write_record(record))
    lines = out.splitlines()
    assert code == 0 and len(lines) == 15  # 5 towers x 3 stories for the first player
    assert lines[0] == "  1. Albert: red +1" and lines[-1] == " 15. Albert: grey +3"


def test_an_invalid_record_exits_2_with_one_line_and_no_output(run_cli, write_record):
    record = json.loads(CAMPANILE.read_text())
    record["moves"][2]["stories"] = 4
    code, out, err = run_cli("moves", write_record(record), "--json")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "move 3" in err


def test_moves_never_touches_the_store(run_cli, write_record, tmp_path):
    data = tmp_path / "data"
    code, _, _ = run_cli("--data-dir", str(data), "moves", str(CAMPANILE), "--json")
    assert code == 0 and not data.exists()
