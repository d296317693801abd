"""The engine contract, checked the same way for every registered game.

``legal_moves`` must equal a brute-force enumeration through ``apply`` (so it
is complete and sound) on every state of the example records and of random
games played through the templates themselves; it is a set of minimal-form
templates. Random games are seeded from numbers hypothesis draws, so a
failure shrinks to one seed.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import MoveTemplate, Turn
from companion.games.notation import NotationError
from companion.registry import GAMES, get_game
from companion.service.records import parse_record
from tests.conftest import EXAMPLES
from tests.contract_kit import accepted, brute_force, fill, key, keys, random_states, template

RECORDS = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))


def example_states(path):
    """Every state an example record passes through, with the move played next (None at the end)."""
    record = parse_record(json.loads(path.read_text(encoding="utf-8")))
    game, state = record.game, record.initial
    for move in record.moves:
        yield game, state, game.move_to_json(move)
        state = game.apply(state, move)
    yield game, state, None


def check_list(game, state) -> list[dict]:
    """The contract's shape rules for one state; returns the list."""
    listed = game.legal_moves(state)
    assert len(keys(listed)) == len(listed), "legal_moves lists a move twice"
    assert game.move_templates(state) == listed  # the front ends' typed view is the same list
    for move in listed:
        assert move == template(move), f"{move} is not in minimal form"
        # what MoveTemplate (the front ends' typed view) promises: a type always, a player's name if any
        assert MoveTemplate.__required_keys__ <= move.keys(), f"{move} lacks a field every template has"
        assert isinstance(move.get("type"), str), f"{move} has no type"
        assert isinstance(move.get("player", ""), str), f"{move}: player is not a name"
        assert game.actor(game.parse_move(fill(game, state, move))) == move.get("player")
    if game.is_finished(state):
        assert listed == []
    else:
        assert listed, "an unfinished game always has a move"
    return listed


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_legal_moves_equal_brute_force_on_every_example_state(path):
    # San Gimignano's brute force tries ~2000 segment placements a state: every third state
    # there (and the last); tests/test_cli_moves.py runs `companion moves` itself.
    # A Castelli Championship round's brute force tries both groups' candidates: every fifth state.
    every = 3 if "gimignano" in path.stem else 5 if "round" in path.stem else 1
    for step, (game, state, played) in enumerate(example_states(path)):
        listed = check_list(game, state)
        if step % every == 0 or played is None:
            assert keys(listed) == keys(brute_force(game, state))
        if played is not None:
            assert key(template(played)) in keys(listed)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_legal_moves_equal_brute_force_on_random_games(name, seed):
    every = {"san-gimignano": 5, "castelli": 3}.get(name, 1)
    for step, (game, state, _) in enumerate(random_states(name, seed, 60)):
        listed = check_list(game, state)
        if step % every == 0 or game.is_finished(state):
            assert keys(listed) == keys(brute_force(game, state))


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_template_is_accepted_with_any_observed_fields(name, seed):
    rnd = random.Random(seed)
    for game, state, _ in random_states(name, seed, 150):
        for move in game.legal_moves(state):
            assert accepted(game, state, fill(game, state, move, rnd)), move


def check_turn(game, state) -> None:
    """``turn`` agrees with the summary, with ``to_move`` and with the legal moves (a Castelli
    Championship round: no turn of its own, each group's as a game's)."""
    if _groups(game, state):
        assert game.turn(state) == Turn(None, (), None) and game.summary(state)["turn"] is None
        for number, group in enumerate(_groups(game, state), start=1):
            check_turn(game, group)
            assert game.group_turn(state, number) == game.turn(group)
            assert all(game.group_of(state, player) == number for player in group.players)
        return
    turn = game.turn(state)
    summary = game.summary(state)
    assert summary["turn"] == {"player": turn.player, "next": turn.next}
    listed = game.legal_moves(state)
    mine = {m["type"] for m in listed if m.get("player") == turn.player}
    assert set(turn.may) == mine
    if game.is_finished(state):
        assert turn.player is None and turn.next is None and turn.may == ()
        return
    movers = {m.get("player") for m in listed} - {None}
    if turn.player is not None:
        assert game.to_move(state) in {turn.player, turn.next}
    else:  # between turns only the next player, or the table, moves
        assert movers <= {turn.next}
    assert turn.next is None or turn.next in state.players
    # The player every screen marks may move now, not one whose turn only stays open until the
    # next starts. (With no next turn left, only Castelli's steward and guard may still come: they
    # interject in another's turn, and its board asks for them; the turn's player stays marked.)
    if movers and (turn.may or turn.next is not None):
        assert turn.acting in movers


