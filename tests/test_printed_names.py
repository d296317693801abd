"""Every printed name escaped: no control, C1 or bidi character of a name reaches a terminal or the OLED.

Issue 21, defect 10: ``players add`` accepted control characters, C1 codes
and bidi overrides, and ``players list``/``add``/``colour`` printed them as
they were. Names are now refused where they are made (a profile, a new game,
an imported record), and whatever a store from before holds is escaped on
the way out: the command line's standard output and error pass through one
filter (:func:`companion.console.display.terminal_safe`), the OLED's lines
through another, and JSON on standard output stays the same data.
"""

from __future__ import annotations

import json
import sqlite3
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.console.display import SafeStream, terminal_safe
from companion.service.app import AppError, Companion
from companion.service.names import unsafe_character
from hardware.oled_render import Line, Page
from tests import helpers_campanile as camp

#: Names that must never reach a terminal as they are: ESC, a C1 code (CSI), DEL, a right-to-left
#: override, an isolate, a zero-width space, a line separator, a NUL.
HOSTILE = ["Al\x1b[2Jbert", "Al\x9b31mbert", "Al\x7fbert", "\u202etreblA", "\u2067Albert\u2069",
           "Al\u200bbert", "Al\u2028bert", "Al\x00bert"]


def _raw_of(name: str) -> list[str]:
    """The characters of ``name`` that a terminal must not get as they are."""
    return [ch for ch in name if unsafe_character(ch) is not None and ch not in "\n"]


@pytest.mark.parametrize("name", HOSTILE)
def test_players_add_refuses_a_name_with_a_control_or_bidi_character(cli, name: str) -> None:
    code, out, err = cli("players", "add", name)
    assert (code, out) == (2, "")
    assert err.startswith("companion: a player's name may not hold the invisible or control character U+")
    assert not _raw_of(err) and err.count("\n") == 1
    assert cli("players", "list") == (0, "no player profiles yet\n", "")


def test_a_new_game_refuses_such_a_name_and_ordinary_names_still_pass(cli) -> None:
    """New games and records were refused such names already (the record check); profiles were not."""
    code, out, err = cli("new", "campanile", "Albert", "\u202eBirgit", "Franziska")
    assert (code, out) == (2, "") and "players[1]" in err and not _raw_of(err)
    # what is no trouble stays allowed: accents, other scripts, a no-break space, an emoji with a joiner
    for fine in ("Zoë", "Ádám Éva", "Анна", "أحمد", "Anna\u00a0Maria", "\U0001f469\u200d\U0001f4bb"):
        assert unsafe_character(fine) is None, fine


def test_the_tables_name_refuses_them_too(cli) -> None:
    """The table's name is shown on the screens and in BG Stats plays, like a player's."""
    code, out, err = cli("settings", "table.name", "Kitchen\u202e table")
    assert (code, out) == (2, "") and "U+202E RIGHT-TO-LEFT OVERRIDE" in err and not _raw_of(err)
    assert cli("settings", "table.name", "Kitchen\ttable")[0] == 2  # a tab is a control character too
    spaced = "Konyhaasztal\u00a02"  # a no-break space is no trouble
    assert cli("settings", "table.name", spaced) == (0, f'table.name = "{spaced}"\n', "")


def _legacy_store(cli, name: str) -> Path:
    """A store from before the check: a profile and a game whose second player is ``name``."""
    assert cli("players", "add", "Birgit")[0] == 0
    assert cli("players", "colour", "Birgit", "castelli", "red")[0] == 0
    assert cli("new", "campanile", *camp.PLAYERS)[0] == 0
    path = next(cli.data.glob("*.sqlite3"))
    inner = json.dumps(name, ensure_ascii=False)[1:-1]  # the name as the store's JSON writes it
    with sqlite3.connect(path) as db:
        for table, column in (("sessions", "players"), ("sessions", "setup"), ("players", "name")):
            db.execute(f"UPDATE {table} SET {column} = REPLACE({column}, 'Birgit', ?)",
                       (inner if column in ("players", "setup") else name,))
    db.close()
    return path


@pytest.mark.parametrize("name", ["Bir\x1b]0;pwned\x07git", "\u202etigriB"])
def test_names_a_store_already_holds_are_printed_escaped_by_every_command(cli, name: str) -> None:
    """The variation: not the refusal but the way out — players list/colour/remove, sessions, stats,
    export (JSON that still reads back as the same name), and an error that quotes the name."""
    _legacy_store(cli, name)
    outputs = [cli("players", "list"), cli("players", "colour", name, "castelli", "blue"),
               cli("sessions"), cli("stats"), cli("players", "colour", name, "chess", "red"),
               cli("players", "remove", name)]
    code, exported, err = cli("export", "1")
    assert code == 0, err
    assert json.loads(exported)["players"][1] == name  # the data is kept ...
    for _code, out, err in [*outputs, (0, exported, "")]:
        assert not _raw_of(out + err), (out, err)  # ... and nothing reaches the terminal raw
    listed = outputs[0][1]
    assert terminal_safe(name) in listed and "\\u" in listed


def test_the_oled_never_draws_a_control_or_bidi_character() -> None:
    for name in HOSTILE:
        line = Line(f"{name}: red +1")
        assert not _raw_of(line.text) and line.text.endswith(": red +1")
        assert not _raw_of(Page.of(name, Line(name, big=True)).text().replace("\n", ""))


@given(st.text())
def test_the_filter_lets_json_through_as_the_same_data_and_nothing_unsafe_through(value: str) -> None:
    for text in (json.dumps({"name": value}, ensure_ascii=False), value):
        safe = terminal_safe(text)
        assert all(unsafe_character(ch) is None or ch in "\n\t" for ch in safe)
        if text is not value:
            assert json.loads(safe) == {"name": value}
        if text.isprintable():
            assert safe == text


def test_the_safe_stream_writes_through_and_answers_for_the_stream(capsys) -> None:
    import sys

    stream = SafeStream(sys.stdout)
    assert stream.write("a\u202eb\n") == len("a\u202eb\n")
    stream.flush()
    assert capsys.readouterr().out == "a\\u202eb\n"
    assert stream.encoding == sys.stdout.encoding  # everything else is the stream's own


def test_a_profile_name_check_names_the_character(tmp_path: Path) -> None:
    with Companion.open(tmp_path / "s.sqlite3") as app:
        with pytest.raises(AppError) as refused:
            app.add_profile("\u202eAlbert")
        assert "U+202E" in str(refused.value) and unicodedata.name("\u202e") in str(refused.value)
        assert app.profiles() == []
