"""One name rule for every name a person types or imports (issue 34, defect 16).

U+202E (RIGHT-TO-LEFT OVERRIDE) was accepted in San Gimignano's guild names (``new san-gimignano
--setup 'guilds=[…]'``) and in a board's name (``board import … --name``), and reached the phone
page as it was: HTML escaping makes a name text, but a browser still obeys a bidi override inside
text. Now every name goes through :func:`companion.games.naming.name_problem` with its field, the
refusal says which field and why (English and Hungarian), and the phone page prints every value
through the same escape as the terminal.
"""

from __future__ import annotations

import json
import sqlite3
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.base import RecordError
from companion.games.naming import LIMITS, check_name, name_problem, unsafe_character
from companion.i18n import render
from companion.service.names import escaped
from tests.conftest import EXAMPLES
from web.pages import game_page, index_page, stats_page
from web.pages.model import GameListing

BOARD = Path(__file__).resolve().parent.parent / "companion/games/castelli/layouts/example-2p.json"
#: Characters no name may hold: the bidi overrides, embeddings and isolates, other formats, C0 and C1
#: controls, DEL, separators of lines and paragraphs, a lone surrogate, private use, unassigned.
HOSTILE = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069",
           "\u200b", "\u200e", "\ufeff", "\x00", "\x1b", "\t", "\n", "\x7f", "\x9b", "\u2028", "\u2029",
           "\ud800", "\ue000", "\U000e0001", "\u0378"]


def _raw(text: str) -> list[str]:
    """The characters of ``text`` that must not reach a terminal or a page as they are."""
    return [ch for ch in text if unsafe_character(ch) is not None and ch not in "\n\r\t"]


# -- the defect: a guild and a board named with U+202E ----------------------------------------------

def test_a_guild_name_with_a_bidi_override_is_refused_at_a_new_game_and_in_the_setting(cli) -> None:
    guilds = json.dumps(["Lana\u202e", "Seta", "Vino", "Pane"], ensure_ascii=False)
    code, out, err = cli("new", "san-gimignano", "Ada", "Bo", "--setup", f"guilds={guilds}")
    assert (code, out) == (2, "")
    assert err == ("companion: setup.guilds[0]: a guild's name may not hold the invisible or control "
                   "character U+202E RIGHT-TO-LEFT OVERRIDE\n")
    assert cli("sessions")[1].startswith("No stored games yet.")
    code, out, err = cli("--lang", "hu", "settings", "san_gimignano.guilds", "Lana, Seta\u2067, Vino, Pane")
    assert (code, out) == (2, "") and not _raw(err)
    assert "a céh neve nem tartalmazhatja ezt a láthatatlan vagy vezérlőkaraktert: U+2067" in err


def test_a_board_name_with_a_bidi_override_is_refused_and_nothing_is_stored(cli) -> None:
    assert cli("board", "import", str(BOARD), "--name", "Hall")[0] == 0  # an ordinary name is kept
    before = cli("board", "list")
    code, out, err = cli("board", "import", str(BOARD), "--name", "Kitchen\u202e")
    assert (code, out) == (2, "")
    assert err == ("companion: a board's name may not hold the invisible or control character "
                   "U+202E RIGHT-TO-LEFT OVERRIDE\n")
    assert cli("board", "list") == before and "Hall" in before[1]


