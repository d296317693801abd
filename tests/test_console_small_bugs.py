"""Issue 36's small bugs of the console and the command line: each confirmation says what it
caused (the Intermezzo's points), the data directory is named at start, ``rematch`` after
``abandon`` rematches the last game played to its end, a stored board is named in what ``new``
assumed, and a count of rounds takes the catalogue's plural.
"""

from __future__ import annotations

import io
import json
import os
import sys

import pytest

from companion.cli.commands.run import starter
from companion.console.loop import headless_loop
from companion.i18n import set_language
from companion.service.app import Companion
from tests.conftest import EXAMPLES
from tests.test_console_process import ROOT, companion
from tests.test_console_terminal import Terminal

INTERMEZZO = '{"type": "valuation", "phase": "intermezzo"}'


def _campanile_before_its_intermezzo(app: Companion):
    record = json.loads((EXAMPLES / "campanile-3p.json").read_text(encoding="utf-8"))
    at = next(i for i, m in enumerate(record["moves"]) if m.get("phase") == "intermezzo")
    session = app.start("campanile", record["players"], setup=record["setup"]).session
    for move in record["moves"][:at]:
        session.propose(session.game.parse_move(move))
    return session


@pytest.mark.parametrize(("language", "points"), [
    ("en", "points: Albert +7 (now 7) and Birgit +5 (now 5)"),
    ("hu", "pontok: Albert +7 (így 7) és Birgit +5 (így 5)"),
])
def test_the_intermezzo_says_the_points_it_gave_entered_and_redone(tmp_path, language, points):
    set_language(language)
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        session = _campanile_before_its_intermezzo(app)
        out = io.StringIO()
        headless_loop(session, [INTERMEZZO, "undo", "redo"], out, start=starter(app))
    lines = out.getvalue().splitlines()
    assert lines[1] == points and lines[-1] == points
    assert len(lines) == 5  # ok, points, undone, redone, points: the undo gives none


def test_a_move_that_scores_nothing_says_no_points(tmp_path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        session = app.start("campanile", ["Ann", "Bob", "Cid"]).session
        out = io.StringIO()
        headless_loop(session, ["Ann: red +2"], out, start=starter(app))
    assert out.getvalue().splitlines() == ["ok 1: Ann: red +2"]


def _at_a_terminal(data):
    env = {**os.environ, "COMPANION_DATA": str(data), "TERM": "dumb", "PYTHONPATH": str(ROOT)}
    env.pop("COMPANION_LANG", None)
    return Terminal([sys.executable, "-m", "companion", "run", "--headless"], env)


def test_the_data_directory_is_named_at_start_before_the_first_prompt(tmp_path):
    data = tmp_path / "games"
    for said in (f"companion: created the data directory {data}", f"companion: games are kept in {data}"):
        terminal = _at_a_terminal(data)
        try:
            at = terminal.expect(said)
            terminal.expect("> ", at)  # said before the console asks for anything (before: at quit)
            terminal.type("quit\r")
        finally:
            assert terminal.close() == 0


def test_a_piped_run_says_a_new_data_directory_once_and_an_old_one_not_at_all(tmp_path):
    data = tmp_path / "games"
    made = companion(data, "run", "--headless", stdin=b"quit\n")
    assert made.returncode == 0, made.stderr
    assert made.stderr.decode().splitlines() == [f"companion: created the data directory {data}"]
    again = companion(data, "run", "--headless", stdin=b"quit\n")
    assert again.returncode == 0 and again.stderr == b""


def test_rematch_after_abandon_rematches_the_last_game_played_to_its_end(tmp_path, run_cli):
    data = str(tmp_path)
    assert run_cli("--data-dir", data, "import", str(EXAMPLES / "campanile-3p.json"))[0] == 0  # finished: 1
    assert run_cli("--data-dir", data, "new", "castelli", "Ann", "Bob", "Cid")[0] == 0  # 2
    assert run_cli("--data-dir", data, "abandon", "2")[0] == 0
    code, out, _ = run_cli("--data-dir", data, "rematch")
    assert code == 0
    assert out.splitlines()[0] == ("started session 3: Campanile, Albert, Birgit, Franziska "
                                   "(a rematch of session 1, the last game played to its end)")
    code, out, _ = run_cli("--data-dir", data, "rematch", "2")  # named: the one asked for
    assert out.splitlines()[0].endswith("(a rematch of session 2)")


def test_rematch_with_no_game_played_to_its_end_takes_the_newest_still_open_and_says_so(tmp_path, run_cli):
    data = str(tmp_path)
    run_cli("--data-dir", data, "new", "campanile", "Ann", "Bob", "Cid")  # 1
    run_cli("--data-dir", data, "new", "castelli", "Dan", "Eve", "Fay")  # 2, abandoned
    run_cli("--data-dir", data, "abandon", "2")
    code, out, _ = run_cli("--data-dir", data, "rematch")
    assert code == 0 and out.splitlines()[0] == (
        "started session 3: Campanile, Ann, Bob, Cid (a rematch of session 1, the newest game still open: "
        "none has been played to its end yet)")
    run_cli("--data-dir", data, "abandon", "1")
    run_cli("--data-dir", data, "abandon", "3")
    code, _, err = run_cli("--data-dir", data, "rematch")
    assert code == 2 and err.strip() == ("companion: no game has been played to its end yet; "
                                         "name the game to rematch: companion rematch SESSION")


def test_a_stored_board_is_named_in_what_new_assumed(tmp_path, run_cli):
    data = str(tmp_path)
    layout = "companion/games/castelli/layouts/example-4p.json"
    assert run_cli("--data-dir", data, "board", "import", layout, "--name", "home")[0] == 0
    _, out, _ = run_cli("--data-dir", data, "new", "castelli", "Xa", "Yb", "Zc")
    assumed = next(line for line in out.splitlines() if line.startswith("assumed:"))
    assert "; board home " in assumed and "board (" not in assumed


def test_a_championship_of_one_round_is_written_with_one_round(tmp_path, run_cli):
    data = str(tmp_path)
    run_cli("--data-dir", data, "championship", "new", "--variant", "1", "Ann", "Bob", "Cid", "Dan")
    target = tmp_path / "cup.json"
    code, _, err = run_cli("--data-dir", data, "export", "--championship", "-o", str(target))
    assert code == 0 and f"wrote the championship with 1 round to {target}" in err
