"""Groups on hand-built boards: the figure cases, the variant, hints and the end-of-game test.

The board used here (guilds g1..g4):

    S0 (0, 0): g1 on edges 0-1, g2 on 2-3, g3 on 4-5
    S1 (1, 0): g4 on edges 0-1, g2 on 2-3, g3 on 4-5   (S0.g1 touches S1.g3)
    S2 (0, 1): g4 on edges 0-1, g1 on 2-3, g3 on 4-5   (S0.g2 touches S2.g3, S1.g2 touches S2.g4)
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.san_gimignano import groups, rules, views
from companion.games.san_gimignano.geometry import space_name
from companion.games.san_gimignano.state import State, start_state
from tests.refusals import refuses

G1, G2, G3, G4 = "guild-1", "guild-2", "guild-3", "guild-4"
S0 = {"at": [0, 0], "edges": [G1, G1, G2, G2, G3, G3]}
S1 = {"at": [1, 0], "edges": [G4, G4, G2, G2, G3, G3]}
S2 = {"at": [0, 1], "edges": [G4, G4, G1, G1, G3, G3]}


def sp(q: int, r: int, guild: str) -> tuple[int, int, str]:
    return (q, r, guild)


S0G1, S0G2, S0G3 = sp(0, 0, G1), sp(0, 0, G2), sp(0, 0, G3)
S1G2, S1G3, S1G4 = sp(1, 0, G2), sp(1, 0, G3), sp(1, 0, G4)
S2G1, S2G3, S2G4 = sp(0, 1, G1), sp(0, 1, G3), sp(0, 1, G4)


def board(tokens: dict, towers: dict | None = None, variant: str = "four",
          segments: tuple = (S0, S1, S2)) -> State:
    """A state with these tokens (space -> owners) and towers, hands empty."""
    state = start_state(["A", "B"], {"variant": variant},
                        {"segments": list(segments), "hands": {"A": 0, "B": 0}})
    on_board = dict.fromkeys(state.players, 0)
    for owners in tokens.values():
        for owner in owners:
            on_board[owner] += 1
    towers = towers or {}
    count = dict.fromkeys(state.players, 0)
    for owner in towers.values():
        count[owner] += 1
    return replace(state, tokens={k: tuple(v) for k, v in tokens.items()}, towers=dict(towers),
                   on_board=on_board, tower_count=count)


def test_four_connected_spaces_of_four_guilds_make_a_group():
    state = board({S0G1: "A", S0G2: "BA", S1G3: "A", S1G4: "AB"})
    assert groups.buildable(state, "A") == [frozenset({S0G1, S0G2, S1G3, S1G4})]
    assert groups.buildable(state, "B") == []  # B holds only two of the spaces
    rules.check_group(state, "A", (S0G1, S0G2, S1G3, S1G4))


def test_a_group_across_three_segments():
    state = board({S1G4: "A", S1G2: "A", S2G4: "B", S2G3: "A", S0G2: "A", S2G1: "A"})
    found = groups.buildable(state, "A")
    assert frozenset({S0G2, S2G3, S2G1, S1G2}) not in found  # g2 twice
    assert frozenset({S2G3, S2G1, S0G2, S1G4}) not in found  # S1.g4 does not touch them
    assert found == []
    state = board({S2G4: "A", S1G2: "A", S2G3: "A", S2G1: "A"})
    assert groups.buildable(state, "A") == [frozenset({S2G4, S1G2, S2G3, S2G1})]


def test_a_chain_with_a_repeated_guild_is_no_group():
    chain = {S0G3: "A", S0G1: "A", S1G3: "A", S1G4: "A"}  # g3, g1, g3, g4
    state = board(chain)
    assert groups.buildable(state, "A") == []
    with refuses("san_gimignano.group.guilds_differ") as caught:
        rules.check_group(state, "A", (S0G3, S0G1, S1G3, S1G4))
    caught.match("the four guilds of a group must all be different")
    # the variant needs all four guilds in the string too: g2 is missing
    assert groups.buildable(board(chain, variant="string"), "A") == []


def test_the_variant_accepts_a_string_showing_all_four_guilds():
    tokens = {S0G3: "A", S0G1: "A", S1G3: "A", S1G4: "A", S0G2: "A"}
    string = board(tokens, variant="string")
    assert groups.buildable(string, "A") == [frozenset(tokens)]
    rules.check_group(string, "A", tuple(tokens))
    # the basic rules see only the one group of four inside it
    four = board(tokens)
    assert groups.buildable(four, "A") == [frozenset({S0G2, S0G1, S1G3, S1G4})]
    with refuses("san_gimignano.group.size", count=5) as caught:
        rules.check_group(four, "A", tuple(tokens))
    caught.match("a group is four spaces, not 5")


def test_the_variant_lists_maximal_connected_sets_only():
    tokens = {S0G1: "A", S0G2: "A", S0G3: "A", S1G3: "A", S1G4: "A", S1G2: "A"}
    string = board(tokens, variant="string")
    assert groups.buildable(string, "A") == [frozenset(tokens)]
    summary = views.summary(string, "san-gimignano")
    assert len(summary["buildable"]["A"]) == 1
    assert sorted(map(tuple, summary["buildable"]["A"][0])) == sorted(tokens)


def test_a_tower_breaks_a_group():
    tokens = {S0G1: "A", S0G2: "A", S1G3: "A", S1G4: "A"}
    assert groups.buildable(board(tokens), "A")
    broken = board({S0G1: "A", S0G2: "A", S1G4: "A"}, towers={S1G3: "B"})
    assert groups.buildable(broken, "A") == []
    with refuses("san_gimignano.group.tower_on", space=space_name(S1G3, broken.segments)) as caught:
        rules.check_group(broken, "A", (S0G1, S0G2, S1G3, S1G4))
    caught.match(r"^Guild 3 on B has a tower and can no longer be part of a group$")
    # the string variant is broken the same way: S1.g4 is cut off
    cut = board({S0G1: "A", S0G2: "A", S0G3: "A", S1G4: "A", S1G2: "A"}, towers={S1G3: "B"},
                variant="string")
    assert groups.buildable(cut, "A") == []


def test_group_checks_name_the_broken_rule():
    state = board({S0G1: "A", S0G2: "A", S1G3: "A", S1G4: "B", S2G4: "A", S2G3: "A"})
    named = space_name(S1G4, state.segments)
    with refuses("san_gimignano.group.not_holding", player="A", space=named) as caught:
        rules.check_group(state, "A", (S0G1, S0G2, S1G3, S1G4))
    caught.match(r"each space of the group must hold one of A's tokens \(Guild 4 on B does not\)")
    with refuses("san_gimignano.space.missing", space=space_name(sp(5, 5, G1), state.segments)) as caught:
        rules.check_group(state, "A", (S0G1, S0G2, S1G3, sp(5, 5, G1)))
    caught.match("there is no space guild-1 at \\[5, 5\\]")
    with refuses("san_gimignano.group.not_connected") as caught:
        rules.check_group(state, "A", (S0G1, S0G2, S1G3, S2G4))
    caught.match("the spaces of a group must be connected")
    string = replace(state, setup=replace(state.setup, variant="string"))
    with refuses("san_gimignano.group.all_guilds") as caught:
        rules.check_group(string, "A", (S0G1, S0G2, S1G3))
    caught.match("the group must show all four guilds")


def test_hints_name_the_missing_space():
    full = board({S0G1: "A", S0G2: "A", S1G3: "A", S1G4: "BB"})
    assert views.hints(full, "A") == []  # the only guild-4 next to them is full
    state = board({S0G1: "A", S0G2: "A", S1G3: "A", S1G4: "B"})
    hints = views.hints(state, "A")
    assert hints == [(frozenset({S0G1, S0G2, S1G3, S1G4}), S1G4)]
    for group, gap in hints:
        assert len(group) == 4 and gap in group
        assert sum(1 for space in group if "A" not in state.tokens.get(space, ())) == 1
    string = board({S0G1: "A", S0G2: "A", S1G3: "A"}, variant="string")
    assert (frozenset({S0G1, S0G2, S1G3, S1G4}), S1G4) in views.hints(string, "A")


def test_end_test_counts_room_and_tokens_in_hand():
    state = board({S0G1: "BB"})
    # every set of four needs S0.g1 (the only guild-1 touching a guild-4 path) or S2
    assert groups.could_still_build(state, "A")
    blocked = board({S0G1: "BB", S2G1: "BB", S2G3: "BB"})
    assert not groups.could_still_build(blocked, "A")
    assert groups.could_still_build(blocked, "B")  # B holds S0.g1 and S2.g1
    # with no tokens left, only a group already on the board counts
    empty_hand = replace(blocked, on_board={"A": 20, "B": 6})
    assert not groups.could_still_build(empty_hand, "A")
    # three gaps but two tokens in hand
    short = board({S0G1: "A"})
    short = replace(short, on_board={"A": 18, "B": 0})
    assert not groups.could_still_build(short, "A")
    short = replace(short, on_board={"A": 17, "B": 0})
    assert groups.could_still_build(short, "A")


# Three segments in a line where guild-1 and guild-3 are six spaces apart:
# T2.g1 - T2.g4 - T1.g2 - T1.g4 - T0.g2 - T0.g3 once T1.g3 is full.
T0 = {"at": [0, 0], "edges": [G4, G3, G3, G2, G2, G4]}
T1 = {"at": [-1, 0], "edges": [G4, G4, G3, G3, G2, G2]}
T2 = {"at": [-1, -1], "edges": [G2, G4, G4, G1, G1, G2]}
LINE = (sp(-1, -1, G1), sp(-1, -1, G4), sp(-1, 0, G2), sp(-1, 0, G4), sp(0, 0, G2), sp(0, 0, G3))


def test_a_long_string_is_a_group_only_in_the_variant():
    tokens = dict.fromkeys(LINE, "A")
    tokens[sp(-1, 0, G3)] = "BB"
    string = board(tokens, segments=(T0, T1, T2), variant="string")
    assert groups.buildable(string, "A") == [frozenset(LINE)]
    assert groups.buildable(board(tokens, segments=(T0, T1, T2)), "A") == []


def test_end_test_with_the_variant_allows_longer_strings():
    blocked = {sp(-1, 0, G3): "BB"}
    string = board(blocked, segments=(T0, T1, T2), variant="string")
    assert groups.could_still_build(string, "A")
    four = board(blocked, segments=(T0, T1, T2))
    assert not groups.could_still_build(four, "A")
    # six gaps to fill: five tokens in hand are not enough
    assert not groups.could_still_build(replace(string, on_board={"A": 15, "B": 2}), "A")
    assert groups.could_still_build(replace(string, on_board={"A": 14, "B": 2}), "A")
