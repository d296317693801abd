"""Turns, refusals, the forced build, both rule sets and both ends of the game, through apply."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from companion.games.base import IllegalMove
from companion.games.san_gimignano import SanGimignano, views

GAME = SanGimignano()
G1, G2, G3, G4 = "guild-1", "guild-2", "guild-3", "guild-4"
S0 = {"at": [0, 0], "edges": [G1, G1, G2, G2, G3, G3]}
S1 = {"at": [1, 0], "edges": [G4, G4, G2, G2, G3, G3]}
S2 = {"at": [0, 1], "edges": [G4, G4, G1, G1, G3, G3]}
S0G1, S0G2, S0G3 = [0, 0, G1], [0, 0, G2], [0, 0, G3]
S1G2, S1G3, S1G4 = [1, 0, G2], [1, 0, G3], [1, 0, G4]
S2G1, S2G3, S2G4 = [0, 1, G1], [0, 1, G3], [0, 1, G4]
FOURSOME = [S0G1, S0G2, S1G3, S1G4]


def tok(player, space):
    return {"type": "token", "player": player, "space": space}


def seg(player, at, edges):
    return {"type": "segment", "player": player, "at": at, "edges": edges}


def tower(player, space, group):
    return {"type": "tower", "player": player, "space": space, "group": group}


def pas(player):
    return {"type": "pass", "player": player}


def play(state, *moves):
    for data in moves:
        state = GAME.apply(state, GAME.parse_move(data))
    return state


def new(rules="rulebook", variant="four", hands=0, segments=(S0, S1, S2), pool=None,
        players=("A", "B")):
    setup = {"segments": list(segments)}
    if rules == "rulebook":
        setup["hands"] = dict.fromkeys(players, hands)
    elif pool is not None:
        setup["pool"] = pool
    return GAME.start(list(players), {"rules": rules, "variant": variant}, setup)


def refused(state, data, message):
    """Assert the move is refused with ``message`` and the state is exactly as before."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, GAME.parse_move(data))
    assert str(caught.value) == message
    assert state == before
    return caught.value


# -- turns ---------------------------------------------------------------------------------

def test_players_take_turns_in_seating_order():
    state = new()
    assert GAME.to_move(state) == "A"
    refused(state, tok("B", S0G1), "it is not B's turn: A plays next")
    state = play(state, tok("A", S0G1))
    assert GAME.to_move(state) == "B"
    refused(state, tok("A", S0G2), "a player may put down only one token per turn")
    state = play(state, tok("B", S0G1))
    assert state.tokens[(0, 0, G1)] == ("A", "B")
    refused(state, tok("C", S0G2), "\"C\" is not playing in this game")


def test_rulebook_turn_is_token_then_segment_then_tower():
    state = new(hands=2, segments=(S0, S1))
    refused(state, seg("A", [0, 1], S2["edges"]),
            "A must place a token first (a turn starts with the token)")
    state = play(state, tok("A", S0G1))
    assert GAME.to_move(state) == "A"  # the segment is still owed
    refused(state, tok("B", S0G1), "A must still place a segment before B plays")
    state = play(state, seg("A", [0, 1], S2["edges"]))
    assert state.hands == {"A": 1, "B": 2}
    refused(state, seg("A", [1, -1], [G1, G1, G4, G4, G2, G2]),
            "a player may put down only one board segment per turn")
    state = play(state, tok("B", S0G2))
    refused(state, tok("B", S0G3), "a player may put down only one token per turn")
    refused(state, tower("B", S0G2, FOURSOME), "B must place a segment first (next comes the segment)")


def test_clarified_turn_is_segment_then_token_and_building_is_optional():
    state = new(rules="clarified", pool=1, segments=(S0, S1))
    refused(state, tok("A", S0G1), "A must place a segment first (a turn starts with the segment)")
    state = play(state, seg("A", [0, 1], S2["edges"]))
    assert state.pool == 0
    refused(state, tok("B", S0G1), "A must still place a token before B plays")
    state = play(state, tok("A", S0G1))
    # the pool is empty: turns start with the token now
    refused(state, seg("B", [1, -1], [G1, G1, G4, G4, G2, G2]), "all segments have been placed")
    for move in [tok("B", S2G1), tok("A", S0G2), tok("B", S2G3), tok("A", S1G3), tok("B", S2G4),
                 tok("A", S1G4)]:
        state = play(state, move)
    assert views.buildable_groups(state, "A")
    assert views.who_must_build(state) == []  # building is optional
    state = play(state, tok("B", S1G2))  # A may renounce; B plays on
    assert views.buildable_groups(state, "B")
    state = play(state, tok("A", S0G3), tower("A", S1G4, FOURSOME))  # or build later
    assert state.tower_count == {"A": 1, "B": 0}


