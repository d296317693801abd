"""Character cards played with ``play``, selling, and who may do either when."""

from __future__ import annotations

from castelli_testkit import GAME, Play, Sell, anna_turn, given, play, refused, rv, start

from companion.games.messages import Message


def test_king_gives_its_points():
    state = anna_turn(cards={"Anna": 1})
    assert play(state, Play("Anna", "king", value=5)).score["Anna"] == 5


def test_one_card_per_turn_and_a_card_is_needed():
    state = anna_turn(cards={"Anna": 2})
    after = play(state, Play("Anna", "king", value=3))
    refused(after, Play("Anna", "king", value=4),
            "castelli.card.one_per_turn", "you have already played a card this turn")
    refused(anna_turn(), Play("Anna", "king", value=4), "castelli.card.none_in_hand",
            "you have no card in hand to play as the King", card=Message("castelli.card.king"))


def test_thief_takes_one_from_everyone_who_has_silver():
    state = anna_turn(cards={"Anna": 1}, silver={"Bela": 3, "Csaba": 1})
    after = play(state, Play("Anna", "thief"))
    assert after.silver == {"Anna": 2, "Bela": 2, "Csaba": 0, "Dora": 0}


def test_bandits_take_two_or_what_there_is():
    state = anna_turn(cards={"Anna": 1}, silver={"Bela": 3, "Csaba": 1})
    after = play(state, Play("Anna", "bandits"))
    assert after.silver == {"Anna": 3, "Bela": 1, "Csaba": 0, "Dora": 0}


def test_robber_baron_takes_half_the_mine_rounded_down():
    state = anna_turn(cards={"Anna": 1}, silver={"Bela": 1})  # mine 21
    after = play(state, Play("Anna", "robber-baron"))
    assert after.silver["Anna"] == 10 and after.mine == 11


def test_traitor_pays_one_silver_for_a_blind_card():
    state = anna_turn(cards={"Anna": 1, "Bela": 2}, silver={"Anna": 1})
    after = play(state, Play("Anna", "traitor", target="Bela"))
    assert after.cards["Anna"] == 1 and after.cards["Bela"] == 1
    assert after.silver["Anna"] == 0 and after.silver["Bela"] == 1
    refused(state, Play("Anna", "traitor", target="Anna"), "castelli.traitor.self", "not from yourself")
    refused(state, Play("Anna", "traitor", target="Zed"), "common.player.not_playing", '"Zed" is not playing')
    refused(state, Play("Anna", "traitor", target="Csaba"),
            "castelli.traitor.no_card", "Csaba has no card in hand to sell")
    refused(given(state, silver={"Anna": 0}), Play("Anna", "traitor", target="Bela"),
            "castelli.traitor.no_silver", "the Traitor pays Bela 1 silver, and you have none")


def test_peasant_refusals():
    state = anna_turn(cards={"Anna": 1})
    refused(state, Play("Anna", "peasant", area="P"), "castelli.settle.occupied",
            "the plain in row 2, column 5 already has a village")
    refused(state, Play("Anna", "peasant", area="R"),
            "castelli.settle.not_plain", "goes on an empty plain area, not on the rock in row 2, column 1")
    refused(state, Play("Anna", "peasant", area="Q9"), "castelli.area.unknown", 'there is no area "Q9"')
    full = given(state, settlements={f"x{i}": "village" for i in range(12)})
    refused(full, Play("Anna", "peasant", area="T"),
            "castelli.settle.no_villages_left", "all 13 villages are on the board")


def test_a_card_before_the_reveal_starts_the_turn_then_the_reveal_must_come():
    state = given(start(), cards={"Anna": 1, "Bela": 1})
    after = play(state, Play("Anna", "king", value=4))
    assert after.current == 0 and not after.revealed_this_turn
    assert GAME.to_move(after) == "Anna"
    refused(after, Play("Bela", "king", value=4),
            "castelli.turn.only_current", "it is Anna's turn; only the player whose turn it is")
    after = play(after, rv("Anna", "s5", "blue:1 yellow:1 red:1 green:1"))
    refused(after, Play("Anna", "king", value=4),
            "castelli.card.one_per_turn", "already played a card this turn")
    bela = play(after, Play("Bela", "king", value=4))  # starts Bela's turn
    assert bela.current == 1 and bela.score["Bela"] == 4
    refused(bela, Play("Anna", "king", value=3), "castelli.turn.only_current", "it is Bela's turn")


def test_selling_cards():
    state = anna_turn(cards={"Anna": 3})
    after = play(state, Sell("Anna", 2), Sell("Anna", 1))
    assert after.cards["Anna"] == 0 and after.silver["Anna"] == 6 and after.mine == 16
    refused(state, Sell("Anna", 4), "castelli.sell.too_many", "you have 3 cards in hand; you cannot sell 4")
    refused(given(state, mine=3), Sell("Anna", 2),
            "castelli.sell.mine_short", "the mine has only 3 silver; selling 2 cards needs 4")
    refused(state, Sell("Csaba", 1), "castelli.turn.only_current", "it is Anna's turn")


def test_no_new_turn_after_the_last_tile():
    state = start()
    spaces = ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"]
    for i, space in enumerate(spaces):
        state = play(state, rv(GAME.to_move(state), space, "blue:1 yellow:1 red:1 green:1"))
        assert state.current == i % 4
    state = given(state, cards={"Anna": 1})
    refused(state, Play("Anna", "king", value=3), "castelli.turn.game_ends", "nobody starts a new one")
    refused(state, rv("Anna", "s1", "blue:1 yellow:1 red:1 green:1"),
            "castelli.reveal.all_face_up", "every tile is already face up")
    assert GAME.to_move(state) == "Dora"
