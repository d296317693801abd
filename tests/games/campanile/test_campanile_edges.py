"""Hand-built edge cases: ranking ties, empty towers, flag sizes, the 2-player game and the end."""

from __future__ import annotations

from typing import Any

from companion.games.campanile import Campanile
from companion.games.campanile.moves import Build, Influence, Relocate, Reveal, Take, Valuation
from companion.games.campanile.rules import win_reason, winners
from companion.games.campanile.state import Award, Group
from companion.games.campanile.valuation import explain, ranking, value_tower, value_towers
from companion.games.messages import msg
from companion.i18n import summary_json
from companion.service.records import final_state, parse_record
from tests.helpers_campanile import explained, refused
from tests.refusals import assert_message, rejects_record

GAME = Campanile()
TOWERS = ("grey", "brown", "red", "blue", "yellow")
TWO_FLAGS = {"intermezzo": [[3], [2], [1], [1]], "finito": [[5, 1], [4], [3], [2], [1]]}


def record(players: list[str], moves: list[dict[str, Any]], options: dict[str, Any] | None = None,
           setup: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"format": "companion-record/1", "game": "campanile", "players": players,
            "options": options or {}, "setup": setup or {}, "moves": moves}


def play(state: Any, *moves: Any) -> Any:
    for move in moves:
        state = GAME.apply(state, move)
    return state


# -- ranking ---------------------------------------------------------------
def test_all_towers_equal_rank_in_row_order_nearest_the_display_highest() -> None:
    assert ranking([0, 0, 0, 0, 0]) == [0, 1, 2, 3, 4]
    assert ranking([4, 4, 4, 4, 4]) == [0, 1, 2, 3, 4]
    assert ranking([1, 5, 5, 2, 5]) == [1, 2, 4, 3, 0]


def test_all_towers_equal_flags_follow_the_row_order_with_custom_tower_names() -> None:
    names = ("north", "east", "south", "west", "centre")
    results = value_towers(names, [3, 3, 3, 3, 3], [()] * 5, ((6, 4, 2), (5, 3, 1), (4, 2), (3, 1), (2,)))
    assert [(r.tower, r.rank, r.flag) for r in results] == [
        ("centre", 5, (2,)), ("west", 4, (3, 1)), ("south", 3, (4, 2)),
        ("east", 2, (5, 3, 1)), ("north", 1, (6, 4, 2))]


def test_intermezzo_leaves_the_lowest_tower_unflagged() -> None:
    results = value_towers(TOWERS, [5, 1, 4, 3, 2], [()] * 5, ((4, 2), (3, 1), (2,), (1,)))
    assert [r.tower for r in results] == ["yellow", "blue", "red", "grey"]
    assert "brown" not in [r.tower for r in results]


def test_row_order_decides_ties_in_a_record() -> None:
    # red is nearer the display than grey in this row, so at equal height red ranks higher
    moves = [{"type": "build", "player": "A", "tower": "grey", "stories": 2},
             {"type": "influence", "player": "A", "tower": "grey"},
             {"type": "build", "player": "B", "tower": "red", "stories": 2},
             {"type": "influence", "player": "B", "tower": "red"},
             {"type": "build", "player": "C", "tower": "blue", "stories": 1},
             {"type": "valuation", "phase": "intermezzo"}]
    setup = {"towers": ["red", "grey", "blue", "brown", "yellow"]}
    state = final_state(parse_record(record(["A", "B", "C"], moves, setup=setup)))
    flags = {f["tower"]: f for f in GAME.summary(state)["valuations"][0]["flags"]}
    assert flags["red"]["rank"] == 1 and flags["red"]["awards"] == [{"player": "B", "points": 4}]
    assert flags["grey"]["rank"] == 2 and flags["grey"]["awards"] == [{"player": "A", "points": 3}]
    assert flags["blue"]["rank"] == 3 and flags["brown"]["rank"] == 4
    assert "yellow" not in flags


# -- flags vs contenders -----------------------------------------------------
def test_tower_without_markers_awards_nothing() -> None:
    result = value_tower("grey", 1, (4, 2), ())
    assert result.awards == ()
    assert result.influence == ()
    assert explained(result.explanation) == \
        "Nobody has markers under the grey tower: its flag 4/2 is not given."
    assert_message(result.explanation[0], "campanile.explain.nobody", tower=msg("campanile.colour.grey"),
                   flag="4/2")


