"""Turns, refusals, the forced build, both rule sets and both ends of the game, through apply."""

from __future__ import annotations

import copy
from dataclasses import replace

from companion.games.san_gimignano import SanGimignano, views
from companion.games.san_gimignano.geometry import space_name
from tests.refusals import refuses

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


def refused(state, data, code, english, **params):
    """Assert the move is refused by the rule ``code`` (with ``params``; its words checked in every
    language, the English ones are ``english``) and the state is exactly as before."""
    before = copy.deepcopy(state)
    with refuses(code, **params) as caught:
        GAME.apply(state, GAME.parse_move(data))
    assert str(caught.value) == english
    assert state == before
    return caught.value


# -- turns ---------------------------------------------------------------------------------

def test_players_take_turns_in_seating_order():
    state = new()
    assert GAME.to_move(state) == "A"
    refused(state, tok("B", S0G1), "san_gimignano.turn.not_yours", "it is not B's turn: A plays next",
            player="B", expected="A")
    state = play(state, tok("A", S0G1))
    assert GAME.to_move(state) == "B"
    refused(state, tok("A", S0G2), "san_gimignano.once.token",
            "a player may put down only one token per turn")
    state = play(state, tok("B", S0G1))
    assert state.tokens[(0, 0, G1)] == ("A", "B")
    refused(state, tok("C", S0G2), "common.player.not_playing", "\"C\" is not playing in this game",
            player="C")


def test_rulebook_turn_is_token_then_segment_then_tower():
    state = new(hands=2, segments=(S0, S1))
    refused(state, seg("A", [0, 1], S2["edges"]),
            "san_gimignano.stage.starts_with_token",
            "A must place a token first (a turn starts with the token)", player="A")
    state = play(state, tok("A", S0G1))
    assert GAME.to_move(state) == "A"  # the segment is still owed
    refused(state, tok("B", S0G1), "san_gimignano.turn.owes_segment",
            "A must still place a segment before B plays", current="A", player="B")
    state = play(state, seg("A", [0, 1], S2["edges"]))
    assert state.hands == {"A": 1, "B": 2}
    refused(state, seg("A", [1, -1], [G1, G1, G4, G4, G2, G2]),
            "san_gimignano.once.segment", "a player may put down only one board segment per turn")
    state = play(state, tok("B", S0G2))
    refused(state, tok("B", S0G3), "san_gimignano.once.token",
            "a player may put down only one token per turn")
    refused(state, tower("B", S0G2, FOURSOME), "san_gimignano.stage.next_segment",
            "B must place a segment first (next comes the segment)", player="B")


def test_clarified_turn_is_segment_then_token_and_building_is_optional():
    state = new(rules="clarified", pool=1, segments=(S0, S1))
    refused(state, tok("A", S0G1), "san_gimignano.stage.starts_with_segment",
            "A must place a segment first (a turn starts with the segment)", player="A")
    state = play(state, seg("A", [0, 1], S2["edges"]))
    assert state.pool == 0
    refused(state, tok("B", S0G1), "san_gimignano.turn.owes_token",
            "A must still place a token before B plays", current="A", player="B")
    state = play(state, tok("A", S0G1))
    # the pool is empty: turns start with the token now
    refused(state, seg("B", [1, -1], [G1, G1, G4, G4, G2, G2]), "san_gimignano.segment.pool_empty",
            "all segments have been placed")
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
            "san_gimignano.segment.needs_two",
            "a new segment must adjoin at least two segments already on the table")
    refused(state, seg("A", [0, 0], [G1, G1, G2, G2, G3, G3]), "san_gimignano.segment.occupied",
            "there is already a segment at [0, 0]", q=0, r=0)
    # at (0, 1) edge 5 faces guild-2 of (0, 0) and edge 0 faces guild-2 of (1, 0)
    refused(state, seg("A", [0, 1], [G4, G4, G1, G1, G2, G2]),
            "san_gimignano.segment.same_guild", "two touching edges may not show the same guild")
    refused(state, seg("A", [0, 1], [G4, G4, G1, G1, "guild-9", "guild-9"]),
            "san_gimignano.guild.unknown",
            '"guild-9" is not one of the guilds (guild-1, guild-2, guild-3 and guild-4)', guild="guild-9",
            guilds=[G1, G2, G3, G4])
    play(state, seg("A", [0, 1], S2["edges"]))


def test_no_segments_left_in_hand():
    state = play(new(hands=0), tok("A", S0G1))
    refused(state, seg("A", [1, -1], [G1, G1, G4, G4, G2, G2]), "san_gimignano.segment.none_left",
            "A has no segments left", player="A")


