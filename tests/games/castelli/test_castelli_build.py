"""Building castles: places, costs, silver, cards that change the rules, points, supplies."""

from __future__ import annotations

from castelli_testkit import GAME, PLAYGROUND, Play, anna_turn, build, given, play, refused, rv, sh, start

from companion.games.messages import Message

# s1's S side faces rock R; s4's S side faces forest Fo; s2's S side faces rock R2.
BLUE_IN_R = {"s1": sh("green:1 yellow:1 blue:2 red:1")}


def ready(**changes):
    """Anna's turn, blue 2 points in R, blue 1 in Fi (from s5), planted values."""
    state = anna_turn()
    revealed = {**state.revealed, **BLUE_IN_R, **changes.pop("revealed", {})}
    return given(state, revealed=revealed, **changes)


def test_build_pays_one_of_each_and_scores_row_and_column():
    state = ready(resources={"Anna": (1, 1, 1)})
    after = play(state, build("Anna", "R"))
    assert after.resources["Anna"] == (0, 0, 0)
    assert after.castles == {"R": (("Anna",),)}
    assert after.castles_built["Anna"] == 1
    assert after.score["Anna"] == 3  # village P in row 1, town U in column 1
    assert GAME.summary(after)["castles"]["Anna"] == 1


def test_two_builds_in_one_turn_on_a_two_place_rock():
    state = ready(resources={"Anna": (2, 2, 2)},
                  revealed={**BLUE_IN_R, "s2": sh("green:1 yellow:1 blue:1 red:1")})
    after = play(state, build("Anna", "R2"), build("Anna", "R2"))
    assert after.castles["R2"] == (("Anna",), ("Anna",))
    assert after.score["Anna"] == 2  # R2 at [1,3]: village P in row 1, twice
    refused(given(after, resources={"Anna": (1, 1, 1)}), build("Anna", "R2"),
            "castelli.build.rock_full", "you can build only on a rock with a free castle place")


def test_silver_replaces_one_missing_resource_once_per_turn():
    state = ready(resources={"Anna": (2, 2, 0)}, silver={"Anna": 4},
                  revealed={**BLUE_IN_R, "s2": sh("green:1 yellow:1 blue:1 red:1")})
    after = play(state, build("Anna", "R", silver_for="stone"))
    assert after.silver["Anna"] == 2 and after.mine == state.mine + 2
    assert after.resources["Anna"] == (1, 1, 0)
    refused(after, build("Anna", "R2", silver_for="stone"), "castelli.pay.swap_used", "only once per turn")
    refused(ready(resources={"Anna": (1, 1, 1)}, silver={"Anna": 4}),
            build("Anna", "R", silver_for="wood"),
            "castelli.pay.not_missing", "you have the wood; 2 silver replaces only a missing")
    refused(ready(resources={"Anna": (1, 1, 0)}, silver={"Anna": 1}),
            build("Anna", "R", silver_for="stone"),
            "castelli.pay.swap_short", "replacing the stone costs 2 silver; you have 1")
    refused(ready(resources={"Anna": (1, 0, 0)}, silver={"Anna": 4}),
            build("Anna", "R", silver_for="stone"), "castelli.pay.missing", "you are missing 1 grain")


def test_missing_resources_are_named():
    refused(ready(resources={"Anna": (1, 0, 0)}), build("Anna", "R"),
            "castelli.pay.missing_swap_hint",
            "a castle here costs 1 wood, 1 grain and 1 stone; you are missing 1 grain and 1 stone "
            "(2 silver can replace one, once per turn)")


def test_build_refusals_about_the_place_and_the_turn():
    state = ready(resources={"Anna": (3, 3, 3)})
    refused(state, build("Anna", "Nowhere"), "castelli.area.unknown", 'there is no area "Nowhere"')
    refused(state, build("Anna", "R2"), "castelli.build.no_points",
            "you need at least 1 shield point in the rock in row 2, column 3 to build")
    refused(state, build("Anna", "P"),
            "castelli.build.not_on_kind", "only on a rock with a free castle place, not on a plain")
    refused(state, build("Anna", "Fi"),
            "castelli.build.needs_card", "castles stand on rocks; on a field only with the Count")
    refused(state, build("Bela", "R"),
            "castelli.turn.only_current", "it is Anna's turn; only the player whose turn it is may build")
    refused(start(), build("Anna", "R"),
            "castelli.build.reveal_first", "reveal a tile first")  # Anna's turn, but not begun by a reveal
    refused(start(), build("Bela", "R"),
            "castelli.turn.only_current", "it is Anna's turn; only the player whose turn it is may build")
    before_reveal = given(start(), current=0, revealed_this_turn=False)
    refused(before_reveal, build("Anna", "R"), "castelli.build.reveal_first", "reveal a tile first")
    refused(given(state, castles_built={"Anna": 9}), build("Anna", "R"),
            "castelli.build.no_castles_left", "all 9 of your castles")
    taken = given(state, castles={"R": (("Bela",),)})
    refused(taken, build("Anna", "R"), "castelli.build.rock_full", "no free one")


