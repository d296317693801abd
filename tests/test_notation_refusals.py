"""A move typed in the notation that breaks a rule is refused with the rule, in either language.

``parse_notation`` matches the legal moves first; when none fits, the game's
well-formed moves (``notation_shapes``), so the text reaches ``apply`` and the
player reads the engine's reason. A text that reads as no move, or as several,
keeps the notation's own message.
"""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.console.loop import headless_loop
from companion.games.base import IllegalMove
from companion.games.notation import NotationError
from companion.registry import GAMES, get_game
from companion.service.app import Companion
from tests.contract_kit import fill, random_states
from tests.refusals import refuses

CASTELLI_SETUP = {"colors": {"Anna": "blue", "Bela": "red"}, "board": "example-2p"}
SG_SETUP = {"segments": [
    {"at": [0, 0], "edges": ["guild-4", "guild-1", "guild-1", "guild-2", "guild-2", "guild-4"]},
    {"at": [1, 0], "edges": ["guild-3", "guild-3", "guild-2", "guild-2", "guild-4", "guild-4"]}]}


def refusal(game, state, text):
    """What the engine says to the move ``text`` reads as (the move must be complete and illegal)."""
    move = game.parse_notation(state, text)
    with pytest.raises(IllegalMove) as refused:
        game.apply(state, game.parse_move(move))
    return move, str(refused.value)


@pytest.mark.parametrize("text", ["Birgit: brown +3", "birgit barna +3", "Bir: bar +3"])
def test_a_campanile_build_out_of_turn_is_refused_with_the_turn_rule(text):
    game = get_game("campanile")
    state = game.start(["Albert", "Birgit", "Franziska"], {}, {})
    move, reason = refusal(game, state, text)
    assert move == {"type": "build", "player": "Birgit", "tower": "brown", "stories": 3}
    assert "Albert" in reason and "turn" in reason


@pytest.mark.parametrize("text", ["Birgit: marker 3 under red", "Birgit: jelző 3 alá piros"])
def test_a_campanile_marker_by_the_wrong_player_is_refused_with_the_rule(text):
    game = get_game("campanile")
    state = game.start(["Albert", "Birgit", "Franziska"], {}, {})
    state = game.apply(state, game.parse_move(
        {"type": "build", "player": "Albert", "tower": "brown", "stories": 3}))
    move, reason = refusal(game, state, text)
    assert move == {"type": "influence", "player": "Birgit", "tower": "red"}
    assert "Albert" in reason


@pytest.mark.parametrize("text", [
    "Bela: reveal s01 N blue 1, E yellow 2, S red card, W green 6, silver 0",
    "bela felfed s01 É kék 1 K sárga 2 D piros kártya Ny zöld 6 ezüst 0",
    "Bela: reveal row 1, column 2: N blue 1, E yellow 2, S red card, W green 6, silver 0",
    "bela felfed 1. sor, 2. oszlop: É kék 1 K sárga 2 D piros kártya Ny zöld 6 ezüst 0",
])
def test_a_castelli_reveal_out_of_turn_is_refused_with_the_turn_rule(text):
    game = get_game("castelli")
    state = game.start(["Anna", "Bela"], {}, CASTELLI_SETUP)
    move, reason = refusal(game, state, text)
    assert move["player"] == "Bela" and move["space"] == "s01" and move["silver"] == 0
    assert reason == "it is Anna's turn to reveal a tile, not Bela's"


@pytest.mark.parametrize(("text", "rule"), [
    ("Anna: build a00", "castles stand on rocks; on a forest only with the Countess"),
    ("Anna: build forest, row 1, column 1", "castles stand on rocks; on a forest only with the Countess"),
    ("Anna: épít erdő, 1. sor, 1. oszlop, grófnő", "you need at least 1 shield point in the forest in row 1"),
    ("Anna: épít a00 grófnő", "you need at least 1 shield point in the forest in row 1, column 1"),
    ("Anna: sell 2", "you have 1 card in hand; you cannot sell 2"),
    ("Anna: elad 2", "you have 1 card in hand; you cannot sell 2"),
    ("Anna: traitor Anna", "not from yourself"),
    ("Anna: áruló Anna", "not from yourself"),
    ("Bela: steward N blue 1, E yellow 2, S red 3, W green 4", "you need a card in hand to play the Steward"),
    ("Bela: intéző É kék 1 K sárga 2 D piros 3 Ny zöld 4", "you need a card in hand to play the Steward"),
    ("Bela: guard", "the Guard is a Battle card"),
    ("Bela: build a11 on Anna knights silver for wood", "only the player whose turn it is may build"),
    ("Bela: épít a11 rá Anna lovagok fa helyett ezüst", "only the player whose turn it is may build"),
    ("Bela: őr", "the Guard is a Battle card"),
])
def test_castelli_moves_that_break_a_rule_get_the_rule(text, rule):
    game = get_game("castelli")
    state = game.start(["Anna", "Bela"], {}, CASTELLI_SETUP)
    state = game.apply(state, game.parse_move(game.parse_notation(
        state, "Anna: reveal s01 N blue 1, E yellow 2, S red card, W green 6, silver 0")))
    _, reason = refusal(game, state, text)
    assert rule in reason, reason


