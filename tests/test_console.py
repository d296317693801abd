"""The console as a player meets it, run in-process on a real store in a temp file.

Names in any case, quit/exit/help, ``new`` with JSON values, escaped and cut
output, and hostile lines (deep nesting, control characters, lone
surrogates, a byte-order mark) that are refused in one line and change nothing.
"""

from __future__ import annotations

import io
import json
import tempfile
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from companion.cli.commands.run import starter
from companion.console.display import VALUE_LIMIT
from companion.console.errors import InputError
from companion.console.interpret import ConsoleInput
from companion.console.loop import QUIT_WORDS, headless_loop
from companion.console.reading import clean_line
from companion.games.base import IllegalMove
from companion.registry import get_game
from companion.service.app import Companion
from companion.storage.store import Store
from tests.conftest import EXAMPLES

PLAYERS = ["Albert", "Zoë", "Franziska"]
BUILD = {"type": "build", "player": "Albert", "tower": "red", "stories": 1}


@contextmanager
def console(directory: Path) -> Iterator[tuple[Store, int]]:
    """A store holding one new Campanile game of PLAYERS."""
    with Companion.open(directory / "companion.sqlite3") as app:
        yield app.store, app.start("campanile", PLAYERS).id


def play(store: Store, session_id: int | None, *lines: str) -> list[str]:
    """Feed ``lines`` to the console; returns what it printed, line by line."""
    out = io.StringIO()
    app = Companion(store)
    session = None if session_id is None else app.resume(session_id).session
    headless_loop(session, list(lines), out, start=starter(app))
    return out.getvalue().splitlines()


def move(**fields) -> str:
    return json.dumps(dict(BUILD, **fields))


def test_names_match_whatever_case_or_unicode_form_is_typed(tmp_path):
    with console(tmp_path) as (store, sid):
        out = play(store, sid, move(player="albert"), json.dumps(
            {"type": "build", "player": unicodedata.normalize("NFD", "ZOË"), "tower": "red", "stories": 1}))
        assert out == ['ok 1: Albert: red +1',
                       'ok 2: Zoë: red +1']
        assert [m["player"] for m in store.stored_moves(sid)[0]] == ["Albert", "Zoë"]


def test_an_unknown_player_is_refused_listing_the_real_players(tmp_path):
    with console(tmp_path) as (store, sid):
        assert play(store, sid, move(player="Alberta")) == [
            'refused: move 1: "Alberta" is not playing in this game; '
            "the players are Albert, Zoë, Franziska"]
        assert store.stored_moves(sid) == ([], [])


@pytest.mark.parametrize("word", [*QUIT_WORDS, "QUIT", "Exit"])
def test_quit_and_exit_end_the_console(tmp_path, word):
    with console(tmp_path) as (store, sid):
        assert play(store, sid, move(), word, move(player="Zoë"), "status") == [
            'ok 1: Albert: red +1']
        assert len(store.stored_moves(sid)[0]) == 1


def test_help_says_how_to_leave(tmp_path):
    with console(tmp_path) as (store, sid):
        out = play(store, sid, "help")
    assert "  quit / exit             end the console (Ctrl-D does the same)" in out
    assert any("undo / redo" in line for line in out)


def test_new_takes_json_values_as_the_command_line_does(tmp_path):
    with console(tmp_path) as (store, _):
        out = play(store, None, 'new campanile "Anna Maria" Bob Cid --setup '
                                'towers=["grey", "brown", "yellow", "blue", "red"] '
                                "--option two_player_move=false")
        assert out == ["started Campanile: Anna Maria, Bob, Cid; "
                       "Anna Maria: build 1, 2 or 3 stories on a tower"]
        row = store.list_sessions()[0]
        assert row.players == ("Anna Maria", "Bob", "Cid")
        assert row.setup["towers"] == ["grey", "brown", "yellow", "blue", "red"]
        assert row.options["two_player_move"] is False


@pytest.mark.parametrize(("line", "reason"), [
    ("new campanile Ann Bob ANN", 'players[2]: duplicate name "ANN" (the same as "Ann" but for case'),
    ("new campanile Ann Bob --setup towers=[1, 2", "[ is not closed by ]"),
    ("new campanile Ann Bob Cid --setup towers=" + "[" * 1000 + "]" * 1000,
     "the line is nested too deeply (more than 100 levels of brackets)"),
    ("new campanile Ann Bob Cid --option flags=" + "9" * 5000,
     "a number in the line has too many digits (more than 1000)"),
])
def test_new_refuses_in_one_line_and_stores_nothing(tmp_path, line, reason):
    with console(tmp_path) as (store, _):
        out = play(store, None, line)
        assert len(out) == 1 and out[0].startswith(f"refused: {reason}"), out
        assert len(store.list_sessions()) == 1


