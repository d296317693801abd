"""Property tests over random legal games; plus the screens' views."""

from __future__ import annotations

import contextlib
import copy

from castelli_testkit import GAME, Play, Sell, Steward, build, given, play, refused, rv
from hypothesis import HealthCheck, settings
from hypothesis import given as hgiven
from hypothesis import strategies as st

from companion.games.base import IllegalMove
from companion.games.castelli import tables
from companion.games.castelli.moves import End, Reveal
from companion.games.castelli.views import area_views, build_targets, player_views

NAMES = ("Anna", "Bela", "Csaba", "Dora")


@st.composite
def games(draw):
    """A random legal game: (initial state, moves, every state)."""
    count = draw(st.integers(2, 4))
    players = NAMES[:count]
    colours = draw(st.permutations(tables.COLORS))
    options = {"modules": draw(st.sampled_from([[], ["battle"], ["dilemma"], ["battle", "dilemma"]])),
               "neutral": draw(st.sampled_from(tables.NEUTRAL_CHOICES))}
    layout = "example-2p" if count == 2 else "example-4p"
    state = GAME.start(list(players), options, {"colors": dict(zip(players, colours, strict=False)),
                                                 "board": layout})
    initial, moves, states = state, [], [state]
    while not state.finished:
        who = GAME.to_move(state)
        options_now = []
        if state.all_revealed():
            options_now.append(End())
        else:
            space = draw(st.sampled_from(state.face_down()))
            shields = tuple(zip(draw(st.permutations(tables.COLORS)),
                                draw(st.lists(st.sampled_from([1, 2, 3, 4, 5, 6, "card"]),
                                              min_size=4, max_size=4)), strict=True))
            options_now.append(Reveal(who, space, shields, draw(st.integers(0, 2)),
                                      "dilemma" in options["modules"] and draw(st.booleans())))
        if state.current is not None:
            actor = state.players[state.current]
            if state.revealed_this_turn:
                options_now += [build(actor, t["move"]["area"], t["move"]["silver_for"],
                                      t["move"]["card"], t["move"]["on"])
                                for t in build_targets(state, actor)[:6]]
            options_now += [Play(actor, "king", value=4), Play(actor, "thief"), Play(actor, "bandits"),
                            Play(actor, "robber-baron"), Sell(actor, 1)]
            options_now += [Play(actor, "traitor", target=p) for p in state.players if p != actor]
            if state.pending is not None and state.pending.kind == "reveal":
                old = state.revealed[state.pending.space]
                options_now += [Steward(p, old[1:] + old[:1]) for p in state.players]
        legal = []
        for move in options_now:
            with contextlib.suppress(IllegalMove):
                legal.append((move, GAME.apply(state, move)))
        # Prefer progress: the first option (reveal or end) is always legal.
        index = draw(st.integers(0, len(legal) - 1)) if draw(st.integers(0, 2)) else 0
        move, state = legal[index]
        moves.append(move)
        states.append(state)
    return initial, moves, states


def check_invariants(state):
    assert state.mine + sum(state.silver.values()) == state.mine_start
    for res in state.resources.values():
        assert all(0 <= n <= tables.RESOURCE_CAP for n in res)
    assert all(n >= 0 for n in state.cards.values())
    assert state.deck() >= 0
    assert all(n <= tables.CASTLES_PER_PLAYER for n in state.castles_built.values())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.data_too_large])
@hgiven(games())
def test_random_games_keep_the_invariants_and_replay_identically(game):
    initial, moves, states = game
    for state in states:
        check_invariants(state)
    assert states[-1].finished
    # Replay from the record JSON equals incremental play.
    state = initial
    for move in moves:
        state = GAME.apply(state, GAME.parse_move(GAME.move_to_json(move)))
    assert GAME.summary(state) == GAME.summary(states[-1])
    # The end adds exactly the final-scoring lines to the points scored during play.
    before_end = states[-2]
    for player in state.players:
        assert state.score[player] == before_end.score[player] + sum(state.final[player].values())


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.data_too_large])
@hgiven(games())
def test_apply_never_changes_the_state_it_is_given(game):
    """Undo is keeping the previous state: applying a move must leave that state as it was.

    Replayed on fresh copies, so that a change made while the game was generated (which
    would already be in the generated states) cannot hide one made now.
    """
    initial, moves, states = game
    state = copy.deepcopy(initial)
    for move, expected in zip(moves, states[1:], strict=True):
        before = copy.deepcopy(state)
        after = GAME.apply(state, move)
        assert state == before, f"{move} changed the state it was applied to"
        assert GAME.summary(after) == GAME.summary(expected)
        state = after


def test_views_show_areas_players_and_build_targets():
    state = given(play(GAME.start(list(NAMES), {}, {"colors": dict(zip(NAMES, tables.COLORS, strict=True)),
                                                    "board": "example-4p"}),
                       rv("Anna", "s01", "green:1 yellow:1 blue:3 red:2")),
                  resources={"Anna": (1, 1, 1)})
    areas = {a["area"]: a for a in area_views(state)}
    # s01: S faces a11 (rock) where blue has 3
    assert areas["a11"]["influence"] == {"blue": 3}
    assert areas["a11"]["leaders"] == [{"colour": "blue", "player": "Anna"}]
    assert "s01" not in areas["a11"]["face_down"] and areas["a11"]["face_down"]
    assert player_views(state)["Anna"]["castles_left"] == 9
    targets = build_targets(state, "Anna")
    assert [t["move"]["area"] for t in targets] == ["a11"]
    assert targets[0]["cost"] == {"wood": 1, "grain": 1, "stone": 1, "silver": 0, "card": 0}
    assert targets[0]["points"] == play(state, build("Anna", "a11")).score["Anna"]
    assert build_targets(state, "Bela") == []
    refused(state, build("Anna", "a40"),
            "castelli.build.no_points", "you need at least 1 shield point in the rock in row 5, column 1")
