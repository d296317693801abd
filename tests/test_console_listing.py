"""``moves`` in the console keeps a long list short: a San Gimignano segment's many places gather
under the segment, and the numbers shown are 1, 2, 3... without gaps. A number on a gathered line
lists that segment's places (numbered ``N.1``, ``N.2``...), never enters the first of them; a move's
number enters it, whatever was listed before (the list is read from the game as it is now)."""

from __future__ import annotations

import re

import pytest

from companion.console.interpret import ConsoleInput
from companion.registry import get_game

SETUP = {"segments": [
    {"at": [0, 0], "edges": ["guild-4", "guild-1", "guild-1", "guild-2", "guild-2", "guild-4"]},
    {"at": [1, 0], "edges": ["guild-3", "guild-3", "guild-2", "guild-2", "guild-4", "guild-4"]}]}


def _after_a_token():
    game = get_game("san-gimignano")
    state = game.start(["Ada", "Ben"], {"rules": "rulebook", "variant": "four"}, SETUP)
    token = next(m for m in game.legal_moves(state) if m["type"] == "token")
    return game, game.apply(state, game.parse_move(token))


def _numbers(lines):
    return [int(re.match(r"\s*(\d+)\.", line).group(1)) for line in lines]


def _places(lines):
    return [re.match(r"\s*(\d+\.\d+)\. ", line).group(1) for line in lines]


def _as_json(game, move):
    return game.move_to_json(move)


def test_the_numbers_shown_run_1_2_3_without_gaps():
    game, state = _after_a_token()
    legal = game.legal_moves(state)
    short = ConsoleInput().read(game, state, "moves").say
    assert sum(m["type"] == "segment" for m in legal) > 20  # the list the console must not print whole
    assert len(short) < len(legal) / 3
    assert _numbers(short) == list(range(1, len(short) + 1))


@pytest.mark.parametrize("typed", ["{number}", "moves {number}"])
def test_a_number_on_a_gathered_line_lists_its_places_and_enters_nothing(typed):
    game, state = _after_a_token()
    console = ConsoleInput()
    short = console.read(game, state, "moves").say
    headings = [line for line in short if "places (type" in line]
    assert headings
    for heading in headings:
        number = _numbers([heading])[0]
        opened = console.read(game, state, typed.format(number=number))
        assert opened.move is None  # the old console entered the first place at once
        places = int(re.search(r"— (\d+) places", heading).group(1))
        assert _places(opened.say) == [f"{number}.{k}" for k in range(1, places + 1)]


def test_every_legal_move_is_reachable_once_by_the_numbers_shown():
    game, state = _after_a_token()
    legal = game.legal_moves(state)
    console = ConsoleInput()
    short = console.read(game, state, "moves").say
    chosen = []
    for line in short:
        number = _numbers([line])[0]
        reading = console.read(game, state, str(number))
        if reading.move is not None:
            chosen.append(_as_json(game, reading.move))
            assert line.endswith(game.describe(state, _as_json(game, reading.move)))
            continue
        for place, described in zip(_places(reading.say), reading.say, strict=True):
            move = console.read(game, state, place).move
            assert described.endswith(game.describe(state, _as_json(game, move)))
            chosen.append(_as_json(game, move))
    assert sorted(map(repr, chosen)) == sorted(repr(_as_json(game, game.parse_move(m))) for m in legal)


def test_a_number_beyond_the_lines_or_a_place_beyond_the_heading_is_refused():
    game, state = _after_a_token()
    console = ConsoleInput()
    short = console.read(game, state, "moves").say
    last = len(short)
    assert console.read(game, state, str(last + 1)).say == [
        f"refused: there is no move {last + 1} in the list; type moves"]
    heading = next(_numbers([line])[0] for line in short if "places (type" in line)
    places = len(console.read(game, state, str(heading)).say)
    assert console.read(game, state, f"{heading}.{places + 1}").say == [
        f"refused: there is no move {heading}.{places + 1} in the list; type moves"]
    assert console.read(game, state, f"{heading}.{places}").move is not None


def test_a_move_s_number_is_the_game_s_list_as_it_is_now_whatever_was_listed():
    game = get_game("campanile")
    state = game.start(["Ada", "Ben", "Cy"], {}, {})
    legal = game.legal_moves(state)
    console = ConsoleInput()
    console.read(game, state, "moves")
    chosen = console.read(game, state, str(len(legal)))  # nothing gathers in Campanile: one line each
    assert _as_json(game, chosen.move) == _as_json(game, game.parse_move(legal[-1]))
