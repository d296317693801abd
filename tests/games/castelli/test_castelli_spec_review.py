"""Spec review (records.md, Castelli): what ``evaluations`` lists and the order of a reveal's effects.

Each test quotes the sentence of the spec it pins down. The playground board is in
``castelli_testkit``: the market M is bordered by s5.S, s6.W and s7.N; the rock R by
s1.S and s3.N; s1 faces frame:wood (N), frame:grain (E) and frame:stone (W); s2 faces
frame:silver (N) and frame:card (E).
"""

from __future__ import annotations

from castelli_testkit import GAME, Steward, given, play, rv, sh, start

from companion.i18n import summary_json


def market_reveals(state, s7="green:2 yellow:1 blue:1 red:1"):
    """Anna, Bela, Csaba reveal s5, s6, s7: M gets blue 2 (s5), red 2 (s6) and s7's N shield."""
    return play(state, rv("Anna", "s5", "yellow:1 red:1 blue:2 green:1"),
                rv("Bela", "s6", "yellow:1 blue:1 green:1 red:2"),
                rv("Csaba", "s7", s7))


def test_a_tie_that_rounds_to_nothing_is_still_an_evaluation_with_no_awards():
    # "evaluations lists evaluated areas only (not ... voided areas)"; "awards what was really
    # gained": 2 tents shared 3 ways is 0 cards each, and the area was evaluated.
    state = market_reveals(start())
    summary = GAME.summary(state)
    assert summary["evaluations"] == [{"area": "M", "kind": "market",
                                       "influence": {"blue": 2, "red": 2, "green": 2},
                                       "awards": {}}]
    assert summary["cards"] == {"Anna": 0, "Bela": 0, "Csaba": 0, "Dora": 0}


def test_a_voided_area_is_not_listed_and_a_zero_split_still_is():
    # 2 players (blue Anna, yellow Bela): red and green are neutral.
    two = ("Anna", "Bela")
    state = start(players=two)
    state = play(state, rv("Anna", "s5", "yellow:1 red:1 blue:2 green:1"),
                 rv("Bela", "s6", "yellow:1 blue:1 green:1 red:2"),
                 rv("Anna", "s7", "green:5 yellow:1 blue:1 red:1"))  # neutral green 5 leads M
    assert GAME.summary(state)["evaluations"] == []
    assert [(note.area, note.kind) for note in state.notes] == [("M", "market")]
    assert summary_json(GAME.summary(state))["not_evaluated"][0]["text"].startswith(
        "market, row 6, column 1: neutral green has the most (5)")
    # M: blue 2, red 2, green 2 (two neutrals tied with Anna): void lists nothing; split
    # evaluates it, and Anna's third of 2 tents is 0 cards.
    for neutral, expected in (("void", []),
                              ("split", [{"area": "M", "kind": "market",
                                          "influence": {"blue": 2, "red": 2, "green": 2},
                                          "awards": {}}])):
        state = start(players=two, options={"neutral": neutral})
        state = play(state, rv("Anna", "s5", "yellow:1 red:1 blue:2 green:1"),
                     rv("Bela", "s6", "yellow:1 blue:1 green:1 red:2"),
                     rv("Anna", "s7", "green:2 yellow:1 red:1 blue:1"))
        assert GAME.summary(state)["evaluations"] == expected, neutral


def test_split_with_a_neutral_in_the_tie_awards_the_players_share():
    two = ("Anna", "Bela")
    state = start(players=two, options={"neutral": "split"})
    # R (2 stone): s1.S blue 3, s3.N red 3 (neutral) -> Anna 1, the neutral share lost.
    state = play(state, rv("Anna", "s1", "green:1 yellow:1 blue:3 red:1"),
                 rv("Bela", "s3", "red:3 blue:1 yellow:1 green:1"))
    assert GAME.summary(state)["evaluations"] == [
        {"area": "R", "kind": "rock", "influence": {"blue": 3, "red": 3}, "awards": {"Anna": {"stone": 1}}}]


def test_the_tiles_silver_comes_before_the_frame_silver_gift():
    # "Then, automatically, in this order: one card for P per card icon on the tile; the tile's
    # silver from the mine (what is left, if less); frame gifts".
    state = play(start(mine=1), rv("Anna", "s2", "red:2 green:3 blue:4 yellow:5", silver=1))
    assert state.silver == {"Anna": 1, "Bela": 0, "Csaba": 0, "Dora": 0} and state.mine == 0


def test_the_card_icons_come_before_the_frame_card_gift():
    state = given(start(), cards={"Bela": 24})  # one card left in the deck
    state = play(state, rv("Anna", "s2", "red:2 green:3 blue:4 yellow:card"))
    assert state.cards == {"Anna": 1, "Bela": 24, "Csaba": 0, "Dora": 0}


def test_frame_gifts_come_before_the_evaluations_for_the_cap_of_five():
    # Csaba holds 4 stone; s1's W side (frame:stone) gives red 1 stone, then R (red 3 + 3) is
    # evaluated: Csaba is at 5, so the rock's 2 stone are lost and its awards are empty.
    state = given(start(), resources={"Csaba": (0, 0, 4)})
    state = play(state, rv("Anna", "s3", "red:3 blue:1 yellow:1 green:1"),
                 rv("Bela", "s1", "blue:1 yellow:1 green:1 red:2"))
    assert state.resources["Csaba"] == (0, 0, 5)
    assert GAME.summary(state)["evaluations"] == [
        {"area": "R", "kind": "rock", "influence": {"red": 3, "green": 1}, "awards": {}}]


def test_an_evaluation_the_steward_took_back_is_gone():
    state = given(start(), cards={"Anna": 1})
    state = market_reveals(state, "green:5 yellow:1 blue:1 red:1")  # green 5: Dora draws 2
    assert state.cards["Dora"] == 2
    turned = play(state, Steward("Anna", sh("red:1 green:5 yellow:1 blue:1")))  # red 3 now
    summary = GAME.summary(turned)
    assert summary["evaluations"] == [{"area": "M", "kind": "market",
                                       "influence": {"blue": 2, "red": 3},
                                       "awards": {"Csaba": {"cards": 2}}}]
    assert summary["cards"] == {"Anna": 0, "Bela": 0, "Csaba": 2, "Dora": 0}
