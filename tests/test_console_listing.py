"""``moves`` in the console keeps a long list short: a San Gimignano segment's many places gather
under the segment, ``moves N`` lists that segment's places, and every number still means that
entry of the full list of legal moves (records.md's order), whatever was listed."""

from __future__ import annotations

import re

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


def test_a_segment_s_places_gather_under_it_and_moves_n_lists_them():
    game, state = _after_a_token()
    legal = game.legal_moves(state)
    assert sum(m["type"] == "segment" for m in legal) > 20  # the list the console must not print whole
    console = ConsoleInput()
    short = console.read(game, state, "moves").say
    assert len(short) < len(legal) / 3
    heading_lines = [line for line in short if "places (moves" in line]
    assert heading_lines
    opened_at = _numbers(heading_lines)[0]
    opened = console.read(game, state, f"moves {opened_at}").say
    numbers = _numbers(opened)
    places = int(re.search(r"— (\d+) places", heading_lines[0]).group(1))
    assert opened_at in numbers and len(numbers) == places
    for number, line in zip(numbers, opened, strict=True):  # each place under its number of the full list
        assert line.endswith(game.describe(state, legal[number - 1]))
    # every legal move is reachable: listed on its own line, or under a heading that opens to it
    reachable = set(_numbers([line for line in short if "places (moves" not in line]))
    for at in _numbers(heading_lines):
        reachable |= set(_numbers(console.read(game, state, f"moves {at}").say))
    assert reachable == set(range(1, len(legal) + 1))


def test_a_number_is_the_full_list_s_entry_whatever_was_listed():
    game, state = _after_a_token()
    legal = game.legal_moves(state)
    console = ConsoleInput()
    console.read(game, state, "moves")
    chosen = console.read(game, state, str(len(legal)))
    assert game.move_to_json(chosen.move) == game.move_to_json(game.parse_move(legal[-1]))