def test_tower_without_markers_in_summary_is_empty_list_and_dict() -> None:
    state = play(GAME.start(["A", "B", "C"], {}, {}), Build("A", "red", 1), Valuation("intermezzo"))
    flags = GAME.summary(state)["valuations"][0]["flags"]
    assert len(flags) == 4
    for flag in flags:
        assert flag["awards"] == []
        assert flag["influence"] == {}
    assert GAME.summary(state)["scores"] == {"A": 0, "B": 0, "C": 0}


def test_more_contenders_than_flag_values() -> None:
    stack = (Group("A", (1,)), Group("B", (3,)), Group("C", (2,)), Group("D", (2, 1)))
    result = value_tower("red", 2, (3, 1), stack)
    assert result.awards == (Award("B", 3), Award("D", 1))
    text = explained(result.explanation)
    assert "C and A get nothing" in text
    assert_message(result.explanation[-1], "campanile.explain.nothing", players=["C", "A"], count=2)
    # D (3) ties B (3) but B's group is closer to the base
    assert "B and D both have 3; B's markers are closer to the base" in text
    assert_message(result.explanation[1], "campanile.explain.tie_two", first="B", second="D", influence=3)


def test_fewer_contenders_than_flag_values_leave_the_rest_unawarded() -> None:
    result = value_tower("red", 1, (6, 4, 2), (Group("C", (1,)),))
    assert result.awards == (Award("C", 6),)
    assert "The 4/2 are not given: only 1 player has markers here." in explained(result.explanation)
    assert_message(result.explanation[-1], "campanile.explain.unclaimed", values="4/2", count=2)
    result = value_tower("red", 1, (6, 4, 2), (Group("C", (1,)), Group("A", (2,))))
    assert result.awards == (Award("A", 6), Award("C", 4))
    assert "The 2 is not given: only 2 players have markers here." in explained(result.explanation)
    assert "A zászló 2 értékét senki sem kapja meg: csak 2 játékosnak van itt jelzője." \
        in explained(result.explanation, "hu")


def test_fewer_contenders_in_a_full_game_leaves_chips_in_the_supply() -> None:
    state = play(GAME.start(["A", "B", "C"], {}, {}), Build("A", "red", 3), Influence("A", "red"),
                 Valuation("finito"))
    summary = GAME.summary(state)
    assert summary["chips"] == {"A": [6], "B": [], "C": []}
    assert dict(state.chip_supply)[6] == 0
    assert dict(state.chip_supply)[4] == 3  # not given: no second contender
    assert summary["winners"] == ["A"]


def test_three_way_tie_explained_in_base_order() -> None:
    stack = (Group("A", (2,)), Group("B", (1, 1)), Group("C", (2,)))
    result = value_tower("red", 1, (6, 4, 2), stack)
    assert result.awards == (Award("A", 6), Award("B", 4), Award("C", 2))
    assert "A, B and C all have 2; A's markers are closer to the base, then B and C's." \
        in explained(result.explanation)
    assert_message(result.explanation[1], "campanile.explain.tie_many", players=["A", "B", "C"], first="A",
                   rest=["B", "C"], influence=2)


def test_tie_outside_the_flag_is_not_explained() -> None:
    stack = (Group("A", (3,)), Group("B", (1,)), Group("C", (1,)))
    ordered = sorted(stack, key=lambda g: -g.influence)
    text = explained(explain("red", (2,), stack, ordered))
    assert "both have" not in text
    assert "B and C get nothing" in text


# -- three players, a complete game ----------------------------------------
def test_three_player_game_scores_and_chips() -> None:
    state = GAME.start(["A", "B", "C"], {}, {})
    state = play(state, Build("A", "grey", 3), Influence("A", "grey"),
                 Build("B", "grey", 2), Influence("B", "grey"),
                 Build("C", "brown", 2), Influence("C", "brown"),
                 Valuation("intermezzo"),
                 Build("A", "brown", 1), Influence("A", "brown"),
                 Build("B", "red", 1), Influence("B", "red"),
                 Valuation("finito"))
    summary = GAME.summary(state)
    # intermezzo: grey 5 (A 3, B 2) -> A 4, B 2; brown 2 (C 2) -> C 3
    # finito: grey 5 6/4/2 -> A 6, B 4; brown 3 (C 2, A 1) 5/3/1 -> C 5, A 3; red 1 (B 1) 4/2 -> B 4
    assert summary["scores"] == {"A": 13, "B": 10, "C": 8}
    assert summary["chips"] == {"A": [6, 4, 3], "B": [4, 4, 2], "C": [5, 3]}
    assert summary["winners"] == ["A"]
    assert summary["finished"] is True and summary["phase"] == "finished"
    assert summary["to_move"] is None


