"""The console says what is wrong in player words, in the table's language, and takes its commands
in that language too (issue: a Hungarian table met "Expecting ',' delimiter" and ``visszavon``
refused)."""

from __future__ import annotations

import io
import itertools
import json

import pytest

from companion.cli.commands.run import starter
from companion.cli.main import main
from companion.console.interpret import ConsoleInput
from companion.console.loop import COMMANDS, command_words, headless_loop
from companion.games.messages import json_problem, msg
from companion.games.notation import NotationError
from companion.i18n import render, set_language
from companion.registry import get_game
from companion.service.app import Companion
from tests.conftest import EXAMPLES

#: A malformed JSON text for each way Python's reader fails.
BROKEN = ['{"type" "build"}', '{"type": "build"', "{type: 1}", "[1,]", '"abc', '{"a": "b\x01"}',
          "{} {}", '"\\q"', '"\\u12"', '{"a": 1,}', '{"a": tru}']


@pytest.fixture
def console(tmp_path):
    """Feed lines to the console over a new game of Ann, Bob and Cid; what it printed, by line."""
    count = itertools.count()

    def feed(game, lines):
        with Companion.open(tmp_path / f"store-{next(count)}.sqlite3") as app:
            live = app.start(game, ["Ann", "Bob", "Cid"])
            out = io.StringIO()
            headless_loop(live.session, lines, out, start=starter(app))
        return out.getvalue().splitlines()

    return feed


@pytest.mark.parametrize("text", BROKEN)
def test_every_json_problem_has_player_words_in_both_languages(console, text):
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads(text)
    problem = json_problem(caught.value)
    assert problem.code != "json.problem.other", caught.value.msg  # each known failure has its words
    for language in ("en", "hu"):
        set_language(language)
        out = console("campanile", [text])
        assert caught.value.msg not in out[-1] and "Expecting" not in out[-1], out
        assert f"{caught.value.colno}" in out[-1]


