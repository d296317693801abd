"""Inputs that once could have crashed the CLI (exit 1) end with exit 2 and one line."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.conftest import EXAMPLES

CAMPANILE = json.loads((EXAMPLES / "campanile-3p.json").read_text())


def test_a_deeply_nested_file_is_a_record_error(run_cli, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    code, out, err = run_cli("replay", str(deep))
    assert (code, out) == (2, "")
    assert err == f"companion: {deep} is nested too deeply to be a record\n"


@pytest.mark.parametrize("name", ["Fran\nziska", "Tab\there", "bell\x07"])
def test_player_names_with_control_characters_are_refused(run_cli, write_record, name):
    record = dict(CAMPANILE, players=["Albert", name, "Birgit"])
    code, out, err = run_cli("replay", write_record(record))
    assert (code, out) == (2, "")
    assert err == (f"companion: players[1]: name {name!r} must not contain line breaks "
                   "or control characters\n")


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
    db = sqlite3.connect(tmp_path / "companion.sqlite3")
    with db:
        db.execute("UPDATE sessions SET players = '[not json'")
    db.close()
    code, out, err = run_cli("--data-dir", str(tmp_path), "sessions")
    assert (code, out) == (2, "")
    assert err.startswith("companion: the game store holds damaged data (")


def test_quoted_line_breaks_are_escaped_so_every_error_stays_one_line(run_cli, write_record):
    record = dict(CAMPANILE, options={"two\nlines": True})
    code, _, err = run_cli("replay", write_record(record))
    assert (code, err) == (2, 'companion: options: unknown field "two\\nlines"\n')
    moves = [dict(CAMPANILE["moves"][0], tower="yel\nlow")]
    code, _, err = run_cli("replay", write_record(dict(CAMPANILE, moves=moves)))
    assert code == 2
    assert err.startswith('companion: move 1 (Albert): there is no tower called "yel\\nlow"')
    assert err.count("\n") == 1
