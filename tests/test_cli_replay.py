"""`companion replay` and the CLI's error contract: exit 2, one line, no traceback."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import EXAMPLES

CAMPANILE = EXAMPLES / "campanile-3p.json"


def test_replay_json_prints_one_summary_object(run_cli):
    code, out, err = run_cli("replay", str(CAMPANILE), "--json")
    assert code == 0 and err == ""
    summary = json.loads(out)
    assert summary["game"] == "campanile" and summary["finished"] is True
    assert summary["winners"] == ["Albert"]


def test_replay_without_json_is_a_readable_table(run_cli):
    code, out, _ = run_cli("replay", str(CAMPANILE))
    assert code == 0
    assert "Campanile — finished" in out
    assert "Albert and Birgit both have 2; Albert's markers are closer to the base." in out
    assert "winner" in next(line for line in out.splitlines() if line.lstrip().startswith("Albert "))


def test_an_illegal_move_exits_2_names_the_move_and_prints_nothing_on_stdout(run_cli, write_record):
    record = json.loads(CAMPANILE.read_text())
    record["moves"][1] = {"type": "influence", "player": "Albert", "tower": "brown"}
    record["moves"].insert(2, {"type": "influence", "player": "Albert", "tower": "red"})
    code, out, err = run_cli("replay", write_record(record), "--json")
    assert code == 2 and out == ""
    assert err == ("companion: move 3 (Albert): Albert has already placed a marker this turn "
                   "(one per turn)\n")


def test_a_missing_file_is_one_line(run_cli, tmp_path):
    code, out, err = run_cli("replay", str(tmp_path / "nope.json"))
    assert (code, out) == (2, "")
    assert err == f"companion: no such file: {tmp_path / 'nope.json'}\n"


def test_a_file_that_is_not_json_says_where(run_cli, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "companion-record/1",\n  "game": }')
    code, _, err = run_cli("replay", str(bad))
    assert code == 2
    assert err.startswith(f"companion: {bad} is not valid JSON (line 2, column 11")
    assert err.count("\n") == 1


def test_unknown_command_and_missing_argument_exit_2_in_one_line(run_cli):
    code, _, err = run_cli("frobnicate")
    assert code == 2 and "there is no command `frobnicate`" in err and err.count("\n") == 1
    code, _, err = run_cli("replay")
    assert code == 2 and "the following arguments are required: FILE" in err


def test_debug_shows_the_traceback(tmp_path):
    run = subprocess.run([sys.executable, "-m", "companion", "--debug", "replay", str(tmp_path / "x.json")],
                         capture_output=True, text=True)
    assert run.returncode != 0
    assert "Traceback" in run.stderr and "RecordError" in run.stderr


def test_a_record_saved_with_a_byte_order_mark_is_read(run_cli, tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + CAMPANILE.read_bytes())
    code, out, err = run_cli("replay", str(path), "--json")
    assert (code, err) == (0, "")
    assert json.loads(out)["winners"] == ["Albert"]


def _tower_rows(out: str) -> dict[str, str]:
    """Each tower's row of the table for people, by the tower's (English) name."""
    return {line.split()[0]: line for line in out.splitlines()
            if line.startswith("  ") and line.split()[0] in ("grey", "brown", "red", "blue", "yellow")}


def test_the_table_for_people_shows_each_towers_flag_from_the_engine(run_cli, write_record):
    """Before the Intermezzo a tower ranked fifth gets no flag (the Intermezzo flags four), and
    the table says so, as the touchscreen does, where it used to give no flag at all (issue 35)."""
    from companion.games.campanile.views import standings
    from companion.service.records import final_state, load_record

    record = json.loads(CAMPANILE.read_text())
    kept = {k: v for k, v in record.items() if k not in ("summary", "result")}
    cut = {**kept, "moves": record["moves"][:20]}
    path = write_record(cut)
    code, out, _ = run_cli("replay", path)
    assert code == 0
    rows = _tower_rows(out)
    facts = standings(final_state(load_record(path)))
    assert [f.next_flag for f in facts].count(None) == 1  # the cut is before the Intermezzo
    for fact in facts:
        words = "no flag" if fact.next_flag is None else "flag " + "/".join(map(str, fact.next_flag))
        assert f"rank {fact.rank}  {words} " in rows[fact.tower], rows[fact.tower]
    # finished: the Finito's flag of each rank, the fifth's too
    code, out, _ = run_cli("replay", str(CAMPANILE))
    finished = {f.tower: f for f in standings(final_state(load_record(str(CAMPANILE))))}
    for tower, row in _tower_rows(out).items():
        assert f"flag {'/'.join(map(str, finished[tower].finito_flag))} " in row, row