def test_a_record_that_is_not_json_is_refused_in_words(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "campanile",}', encoding="utf-8")
    assert main(["--lang", "hu", "replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "a mező nevének idézőjelek között kell lennie" in err and "Expecting" not in err


@pytest.mark.parametrize("typed", ["-1", "2.5", "0"])
def test_a_number_that_is_no_entry_of_the_list_says_so(console, typed):
    out = console("campanile", [typed])
    assert out == [f"refused: there is no move {typed} in the list; type moves"]


def test_the_hungarian_command_words_do_what_the_english_ones_do(console):
    set_language("hu")
    build = '{"type": "build", "player": "Ann", "tower": "grey", "stories": 1}'
    hungarian = console("campanile",
                        [build, "visszavon", "újra", "állás", "lépések", "súgó", "kilép", "állás"])
    set_language("hu")
    english = console("campanile", [build, "undo", "redo", "status", "moves", "help", "quit", "status"])
    assert hungarian == english
    assert hungarian[1] == "visszavonva 1: Ann: szürke +1"


def test_every_command_has_a_word_in_every_language_and_no_two_commands_share_one():
    words = command_words()
    assert set(words.values()) == set(COMMANDS)
    assert {"visszavon", "újra", "állás", "lépések", "súgó", "kilép", "új", "undo", "redo"} <= set(words)


def test_new_in_hungarian_starts_a_game(console):
    set_language("hu")
    out = console("campanile", ["új castelli Anna Bela"])
    assert any(line.startswith("elindult: Castelli, Anna, Bela") for line in out), out


def test_a_castelli_reveal_says_which_areas_it_evaluated_and_who_gained_what(tmp_path):
    """The example game's 16th move (a reveal) evaluates three areas; the console names each."""
    record = json.loads((EXAMPLES / "castelli.json").read_text(encoding="utf-8"))
    game = get_game("castelli")
    state = game.start(record["players"], record.get("options", {}), record["setup"])
    for move in record["moves"][:15]:
        state = game.apply(state, game.parse_move(move))
    after = game.apply(state, game.parse_move(record["moves"][15]))
    caused = [render(effect, "en") for effect in game.effects(state, after)]
    new = after.evaluations[len(state.evaluations):]
    assert caused == [render(msg("castelli.effect.area", area=after.board.label(e.area),
                                 explanation=e.explanation), "en") for e in new]
    assert len(caused) == 3 and all(": " in line and "gains" in line for line in caused)
    # each area by what it is and where it lies on the board, never by the record's name
    assert caused[0].startswith("field, row 4, column 2: Bela (red) has the most (7)")
    assert not any(e.area in line for e in new for line in caused)
    assert game.effects(after, state) == []  # an undo causes nothing new
    with Companion.open(tmp_path / "store.sqlite3") as app:
        live = app.start("castelli", record["players"], options=record.get("options", {}),
                         setup=record["setup"])
        out = io.StringIO()
        headless_loop(live.session, [json.dumps(m) for m in record["moves"][:16]], out)
    assert out.getvalue().splitlines()[-3:] == [f"  {line}" for line in caused]


@pytest.mark.parametrize("text, lang, named", [
    ("Anna: reveal s34 N green card, E yelow 1, S blue 4, W red 5, silver 0", "en", '"yelow" on side E'),
    ("Anna: reveal s34 N green card, E yellow 1, S blue 4, W red 5, silver 9", "en",
     '"9" is not a tile\'s silver'),
    ("Anna: reveal s34 N green card, E yellow 1, S blue 4, W red 9", "en",
     '"9" on side W is not a shield value'),
    ("Anna: reveal s34 N blue 9", "en", "there are 3 words for the shields"),
    ("Anna: reveal s34 N green card, N yellow 1, S blue 4, W red 5", "en", '"N" is not a side'),
    ("Anna: reveal s34 N green card, E green 1, S blue 4, W red 5", "en", '"green" on side E'),
    ("Anna: reveal s34 N green card, E yellow 1, S blue 4", "en", "there are 9 words for the shields"),
    ("Anna: felfed s34 É zöld kártya, K sárga 1, D kék 4, Ny piross 5", "hu", "„piross” (Ny oldal)"),
])
def test_a_castelli_tile_typed_wrong_is_refused_naming_the_part(text, lang, named):
    record = json.loads((EXAMPLES / "castelli.json").read_text(encoding="utf-8"))
    game = get_game("castelli")
    state = game.start(record["players"], record.get("options", {}), record["setup"])
    with pytest.raises(NotationError) as refused:
        game.parse_notation(state, text, lang)
    assert named in render(refused.value.args[0], lang)
    right = "Anna: reveal s34 N green card, E yellow 1, S blue 4, W red 5, silver 0"
    assert game.parse_notation(state, right)["shields"]["E"] == ["yellow", 1]  # and the right one reads


def _castelli_after_first_reveal():
    record = json.loads((EXAMPLES / "castelli.json").read_text(encoding="utf-8"))
    game = get_game("castelli")
    state = game.start(record["players"], record.get("options", {}), record["setup"])
    return game, game.apply(state, game.parse_move(record["moves"][0]))  # Anna revealed s34


@pytest.mark.parametrize("text", ["Anna: reveal s14", "Anna: felfed s14", "Bela: reveal s34"])
def test_a_reveal_no_tile_could_make_legal_is_refused_before_the_shields_are_asked(text):
    game, state = _castelli_after_first_reveal()
    console = ConsoleInput()
    said = console.read(game, state, text).say
    assert len(said) == 1 and said[0].startswith("refused: "), said
    assert console.waiting is None  # nothing is asked for


def test_while_shields_are_asked_another_move_is_taken_as_that_move():
    game, state = _castelli_after_first_reveal()
    console = ConsoleInput()
    assert "type the tile's shields" in console.read(game, state, "Bela: reveal s14").say[0]
    assert game.move_to_json(console.read(game, state, "Anna: sell 1").move) == {
        "type": "sell", "player": "Anna", "cards": 1}
    assert console.waiting is None


def test_silver_paid_for_a_resource_reads_the_right_way_round_in_hungarian():
    """"ezüst helyett gabona" is grain instead of silver; silver paid in place of grain is
    "gabona helyett ezüst", as the English "silver for grain" means."""
    game = get_game("castelli")
    move = {"type": "build", "player": "Dora", "area": "a13", "silver_for": "grain"}
    assert game.describe(None, move, "hu").endswith("a13, gabona helyett ezüst")
    assert game.describe(None, move, "en").endswith("a13, silver for grain")