# -- the end: ties -----------------------------------------------------------
def _finished_with_chips(chips: dict[str, tuple[int, ...]]) -> Any:
    state = GAME.start(list(chips), {}, {})
    return state.with_(chips=tuple(chips.values()), phase="finished")


def test_tie_at_the_end_goes_to_the_single_highest_chip() -> None:
    state = _finished_with_chips({"A": (4, 4, 2), "B": (6, 3, 1), "C": (5, 4, 1)})
    assert state.scores == {"A": 10, "B": 10, "C": 10}
    assert winners(state) == ["B"]


def test_tie_on_points_and_highest_chip_is_a_shared_win() -> None:
    state = _finished_with_chips({"A": (5, 2, 1), "B": (1,), "C": (5, 3)})
    assert winners(state) == ["A", "C"]
    state = _finished_with_chips({"A": (), "B": (), "C": ()})
    assert winners(state) == ["A", "B", "C"]


def test_tie_break_in_a_replayed_record_and_chips_highest_first() -> None:
    # A: intermezzo 1 + finito 6 = 7 (highest chip 6); B: intermezzo 4 + finito 3 = 7 (highest 4)
    moves = [{"type": "build", "player": "A", "tower": "yellow", "stories": 1},
             {"type": "influence", "player": "A", "tower": "yellow"},
             {"type": "build", "player": "B", "tower": "grey", "stories": 3},
             {"type": "influence", "player": "B", "tower": "grey"},
             {"type": "build", "player": "C", "tower": "grey", "stories": 1},
             {"type": "valuation", "phase": "intermezzo"},
             {"type": "build", "player": "A", "tower": "yellow", "stories": 3},
             {"type": "influence", "player": "A", "tower": "yellow"},
             {"type": "build", "player": "B", "tower": "yellow", "stories": 2},
             {"type": "valuation", "phase": "finito"}]
    summary = GAME.summary(final_state(parse_record(record(["A", "B", "C"], moves))))
    # intermezzo: grey 4 (B 3) -> B 4; yellow 1 is rank 2 (brown, red, blue are 0) -> A 3
    # finito: yellow 6 (A 4) -> A 6; grey 4 (B 3) -> B 5
    assert summary["chips"] == {"A": [6, 3], "B": [5, 4], "C": []}
    assert summary["scores"] == {"A": 9, "B": 9, "C": 0}
    assert summary["winners"] == ["A"]
    state = final_state(parse_record(record(["A", "B", "C"], moves)))
    assert GAME.outcome(state).decided_by == "highest_chip"  # the key; the words: win_reason
    assert_message(win_reason(state), "campanile.outcome.highest_chip", player="A", tied=["A", "B"], points=9,
                   chip=6)
    assert summary_json(summary["win_reason"]) == {
        "code": "campanile.outcome.highest_chip",
        "params": {"player": "A", "tied": ["A", "B"], "points": 9, "chip": 6},
        "text": "A and B are tied on 9 points; A wins with the highest chip (6)."}


# -- the 2-player game ---------------------------------------------------------
def test_two_players_without_flags_are_refused_with_the_reason() -> None:
    with rejects_record("campanile.options.flags_needed", "options.flags") as caught:
        parse_record(record(["A", "B"], []))
    assert "2-player flag cards" in caught.value.text
    assert "rulebook" in caught.value.text


def test_two_players_with_flags_play_and_use_them() -> None:
    state = GAME.start(["A", "B"], {"flags": TWO_FLAGS}, {})
    state = play(state, Build("A", "red", 2), Influence("A", "red"), Build("B", "grey", 1),
                 Influence("B", "grey"), Valuation("intermezzo"),
                 Build("A", "blue", 1), Influence("A", "red"), Build("B", "red", 1), Influence("B", "red"),
                 Valuation("finito"))
    summary = GAME.summary(state)
    # intermezzo: red 2 -> A 3; grey 1 -> B 2. finito: red 3 (A 3, B 1) 5/1 -> A 5, B 1; grey 1 (B) -> 4
    assert summary["chips"] == {"A": [5, 3], "B": [4, 2, 1]}
    assert summary["winners"] == ["A"]
    assert state.chip_supply == ()  # custom flags: no supply
    assert GAME.options_json(state) == {"two_player_move": False, "flags": TWO_FLAGS}


