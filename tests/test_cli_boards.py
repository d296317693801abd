"""Castelli boards entered on this companion: validated, stored, and inlined into new games."""

from __future__ import annotations

import json

import pytest

from tests.conftest import EXAMPLES

BOARD = json.loads((EXAMPLES / "castelli.json").read_text())["setup"]["board"]
COLORS = 'colors={"Anna": "red", "Bela": "blue", "Csaba": "green"}'


@pytest.fixture
def cli(run_cli, tmp_path):
    return lambda *args: run_cli("--data-dir", str(tmp_path / "data"), *args)


@pytest.fixture
def board_file(tmp_path):
    path = tmp_path / "board.json"
    path.write_text(json.dumps(BOARD))
    return str(path)


def test_validate_counts_what_is_on_the_board(cli, board_file):
    code, out, _ = cli("board", "validate", board_file)
    assert code == 0
    assert out == ("ok: 12 tile spaces, 13 areas (6 forest, 1 field, 4 rock, 1 mine and 1 plain), "
                   "1 village, 0 towns\n")


def test_an_imported_board_is_written_inline_into_a_new_game(cli, board_file):
    code, out, _ = cli("board", "import", board_file, "--name", "kitchen")
    assert code == 0 and 'stored board "kitchen"' in out
    assert "kitchen: 12 tile spaces, 13 areas (stored here)" in cli("board", "layouts")[1]
    assert cli("new", "castelli", "Anna", "Bela", "Csaba", "--setup", "board=kitchen",
               "--setup", COLORS)[0] == 0
    record = json.loads(cli("export")[1])
    assert record["setup"]["board"]["spaces"].keys() == BOARD["spaces"].keys()


def test_a_shipped_layout_name_stays_a_name(cli):
    assert cli("new", "castelli", "Anna", "Bela", "Csaba", "--setup", "board=example-4p",
               "--setup", COLORS)[0] == 0
    board = json.loads(cli("export")[1])["setup"]["board"]
    assert isinstance(board, dict) and len(board["spaces"]) == 32


@pytest.mark.parametrize(("board", "message"), [
    ({"areas": {"a1": {"kind": "lake"}}, "spaces": {}},
     'areas.a1: kind must be one of forest, field, rock, market, mine, plain (not "lake")'),
    ([], "must be an object"),
])
def test_a_bad_board_is_refused_naming_the_field_and_not_stored(cli, tmp_path, board, message):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(board))
    for command in (("board", "validate", str(bad)), ("board", "import", str(bad), "--name", "x")):
        code, out, err = cli(*command)
        assert code == 2 and out == ""
        assert message in err and err.startswith(f"companion: {bad}")
    assert "(stored here)" not in cli("board", "layouts")[1]


def test_a_shipped_name_cannot_be_taken(cli, board_file):
    code, out, err = cli("board", "import", board_file, "--name", "example-4p")
    assert (code, out) == (2, "")
    assert err == ('companion: "example-4p" is the name of a layout the companion ships; '
                   "choose another name\n")
    # nothing was stored: the name still starts a game on the shipped layout
    assert "(stored here)" not in cli("board", "layouts")[1]
    assert cli("new", "castelli", "Anna", "Bela", "Csaba", "--setup", "board=example-4p",
               "--setup", COLORS)[0] == 0
    assert len(json.loads(cli("export")[1])["setup"]["board"]["spaces"]) == 32
