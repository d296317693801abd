"""Reveals: turn order, card icons, tile silver, frame gifts, evaluations, the cap, the Steward."""

from __future__ import annotations

import pytest
from castelli_testkit import GAME, Sell, Steward, given, play, refused, rv, sh, start

from companion.i18n import summary_json
from tests.refusals import assert_message

NEUTRAL_TILE = "blue:1 yellow:1 red:1 green:1"


def test_first_reveal_is_the_first_player_and_turns_go_round():
    state = start()
    assert GAME.to_move(state) == "Anna"
    refused(state, rv("Bela", "s5", NEUTRAL_TILE),
            "castelli.reveal.not_your_turn", "it is Anna's turn to reveal a tile, not Bela's")
    state = play(state, rv("Anna", "s5", NEUTRAL_TILE))
    assert GAME.to_move(state) == "Bela"
    refused(state, rv("Anna", "s6", NEUTRAL_TILE),
            "castelli.reveal.already_this_turn", "you have already revealed a tile this turn")
    refused(state, rv("Bela", "s5", NEUTRAL_TILE),
            "castelli.reveal.face_up", "the tile in row 5, column 1 is already face up")
    refused(state, rv("Bela", "s99", NEUTRAL_TILE),
            "castelli.reveal.no_space", 'there is no tile space "s99"')
    refused(state, rv("Zed", "s6", NEUTRAL_TILE),
            "common.player.not_playing", '"Zed" is not playing in this game')


def test_swap_without_dilemma_is_refused():
    refused(start(), rv("Anna", "s5", NEUTRAL_TILE, swap=True),
            "castelli.reveal.swap_without_dilemma", "part of the Dilemma module")


def test_card_icons_draw_one_card_each_for_the_revealer():
    state = play(start(), rv("Anna", "s5", "blue:card yellow:card red:1 green:1"))
    assert state.cards == {"Anna": 2, "Bela": 0, "Csaba": 0, "Dora": 0}


def test_card_icon_draw_stops_when_every_card_is_in_hands():
    state = given(start(), cards={"Bela": 25})
    state = play(state, rv("Anna", "s5", "blue:card yellow:1 red:1 green:1"))
    assert state.cards["Anna"] == 0


def test_tile_silver_comes_from_the_mine_and_never_more_than_is_left():
    state = play(start(), rv("Anna", "s5", NEUTRAL_TILE, silver=2))
    assert state.silver["Anna"] == 2 and state.mine == 20
    low = play(start(mine=1), rv("Anna", "s5", NEUTRAL_TILE, silver=2))
    assert low.silver["Anna"] == 1 and low.mine == 0
    empty = play(start(mine=0), rv("Anna", "s5", NEUTRAL_TILE, silver=1))
    assert empty.silver["Anna"] == 0 and empty.mine == 0


@pytest.mark.parametrize(("shields", "expected"), [
    # s1: N frame:wood, E frame:grain, S rock R, W frame:stone
    ("blue:1 yellow:2 red:3 green:4", {"Anna": (1, 0, 0), "Bela": (0, 1, 0), "Dora": (0, 0, 1)}),
    ("green:6 red:1 blue:2 yellow:3", {"Dora": (1, 0, 0), "Csaba": (0, 1, 0), "Bela": (0, 0, 1)}),
])
def test_resource_frame_gifts_go_to_the_shield_facing_the_frame(shields, expected):
    state = play(start(), rv("Anna", "s1", shields))
    for player, res in expected.items():
        assert state.resources[player] == res


def test_silver_card_and_neutral_frame_gifts():
    # s2: N frame:silver, E frame:card, S R2, W frame:neutral
    state = play(start(), rv("Anna", "s2", "red:2 green:3 blue:4 yellow:5"))
    assert state.silver == {"Anna": 0, "Bela": 0, "Csaba": 1, "Dora": 0}
    assert state.mine == 21
    assert state.cards == {"Anna": 0, "Bela": 0, "Csaba": 0, "Dora": 1}


def test_frame_silver_gift_needs_silver_in_the_mine():
    state = play(start(mine=0), rv("Anna", "s2", "red:2 green:3 blue:4 yellow:5"))
    assert state.silver["Csaba"] == 0 and state.mine == 0


def test_card_covered_shield_and_neutral_colour_get_no_frame_gift():
    state = play(start(), rv("Anna", "s1", "blue:card yellow:2 red:3 green:4"))
    assert state.resources["Anna"] == (0, 0, 0) and state.cards["Anna"] == 1  # the icon's card
    two = start(players=("Anna", "Bela"))  # red and green are neutral
    two = play(two, rv("Anna", "s1", "red:3 green:2 blue:1 yellow:4"))
    assert two.resources == {"Anna": (0, 0, 0), "Bela": (0, 0, 1)}


def test_area_is_evaluated_when_its_last_tile_is_revealed_and_only_once():
    state = play(start(), rv("Anna", "s1", "blue:1 yellow:1 red:3 green:1"))
    assert state.evaluations == ()
    state = play(state, rv("Bela", "s3", "yellow:4 blue:1 red:1 green:1"))  # R: red 3 + yellow 4
    assert [(e.area, dict(e.awards)) for e in state.evaluations] == [("R", {"Bela": {"stone": 2}})]
    assert "R" in state.done