def test_count_builds_on_a_field_and_countess_on_a_forest_one_castle_each():
    state = ready(resources={"Anna": (2, 2, 2)}, cards={"Anna": 2},
                  revealed={**BLUE_IN_R, "s4": sh("green:1 yellow:1 blue:2 red:1")})
    after = play(state, build("Anna", "Fi", card="count"))
    assert after.castles["Fi"] == (("Anna",),) and after.cards["Anna"] == 1 and after.card_played
    assert after.score["Anna"] == 2  # Fi at [3,1]: town U in column 1
    refused(after, build("Anna", "Fo", card="countess"),
            "castelli.card.one_per_turn", "already played a card this turn")
    forest = play(state, build("Anna", "Fo", card="countess"))
    assert forest.castles["Fo"] == (("Anna",),)
    refused(state, build("Anna", "Fo", card="count"),
            "castelli.build.card_area", "on a field, not on the forest in row 4, column 3")
    refused(state, build("Anna", "R", card="countess"),
            "castelli.build.card_area", "the Countess lets you build on a forest")
    refused(given(state, castles={"Fi": (("Bela",),)}), build("Anna", "Fi", card="count"),
            "castelli.build.one_castle", "a field holds one castle")
    refused(given(state, cards={"Anna": 0}), build("Anna", "Fi", card="count"),
            "castelli.card.none_in_hand",
            "you have no card in hand to play as the Count", card=Message("castelli.card.count"))


def test_master_builder_pays_one_silver_per_missing_resource():
    state = ready(resources={"Anna": (1, 0, 0)}, silver={"Anna": 3}, cards={"Anna": 1})
    after = play(state, build("Anna", "R", card="master-builder"))
    assert after.silver["Anna"] == 1 and after.mine == state.mine + 2
    assert after.resources["Anna"] == (0, 0, 0) and after.cards["Anna"] == 0
    refused(given(state, resources={"Anna": (1, 1, 1)}), build("Anna", "R", card="master-builder"),
            "castelli.pay.master_builder_not_needed", "you have them all")
    refused(given(state, silver={"Anna": 1}), build("Anna", "R", card="master-builder"),
            "castelli.pay.master_builder_short",
            "pays 1 silver per missing resource: 2 for 1 grain and 1 stone, and you have 1")
    refused(state, build("Anna", "R", silver_for="grain", card="master-builder"),
            "castelli.pay.master_builder_swap", "do not pay 2 silver for one as well")


def test_battle_cards_need_the_module():
    refused(ready(resources={"Anna": (2, 2, 2)}, cards={"Anna": 1},
                  castles={"R": (("Bela",),)}),
            build("Anna", "R", on="Bela"), "castelli.build.on_without_battle", "part of the Battle module")
    refused(ready(cards={"Anna": 1}), Play("Anna", "prince", area="T"),
            "castelli.card.battle_only", "is a Battle card")


def test_peasant_village_then_counts_for_castle_points():
    board = {**PLAYGROUND, "settlements": {}}
    state = anna_turn(start(board))
    state = given(state, revealed=BLUE_IN_R, cards={"Anna": 1}, resources={"Anna": (1, 1, 1)})
    assert play(state, build("Anna", "R")).score["Anna"] == 0
    with_village = play(state, Play("Anna", "peasant", area="T"))  # T at [3,5]: not row 1/col 1
    assert with_village.settlements == {"T": "village"}
    village_in_row = play(state, Play("Anna", "peasant", area="P"))
    assert play(village_in_row, build("Anna", "R")).score["Anna"] == 1


def test_reveal_then_build_in_a_real_sequence():
    state = given(start(), resources={"Csaba": (1, 1, 1)})
    state = play(state, rv("Anna", "s5", "blue:1 yellow:1 red:1 green:1"),
                 rv("Bela", "s6", "blue:1 yellow:1 red:1 green:1"),
                 rv("Csaba", "s1", "blue:1 yellow:1 red:2 green:1"),
                 build("Csaba", "R"))
    assert state.castles == {"R": (("Csaba",),)} and state.score["Csaba"] == 3
