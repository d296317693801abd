"""The Dilemma and Battle modules."""

from __future__ import annotations

from castelli_testkit import GAME, End, Guard, Play, anna_turn, build, given, play, refused, rv, sh, start

from companion.games.castelli.scoring import battle_settlement_points

BATTLE = {"modules": ["battle"]}
ALL = ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"]


def battle_turn(**changes):
    """Anna's turn with Battle; Bela's castle in R; blue 3 and yellow 2 in R."""
    state = anna_turn(start(options=BATTLE))
    revealed = {**state.revealed, "s1": sh("green:1 red:1 blue:3 yellow:1"),
                "s3": sh("yellow:2 blue:1 red:1 green:1")}
    state = given(state, revealed=revealed, castles={"R": (("Bela",),)},
                  castles_built={"Bela": 1})
    return given(state, **changes) if changes else state


def test_dilemma_swap_and_the_five_points():
    state = start(options={"modules": ["dilemma"]})
    assert state.holds_own_tile == dict.fromkeys(state.players, True)
    state = play(state, rv("Anna", "s1", "blue:1 yellow:1 red:1 green:1", swap=True))
    assert state.holds_own_tile["Anna"] is False
    for space in ALL[1:]:
        state = play(state, rv(GAME.to_move(state), space, "blue:1 yellow:1 red:1 green:1"))
    done = play(state, End())
    assert done.final["Anna"]["starting_tile"] == 0
    assert done.final["Bela"]["starting_tile"] == 5
    assert GAME.options_json(done)["modules"] == ["dilemma"]


def test_build_on_top_costs_two_of_each_and_scores_like_a_new_castle():
    state = battle_turn(resources={"Anna": (2, 2, 2)})
    after = play(state, build("Anna", "R", on="Bela"))
    assert after.castles["R"] == (("Bela", "Anna"),)
    assert after.resources["Anna"] == (0, 0, 0) and after.score["Anna"] == 3
    assert after.castles_built == {"Anna": 1, "Bela": 1, "Csaba": 0, "Dora": 0}
    refused(given(after, resources={"Dora": (5, 5, 5)}, current=3), build("Dora", "R", on="Anna"),
            "castelli.battle.already_built_on",
            "Anna's castle in the rock in row 2, column 1 already stands on another; "
            "a castle place is built on only once")


def test_build_on_top_refusals():
    state = battle_turn(resources={"Anna": (2, 2, 2)})
    refused(state, build("Anna", "R", on="Anna"), "castelli.battle.own_castle", "not your own")
    refused(state, build("Anna", "R", on="Csaba"),
            "castelli.battle.no_top", "Csaba has no castle on top in the rock in row 2, column 1")
    refused(given(state, castles={"R": (("Bela", "Dora"),)}), build("Anna", "R", on="Dora"),
            "castelli.battle.already_built_on",
            "Dora's castle in the rock in row 2, column 1 already stands on another")
    refused(given(state, resources={"Anna": (1, 2, 2)}), build("Anna", "R", on="Bela"),
            "castelli.pay.missing_swap_hint",
            "a castle here costs 2 wood, 2 grain and 2 stone; you are missing 1 wood")
    even = given(state, revealed={"s3": sh("yellow:3 blue:1 red:1 green:1")})
    refused(even, build("Anna", "R", on="Bela"),
            "castelli.battle.points",
            "you need more shield points in the rock in row 2, column 1 than Bela (you 3, Bela 3)")
    refused(state, build("Anna", "R", on="Zed"), "common.player.not_playing", '"Zed" is not playing')


def test_silver_still_replaces_one_resource_on_top():
    state = battle_turn(resources={"Anna": (2, 1, 2)}, silver={"Anna": 2})
    after = play(state, build("Anna", "R", silver_for="grain", on="Bela"))
    assert after.resources["Anna"] == (0, 0, 0) and after.silver["Anna"] == 0