def test_resource_cap_of_five():
    state = given(start(), resources={"Bela": (0, 0, 4)})
    state = play(state, rv("Anna", "s1", "blue:1 yellow:1 red:3 green:1"),
                 rv("Bela", "s3", "yellow:4 blue:1 red:1 green:1"))
    assert state.resources["Bela"] == (0, 1, 5)  # a grain from the frame, 1 of 2 stone
    assert state.evaluations[-1].awards == {"Bela": {"stone": 1}}
    texts = assert_message(state.evaluations[-1].explanation, "castelli.evaluation.with_caps")
    assert texts["en"].endswith("(Bela receives 1 of 2 (at most 5 of a resource))")
    assert_message(state.evaluations[-1].explanation.params["caps"][0], "castelli.evaluation.capped_resource",
                   player="Bela", gained=1, share=2, cap=5)
    full = given(start(), resources={"Bela": (0, 0, 5)})
    full = play(full, rv("Anna", "s1", "blue:1 yellow:1 red:3 green:1"),
                rv("Bela", "s3", "yellow:4 blue:1 red:1 green:1"))
    assert full.resources["Bela"] == (0, 1, 5) and full.evaluations[-1].awards == {}


def test_nobody_with_points_leaves_the_area_unevaluated_and_noted():
    state = play(start(), rv("Anna", "s1", "blue:1 yellow:1 red:card green:1"),
                 rv("Bela", "s3", "blue:card yellow:1 red:1 green:1"))
    assert state.evaluations == () and "R" in state.done
    assert [(n.area, n.kind) for n in state.notes] == [("R", "rock")]
    assert "not evaluated" in assert_message(state.notes[0].explanation, "castelli.evaluation.nobody")["en"]
    assert summary_json(GAME.summary(state)["not_evaluated"]) == [{
        "area": "R", "kind": "rock", "code": "castelli.evaluation.nobody", "params": {},
        "text": "rock, row 2, column 1: nobody has a shield point here: the area is not evaluated"}]


def test_mine_is_not_evaluated_before_the_end():
    state = start()
    for player, space in zip(["Anna", "Bela", "Csaba"], ["s6", "s7", "s8"], strict=True):
        state = play(state, rv(player, space, "blue:2 yellow:1 red:1 green:1"))
    assert all(s in state.revealed for s, _ in state.board.borders["X"])
    assert "X" not in state.done and state.mine == 22


def test_steward_turns_the_tile_and_redoes_gifts_and_evaluations():
    state = given(start(), cards={"Dora": 1})
    state = play(state, rv("Anna", "s1", "blue:1 yellow:1 red:3 green:1"))
    # Bela reveals s3 so that R is complete: red 3 + yellow 4 -> Bela 2 stone.
    after = play(state, rv("Bela", "s3", "yellow:4 blue:1 red:1 green:1"))
    assert after.resources["Bela"] == (0, 1, 2)  # the grain is s1's frame gift
    # Dora turns it: now blue's 1 points into R (red 3 wins), yellow faces the frame.
    turned = play(after, Steward("Dora", sh("blue:1 red:1 green:1 yellow:4")))
    assert turned.revealed["s3"] == sh("blue:1 red:1 green:1 yellow:4")
    assert turned.resources["Bela"] == (0, 1, 0)
    assert turned.resources["Csaba"] == (0, 0, 2)
    assert [e.area for e in turned.evaluations] == ["R"]
    assert turned.evaluations[0].awards == {"Csaba": {"stone": 2}}
    assert turned.cards["Dora"] == 0
    assert after.resources["Bela"] == (0, 1, 2)  # the earlier state is untouched


def test_steward_retakes_frame_gifts():
    state = given(start(), cards={"Bela": 1})
    state = play(state, rv("Anna", "s1", "blue:1 yellow:1 red:3 green:1"))
    assert state.resources["Anna"] == (1, 0, 0)  # blue faces frame:wood
    turned = play(state, Steward("Bela", sh("green:1 blue:1 yellow:1 red:3")))
    assert turned.resources["Anna"] == (0, 1, 0)  # now blue faces frame:grain
    assert turned.resources["Dora"] == (1, 0, 0)
    assert turned.resources["Csaba"] == (0, 0, 1)  # red faces frame:stone
    assert turned.resources["Bela"] == (0, 0, 0)  # yellow faces the rock


def test_steward_refusals():
    state = given(start(), cards={"Bela": 1, "Anna": 1})
    refused(state, Steward("Bela", sh("green:1 blue:1 yellow:1 red:1")),
            "castelli.steward.not_now", "only the tile revealed just now")
    state = play(state, rv("Anna", "s5", "blue:1 yellow:1 red:1 green:1"))
    refused(state, Steward("Anna", sh("green:1 blue:1 yellow:1 red:1")),
            "castelli.steward.own_tile", "not your own")
    refused(state, Steward("Csaba", sh("green:1 blue:1 yellow:1 red:1")),
            "castelli.card.needs_card", "you need a card in hand")
    refused(state, Steward("Bela", sh("blue:1 yellow:1 red:1 green:1")),
            "castelli.steward.same", "to another direction")
    refused(state, Steward("Bela", sh("blue:1 green:1 red:1 yellow:1")),
            "castelli.steward.not_a_turn", "the same tile's in another")
    sold = play(state, Sell("Anna", 1))
    refused(sold, Steward("Bela", sh("green:1 blue:1 yellow:1 red:1")),
            "castelli.steward.not_now", "only the tile revealed just now")


def test_two_stewards_in_a_row():
    state = given(start(), cards={"Bela": 1, "Dora": 1})
    state = play(state, rv("Anna", "s1", "blue:1 yellow:2 red:3 green:4"),
                 Steward("Bela", sh("green:4 blue:1 yellow:2 red:3")),
                 Steward("Dora", sh("yellow:2 red:3 green:4 blue:1")))
    assert state.cards["Bela"] == 0 and state.cards["Dora"] == 0
    # yellow faces wood, red faces grain, blue faces stone
    assert state.resources == {"Anna": (0, 0, 1), "Bela": (1, 0, 0), "Csaba": (0, 1, 0),
                               "Dora": (0, 0, 0)}