def test_records_that_already_hold_names_differing_in_case_still_play(tmp_path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        store = app.store
        record = {"format": "companion-record/1", "game": "campanile", "players": ["Ann", "ANN", "Bob"],
                  "moves": [{"type": "build", "player": "Ann", "tower": "red", "stories": 1}]}
        sid = app.import_record(record)
        out = play(store, sid, move(player="ANN"), move(player="ann"))
        assert out == ['ok 2: ANN: red +1',
                       'refused: move 3: "ann" could be Ann or ANN; type the name exactly as it was entered']


def test_an_escape_sequence_in_a_name_or_value_is_printed_escaped(tmp_path):
    with console(tmp_path) as (store, sid):
        out = play(store, sid, move(player="\x1b[2J"), move(tower="\x1b]0;owned\x07"),
                   "new campanile \x1b[2JAnn Bob Cid")
        assert out[0] == ('refused: move 1: "\\x1b[2J" is not playing in this game; '
                          "the players are Albert, Zoë, Franziska")
        assert out[1].startswith('refused: move 1 (Albert): there is no tower called "\\x1b]0;owned\\x07"')
        assert out[2] == ("refused: players[0]: a player's name may not hold the invisible or control "
                          "character U+001B ESCAPE")
        assert not any("\x1b" in line for line in out)


def test_a_long_value_is_cut_with_an_ellipsis(tmp_path):
    with console(tmp_path) as (store, sid):
        out = play(store, sid, move(tower="t" * 5000))
    assert out == [f'refused: move 1 (Albert): there is no tower called "{"t" * (VALUE_LIMIT - 1)}…" '
                   "(the towers are grey, brown, red, blue and yellow)"]


@pytest.mark.parametrize(("line", "answer"), [
    ("[" * 1000, "refused: the line is nested too deeply (more than 100 levels of brackets)"),
    ('{"a": ' * 1000 + "1" + "}" * 1000,
     "refused: the line is nested too deeply (more than 100 levels of brackets)"),
    ("9" * 5000, "refused: a number in the line has too many digits (more than 1000)"),
    (b'{"player": "\xed\xa0\x80"}'.decode("utf-8", "surrogateescape"),
     "refused: the line holds bytes that are not UTF-8 text"),
    ('{"type": "build", "player": "\\ud800"}',
     'refused: move 1: "\\ud800" is not playing in this game; the players are Albert, Zoë, Franziska'),
    ("\ufeff \ufeff[]", "refused: move 1: a move is typed in the notation (Albert: brown +3), as a number "
                         "from the list (moves) or as a JSON object; help lists the commands"),
    ("[\ufeff]",
     "refused: not a JSON move nor a command (a value is missing or misspelt, column 2); type help"),
])
def test_hostile_lines_are_refused_in_one_line(tmp_path, line, answer):
    with console(tmp_path) as (store, sid):
        assert play(store, sid, line) == [answer]
        assert store.stored_moves(sid) == ([], [])


def test_a_byte_order_mark_before_a_move_is_ignored(tmp_path):
    with console(tmp_path) as (store, sid):
        assert play(store, sid, "\ufeff" + move()) == [
            'ok 1: Albert: red +1']


# -- fuzzing: nothing a player types ends the console or changes the game -------------------------

PLAYER_KEYS = {"albert", "zoë", "franziska", "anna", "bela", "csaba", "dora", "ada", "bo", "cy"}
COMMAND_WORDS = {"undo", "redo", "status", "help", *QUIT_WORDS}
TOWERS = {"red", "blue", "yellow", "brown", "grey"}

text = st.text(st.characters(blacklist_characters="\n\r"), max_size=30)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4), max_leaves=12)
near_moves = st.fixed_dictionaries(
    {"type": st.sampled_from(["build", "influence", "relocate", "take", "valuation"]) | text},
    optional={"player": text.filter(lambda name: name.casefold() not in PLAYER_KEYS),
              "tower": text.filter(lambda tower: tower not in TOWERS) | json_values,
              "stories": json_values, "card": json_values})
lines = st.one_of(
    text,
    st.builds(json.dumps, json_values, ensure_ascii=st.booleans()),
    st.builds(json.dumps, near_moves, ensure_ascii=st.booleans()),
    st.builds(lambda n, kind: kind[0] * n + kind[1] * n, st.integers(900, 3000),
              st.sampled_from([("[", "]"), ("{\"a\":", "}"), ("[", "")])),
    st.builds(lambda t: "\ufeff" + t, text),
    st.builds(lambda n, sign: sign + "7" * n, st.integers(4000, 6000), st.sampled_from(["", "-"])),
    st.builds(lambda t: "new " + t, text),
    st.builds(lambda raw: raw.decode("utf-8", "surrogateescape"), st.binary(max_size=20)),
)


def _a_command(line: str) -> bool:
    words = line.replace("\ufeff", " ").split()
    return not words or words[0].casefold() in COMMAND_WORDS or words[0].startswith("#")


def _a_move_in_notation(game_name: str, players: list[str], options: dict, setup: dict,
                        line: str) -> bool:
    """Whether the console reads ``line`` as a legal move in the notation, or a move to complete.

    Such a line is a move, not a mistake ("I" is Campanile's intermezzo), so the
    test below leaves it out. A notation move the engine refuses stays in.
    """
    game = get_game(game_name)
    state = game.start(players, options, setup)
    if game_name == "campanile":
        state = game.apply(state, game.parse_move(BUILD))
    try:
        reading = ConsoleInput().read(game, state, clean_line(line))
    except InputError:
        return False
    if reading is None:
        return False
    if any(not said.startswith("refused: ") for said in reading.say):
        return True
    return reading.move is not None and _accepted(game, state, reading.move)