@pytest.mark.parametrize("text", ["Bo: token 0,0 guild-1", "bo korong 0,0 guild-1"])
def test_a_san_gimignano_token_out_of_turn_is_refused_with_the_turn_rule(text):
    game = get_game("san-gimignano")
    state = game.start(["Ada", "Bo"], {"rules": "rulebook", "variant": "four"}, SG_SETUP)
    move, reason = refusal(game, state, text)
    assert move == {"type": "token", "player": "Bo", "space": [0, 0, "guild-1"]}
    assert "Ada" in reason and "Bo" in reason
    with refuses("san_gimignano.turn.not_yours", player="Bo", expected="Ada"):
        game.apply(state, game.parse_move(move))


@pytest.mark.parametrize("lang_text", ["Birgit: b +3", "birgit b +3"])
def test_an_ambiguous_text_keeps_the_notations_message(lang_text):
    game = get_game("campanile")
    state = game.start(["Albert", "Birgit", "Franziska"], {}, {})
    with pytest.raises(NotationError) as refused:
        game.parse_notation(state, lang_text)
    assert "could mean" in str(refused.value) and "Birgit: brown +3" in str(refused.value)


@pytest.mark.parametrize(("name", "text"), [
    ("campanile", "dance"), ("campanile", "Birgit: purple +3"), ("campanile", "Birgit: barna +7"),
    ("castelli", "Anna: build nowhere"),
    ("castelli", "Anna: király 9"), ("san-gimignano", "Bo: korong 0,0 guild-9"),
    ("san-gimignano", "Ada: tower 0,0 guild-1"),
])
def test_a_text_that_reads_as_no_move_keeps_the_notations_message(name, text):
    """(A reveal whose shields cannot be read names the part instead: tests/test_console_words.py.)"""
    game = get_game(name)
    setup = {"castelli": CASTELLI_SETUP, "san-gimignano": SG_SETUP}.get(name, {})
    options = {"rules": "rulebook", "variant": "four"} if name == "san-gimignano" else {}
    players = {"campanile": ["Albert", "Birgit", "Franziska"], "castelli": ["Anna", "Bela"],
               "san-gimignano": ["Ada", "Bo"]}[name]
    state = game.start(players, options, setup)
    with pytest.raises(NotationError) as refused:
        game.parse_notation(state, text)
    assert "is not a move that may be entered now" in str(refused.value)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=4)
@given(seed=st.integers(0, 2**32 - 1), lang=st.sampled_from(["en", "hu"]))
def test_a_legal_move_given_to_another_player_reads_back_and_the_engine_says_why(name, seed, lang):
    """Every legal move of a random game, re-attributed to each other player and described, is read
    back as that move (or as a legal one the words also fit); one the engine refuses gives its rule."""
    refused = 0
    for game, state, _ in itertools.islice(random_states(name, seed, 40), 0, None, 5):
        legal = game.legal_moves(state)
        for template, other in itertools.product(legal[::3], state.players):
            if "player" not in template or template["player"] == other:
                continue
            move = fill(game, state, {**template, "player": other})
            text = game.describe(state, move, lang)
            read = game.parse_notation(state, text)
            if read in legal:
                continue
            assert read == move, text
            with pytest.raises(IllegalMove):
                game.apply(state, game.parse_move(read))
            refused += 1
    assert refused > 0


def test_the_console_refuses_a_notation_move_with_the_rule(tmp_path: Path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        live = app.start("campanile", ["Albert", "Birgit", "Franziska"])
        out = io.StringIO()
        headless_loop(live.session, ["Birgit: brown +3", "Birgit: barna +3", "Birgit: b +3"], out)
        lines = out.getvalue().splitlines()
        assert len(lines) == 3
        assert lines[0].startswith("refused: move 1 (Birgit): ") and "Albert" in lines[0]
        assert lines[1] == lines[0]
        assert lines[2].startswith('refused: "Birgit: b +3" could mean: ')
        assert len(live.session.log) == 0
