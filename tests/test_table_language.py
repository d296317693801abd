"""The table's language read before argparse or `replay` opened the store (issue 36): a Hungarian
table reads argparse's refusals and replay's report in Hungarian without `--lang hu`; the option
and `$COMPANION_LANG` still win, and a store that is missing or does not read is simply English."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import i18n
from companion.cli.table_language import data_dir_option, language_given, table_language
from companion.storage.store import Store


def _table(directory: Path, value: object) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    with Store.open(directory / "companion.sqlite3") as store:
        store.set_setting("language", value)
    return directory


def test_the_setting_is_read_and_anything_else_is_none(tmp_path: Path) -> None:
    assert table_language(str(tmp_path / "nothing-here")) is None
    assert table_language(str(_table(tmp_path / "hu", "hu"))) == "hu"
    assert table_language(str(_table(tmp_path / "upper", "HU"))) == "hu"
    assert table_language(str(_table(tmp_path / "unknown", "klingon"))) is None
    assert table_language(str(_table(tmp_path / "number", 7))) is None
    garbage = tmp_path / "garbage"
    garbage.mkdir()
    (garbage / "companion.sqlite3").write_bytes(b"not a database at all" * 100)
    assert table_language(str(garbage)) is None
    assert table_language("") is None  # an empty --data-dir is the command's own mistake to say


def test_the_environment_names_the_store_when_no_option_does(tmp_path: Path) -> None:
    _table(tmp_path, "hu")
    assert table_language(None, {"COMPANION_DATA": str(tmp_path)}) == "hu"


def test_the_command_line_is_read_for_its_options() -> None:
    assert data_dir_option(["--data-dir", "/x", "sessions"]) == "/x"
    assert data_dir_option(["--data-dir=/y", "sessions"]) == "/y"
    assert data_dir_option(["sessions", "--", "--data-dir", "/z"]) is None
    assert language_given(["--lang", "en", "x"], {}) and language_given(["--lang=hu"], {})
    assert language_given([], {"COMPANION_LANG": "en"}) and not language_given(["x"], {})


@pytest.fixture
def hungarian_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("COMPANION_LANG", raising=False)
    monkeypatch.delenv("COMPANION_DATA", raising=False)
    i18n.set_language("en")
    return _table(tmp_path, "hu")


def test_argparse_refuses_in_the_tables_language(run_cli, hungarian_table: Path) -> None:
    code, out, err = run_cli("--data-dir", str(hungarian_table), "sesions")
    assert (code, out) == (2, "")
    assert err.startswith("companion: nincs `sesions` parancs; erre gondoltatok: `sessions`?")
    i18n.set_language("en")
    code, _, err = run_cli("--data-dir", str(hungarian_table), "championship", "new", "--variant", "3")
    assert err.startswith("companion: `championship new`: --variant: érvénytelen választás: 3")
    i18n.set_language("en")
    code, _, err = run_cli("--lang", "en", "--data-dir", str(hungarian_table), "sesions")
    # the option wins over the table
    assert err.startswith("companion: there is no command `sesions`; did you mean `sessions`?")


def test_the_variable_wins_over_the_table(run_cli, hungarian_table: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_LANG", "en")
    code, _, err = run_cli("--data-dir", str(hungarian_table), "new")
    assert code == 2 and "the following arguments are required: GAME, PLAYER" in err


def test_a_typed_value_that_looks_like_a_placeholder_is_shown_as_typed(run_cli,
                                                                        hungarian_table: Path) -> None:
    code, _, err = run_cli("--data-dir", str(hungarian_table), "GAME")
    assert code == 2 and "`GAME`" in err and "JÁTÉK" not in err, err


@pytest.mark.parametrize(("args", "hungarian", "english"), [
    (("new", "bogus", "Anna", "Bela"), "companion: a játék: ismeretlen játék: „bogus”", "companion: game: "),
    (("new", "castelli", "Anna"), "companion: a játékosok: a Castelli játékot 2–4 fő",
     "companion: players: "),
    (("settings", "language", "xx"), "companion: a `language` beállítás: ezek egyike",
     "companion: language: "),
    (("new", "castelli", "Anna", "Bela", "--setup", "bogus=1"), "companion: `setup`: ismeretlen mező",
     "companion: setup: ")])
def test_a_refused_field_is_named_in_the_tables_words(run_cli, hungarian_table: Path,
                                                      args: tuple[str, ...], hungarian: str,
                                                      english: str) -> None:
    """"companion: game: ismeretlen játék" was English in a Hungarian line (issue 36)."""
    code, _, err = run_cli("--data-dir", str(hungarian_table), *args)
    assert code == 2 and err.startswith(hungarian), err
    i18n.set_language("en")
    code, _, err = run_cli("--lang", "en", "--data-dir", str(hungarian_table), *args)
    assert code == 2 and err.startswith(english), err


def test_a_peek_leaves_the_data_directory_as_it_was(tmp_path: Path) -> None:
    """Reading the language makes no -wal or -shm file and changes no byte (argparse's refusal
    must leave the store untouched: tests/test_cli_ids.py)."""
    directory = _table(tmp_path / "table", "hu")
    before = {p.name: p.read_bytes() for p in directory.iterdir()}
    assert table_language(str(directory)) == "hu"
    assert {p.name: p.read_bytes() for p in directory.iterdir()} == before


def test_setting_the_language_speaks_it_at_once(run_cli, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A newcomer's first command on a Hungarian table: the data directory it made is announced in
    the language just set, not in English (issue 36, item 2)."""
    monkeypatch.delenv("COMPANION_LANG", raising=False)
    code, out, err = run_cli("--data-dir", str(tmp_path / "new"), "settings", "language", "hu")
    i18n.set_language("en")
    assert (code, out) == (0, 'language = "hu"\n')
    assert err.startswith("companion: létrehozva az adatmappa:"), err