def _guilds_renamed(record: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """A San Gimignano record whose four guilds are ``names`` (the default names replaced everywhere)."""
    text = json.dumps(record, ensure_ascii=False)
    for number, name in enumerate(names, start=1):
        text = text.replace(f'"guild-{number}"', json.dumps(name, ensure_ascii=False))
    renamed: dict[str, Any] = json.loads(text)
    renamed["setup"]["guilds"] = names
    return renamed


@pytest.mark.parametrize("language", ["en", "hu"])
def test_a_guild_named_with_a_bidi_override_never_reaches_the_phone_page_raw(language: str) -> None:
    record = json.loads((EXAMPLES / "san-gimignano.json").read_text(encoding="utf-8"))
    hostile = _guilds_renamed(record, ["Lana\u202e", "Seta\u2066", "Vino", "Pane\x1b[2J"])
    html = game_page(hostile, game_id=3, lang=language, token="t" * 22)
    assert not _raw(html)
    plain = _guilds_renamed(record, ["Lana", "Seta", "Vino", "Pane"])
    assert "Lana" in game_page(plain, game_id=3, lang=language, token="t" * 22)  # the names are shown


@pytest.mark.parametrize("name", ["\u202eBirgit", "Bir\u2067git\u2069", "Bir\x1b]0;x\x07git", "Bir\x85git"])
def test_names_a_store_holds_from_before_the_rule_are_escaped_on_every_page(name: str) -> None:
    """The variation: not a record that is read again (the rule refuses it) but the index and the
    statistics, which print names as the store keeps them."""
    from datetime import datetime

    from companion.service.stats import PlayerStats

    listing = GameListing(7, "campanile", ("Albert", name, "Franziska"), datetime(2026, 12, 1, 20, 0))
    for language in ("en", "hu"):
        index = index_page([listing], language, "t" * 22)
        stats = stats_page([PlayerStats("campanile", name, 3, 1, 12.5, 14)], language, "t" * 22)
        for html in (index, stats):
            assert not _raw(html), [ch for ch in html if _raw(ch)]
            assert escaped(name, keep="\n\r\t") in html or "\\u" in html


# -- every field: the refusal names it and says why, in both languages ------------------------------

def _cli_refusals(cli, name: str) -> dict[str, tuple[int, str, str]]:
    record = json.loads((EXAMPLES / "campanile-3p.json").read_text(encoding="utf-8"))
    record["players"][1] = name  # the record's own moves then name a player who is not seated
    path = cli.data / "hostile.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    guilds = json.dumps([name, "Seta", "Vino", "Pane"], ensure_ascii=False)
    return {
        "player (new game)": cli("new", "campanile", "Albert", name, "Franziska"),
        "player (record)": cli("import", str(path)),
        "profile": cli("players", "add", name),
        "table": cli("settings", "table.name", name),
        "guild (setting)": cli("settings", "san_gimignano.guilds", f"{name}, Seta, Vino, Pane"),
        "guild (record)": cli("new", "san-gimignano", "Ada", "Bo", "--setup", f"guilds={guilds}"),
        "board": cli("board", "import", str(BOARD), "--name", name),
        "championship player": cli("championship", "new", "--variant", "1", "Ann", name, "Cid", "Dan"),
    }


FIELD_WORDS = {"player": "a player's name", "profile": "a player's name", "table": "the table's name",
               "guild": "a guild's name", "board": "a board's name", "championship": "a player's name"}


def _nothing_stored(cli) -> None:
    """Every refusal changed nothing: no game, no profile, no board, no championship, no setting."""
    shipped = "example-2p: 16 tile spaces, 16 areas (example layout)"
    guilds = "guild-1, guild-2, guild-3, guild-4"
    assert cli("sessions")[1].startswith("No stored games yet.")
    assert cli("players", "list")[1] == "no player profiles yet\n"
    boards = cli("board", "list")[1].splitlines()
    assert boards[0] == shipped and len(boards) == 3  # the shipped layouts only
    assert cli("championship", "status")[0] == 2
    assert cli("settings", "table.name")[1] == 'table.name = ""\n'
    assert cli("settings", "san_gimignano.guilds")[1] == f'san_gimignano.guilds = "{guilds}"\n'


@pytest.mark.parametrize("character", ["\u202e", "\u2066", "\x9b", "\x00", "\u200b"])
def test_every_field_refuses_an_unsafe_character_saying_which_field_and_which(cli, character) -> None:
    name = f"Bi{character}rgit"
    for field, (code, out, err) in _cli_refusals(cli, name).items():
        assert (code, out) == (2, ""), (field, err)
        assert err.count("\n") == 1 and not _raw(err), (field, err)
        assert FIELD_WORDS[field.split()[0]] in err, (field, err)
        assert f"U+{ord(character):04X}" in err, (field, err)
    _nothing_stored(cli)


@pytest.mark.parametrize(("name", "said"), [
    ("", "may not be empty"), ("   ", "may not be empty"), ("x" * 121, "at most"),
])
def test_every_field_refuses_an_empty_or_over_long_name(cli, name, said) -> None:
    refusals = _cli_refusals(cli, name)
    for field, (code, out, err) in refusals.items():
        if field == "table" and name.strip() == "":
            assert code == 0  # the table's name may be cleared: an empty name is no name
            continue
        assert (code, out) == (2, ""), (field, err)
        assert err.count("\n") == 1, (field, err)
        assert said in err or field == "guild (setting)", (field, err)  # "a, b": says what it needs
    _nothing_stored(cli)


@pytest.mark.parametrize("field", sorted(LIMITS))
def test_the_refusal_reads_in_english_and_hungarian_and_names_its_field(field: str) -> None:
    limit = LIMITS[field]
    for value, english, hungarian in [
        ("A\u202eB", "may not hold the invisible or control character U+202E", "nem tartalmazhatja"),
        (" ", "may not be empty", "nem lehet üres"),
        ("x" * (limit + 1), f"is at most {limit} characters, not {limit + 1}",
         f"legfeljebb {limit} karakter"),
        (7, "must be a text, not a whole number", "helyett szöveg legyen"),
    ]:
        problem = name_problem(value, field)
        assert problem is not None
        en, hu = render(problem, "en"), render(problem, "hu")
        assert en.startswith(render(problem.params["field"], "en")) and english in en, en
        assert hu.startswith(render(problem.params["field"], "hu")) and hungarian in hu, hu
        with pytest.raises(RecordError) as error:
            check_name(value, field, "here")
        assert str(error.value).startswith("here: ")
    assert name_problem("x" * limit, field) is None and check_name("Zoë", field) == "Zoë"


# -- the rule itself, fuzzed --------------------------------------------------------------------------

_UNSAFE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _expected_ok(text: str, limit: int) -> bool:
    unsafe = any(unicodedata.category(ch) in _UNSAFE and ch not in "\u200c\u200d" for ch in text)
    return not unsafe and bool(text.strip()) and len(text) <= limit


@given(st.text(max_size=80), st.sampled_from(sorted(LIMITS)))
def test_a_name_is_accepted_exactly_when_it_is_short_not_blank_and_holds_nothing_unsafe(text: str,
                                                                                       field: str) -> None:
    problem = name_problem(text, field)
    assert (problem is None) == _expected_ok(text, LIMITS[field])
    if problem is None:
        text.encode("utf-8")  # no lone surrogate: every accepted name can be stored and sent
        assert escaped(text) == text  # nothing in it for a terminal or a page to escape
    else:
        for language in ("en", "hu"):
            said = render(problem, language)
            assert "\n" not in said and not _raw(said)  # the refusal itself is safe to print


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=10),
       st.sampled_from(HOSTILE), st.integers(min_value=0, max_value=10))