def test_abbot_and_knights():
    state = battle_turn(resources={"Anna": (1, 1, 1)}, cards={"Anna": 1})
    after = play(state, build("Anna", "R", card="abbot", on="Bela"))
    assert after.resources["Anna"] == (0, 0, 0) and after.cards["Anna"] == 0
    weaker = given(state, revealed={"s3": sh("yellow:5 blue:1 red:1 green:1")},
                   resources={"Anna": (2, 2, 2)})
    after = play(weaker, build("Anna", "R", card="knights", on="Bela"))
    assert after.castles["R"] == (("Bela", "Anna"),)
    refused(state, build("Anna", "R", card="knights", on="Bela"),
            "castelli.battle.knights_points",
            "where you have fewer shield points than its owner (you 3, Bela 2)")


def test_guard_cancels_the_build_on_top():
    state = battle_turn(resources={"Anna": (2, 2, 2)}, cards={"Bela": 1})
    after = play(state, build("Anna", "R", on="Bela"))
    guarded = play(after, Guard("Bela"))
    assert guarded.castles["R"] == (("Bela",),)
    assert guarded.resources["Anna"] == (2, 2, 2) and guarded.score["Anna"] == 0
    assert guarded.cards["Bela"] == 0 and guarded.castles_built["Anna"] == 0
    refused(after, Guard("Csaba"), "castelli.guard.not_now", "the Guard stops a build on top of your castle")
    refused(given(after, cards={"Bela": 0}), Guard("Bela"),
            "castelli.card.needs_card", "you need a card in hand to play the Guard")
    refused(guarded, Guard("Bela"), "castelli.guard.not_now", "right after it happens")
    refused(given(start(), cards={"Bela": 1}), Guard("Bela"), "castelli.card.battle_only", "Battle card")


def test_prince_and_arsonist():
    state = battle_turn(cards={"Anna": 1})
    town = play(state, Play("Anna", "prince", area="T"))
    assert town.settlements["T"] == "town"
    burnt = play(state, Play("Anna", "arsonist", area="U"))
    assert "U" not in burnt.settlements
    refused(state, Play("Anna", "arsonist", area="P"), "castelli.arsonist.no_town",
            "there is no town in the plain in row 2, column 5")
    refused(given(state, settlements={f"x{i}": "town" for i in range(7)}), Play("Anna", "prince", area="T"),
            "castelli.settle.no_towns_left", "all 8 towns are on the board")


def test_battle_final_scoring():
    board = start().board
    # P (village) at [1,5], U (town) at [7,1]; R at [1,1], R2 at [1,3], Fi at [3,1].
    castles = {"R": (("Bela", "Anna"),), "R2": (("Csaba",), ("Csaba",)), "Fi": (("Anna",),)}
    points = battle_settlement_points(board, {"P": "village", "U": "town"}, castles,
                                      ("Anna", "Bela", "Csaba", "Dora"))
    # P row 1: Anna 1 (R), Csaba 2 (R2) -> Csaba 3. U column 1: Anna 2 (R, Fi) -> 6.
    assert points == {"Anna": 6, "Bela": 0, "Csaba": 3, "Dora": 0}
    tied = battle_settlement_points(board, {"P": "village"}, {"R": (("Anna",),), "R2": (("Bela",),)},
                                    ("Anna", "Bela"))
    assert tied == {"Anna": 2, "Bela": 2}  # 3 shared, rounded up


def test_battle_end_lines():
    state = start(options=BATTLE)
    for space in ALL:
        state = play(state, rv(GAME.to_move(state), space, "blue:1 yellow:1 red:1 green:1"))
    zero = dict.fromkeys(state.players, 0)
    state = given(state, castles={"R": (("Bela", "Anna"),), "R2": (("Csaba",),)},
                  resources=dict.fromkeys(state.players, (0, 0, 0)), cards=zero, silver=zero)
    state = given(state, silver={"Anna": 3, "Bela": 2})
    done = play(state, End())
    assert done.final["Anna"] == {"cards": 0, "resources": 0, "silver": 8,
                                  "settlements": done.final["Anna"]["settlements"], "open_castles": 2}
    assert done.final["Bela"]["silver"] == 4  # the mine split 7/7/7: Anna 10, Bela 9, Csaba 7
    assert done.final["Bela"]["open_castles"] == 0 and done.final["Csaba"]["open_castles"] == 2
    # U (town, column 1): Anna alone -> 6; P (village, row 1): Anna 1, Csaba 1 -> 3 shared up = 2
    assert done.final["Anna"]["settlements"] == 8 and done.final["Csaba"]["settlements"] == 2