def _accepted(game, state, move) -> bool:
    try:
        game.apply(state, move)
    except IllegalMove:
        return False
    return True


def _example(name: str) -> tuple[list[str], dict, dict]:
    record = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return record["players"], record.get("options") or {}, record.get("setup") or {}


#: A game of each kind, as the example records start them (players, options, setup).
FUZZED_GAMES = {"campanile": (PLAYERS, {}, {}), "castelli": _example("castelli"),
                "san-gimignano": _example("san-gimignano")}


@pytest.mark.parametrize("game", FUZZED_GAMES)
@settings(max_examples=50, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(typed=st.lists(lines.filter(lambda line: not _a_command(line)), min_size=1, max_size=6))
@example(typed=["\x00\n\x00"])  # a line break inside a line the notation quotes back (once two lines)
def test_no_typed_line_ends_the_console_or_changes_the_game(game, typed):
    players, options, setup = FUZZED_GAMES[game]
    assume(not any(_a_move_in_notation(game, players, options, setup, line) for line in typed))
    with tempfile.TemporaryDirectory() as directory, \
            Companion.open(Path(directory) / "companion.sqlite3") as app:
        store = app.store
        sid = app.start(game, players, options=options, setup=setup).id
        if game == "campanile":
            play(store, sid, move())
        before = store.stored_moves(sid)
        out = play(store, sid, *typed)
        assert store.stored_moves(sid) == before
        assert len(store.list_sessions()) == 1
    assert len(out) == len(typed), out  # one answer per line: none was skipped, none split in two
    for line in out:
        assert line.startswith("refused: "), line
        assert line.isprintable(), ascii(line)
        for python_text in ("utf-8-sig", "codec", "recursion", "int_max_str_digits", "Traceback"):
            assert python_text not in line, line
        line.encode("utf-8")


def test_status_says_who_is_in_turn_and_what_the_table_owes(tmp_path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        sid = app.start("campanile", ["Ann", "Bob", "Cid"], setup={"display": ["grey", "brown", "red"]}).id
        out = play(app.store, sid, '{"type": "build", "player": "Ann", "tower": "grey", "stories": 1}',
                   "status", '{"type": "take", "player": "Ann", "card": "grey"}',
                   '{"type": "valuation", "phase": "intermezzo"}', "status")
    # the refill: the table's, in the engine's words (what every screen says), then Bob
    assert out[-1] == ("3 moves; The table: turn over the card that refills the display, or the Finito "
                       "if that came up — next: Bob")
    # a plural from the catalogue
    assert "1 move; Ann: place your 1-marker under a tower, then take a card" in out


def test_without_a_game_a_move_a_number_or_moves_is_refused_as_no_game_yet(tmp_path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        out = play(app.store, None, "moves", "Albert: red +1", "3")
        assert out == ["refused: no game in progress; start one with `new GAME PLAYER...`"] * 3
        assert app.store.list_sessions() == []


def test_new_san_gimignano_starts_on_the_offered_layout(tmp_path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        out = play(app.store, None, "new san-gimignano Ada Bo Cy", "moves")
        assert out[0].startswith("assumed: guilds: this table's guild names")
        assert out[1].startswith("This game starts from the layout the companion offers")
        assert out[2] == "started San Gimignano: Ada, Bo, Cy; Ada: place a token"
        assert len(out) > 4 and out[3].strip().startswith("1. Ada")  # her moves, listed
        assert len(app.store.list_sessions()[0].setup["segments"]) == 3


def test_a_number_means_the_current_list_even_when_moves_was_not_typed_in_this_sitting(tmp_path):
    with console(tmp_path) as (store, sid):
        listed = play(store, sid, "moves")
        first = listed[0].split(". ", 1)[1]  # "Albert: red +1" or whichever the engine lists first
        out = play(store, sid, "1", "status")  # a new sitting: a restart, no `moves` typed
        assert out[0].startswith("ok 1"), out
        assert first.split(":")[0] in out[0]
        # and after that move the number means the new list's first entry, not the old one
        relisted = play(store, sid, "moves")
        assert relisted[0] != listed[0]


def test_redoing_the_finito_valuation_ends_the_game_as_entering_it_did(tmp_path):
    with console(tmp_path) as (store, sid):
        entered = play(store, sid, move(), '{"type": "valuation", "phase": "finito"}')
        assert len(entered) > 3, entered  # two ok lines, then the final table and the winner
        report = entered[2:]
        redone = play(store, sid, "undo", "redo")
        assert redone[2:] == report


def test_status_says_who_is_next_once(tmp_path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        out = play(app.store, None, "new san-gimignano Ada Bo", "status")
    assert out[-1].startswith("This game starts from the layout the companion offers")  # said at every status
    # the report's own "next: Ada" gives way to the line that says what she is to do
    assert out[-2] == "0 moves; Ada: place a token"
    assert not any(line.strip() == "next: Ada" for line in out)