def test_one_hostile_character_anywhere_in_a_name_is_refused_and_named(text: str, hostile: str,
                                                                       at: int) -> None:
    name = text[:at] + hostile + text[at:]
    problem = name_problem(name, "player")
    assert problem is not None
    if len(name) <= LIMITS["player"] and name.strip():
        assert problem.code == "common.name.unsafe_in"
        assert problem.params["character"].startswith(f"U+{ord(unsafe_character(name) or hostile):04X}")


def test_every_name_field_holds_what_a_table_needs() -> None:
    """What stays allowed: accents, other scripts, a no-break space, an emoji with a joiner."""
    for fine in ("Zoë", "Ádám Éva", "Анна", "أحمد", "Anna\u00a0Maria", "\U0001f469\u200d\U0001f4bb",
                 "O'Neil-2"):
        for field in LIMITS:
            assert name_problem(fine, field) is None, (fine, field)


def test_a_colour_typed_for_a_game_without_fixed_colours_is_judged_too(tmp_path: Path) -> None:
    from companion.service.app import AppError, Companion

    with Companion.open(tmp_path / "s.sqlite3") as app:
        with pytest.raises(AppError) as error:
            app._check_colour("san-gimignano", "red\u202e", "colours.Ada")
        assert render(error.value.args[0], "en").startswith("colours.Ada: a colour's name may not hold")
        assert "a szín neve nem tartalmazhatja" in render(error.value.args[0], "hu")
        assert app._check_colour("san-gimignano", " teal ", "colours.Ada") == "teal"


def test_a_store_is_not_changed_by_a_refused_profile(cli) -> None:
    assert cli("players", "add", "Albert")[0] == 0
    path = next(cli.data.glob("*.sqlite3"))
    with sqlite3.connect(path) as db:
        before = db.execute("SELECT name FROM players ORDER BY name").fetchall()
    db.close()
    assert cli("players", "add", "Bir\u2069git")[0] == 2
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT name FROM players ORDER BY name").fetchall() == before
    db.close()


@pytest.mark.parametrize("colour", ["red\u202e", "\u2066teal", "x" * 25])
def test_a_preferred_colour_for_a_game_without_fixed_colours_is_judged_by_the_rule(cli, colour) -> None:
    """San Gimignano names no piece colours, so a player's preferred colour there was any text."""
    assert cli("players", "add", "Albert")[0] == 0
    code, out, err = cli("players", "colour", "Albert", "san-gimignano", colour)
    assert (code, out) == (2, "") and err.count("\n") == 1 and not _raw(err)
    assert err.startswith("companion: colour: a colour's name ")
    assert "Albert" in cli("players", "list")[1] and "san" not in cli("players", "list")[1].lower()
    assert cli("players", "colour", "Albert", "san-gimignano", "teal")[0] == 0