def test_segments_must_touch_two_and_never_match_guilds():
    state = play(new(hands=2, segments=(S0, S1)), tok("A", S0G1))
    refused(state, seg("A", [2, 0], [G1, G1, G2, G2, G3, G3]),
            "a new segment must adjoin at least two segments already on the table")
    refused(state, seg("A", [0, 0], [G1, G1, G2, G2, G3, G3]), "there is already a segment at [0, 0]")
    # at (0, 1) edge 5 faces guild-2 of (0, 0) and edge 0 faces guild-2 of (1, 0)
    refused(state, seg("A", [0, 1], [G4, G4, G1, G1, G2, G2]),
            "two touching edges may not show the same guild")
    refused(state, seg("A", [0, 1], [G4, G4, G1, G1, "guild-9", "guild-9"]),
            '"guild-9" is not one of the guilds (guild-1, guild-2, guild-3, guild-4)')
    play(state, seg("A", [0, 1], S2["edges"]))


def test_no_segments_left_in_hand():
    state = play(new(hands=0), tok("A", S0G1))
    refused(state, seg("A", [1, -1], [G1, G1, G4, G4, G2, G2]), "A has no segments left")


def test_token_refusals():
    state = play(new(), tok("A", S0G1), tok("B", S0G1))
    refused(state, tok("A", S0G1), "a space holds at most two tokens")
    refused(state, tok("A", [7, 7, G1]), "there is no space guild-1 on [7, 7]")
    refused(state, tok("A", [0, 0, "guild-9"]), "there is no space guild-9 on [0, 0]")
    empty = replace(state, on_board={"A": 20, "B": 1})
    refused(empty, tok("A", S0G2), "A has no tokens left")


def a_group_for_a(rules="rulebook", variant="four"):
    """A holds FOURSOME after A's fourth token; B has played three tokens on S2."""
    state = new(rules=rules, variant=variant, pool=0)
    return play(state, tok("A", S0G1), tok("B", S2G1), tok("A", S0G2), tok("B", S2G3),
                tok("A", S1G3), tok("B", S2G4), tok("A", S1G4))


def test_the_rulebook_forces_a_build():
    state = a_group_for_a()
    assert views.who_must_build(state) == ["A"]
    assert GAME.summary(state)["must_build"] == ["A"]
    assert GAME.to_move(state) == "A"
    refused(state, tok("B", S1G2), "A can still build a tower and must do so before B plays")
    refused(state, pas("B"), "A can still build a tower and must do so before B plays")
    refused(state, tower("A", S2G1, FOURSOME), "the tower must stand on one of the spaces of the group")
    state = play(state, tower("A", S1G3, FOURSOME))
    assert views.who_must_build(state) == []
    refused(state, tower("A", S0G1, FOURSOME), "a player may build only one tower per turn")
    assert state.towers == {(1, 0, G3): "A"}
    refused(state, tok("B", S1G3), "a space with a tower takes no tokens")


def test_fig_h_a_group_left_over_is_built_next_turn():
    # A holds S0.g1, S0.g2, S1.g2, S1.g3, S1.g4: two groups; a tower on S0.g2 leaves the other.
    state = new()
    state = play(state, tok("A", S0G1), tok("B", S0G2), tok("A", S0G2), tok("B", S2G1),
                 tok("A", S1G2), tok("B", S2G3), tok("A", S1G3), tok("B", S2G1), tok("A", S1G4))
    assert len(views.buildable_groups(state, "A")) == 2
    state = play(state, tower("A", S0G2, FOURSOME))
    # both tokens on the tower's space went home; the others stay
    assert (0, 0, G2) not in state.tokens
    assert state.on_board == {"A": 4, "B": 3}
    assert state.tokens[(0, 0, G1)] == ("A",)
    left = [S0G1, S1G2, S1G3, S1G4]
    assert views.buildable_groups(state, "A") == [frozenset(map(tuple, left))]
    assert views.who_must_build(state) == []  # one tower per turn
    state = play(state, tok("B", S1G2))
    assert views.who_must_build(state) == []  # it is B's turn now
    state = play(state, tok("A", S0G3))
    assert views.who_must_build(state) == ["A"]
    refused(state, tok("B", S2G1), "A can still build a tower and must do so before B plays")
    state = play(state, tower("A", S0G1, left))
    assert state.tower_count["A"] == 2


def test_tower_refusals():
    state = a_group_for_a()
    refused(state, tower("A", S0G1, [S0G1, S0G2, S1G3]), "a group is four spaces, not 3")
    refused(state, tower("A", S2G1, [S2G1, S0G2, S1G3, S1G4]),
            "each space of the group must hold one of A's tokens (guild-1 on [0, 1] does not)")
    refused(state, tower("B", S2G1, [S2G1, S2G3, S2G4, S0G1]),
            "A can still build a tower and must do so before B plays")


def test_a_pass_only_when_nothing_can_be_placed():
    state = new(hands=1, segments=(S0, S1))
    refused(state, pas("A"), "A can still place a token and may not pass")
    no_tokens = replace(state, on_board={"A": 20, "B": 0})
    refused(no_tokens, pas("A"), "A can still place a segment and may not pass")
    nothing = replace(no_tokens, hands={"A": 0, "B": 1})
    after = play(nothing, pas("A"))
    assert GAME.to_move(after) == "B"
    refused(after, tok("A", S0G1), "A passed this turn and can place nothing more")
    refused(after, pas("A"), "A has already played this turn; a pass is for a whole turn")
    # a player without tokens starts with the segment instead
    no_tokens = play(no_tokens, seg("A", [0, 1], S2["edges"]))
    assert no_tokens.hands["A"] == 0


