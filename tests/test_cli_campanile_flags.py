"""The 2-player Campanile flag table: confirmed once from the cards, never invented."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def cli(run_cli, tmp_path):
    return lambda *args: run_cli("--data-dir", str(tmp_path), *args)


def test_a_two_player_game_is_refused_until_the_flags_are_confirmed(cli):
    code, out, err = cli("new", "campanile", "Ada", "Bo")
    assert code == 2 and out == ""
    assert "needs the values of your 2-player flag cards" in err
    assert "companion campanile flags" in err
    code, out, _ = cli("campanile", "flags")
    assert code == 0 and "no 2-player flag table confirmed yet" in out


def test_confirmed_flags_are_written_into_every_new_two_player_game(cli):
    code, out, _ = cli("campanile", "flags", "--intermezzo", "3/1 2 1 1", "--finito", "5/3 4/2 3 2 1")
    assert code == 0 and "intermezzo: 3/1 2 1 1" in out
    assert cli("new", "campanile", "Ada", "Bo")[0] == 0
    code, out, _ = cli("export")
    assert code == 0
    assert json.loads(out)["options"]["flags"] == {
        "intermezzo": [[3, 1], [2], [1], [1]], "finito": [[5, 3], [4, 2], [3], [2], [1]]}


def test_three_player_games_keep_the_rulebook_flags(cli):
    cli("campanile", "flags", "--intermezzo", "3/1 2 1 1", "--finito", "5/3 4/2 3 2 1")
    assert cli("new", "campanile", "Ada", "Bo", "Cy")[0] == 0
    assert json.loads(cli("export")[1])["options"]["flags"]["intermezzo"] == [[4, 2], [3, 1], [2], [1]]


@pytest.mark.parametrize(("args", "message"), [
    (["--intermezzo", "4/2 3/1 2 1"], "give both --intermezzo and --finito"),
    (["--intermezzo", "4/2 3/1 2", "--finito", "5 4 3 2 1"],
     "intermezzo: must have exactly 4 flags (one per flagged tower), not 3"),
    (["--intermezzo", "4/x 3/1 2 1", "--finito", "5 4 3 2 1"], "'4/x' is not a flag"),
    (["--intermezzo", "2/4 3/1 2 1", "--finito", "5 4 3 2 1"],
     "intermezzo[0]: a flag's values go best first (e.g. [4, 2])"),
    (["--intermezzo", "4/2 3/1 2 0", "--finito", "5 4 3 2 1"],
     "intermezzo[3]: flag values must be whole numbers of at least 1, not 0"),
])
def test_bad_flag_tables_are_refused_and_nothing_is_saved(cli, args, message):
    code, out, err = cli("campanile", "flags", *args)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1
    assert "no 2-player flag table confirmed yet" in cli("campanile", "flags")[1]


def test_forget_removes_the_table(cli):
    cli("campanile", "flags", "--intermezzo", "3/1 2 1 1", "--finito", "5/3 4/2 3 2 1")
    assert cli("campanile", "flags", "--forget")[0] == 0
    assert cli("new", "campanile", "Ada", "Bo")[0] == 2
