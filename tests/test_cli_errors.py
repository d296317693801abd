"""Inputs that once could have crashed the CLI (exit 1) end with exit 2 and one line."""

from __future__ import annotations

import json
import os
import sqlite3
import stat

import pytest

from tests.conftest import EXAMPLES

CAMPANILE = json.loads((EXAMPLES / "campanile-3p.json").read_text())


def test_a_deeply_nested_file_is_a_record_error(run_cli, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    code, out, err = run_cli("replay", str(deep))
    assert (code, out) == (2, "")
    assert err == f"companion: {deep} is nested too deeply to be a record\n"


@pytest.mark.parametrize(("name", "character"), [("Fran\nziska", "U+000A LINE FEED"),
                                                  ("Tab\there", "U+0009 CHARACTER TABULATION"),
                                                  ("bell\x07", "U+0007")])
def test_player_names_with_control_characters_are_refused(run_cli, write_record, name, character):
    record = dict(CAMPANILE, players=["Albert", name, "Birgit"])
    code, out, err = run_cli("replay", write_record(record))
    assert (code, out) == (2, "")
    assert err == ("companion: players[1]: a player's name may not hold the invisible or control "
                   f"character {character}\n")


@pytest.mark.parametrize("section", ["options", "setup"])
def test_new_like_a_record_whose_section_is_not_an_object(run_cli, write_record, tmp_path, section):
    path = write_record(dict(CAMPANILE, **{section: [1, 2]}))
    code, out, err = run_cli("--data-dir", str(tmp_path), "new", "campanile", "A", "B", "C", "--like", path)
    assert (code, out) == (2, "")
    assert err == f"companion: {path}: {section}: must be an object, not a list\n"


@pytest.mark.parametrize(("kind", "option"), [("market", "--tents"), ("mine", "--silver"),
                                              ("field", "--yield")])
def test_resolve_names_the_option_that_was_negative(run_cli, kind, option):
    code, _, err = run_cli("castelli", "resolve", "--kind", kind, option, "-1")
    assert code == 2
    assert err == f"companion: {option} must be 0 or more\n"


def test_a_store_that_is_not_a_database_is_one_line(run_cli, tmp_path):
    (tmp_path / "companion.sqlite3").write_bytes(b"this is not SQLite" * 100)
    for command in (["sessions"], ["board", "layouts"], ["stats"]):
        code, _, err = run_cli("--data-dir", str(tmp_path), *command)
        assert code == 2, command
        assert err.startswith("companion: ") and err.count("\n") == 1, err


def test_damaged_data_in_the_store_is_one_line(run_cli, tmp_path):
    assert run_cli("--data-dir", str(tmp_path), "new", "campanile", "A", "B", "C")[0] == 0
    assert run_cli("--data-dir", str(tmp_path), "new", "castelli", "A", "B", "C")[0] == 0
    db = sqlite3.connect(tmp_path / "companion.sqlite3")
    with db:
        db.execute("UPDATE sessions SET players = '[not json' WHERE id = 1")
    db.close()
    code, out, err = run_cli("--data-dir", str(tmp_path), "sessions")
    assert code == 2
    assert "castelli" in out.lower() and "campanile" not in out.lower()  # the game that reads is listed
    assert err.startswith("companion: the game store holds a row it cannot read back (sessions, row 1)")
    assert err.count("\n") == 1


def test_quoted_line_breaks_are_escaped_so_every_error_stays_one_line(run_cli, write_record):
    record = dict(CAMPANILE, options={"two\nlines": True})
    code, _, err = run_cli("replay", write_record(record))
    assert (code, err) == (2, 'companion: options: unknown field "two\\nlines" '
                              '(this game takes `two_player_move` and `flags`)\n')
    moves = [dict(CAMPANILE["moves"][0], tower="yel\nlow")]
    code, _, err = run_cli("replay", write_record(dict(CAMPANILE, moves=moves)))
    assert code == 2
    assert err.startswith('companion: move 1 (Albert): there is no tower called "yel\\nlow"')
    assert err.count("\n") == 1


# -- every path out is one line -------------------------------------------------------------------

def test_an_unexpected_error_exits_1_with_one_escaped_line(run_cli, monkeypatch):
    from companion.cli.commands import replay

    def broken(args):
        raise RuntimeError("disk said \x1b[2J\nno " + "x" * 300)

    monkeypatch.setattr(replay, "run", broken)
    code, out, err = run_cli("replay", "whatever.json")
    assert (code, out) == (1, "")
    assert err == (f"companion: unexpected error: disk said \\x1b[2J\\nno {'x' * 79}… "
                   "(run with --debug for details)\n")
    with pytest.raises(RuntimeError, match="disk said"):
        run_cli("--debug", "replay", "whatever.json")


def test_a_closed_output_pipe_during_a_command_is_quiet(run_cli, monkeypatch):
    from companion.cli.commands import replay
    from companion.cli.main import EXIT_BROKEN_PIPE

    def reader_gone(args):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(replay, "run", reader_gone)
    assert run_cli("replay", "whatever.json") == (EXIT_BROKEN_PIPE, "", "")


def test_usage_errors_quote_what_was_typed_escaped(run_cli):
    code, out, err = run_cli("export", "\x1b[2J")
    assert (code, out) == (2, "")
    assert err == ("companion: export: argument SESSION: \"\\x1b[2J\" is not an id: an id is a whole number "
                   "from 1 to 9223372036854775807 (see companion export --help)\n")


@pytest.mark.parametrize("name", ["", "   "])
def test_export_to_an_empty_file_name_says_so(run_cli, tmp_path, name):
    assert run_cli("--data-dir", str(tmp_path), "import", str(EXAMPLES / "campanile-3p.json"))[0] == 0
    assert run_cli("--data-dir", str(tmp_path), "export", "-o", name) == (
        2, "", "companion: -o: the file name is empty\n")


def test_a_failed_export_leaves_no_temporary_file(run_cli, tmp_path):
    data = tmp_path / "data"
    assert run_cli("--data-dir", str(data), "import", str(EXAMPLES / "campanile-3p.json"))[0] == 0
    target = tmp_path / "out"
    target.mkdir()  # a directory where the file should go: the final rename fails
    code, _, err = run_cli("--data-dir", str(data), "export", "-o", str(target))
    assert (code, err) == (2, f"companion: cannot write {target}: Is a directory\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "out"]
    assert list(target.iterdir()) == []


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_export_respects_the_umask_and_keeps_a_replaced_files_mode(run_cli, tmp_path, umask):
    data = tmp_path / "data"
    assert run_cli("--data-dir", str(data), "import", str(EXAMPLES / "campanile-3p.json"))[0] == 0
    fresh = tmp_path / "fresh.json"
    previous = os.umask(umask)
    try:
        assert run_cli("--data-dir", str(data), "export", "-o", str(fresh))[0] == 0
    finally:
        os.umask(previous)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask
    existing = tmp_path / "existing.json"
    existing.write_text("old")
    existing.chmod(0o640)
    assert run_cli("--data-dir", str(data), "export", "-o", str(existing))[0] == 0
    assert stat.S_IMODE(existing.stat().st_mode) == 0o640
    assert json.loads(existing.read_text())["game"] == "campanile"


def test_board_validate_given_a_whole_record_says_where_the_board_is(run_cli, write_record):
    castelli = EXAMPLES / "castelli.json"
    assert run_cli("board", "validate", str(castelli)) == (
        2, "", f"companion: {castelli} is a whole game record; its board is under setup.board "
               "(put that object in a file of its own to check or import it)\n")
    record = dict(json.loads(castelli.read_text()), setup={"board": "example-2p"})
    path = write_record(record)
    assert run_cli("board", "validate", path) == (
        2, "", f'companion: {path} is a whole game record; its board, under setup.board, is the layout '
               '"example-2p" that the companion ships (see `companion board layouts`)\n')
    board = write_record(json.loads(castelli.read_text())["setup"]["board"])
    assert run_cli("board", "validate", board)[0] == 0


def test_a_record_that_is_not_utf8_is_named_in_words(run_cli, tmp_path):
    utf16 = tmp_path / "utf16.json"
    utf16.write_bytes('{"format": "companion-record/1"}'.encode("utf-16"))
    assert run_cli("replay", str(utf16)) == (
        2, "", f"companion: {utf16} is UTF-16 text (it starts with a UTF-16 byte-order mark); "
               "save it as UTF-8\n")
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"players": ["Zoë"]}'.encode("latin-1"))
    assert run_cli("replay", str(latin)) == (
        2, "", f"companion: {latin} is not UTF-8 text (byte 0xeb at position 16)\n")


def test_new_refuses_names_that_differ_only_in_case_but_records_with_them_replay(run_cli, tmp_path,
                                                                               write_record):
    code, _, err = run_cli("--data-dir", str(tmp_path), "new", "campanile", "Ann", "Bob", "ann")
    assert code == 2 and err.startswith('companion: players[2]: duplicate name "ann" (the same as "Ann"')
    assert run_cli("--data-dir", str(tmp_path), "sessions")[1].startswith("No stored games yet")
    record = dict(CAMPANILE, players=["Albert", "ALBERT", "Birgit"], moves=[])
    assert run_cli("replay", write_record(record))[0] == 0
    assert run_cli("--data-dir", str(tmp_path), "import", write_record(record))[0] == 0


def test_the_command_table_says_exactly_which_module_adds_which_command() -> None:
    import argparse
    from importlib import import_module

    from companion.cli.main import COMMAND_PACKAGE, COMMANDS, game_command_modules

    tables = {**{f"{COMMAND_PACKAGE}.{name}": commands for name, commands in COMMANDS.items()},
              **game_command_modules()}
    assert len(tables) > len(COMMANDS)  # the games' own (declared by their descriptors) are there
    for name, commands in tables.items():
        subparsers = argparse.ArgumentParser().add_subparsers()
        import_module(name).register(subparsers)
        assert tuple(subparsers.choices) == commands, name


@pytest.mark.parametrize(("argv", "word"), [
    (["replay", "x.json"], "replay"), (["--lang", "hu", "--data-dir", "d", "moves", "f"], "moves"),
    (["--debug", "--lang=hu", "export"], "export"), (["--", "stats"], "stats"), (["--debug"], None)])
def test_the_command_word_is_found_past_the_global_options(argv, word) -> None:
    from companion.cli.main import _command_word

    assert _command_word(argv) == word


@pytest.mark.parametrize(("typed", "meant"), [("replya", "replay"), ("mvoes", "moves"), ("exprot", "export"),
                                            ("doctr", "doctor"), ("backpu", "backup"), ("bord", "board"),
                                            ("confgi", "config")])
def test_a_mistyped_command_is_matched_against_every_command(run_cli, typed, meant) -> None:
    """A word no module adds reads every module's commands (a game's own among them), so the one
    meant is offered whichever module adds it (tests/test_help.py: only the close ones are)."""
    code, out, err = run_cli(typed)
    assert code == 2 and out == ""
    assert f"did you mean `{meant}`?" in err