def test_the_string_variant_builds_on_a_whole_string():
    state = new(variant="string")
    chain = [S0G3, S0G1, S1G3, S1G4]
    state = play(state, tok("A", S0G3), tok("B", S2G1), tok("A", S0G1), tok("B", S2G3),
                 tok("A", S1G3), tok("B", S2G4), tok("A", S1G4))
    assert views.buildable_groups(state, "A") == []
    refused(state, tower("A", S0G1, chain), "the group must show all four guilds")
    state = play(state, tok("B", S2G1), tok("A", S0G2))
    whole = [*chain, S0G2]
    assert views.buildable_groups(state, "A") == [frozenset(map(tuple, whole))]
    state = play(state, tower("A", S0G3, whole))
    assert state.towers == {(0, 0, G3): "A"}
    assert state.on_board["A"] == 4


def test_ten_towers_end_the_game():
    state = a_group_for_a()
    state = replace(state, tower_count={"A": 9, "B": 3})
    state = play(state, tower("A", S0G1, FOURSOME))
    summary = GAME.summary(state)
    assert summary["finished"] is True
    assert summary["winners"] == ["A"]
    assert summary["scores"] == {"A": 10, "B": 3}
    assert GAME.to_move(state) is None
    refused(state, tok("B", S2G1), "the game is over")


def test_the_game_ends_when_nobody_can_build_any_more():
    # On S0 + S1 every set of four goes through S0.g1 and S1.g3 (guild-4 only on S1).
    state = new(segments=(S0, S1))
    state = play(state, tok("A", S1G3), tok("B", S0G1), tok("A", S1G3))
    assert not state.finished
    state = play(state, tok("B", S0G1))
    summary = GAME.summary(state)
    assert summary["finished"] is True
    assert summary["tokens"] == {"A": 2, "B": 2}
    assert sorted(summary["winners"]) == ["A", "B"]  # shared: no towers, equal tokens
    refused(state, tok("A", S0G2), "the game is over")


def test_the_game_does_not_end_while_segments_are_left():
    state = new(segments=(S0, S1), hands=1)
    state = play(state, tok("A", S1G3), seg("A", [0, 1], S2["edges"]), tok("B", S0G1))
    assert not state.finished


def test_winners_by_towers_then_tokens_on_the_board():
    state = replace(new(players=("A", "B", "C")), finished=True)
    assert views.winners(replace(state, tower_count={"A": 2, "B": 3, "C": 3},
                                 on_board={"A": 9, "B": 4, "C": 5})) == ["C"]
    assert views.winners(replace(state, tower_count={"A": 2, "B": 3, "C": 3},
                                 on_board={"A": 9, "B": 5, "C": 5})) == ["B", "C"]
    assert views.winners(replace(state, tower_count={"A": 4, "B": 3, "C": 3},
                                 on_board={"A": 0, "B": 5, "C": 5})) == ["A"]
    assert views.winners(replace(state, finished=False)) == []


def test_views_for_the_screens():
    state = play(new(), tok("A", S0G1), tok("B", S0G1))
    spaces = views.token_spaces(state, "A")
    assert (0, 0, G1) not in spaces and len(spaces) == 8
    board = {tuple(entry["space"]): entry for entry in views.board(state)}
    assert board[(0, 0, G1)] == {"space": [0, 0, G1], "tokens": ["A", "B"], "tower": None}
    assert len(board) == 9
    assert views.open_positions(state) == [(-1, 1), (1, -1), (1, 1)]
    report = GAME.report(state)
    assert "San Gimignano: in progress" in report and "next: A" in report


def test_legal_moves_offer_only_what_the_rules_accept():
    state = new(hands=1, segments=(S0, S1))
    legal = GAME.legal_moves(state)
    assert legal and all(move["player"] == "A" and move["type"] == "token" for move in legal)
    assert len(legal) == 6
    state = play(state, tok("A", S0G1))
    legal = GAME.legal_moves(state)
    assert {move["type"] for move in legal} == {"segment"}
    for move in legal:
        GAME.apply(state, GAME.parse_move(move))


def test_the_report_names_the_groups_a_player_can_build_and_the_missing_tokens():
    lines = GAME.report(a_group_for_a()).splitlines()
    assert lines[5:9] == [
        "  A can build on guild-1 at (0, 0), guild-2 at (0, 0), guild-3 at (1, 0), guild-4 at (1, 0)",
        "  A is one token short of a group: a token on guild-2 at (1, 0)",
        # B holds guild-1, guild-3 and guild-4 on the segment at (0, 1); either guild-2 next to it completes
        "  B is one token short of a group: a token on guild-2 at (0, 0) or guild-2 at (1, 0)",
        "  A can build a tower and must do so before the next player",
    ]
