"""``new`` as a newcomer types it: game names in any case, and the defaults the touchscreen fills.

``new castelli Anna Bela Csaba`` once said ``"colors" is missing``, then
``"board" is missing``; now colours come by seat and the board for the player
count, and one line says what was assumed and how to give something else.
"""

from __future__ import annotations

import io

import pytest

from companion.cli.commands.run import starter
from companion.cli.main import main
from companion.console.loop import headless_loop
from companion.games.base import RecordError
from companion.games.castelli.descriptor import LAYOUT_FOR_PLAYERS, default_board
from companion.registry import game_named
from companion.service.app import Companion


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("typed, name", [
    ("Castelli", "castelli"), ("CAMPANILE", "campanile"), ("San Gimignano", "san-gimignano"),
    ("san_gimignano", "san-gimignano"), ("sangimignano", "san-gimignano")])
def test_a_game_is_found_whatever_case_or_separator_is_typed(typed, name):
    assert game_named(typed) == name


@pytest.mark.parametrize("typed", ["chess", "castell", ""])
def test_an_unknown_game_is_refused_naming_the_games(typed):
    with pytest.raises(RecordError) as refused:
        game_named(typed)
    assert "castelli" in str(refused.value)


def _setup_of_session(data, number):
    with Companion.open(data / "companion.sqlite3") as app:
        return app.resume(number).session


@pytest.mark.parametrize("players, layout", [(["Anna", "Bela"], "example-2p"),
                                             (["Anna", "Bela", "Csaba"], "example-4p"),
                                             (["Anna", "Bela", "Csaba", "Dora"], "example-4p")])
def test_new_castelli_without_board_or_colours_gets_the_board_for_the_player_count(
        data, capsys, players, layout):
    assert main(["new", "Castelli", *players]) == 0
    out = capsys.readouterr().out
    assumed = next(line for line in out.splitlines() if line.startswith("assumed:"))
    assert f"board {layout}" in assumed and "--setup" in assumed
    assert "Anna blue" in assumed
    session = _setup_of_session(data, 1)
    assert session.game.setup_json(session.state)["colors"]["Anna"] == "blue"


def test_a_board_and_colours_given_are_not_assumed(data, capsys):
    assert main(["new", "castelli", "Anna", "Bela", "--setup", "board=example-4p",
                 "--setup", 'colors={"Anna": "red", "Bela": "green"}']) == 0
    assert "assumed" not in capsys.readouterr().out


def test_the_assumed_line_is_in_hungarian_for_a_hungarian_table(data, capsys):
    assert main(["--lang", "hu", "new", "castelli", "Anna", "Bela"]) == 0
    out = capsys.readouterr().out
    assert "feltételezve: `colors`: Anna kék, Bela sárga; `board`: `example-2p`" in out  # keys as typed


def test_the_table_s_one_stored_board_is_the_default():
    assert default_board(3, ["our board"]) == "our board"
    assert default_board(2, ["a", "b"]) == LAYOUT_FOR_PLAYERS[2]


def test_the_console_s_new_says_what_it_assumed(data):
    with Companion.open(data / "companion.sqlite3") as app:
        out = io.StringIO()
        headless_loop(None, ["new castelli Anna Bela Csaba", "status"], out, start=starter(app))
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("assumed: colors Anna blue, Bela yellow, Csaba red; board example-4p")
    assert lines[1].startswith("This game is on the example board `example-4p`")  # and how to enter one's own
    assert lines[2].startswith("started Castelli: Anna, Bela, Csaba")


@pytest.mark.parametrize("typed", ['{"Anna": "kék", "Bela": "PIROS"}', '{"Anna": "Blue", "Bela": "red"}'])
def test_colours_are_read_in_any_case_and_in_the_table_s_language(data, typed):
    assert main(["new", "castelli", "Anna", "Bela", "--setup", f"colors={typed}"]) == 0
    session = _setup_of_session(data, 1)
    assert session.game.setup_json(session.state)["colors"] == {"Anna": "blue", "Bela": "red"}


def test_an_unknown_colour_is_refused_listing_the_colours_in_the_table_s_words(data, capsys):
    assert main(["--lang", "hu", "new", "castelli", "Anna", "Bela", "--setup",
                 'colors={"Anna": "lila", "Bela": "piros"}']) == 2
    assert capsys.readouterr().err.strip() == (
        "companion: setup.colors.Anna: „lila” nem színe a Castelli játéknak "
        "(választható: kék, sárga, piros, zöld)")
    with Companion.open(data / "companion.sqlite3") as app:
        assert app.store.list_sessions() == []


def test_a_profile_colour_is_read_in_the_table_s_language(data, capsys):
    assert main(["players", "add", "Anna"]) == 0
    assert main(["--lang", "hu", "players", "colour", "Anna", "castelli", "zöld"]) == 0
    capsys.readouterr()
    assert main(["players", "list"]) == 0
    assert "castelli green" in capsys.readouterr().out


@pytest.mark.parametrize("players, board, noticed", [
    (["A", "B", "C"], "example-2p", True), (["A", "B"], "example-4p", True),
    (["A", "B"], "example-2p", False), (["A", "B", "C", "D"], "example-4p", False)])
def test_a_layout_for_another_player_count_is_said_and_the_game_still_starts(
        data, capsys, players, board, noticed):
    assert main(["new", "castelli", *players, "--setup", f"board={board}"]) == 0
    notes = [line for line in capsys.readouterr().out.splitlines() if line.startswith("note: ")]
    assert bool(notes) == noticed
    if noticed:
        assert board in notes[0] and f"{len(players)} players" in notes[0]


def test_new_san_gimignano_says_which_layout_it_assumed_and_how_to_give_the_table_s(data, capsys):
    assert main(["new", "san gimignano", "Ada", "Ben"]) == 0
    assumed = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("assumed:"))
    assert "the starting layout the touchscreen offers" in assumed and "--setup segments=" in assumed
    assert main(["--lang", "hu", "new", "san-gimignano", "Ada", "Ben"]) == 0
    assert "felkínált kezdő elrendezés" in capsys.readouterr().out