def test_custom_flags_are_not_limited_by_the_chip_supply() -> None:
    flags = {"intermezzo": [[6], [6], [6], [6]], "finito": [[6, 6, 6], [6], [6], [6], [6]]}
    state = GAME.start(["A", "B", "C"], {"flags": flags}, {})
    for tower in TOWERS:
        state = play(state, Build("A", tower, 1), Influence("A", tower), Build("B", tower, 1),
                     Build("C", tower, 1))
    state = play(state, Valuation("intermezzo"), Build("A", "red", 1), Valuation("finito"))
    assert state.chips[0] == (6,) * 9


def _two(option: bool = True, display: list[str] | None = None) -> Any:
    options: dict[str, Any] = {"flags": TWO_FLAGS, "two_player_move": option}
    return GAME.start(["A", "B"], options, {"display": display} if display else {})


def test_relocate_moves_an_own_value_2_marker_and_counts_as_the_marker() -> None:
    state = play(_two(), Build("A", "red", 2), Influence("A", "red"),
                 Build("B", "blue", 2), Influence("B", "blue"),
                 Build("A", "grey", 2))
    supply = state.markers_of("A")
    after = GAME.apply(state, Relocate("A", "red", "blue"))
    assert after.stacks[2] == ()  # A's only marker left red: its group disappeared
    assert after.stacks[3] == (Group("B", (2,)), Group("A", (2,)))  # new group at the end
    assert after.markers_of("A") == supply  # nothing taken from the supply
    with refused("campanile.marker.already", "already placed a marker this turn", player="A"):
        GAME.apply(after, Influence("A", "grey"))
    with refused("campanile.marker.already", "already placed a marker this turn", player="A"):
        GAME.apply(after, Relocate("A", "blue", "grey"))
    # and after an influence, no relocate
    placed = GAME.apply(state, Influence("A", "grey"))
    with refused("campanile.marker.already", "already placed a marker this turn", player="A"):
        GAME.apply(placed, Relocate("A", "red", "blue"))


def test_relocate_joins_the_existing_group_and_moves_the_last_value_2() -> None:
    state = play(_two(), Build("A", "red", 2), Influence("A", "red"),
                 Build("B", "red", 1), Influence("B", "red"),
                 Build("A", "red", 1), Influence("A", "red"),
                 Build("B", "grey", 2), Influence("B", "grey"),
                 Build("A", "grey", 2), Influence("A", "grey"),
                 Build("B", "grey", 1),
                 Build("A", "red", 2))
    assert state.stacks[2] == (Group("A", (2, 1)), Group("B", (1,)))
    assert state.stacks[0] == (Group("B", (2,)), Group("A", (2,)))
    after = GAME.apply(state, Relocate("A", "red", "grey"))
    assert after.stacks[2] == (Group("A", (1,)), Group("B", (1,)))  # group stays, still first
    assert after.stacks[0] == (Group("B", (2,)), Group("A", (2, 2)))


def test_relocate_works_without_value_2_markers_in_supply() -> None:
    state = _two()
    for _ in range(3):
        state = play(state, Build("A", "red", 2), Influence("A", "red"), Build("B", "red", 1))
    assert state.markers_of("A")[2] == 0
    state = GAME.apply(state, Build("A", "red", 2))
    with refused("campanile.marker.none_left", "has none left", stories=2, player="A"):
        GAME.apply(state, Influence("A", "red"))
    after = GAME.apply(state, Relocate("A", "red", "yellow"))
    assert after.stacks[2] == (Group("A", (2, 2)),)
    assert after.stacks[4] == (Group("A", (2,)),)


def test_relocate_refusals() -> None:
    base = play(_two(), Build("A", "red", 2), Influence("A", "red"),
                Build("B", "blue", 2), Influence("B", "blue"))
    one_story = GAME.apply(base, Build("A", "grey", 1))
    with refused("campanile.relocate.stories", "only after a 2-story raise", needed=2, stories=1):
        GAME.apply(one_story, Relocate("A", "red", "blue"))
    two = GAME.apply(base, Build("A", "grey", 2))
    with refused("campanile.relocate.same_tower", "must be moved to another tower"):
        GAME.apply(two, Relocate("A", "red", "red"))
    with refused("campanile.relocate.no_marker", "A has no value-2 marker under the blue tower", player="A",
                 tower=msg("campanile.colour.blue")):
        GAME.apply(two, Relocate("A", "blue", "red"))  # only B's marker is there
    with refused("campanile.relocate.no_marker", "A has no value-2 marker under the grey tower", player="A",
                 tower=msg("campanile.colour.grey")):
        GAME.apply(two, Relocate("A", "grey", "red"))
    with refused("campanile.turn.not_yours", "it is A's turn, not B's", current="A", player="B"):
        GAME.apply(two, Relocate("B", "blue", "red"))
    with refused("campanile.tower.unknown", 'no tower called "pink"', tower="pink"):
        GAME.apply(two, Relocate("A", "red", "pink"))
    with refused("campanile.relocate.not_in_game", "optional 2-player rule"):
        GAME.apply(play(_two(option=False), Build("A", "red", 2), Influence("A", "red"),
                        Build("B", "red", 1), Build("A", "red", 2)), Relocate("A", "red", "blue"))