def _groups(game, state) -> list:
    """A Castelli Championship round's two groups' games (base-game states); ``[]`` for any other."""
    count = getattr(game, "group_count", None)
    if count is None or count(state) == 1:
        return []
    return [game.group_state(state, number) for number in range(1, count(state) + 1)]


def check_outcome(game, state) -> None:
    groups = _groups(game, state)
    if groups:
        outcome, summary = game.outcome(state), game.summary(state)
        ended = game.is_finished(state)
        by_group = [p for group in groups for p in game.outcome(group).winners] if ended else []
        assert list(outcome.winners) == summary["winners"] == by_group
        assert {s.player: s.score for s in outcome.standings} == summary["scores"]
        for group in groups:
            check_outcome(game, group)
        return
    outcome = game.outcome(state)
    summary = game.summary(state)
    assert sorted(outcome.winners) == sorted(summary["winners"])
    assert {s.player: s.score for s in outcome.standings} == summary["scores"]
    ranks = [s.rank for s in outcome.standings]
    assert ranks == sorted(ranks) and ranks[0] == 1
    for a, b in zip(outcome.standings, outcome.standings[1:], strict=False):
        same = (a.score, a.tiebreak) == (b.score, b.tiebreak)
        assert (a.rank == b.rank) == same
    if game.is_finished(state):
        assert outcome.winners == tuple(s.player for s in outcome.standings if s.rank == 1)
        tied = [s for s in outcome.standings if s.score == outcome.standings[0].score]
        expected = "score" if len(tied) == 1 else "shared" if len(outcome.winners) > 1 else outcome.tiebreak
        assert outcome.decided_by == expected and outcome.reason()
    else:
        assert outcome.winners == () and outcome.decided_by is None


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_turn_and_outcome_on_every_example_state(path):
    for game, state, played in example_states(path):
        check_turn(game, state)
        check_outcome(game, state)
        if played is not None and played.get("player") is not None:
            turn = game.turn(state) if not _groups(game, state) else \
                game.group_turn(state, game.group_of(state, played["player"]))
            assert played["player"] in {turn.player, turn.next} or played["type"] in ("steward", "guard")


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_turn_and_outcome_on_random_games(name, seed):
    for game, state, _ in random_states(name, seed, 150):
        check_turn(game, state)
        check_outcome(game, state)


def test_campanile_turn_without_a_display_reads_as_the_table_shows_it():
    game = get_game("campanile")
    state = game.start(["Albert", "Birgit", "Franziska"], {}, {})
    assert game.turn(state) == Turn(None, (), "Albert")
    state = game.apply(state, game.parse_move({"type": "build", "player": "Albert", "tower": "brown",
                                               "stories": 3}))
    assert game.turn(state) == Turn("Albert", ("influence",), "Birgit")
    state = game.apply(state, game.parse_move({"type": "influence", "player": "Albert", "tower": "red"}))
    assert game.turn(state) == Turn("Albert", (), "Birgit")
    assert game.turn(state).acting == "Birgit"  # Albert may do nothing more: the screens mark Birgit
    state = game.apply(state, game.parse_move({"type": "valuation", "phase": "intermezzo"}))
    assert game.turn(state).player is None


def test_campanile_refill_after_a_tracked_intermezzo_is_owed_by_the_table():
    game = get_game("campanile")
    state = game.start(["Albert", "Birgit", "Franziska"], {}, {"display": ["red", "blue", "grey"]})
    for move in ({"type": "build", "player": "Albert", "tower": "brown", "stories": 1},
                 {"type": "take", "player": "Albert", "card": "red"},
                 {"type": "valuation", "phase": "intermezzo"}):
        state = game.apply(state, game.parse_move(move))
    turn = game.turn(state)
    assert turn.player is None and "reveal" in turn.may and turn.next == "Birgit"


