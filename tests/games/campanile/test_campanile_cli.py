"""``companion replay`` on Campanile records: exit codes, stderr, --json and the readable report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.cli.main import main
from tests.conftest import EXAMPLES

COMPANION = Path(sys.executable).with_name("companion")


def write(tmp_path: Path, moves: list[dict[str, Any]], players: list[str] | None = None,
          options: dict[str, Any] | None = None, name: str = "game.json") -> Path:
    data = {"format": "companion-record/1", "game": "campanile",
            "players": players or ["Albert", "Birgit", "Franziska"],
            "options": options or {}, "moves": moves}
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


GAME_MOVES: list[dict[str, Any]] = [
    {"type": "build", "player": "Albert", "tower": "brown", "stories": 3},
    {"type": "influence", "player": "Albert", "tower": "brown"},
    {"type": "build", "player": "Birgit", "tower": "red", "stories": 2},
    {"type": "influence", "player": "Birgit", "tower": "brown"},
    {"type": "build", "player": "Franziska", "tower": "red", "stories": 1},
    {"type": "influence", "player": "Franziska", "tower": "brown"},
    {"type": "build", "player": "Albert", "tower": "red", "stories": 2},
    {"type": "influence", "player": "Albert", "tower": "brown"},
    {"type": "valuation", "phase": "intermezzo"},
    {"type": "build", "player": "Birgit", "tower": "brown", "stories": 3},
    {"type": "influence", "player": "Birgit", "tower": "brown"},
    {"type": "valuation", "phase": "finito"},
]


def test_illegal_record_exits_2_with_the_move_on_stderr_and_nothing_on_stdout(tmp_path: Path) -> None:
    moves = [*GAME_MOVES[:2], {"type": "influence", "player": "Albert", "tower": "red"}]
    path = write(tmp_path, moves)
    done = subprocess.run([str(COMPANION), "replay", str(path), "--json"], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().endswith(
        "move 3 (Albert): Albert has already placed a marker this turn (one per turn)")
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("as_json", [True, False])
def test_illegal_record_in_process(tmp_path: Path, capsys: pytest.CaptureFixture[str], as_json: bool) -> None:
    moves = [{"type": "build", "player": "Albert", "tower": "red", "stories": 1},
             {"type": "build", "player": "Franziska", "tower": "red", "stories": 1}]
    path = write(tmp_path, moves)
    code = main(["replay", str(path), *(["--json"] if as_json else [])])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert "move 2 (Franziska): it is Birgit's turn to build, not Franziska's" in err


def test_record_error_exits_2_naming_the_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, [], players=["Albert", "Birgit"])
    assert main(["replay", str(path), "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "options.flags" in err


def test_structural_move_error_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, [{"type": "build", "player": "Albert", "tower": "red", "stories": 4}])
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "move 1: stories must be 1, 2 or 3" in err


def test_json_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, GAME_MOVES)
    assert main(["replay", str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    summary = json.loads(out)
    assert summary["game"] == "campanile"
    assert summary["players"] == ["Albert", "Birgit", "Franziska"]
    assert summary["finished"] is True
    # intermezzo: brown 3 is rank 2 (red 5 first): Albert 3+2=5, Birgit 2, Franziska 1 -> Albert 3, Birgit 1
    # finito: brown 6 is rank 1: Albert 5, Birgit 2+3=5 (tie, Albert closer), Franziska 1 -> 6/4/2
    assert summary["chips"] == {"Albert": [6, 3], "Birgit": [4, 1], "Franziska": [2]}
    assert summary["scores"] == {"Albert": 9, "Birgit": 5, "Franziska": 2}
    assert summary["winners"] == ["Albert"]
    assert [v["phase"] for v in summary["valuations"]] == ["intermezzo", "finito"]
    assert [len(v["flags"]) for v in summary["valuations"]] == [4, 5]


def test_readable_output_contains_the_explanations(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, GAME_MOVES)
    assert main(["replay", str(path)]) == 0
    out, _ = capsys.readouterr()
    assert "Albert and Birgit both have 5; Albert's markers are closer to the base." in out
    assert "Points: Albert 6, Birgit 4 and Franziska 2." in out
    assert "Nobody has markers under the grey tower" in out
    assert "winner" in out
    assert out.splitlines()[-1] == "Albert wins with the most points (9)."
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)


def test_shipped_example_matches_its_expected_summary() -> None:
    done = subprocess.run([str(COMPANION), "replay", str(EXAMPLES / "campanile-3p.json"), "--json"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    expected = json.loads((EXAMPLES / "campanile-3p.expected.json").read_text(encoding="utf-8"))
    for key in ("finished", "scores", "winners", "chips"):
        assert summary[key] == expected[key]
    for got, want in zip(summary["valuations"], expected["valuations"], strict=True):
        assert got["phase"] == want["phase"]
        assert [{k: f[k] for k in ("tower", "rank", "flag", "awards")} for f in got["flags"]] == want["flags"]