def test_relocate_only_a_value_2_marker_not_a_1_or_3() -> None:
    state = play(_two(), Build("A", "red", 1), Influence("A", "red"), Build("B", "red", 1),
                 Build("A", "blue", 3), Influence("A", "blue"), Build("B", "red", 1),
                 Build("A", "red", 2))
    with refused("campanile.relocate.no_marker", "no value-2 marker under the red tower", value=2):
        GAME.apply(state, Relocate("A", "red", "grey"))
    with refused("campanile.relocate.no_marker", "no value-2 marker under the blue tower", value=2):
        GAME.apply(state, Relocate("A", "blue", "grey"))


def test_relocate_target_must_be_in_the_display() -> None:
    state = _two(display=["grey", "red", "red"])
    state = play(state, Build("A", "red", 2), Influence("A", "red"), Take("A", "grey"), Reveal("blue"),
                 Build("B", "red", 1), Take("B", "red"), Reveal("yellow"),
                 Build("A", "grey", 2))
    assert sorted(state.display) == ["blue", "red", "yellow"]
    with refused("campanile.marker.not_in_display", "only under a tower whose style is in the display",
                 tower=msg("campanile.colour.grey")):
        GAME.apply(state, Relocate("A", "red", "grey"))
    after = GAME.apply(state, Relocate("A", "red", "blue"))  # the source need not be displayed
    assert after.stacks[3] == (Group("A", (2,)),)
    assert after.stacks[2] == ()
    # after the take, no relocate any more
    taken = GAME.apply(state, Take("A", "blue"))
    with refused("campanile.marker.after_take", "before taking a card"):
        GAME.apply(taken, Relocate("A", "red", "blue"))


def test_relocate_changes_the_valuation() -> None:
    state = play(_two(), Build("A", "red", 2), Influence("A", "red"),
                 Build("B", "blue", 1), Influence("B", "blue"),
                 Build("A", "grey", 2), Relocate("A", "red", "blue"), Valuation("intermezzo"))
    flags = {f["tower"]: f for f in GAME.summary(state)["valuations"][0]["flags"]}
    assert flags["blue"]["influence"] == {"B": 1, "A": 2}
    assert flags["red"]["influence"] == {}
    assert flags["red"]["awards"] == []


def test_two_player_move_in_a_record_round_trips() -> None:
    moves = [{"type": "build", "player": "A", "tower": "red", "stories": 2},
             {"type": "influence", "player": "A", "tower": "red"},
             {"type": "build", "player": "B", "tower": "red", "stories": 1},
             {"type": "build", "player": "A", "tower": "blue", "stories": 2},
             {"type": "relocate", "player": "A", "from": "red", "to": "grey"}]
    parsed = parse_record(record(["A", "B"], moves, {"flags": TWO_FLAGS, "two_player_move": True}))
    assert parsed.moves[-1] == Relocate("A", "red", "grey")
    assert [GAME.move_to_json(m) for m in parsed.moves] == moves
    summary = GAME.summary(final_state(parsed))
    assert summary["towers"][0]["stack"] == [{"player": "A", "markers": [2]}]
    assert summary["towers"][2]["stack"] == []


def test_a_group_emptied_by_relocation_is_gone_and_a_later_marker_starts_at_the_end() -> None:
    state = play(_two(), Build("A", "red", 2), Influence("A", "red"),
                 Build("B", "red", 1), Influence("B", "red"),
                 Build("A", "grey", 2), Relocate("A", "red", "grey"),
                 Build("B", "grey", 1))
    assert state.stacks[2] == (Group("B", (1,)),)
    state = play(state, Build("A", "red", 1), Influence("A", "red"))
    assert state.stacks[2] == (Group("B", (1,)), Group("A", (1,)))
    # now B is closer to the base and wins a tie at 1
    result = value_tower("red", 1, (3,), state.stacks[2])
    assert result.awards == (Award("B", 3),)
