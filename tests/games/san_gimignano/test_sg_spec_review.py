"""Spec review: points of records.md the engine must follow to the letter.

Board (guilds g1..g4), as in the other San Gimignano tests:

    S0 (0, 0): g1 on edges 0-1, g2 on 2-3, g3 on 4-5
    S1 (1, 0): g4 on edges 0-1, g2 on 2-3, g3 on 4-5   (S0.g1 touches S1.g3)
    S2 (0, 1): g4 on edges 0-1, g1 on 2-3, g3 on 4-5   (S0.g2 touches S2.g3, S1.g2 touches S2.g4)
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.san_gimignano import SanGimignano, groups, rules
from companion.games.san_gimignano.geometry import space_name
from companion.games.san_gimignano.state import State, start_state
from tests.refusals import refuses

GAME = SanGimignano()
G1, G2, G3, G4 = "guild-1", "guild-2", "guild-3", "guild-4"
S0 = {"at": [0, 0], "edges": [G1, G1, G2, G2, G3, G3]}
S1 = {"at": [1, 0], "edges": [G4, G4, G2, G2, G3, G3]}
S2 = {"at": [0, 1], "edges": [G4, G4, G1, G1, G3, G3]}
S0G1, S0G2, S0G3 = (0, 0, G1), (0, 0, G2), (0, 0, G3)
S1G2, S1G3, S1G4 = (1, 0, G2), (1, 0, G3), (1, 0, G4)
S2G1, S2G3, S2G4 = (0, 1, G1), (0, 1, G3), (0, 1, G4)


def board(tokens: dict, variant: str = "four") -> State:
    """A rulebook state with these tokens (space -> owners), hands empty, A to build."""
    state = start_state(["A", "B"], {"variant": variant},
                        {"segments": [S0, S1, S2], "hands": {"A": 0, "B": 0}})
    on_board = dict.fromkeys(state.players, 0)
    for owners in tokens.values():
        for owner in owners:
            on_board[owner] += 1
    return replace(state, tokens={k: tuple(v) for k, v in tokens.items()}, on_board=on_board,
                   turn=0, stage=1)


def tower(player, space, group):
    return GAME.parse_move({"type": "tower", "player": player, "space": list(space),
                            "group": [list(s) for s in group]})


def test_a_string_tower_names_the_whole_connected_set():
    # records.md: "`group` is the group built on (four spaces; with `string`, a whole
    # connected set)". A holds a string of six spaces; four of them already show all
    # four guilds, but they are only part of the string, not the whole set.
    whole = {S0G1: "A", S0G2: "A", S0G3: "A", S1G3: "A", S1G4: "A", S1G2: "A"}
    state = board(whole, variant="string")
    assert groups.buildable(state, "A") == [frozenset(whole)]
    part = (S0G1, S0G2, S1G3, S1G4)
    named = space_name(S0G3, state.segments)
    with refuses("san_gimignano.group.not_whole", player="A", space=named) as caught:
        GAME.apply(state, tower("A", S0G1, part))
    caught.match(r"^the group must be the whole connected set of A's spaces \(Guild 3 on A "
                 r"belongs to it too\)$")
    after = GAME.apply(state, tower("A", S0G1, tuple(whole)))
    assert after.towers == {S0G1: "A"}


def test_a_neighbour_without_the_players_token_does_not_widen_the_string():
    # S2.g3 touches S0.g2 but holds only B's token: the whole set of A is still the four.
    tokens = {S0G1: "A", S0G2: "A", S1G3: "A", S1G4: "AB", S2G3: "B"}
    state = board(tokens, variant="string")
    rules.check_group(state, "A", (S0G1, S0G2, S1G3, S1G4))
    assert groups.buildable(state, "A") == [frozenset({S0G1, S0G2, S1G3, S1G4})]


def test_the_c_a_a_b_b_c_form_covers_edges_five_and_zero():
    # [c,a,a,b,b,c]: the space of c runs along edges 5 and 0, so it touches the segments
    # across both (edge 0 faces [1, -1], edge 5 faces [0, -1]); a is on edges 1-2.
    centre = {"at": [0, 0], "edges": [G4, G1, G1, G2, G2, G4]}
    east = {"at": [1, -1], "edges": [G2, G2, G3, G3, G1, G1]}  # its edge 3 (g3) meets our edge 0
    north = {"at": [0, -1], "edges": [G3, G3, G1, G1, G2, G2]}  # its edge 2 (g1) meets our edge 5
    state = start_state(["A", "B"], {}, {"segments": [centre, east, north]})
    assert (1, -1, G3) in state.adjacency[(0, 0, G4)]
    assert (0, -1, G1) in state.adjacency[(0, 0, G4)]
    assert (0, 0, G1) not in state.adjacency[(1, -1, G3)]
    assert set(state.adjacency[(0, 0, G1)]) == {(0, 0, G4), (0, 0, G2)}


def test_two_own_tokens_count_once_and_a_shared_space_counts():
    # A has two tokens on S0.g1 and shares S1.g4 with B: still exactly one group of four,
    # listed for A and for B whatever the turn.
    state = board({S0G1: "AA", S0G2: "A", S1G3: "BA", S1G4: "A", S2G1: "B", S2G3: "B",
                   S2G4: "B", S1G2: "B"})
    summary = GAME.summary(state)
    assert [sorted(map(tuple, g)) for g in summary["buildable"]["A"]] == [
        sorted([S0G1, S0G2, S1G3, S1G4])]
    assert sorted(sorted(map(tuple, g)) for g in summary["buildable"]["B"]) == sorted([
        sorted([S1G2, S1G3, S2G1, S2G4]), sorted([S1G2, S2G3, S2G1, S2G4])])
