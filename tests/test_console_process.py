"""A real ``companion`` process: the console fed on standard input, and every way out in one line.

Each child's output is read one way only, with ``communicate()``. Nothing
here measures time; the time-outs are generous guards against a hang.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli.main import EXIT_BROKEN_PIPE
from companion.registry import game_names
from companion.storage.store import Store
from tests.conftest import EXAMPLES

ROOT = Path(__file__).resolve().parent.parent
COMPANION = [sys.executable, "-m", "companion"]
GUARD = 120  # seconds: a hang fails the test instead of stalling the suite


def environment(data_dir: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "STATE_DIRECTORY"}
    env.update(COMPANION_DATA=str(data_dir), PYTHONIOENCODING="utf-8")
    return env


def companion(data_dir: Path, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*COMPANION, *args], input=stdin, capture_output=True, cwd=ROOT,
                          env=environment(data_dir), timeout=GUARD, check=False)


def test_the_console_takes_hostile_lines_and_quits_on_request(tmp_path):
    lines = [
        b"new campanile Albert Zo\xc3\xab Franziska",
        b'{"type": "build", "player": "albert", "tower": "red", "stories": 1}',
        b"[" * 1000,
        b'\xef\xbb\xbf{"type": "build", "player": "ZO\xc3\x8b", "tower": "red", "stories": 1}',
        b'{"type": "build", "player": "\xff\xfe", "tower": "red", "stories": 1}',
        b'{"type": "build", "player": "\\u001b[2J", "tower": "red", "stories": 1}',
        b'{"type": "build", "player": "Franziska", "tower": "\\ud800", "stories": 1}',
        b"9" * 5000,
        b"quit",
        b'{"type": "build", "player": "Franziska", "tower": "red", "stories": 1}',
    ]
    done = companion(tmp_path, "run", "--headless", stdin=b"\n".join(lines) + b"\n")
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.decode("utf-8").splitlines() == [
        "no game in progress; start one by typing `new GAME PLAYER...` "
        f"(games: {', '.join(game_names())}; `help` lists every command)",
        "started Campanile: Albert, Zoë, Franziska; Albert: build 1, 2 or 3 stories on a tower",
        'ok 1: Albert: red +1',
        "refused: the line is nested too deeply (more than 100 levels of brackets)",
        'ok 2: Zoë: red +1',
        "refused: the line holds bytes that are not UTF-8 text",
        'refused: move 3: "\\x1b[2J" is not playing in this game; the players are Albert, Zoë, Franziska',
        'refused: move 3 (Franziska): there is no tower called "\\ud800" '
        "(the towers are grey, brown, red, blue and yellow)",
        "refused: a number in the line has too many digits (more than 1000)",
    ]
    with Store.open(tmp_path / "companion.sqlite3") as store:
        moves, _ = store.stored_moves(1)
    assert [move["player"] for move in moves] == ["Albert", "Zoë"]  # nothing after quit


def test_the_end_of_input_ends_the_console_and_a_rerun_resumes(tmp_path):
    assert companion(tmp_path, "new", "campanile", "Ann", "Bob", "Cid").returncode == 0
    done = companion(tmp_path, "run", "--headless",
                     stdin=b'{"type": "build", "player": "ann", "tower": "red", "stories": 1}\n')
    assert (done.returncode, done.stderr) == (0, b"")
    again = companion(tmp_path, "run", "--headless", stdin=b"status\nexit\n")
    assert again.returncode == 0
    assert again.stdout.decode().splitlines()[0] == (
        "resuming session 1: Campanile, Ann, Bob, Cid, 1 move; "
        "Ann: place your 1-marker under a tower — next: Bob")


def test_bad_input_exits_2_with_one_line(tmp_path):
    done = companion(tmp_path, "new", "campanile", "Ann", "Bob", "ANN")
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode() == (
        'companion: players[2]: duplicate name "ANN" (the same as "Ann" but for '
        "case or Unicode form; give the players names that differ in their letters)\n")
    done = companion(tmp_path, "new", "campanile", "A", "B", "C", "--setup", "towers=" + "[" * 1000)
    assert (done.returncode, done.stderr) == (
        2, b"companion: --setup towers: the value is nested too deeply\n")


def test_a_name_argument_that_is_not_utf8_is_one_escaped_line(tmp_path):
    done = subprocess.run([*COMPANION, "new", "campanile", "A", "B", os.fsencode("C\udcff")],
                          capture_output=True, cwd=ROOT, env=environment(tmp_path), timeout=GUARD,
                          check=False)
    assert done.returncode == 2
    assert done.stderr == (b"companion: players[2]: a player's name may not hold the invisible or control "
                           b"character U+DCFF\n")  # the byte 0xff, as Python reads a name that is not UTF-8


def _replay_into_a_closed_pipe(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """``companion replay`` whose standard output is a pipe nobody reads any more."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone before the first byte is written
    try:
        return subprocess.run([*COMPANION, "replay", str(EXAMPLES / "campanile-3p.json"), *args],
                              stdout=write_end, stderr=subprocess.PIPE, cwd=ROOT,
                              env=environment(tmp_path), timeout=GUARD, check=False)
    finally:
        os.close(write_end)


@pytest.mark.parametrize("args", [("--json",), ()])
def test_a_closed_output_pipe_ends_quietly(tmp_path, args):
    done = _replay_into_a_closed_pipe(tmp_path, *args)
    assert (done.returncode, done.stderr) == (EXIT_BROKEN_PIPE, b"")


def test_replay_into_head_prints_no_complaint(tmp_path):
    replay = shlex.join([*COMPANION, "replay", str(EXAMPLES / "campanile-3p.json"), "--json"])
    command = f"{replay} | head -c1"
    done = subprocess.run(["sh", "-c", command], capture_output=True, cwd=ROOT,
                          env=environment(tmp_path), timeout=GUARD, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"{", b"")


def test_the_console_ends_quietly_when_its_reader_goes(tmp_path):
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([*COMPANION, "run", "--headless"], input=b"help\n", stdout=write_end,
                              stderr=subprocess.PIPE, cwd=ROOT, env=environment(tmp_path),
                              timeout=GUARD, check=False)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (EXIT_BROKEN_PIPE, b"")