def test_token_refusals():
    state = play(new(), tok("A", S0G1), tok("B", S0G1))
    refused(state, tok("A", S0G1), "san_gimignano.token.full", "a space holds at most 2 tokens", count=2)
    refused(state, tok("A", [7, 7, G1]), "san_gimignano.space.missing",
            "there is no space guild-1 at [7, 7]", space=space_name((7, 7, G1), state.segments))
    refused(state, tok("A", [0, 0, "guild-9"]), "san_gimignano.space.missing",
            "there is no space guild-9 on A", space=space_name((0, 0, "guild-9"), state.segments))
    empty = replace(state, on_board={"A": 20, "B": 1})
    refused(empty, tok("A", S0G2), "san_gimignano.token.none_left", "A has no tokens left", player="A")


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
    refused(state, tok("B", S1G2), "san_gimignano.turn.owes_tower",
            "A can still build a tower and must do so before B plays", current="A", player="B")
    refused(state, pas("B"), "san_gimignano.turn.owes_tower",
            "A can still build a tower and must do so before B plays", current="A", player="B")
    refused(state, tower("A", S2G1, FOURSOME), "san_gimignano.tower.outside_group",
            "the tower must stand on one of the spaces of the group")
    state = play(state, tower("A", S1G3, FOURSOME))
    assert views.who_must_build(state) == []
    refused(state, tower("A", S0G1, FOURSOME), "san_gimignano.once.tower",
            "a player may build only one tower per turn")
    assert state.towers == {(1, 0, G3): "A"}
    refused(state, tok("B", S1G3), "san_gimignano.token.on_tower", "a space with a tower takes no tokens")


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
    refused(state, tok("B", S2G1), "san_gimignano.turn.owes_tower",
            "A can still build a tower and must do so before B plays", current="A", player="B")
    state = play(state, tower("A", S0G1, left))
    assert state.tower_count["A"] == 2


def test_tower_refusals():
    state = a_group_for_a()
    refused(state, tower("A", S0G1, [S0G1, S0G2, S1G3]), "san_gimignano.group.size",
            "a group is four spaces, not 3", count=3)
    refused(state, tower("A", S2G1, [S2G1, S0G2, S1G3, S1G4]),
            "san_gimignano.group.not_holding",
            "each space of the group must hold one of A's tokens (Guild 1 on C does not)",
            player="A", space=space_name((0, 1, G1), state.segments))
    refused(state, tower("B", S2G1, [S2G1, S2G3, S2G4, S0G1]),
            "san_gimignano.turn.owes_tower",
            "A can still build a tower and must do so before B plays", current="A", player="B")


def test_a_pass_only_when_nothing_can_be_placed():
    state = new(hands=1, segments=(S0, S1))
    refused(state, pas("A"), "san_gimignano.pass.can_token",
            "A can still place a token and may not pass", player="A")
    no_tokens = replace(state, on_board={"A": 20, "B": 0})
    refused(no_tokens, pas("A"), "san_gimignano.pass.can_segment",
            "A can still place a segment and may not pass", player="A")
    nothing = replace(no_tokens, hands={"A": 0, "B": 1})
    after = play(nothing, pas("A"))
    assert GAME.to_move(after) == "B"
    refused(after, tok("A", S0G1), "san_gimignano.turn.passed",
            "A passed this turn and can place nothing more", player="A")
    refused(after, pas("A"), "san_gimignano.pass.after_move",
            "A has already played this turn; a pass is for a whole turn", player="A")
    # a player without tokens starts with the segment instead
    no_tokens = play(no_tokens, seg("A", [0, 1], S2["edges"]))
    assert no_tokens.hands["A"] == 0


def test_the_string_variant_builds_on_a_whole_string():
    state = new(variant="string")
    chain = [S0G3, S0G1, S1G3, S1G4]
    state = play(state, tok("A", S0G3), tok("B", S2G1), tok("A", S0G1), tok("B", S2G3),
                 tok("A", S1G3), tok("B", S2G4), tok("A", S1G4))
    assert views.buildable_groups(state, "A") == []
    refused(state, tower("A", S0G1, chain), "san_gimignano.group.all_guilds",
            "the group must show all four guilds")
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
    refused(state, tok("B", S2G1), "san_gimignano.game.over", "the game is over")


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
    refused(state, tok("A", S0G2), "san_gimignano.game.over", "the game is over")


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
        "  A can build on Guild 1 on A, Guild 2 on A, Guild 3 on B and Guild 4 on B",
        "  A is one token short of a group: a token on Guild 2 on B",
        # B holds guild-1, guild-3 and guild-4 on the segment at (0, 1); either guild-2 next to it completes
        "  B is one token short of a group: a token on one of Guild 2 on A and Guild 2 on B",
        "  A can build a tower and must do so before the next player",
    ]
