"""A move typed without the player's name goes to the one player who may make it now.

The acting player of a turn is not always the one whose move is meant: in
Campanile a player who built and skipped the marker is still "acting", yet
the next player's build is what the table enters next (the rulebook game:
Birgit builds grey and places no marker; Franziska then builds red). A name
that is nobody's is refused naming the players, not as "not a move".
"""

from __future__ import annotations

import pytest

from companion.games.notation import NotationError, tokens
from companion.registry import GAMES, get_game
from tests.contract_kit import random_states

PLAYERS = ["Albert", "Birgit", "Franziska"]


def _after(moves):
    game = get_game("campanile")
    state = game.start(PLAYERS, {}, {})
    for move in moves:
        state = game.apply(state, game.parse_move(move))
    return game, state


@pytest.mark.parametrize("text", ["red +2", "piros +2", "Red +2"])
def test_a_build_without_a_name_after_a_skipped_marker_goes_to_the_next_builder(text):
    game, state = _after([
        {"type": "build", "player": "Albert", "tower": "brown", "stories": 3},
        {"type": "influence", "player": "Albert", "tower": "brown"},
        {"type": "build", "player": "Birgit", "tower": "grey", "stories": 3},
    ])
    assert game.turn(state).acting == "Birgit"  # she may still place her marker
    assert game.parse_notation(state, text) == {
        "type": "build", "player": "Franziska", "tower": "red", "stories": 2}


def test_the_acting_players_own_move_still_needs_no_name():
    game, state = _after([{"type": "build", "player": "Albert", "tower": "brown", "stories": 3}])
    assert game.parse_notation(state, "marker 3 under brown")["player"] == "Albert"


@pytest.mark.parametrize("text", ["Zoe: red +1", "zoe: piros +1", "Alberto: red +1"])
def test_a_name_that_is_nobodys_is_refused_listing_the_players(text):
    game, state = _after([])
    with pytest.raises(NotationError) as refused:
        game.parse_notation(state, text)
    said = str(refused.value)
    assert text.split(":")[0] in said
    assert all(name in said for name in PLAYERS)


def test_a_shortened_name_before_the_colon_is_still_a_player():
    game, state = _after([])
    assert game.parse_notation(state, "alb: brown +3")["player"] == "Albert"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_legal_move_typed_without_its_name_reads_as_itself_or_asks_whose_it_is(name):
    """For every state of random games: the nameless form of a legal move means that move, or,
    when another player's legal move reads the same, a refusal that names both."""
    for game, state, _ in random_states(name, seed=7, length=25):
        templates = game.legal_moves(state)
        unnamed: dict[tuple[str, ...], list[dict]] = {}
        for template in templates:
            player = template.get("player")
            if player is None:
                continue
            form = tuple(tokens(game.describe(state, template))[len(tokens(player)):])
            unnamed.setdefault(form, []).append(template)
        for form, meant in list(unnamed.items())[:12]:
            text = " ".join(form)
            if len({m["player"] for m in meant}) == 1 and len(meant) == 1:
                assert game.parse_notation(state, text) == meant[0], text
            elif len({m["player"] for m in meant}) > 1:
                with pytest.raises(NotationError) as refused:
                    game.parse_notation(state, text)
                assert all(m["player"] in str(refused.value) for m in meant)