def canonical(move: dict) -> str:
    """A move compared as the notation must give it back: null/false dropped, a group sorted."""
    out = {k: v for k, v in move.items() if v is not None and v is not False}
    if out["type"] == "tower":
        out["group"] = sorted(out["group"])
    return key(out)


@pytest.mark.parametrize("lang", ["en", "hu"])
@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_notation_round_trips_every_example_move(path, lang):
    for game, state, played in example_states(path):
        if played is None:
            continue
        text = game.describe(state, played, lang)
        assert "\n" not in text and text.strip() == text
        assert canonical(game.parse_notation(state, text)) == canonical(played), text


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lang=st.sampled_from(["en", "hu"]))
def test_notation_round_trips_every_move_and_template_of_random_games(name, seed, lang):
    states = list(random_states(name, seed, 80))
    for (game, before, _), (_, _, played) in itertools.pairwise(states):
        text = game.describe(before, played[-1], lang)
        assert canonical(game.parse_notation(before, text)) == canonical(played[-1]), text
        for listed in game.legal_moves(before)[::7]:
            assert game.parse_notation(before, game.describe(before, listed, lang)) == listed


def campanile_after(*moves, setup=None):
    game = get_game("campanile")
    state = game.start(["Albert", "Birgit", "Franziska"], {}, setup or {})
    for move in moves:
        state = game.apply(state, game.parse_move(move))
    return game, state


def test_notation_is_forgiving_about_case_prefixes_and_the_acting_player():
    game, state = campanile_after({"type": "build", "player": "Albert", "tower": "brown", "stories": 3})
    marker = {"type": "influence", "player": "Albert", "tower": "red"}
    assert game.describe(state, marker) == "Albert: marker 3 under red"
    assert game.describe(state, marker, "hu") == "Albert: jelző 3 piros alá"  # Hungarian word order
    for text in ("Albert: marker 3 under red", "ALBERT: MARKER 3 UNDER RED", "al: m 3 u r",
                 "marker 3 under red", "jelző 3 piros alá", "jelző 3 alá piros", "Albert jel 3 al pir",
                 "Albert jel 3 pir al"):
        assert game.parse_notation(state, text) == marker, text
    assert game.parse_notation(state, "Birgit: yellow +2") == {
        "type": "build", "player": "Birgit", "tower": "yellow", "stories": 2}


def test_an_ambiguous_text_is_refused_listing_what_it_could_mean():
    game, state = campanile_after({"type": "build", "player": "Albert", "tower": "brown", "stories": 3})
    with pytest.raises(NotationError) as refused:
        game.parse_notation(state, "Birgit: b +2")
    message = str(refused.value)
    assert "could mean" in message and "Birgit: brown +2" in message and "Birgit: blue +2" in message


def test_a_text_that_is_no_move_is_refused_in_one_line():
    """A well-formed move that breaks a rule is the engine's to refuse (tests/test_notation_refusals.py)."""
    game, state = campanile_after({"type": "build", "player": "Albert", "tower": "brown", "stories": 3})
    for text in ("Franziska: purple +1", "dance", ""):
        with pytest.raises(NotationError) as refused:
            game.parse_notation(state, text)
        assert "\n" not in str(refused.value)


def test_a_template_without_its_observed_fields_comes_back_for_the_player_to_complete():
    game = get_game("castelli")
    state = game.start(["Anna", "Bela"], {}, {"colors": {"Anna": "blue", "Bela": "red"},
                                              "board": "example-2p"})
    space = state.face_down()[0]
    assert game.parse_notation(state, f"Anna: reveal {space}") == {
        "type": "reveal", "player": "Anna", "space": space}
    text = f"anna felfed {space} D kék 2 Ny zöld kártya É piros 1 K sárga 6 ezüst 1"
    full = game.parse_notation(state, text)
    assert full["shields"] == {"N": ["red", 1], "E": ["yellow", 6], "S": ["blue", 2], "W": ["green", "card"]}
    assert full["silver"] == 1 and game.apply(state, game.parse_move(full))
