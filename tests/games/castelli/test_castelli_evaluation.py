"""The area resolver and the rulebook's two evaluation examples."""

from __future__ import annotations

from castelli_testkit import play, rv, start

from companion.games.castelli.evaluation import influence_of, resolve
from companion.games.messages import Message
from companion.i18n import render
from tests.refusals import assert_message

PLAYED = {"blue": "Anna", "yellow": "Bela", "red": "Csaba", "green": "Dora"}


def english(message: Message) -> str:
    """An explanation as an English-speaking player reads it."""
    return render(message, "en")


def side(text):
    n, e, s, w = text.split()
    return {"N": n, "E": e, "S": s, "W": w}


def test_single_leader_takes_the_yield():
    r = resolve("rock", 2, [("blue", 5), ("yellow", 4)], PLAYED)
    assert r.awards == {"Anna": 2}
    assert r.leaders == ("blue",)
    texts = assert_message(r.explanation, "castelli.evaluation.leads_beating", best=5, player="Anna")
    assert texts["en"] == "Anna (blue) has the most (5), beating Bela (yellow) 4: Anna gains 2 stone"
    assert texts["hu"] == "Anna (kék) befolyása a legnagyobb (5; utána: Bela (sárga) 4): Anna 2 követ kap"


def test_card_covered_shields_count_zero_and_sum_per_colour():
    assert influence_of([("blue", "card"), ("red", 2), ("red", 3), ("green", 1)]) == {"red": 5, "green": 1}
    r = resolve("field", 2, [("blue", "card"), ("red", 1)], PLAYED)
    assert r.awards == {"Csaba": 2}


def test_two_way_tie_shares_rounded_down():
    r = resolve("forest", 2, [("blue", 3), ("red", 3), ("green", 1)], PLAYED)
    assert r.awards == {"Anna": 1, "Csaba": 1}
    assert "tie with 3" in english(r.explanation) and "1 wood each" in english(r.explanation)
    odd = resolve("forest", 1, [("blue", 3), ("red", 3)], PLAYED)
    assert odd.awards == {"Anna": 0, "Csaba": 0}
    assert "rounded down" in english(odd.explanation)
    assert_message(odd.explanation, "castelli.evaluation.rounded_down")
    assert_message(r.explanation, "castelli.evaluation.tie_shared_beating", best=3, ways=2)


def test_three_way_tie():
    r = resolve("market", 3, [("blue", 2), ("red", 2), ("green", 2), ("yellow", 1)], PLAYED)
    assert r.awards == {"Anna": 1, "Csaba": 1, "Dora": 1}
    assert "3 cards shared 3 ways, 1 card each" in english(r.explanation)
    assert_message(r.explanation, "castelli.evaluation.tie_shared_beating", ways=3)
    r2 = resolve("rock", 2, [("blue", 2), ("red", 2), ("green", 2)], PLAYED)
    assert r2.awards == {"Anna": 0, "Csaba": 0, "Dora": 0}


def test_neutral_leader_voids_the_area():
    two = {"blue": "Anna", "red": "Csaba"}
    r = resolve("field", 2, [("yellow", 4), ("blue", 3)], two)
    assert r.voided and r.awards == {}
    assert english(r.explanation).startswith("neutral yellow has the most (4)")
    assert_message(r.explanation, "castelli.evaluation.neutral_leads_beating", best=4)


def test_neutral_in_a_tie_void_and_split():
    two = {"blue": "Anna", "red": "Csaba"}
    shields = [("yellow", 4), ("blue", 4), ("red", 1)]
    void = resolve("field", 2, shields, two, "void")
    assert void.voided and void.awards == {}
    assert "a neutral colour is among the leaders" in english(void.explanation)
    assert_message(void.explanation, "castelli.evaluation.tie_void_beating", best=4)
    split = resolve("field", 2, shields, two, "split")
    assert not split.voided and split.awards == {"Anna": 1}
    assert "the neutral share is lost" in english(split.explanation)
    assert_message(split.explanation, "castelli.evaluation.neutral_share_lost", count=1)
    only_neutral = resolve("field", 2, [("yellow", 4), ("green", 4)], two, "split")
    assert only_neutral.voided and only_neutral.awards == {}
    assert_message(only_neutral.explanation, "castelli.evaluation.tie_neutral", best=4)


def test_nobody_with_points_is_not_evaluated():
    r = resolve("forest", 2, [("blue", "card"), ("red", "card")], PLAYED)
    assert not r.evaluated and r.awards == {}
    assert "not evaluated" in english(r.explanation)
    assert_message(r.explanation, "castelli.evaluation.nobody")
    plain = resolve("plain", 0, [("blue", 3)], PLAYED)
    assert not plain.evaluated
    assert assert_message(plain.explanation, "castelli.evaluation.gives_nothing")["hu"].startswith("síkság:")


def test_mine_gives_silver():
    r = resolve("mine", 7, [("blue", 2), ("red", 2)], PLAYED)
    assert r.gain == "silver" and r.awards == {"Anna": 3, "Csaba": 3}


# The rulebook's examples, through the engine -------------------------------------------------

BOARD_A = {
    "areas": {"R": {"kind": "rock", "at": [1, 1]}, "F": {"kind": "field", "at": [1, 3]},
              "P": {"kind": "plain", "at": [3, 3]}},
    "spaces": {
        "s1": {"at": [0, 1], "sides": side("frame:neutral R P frame:neutral")},
        "s2": {"at": [0, 3], "sides": side("frame:neutral F P frame:neutral")},
        "s3": {"at": [2, 1], "sides": side("frame:neutral P P frame:neutral")},
        "s4": {"at": [2, 3], "sides": side("frame:neutral P P frame:neutral")},
        "A": {"at": [4, 1], "sides": side("R F P frame:neutral")},
    },
}


def test_rulebook_tile_a():
    """Blue's 5 beats yellow's 4 on the rock: 2 stone; red beats green on the field: 2 grain."""
    state = start(BOARD_A)
    state = play(state, rv("Anna", "s1", "blue:1 yellow:4 red:1 green:1"),
                 rv("Bela", "s2", "blue:1 green:3 red:1 yellow:1"),
                 rv("Csaba", "s3", "blue:1 green:1 red:1 yellow:1"),
                 rv("Dora", "s4", "blue:1 green:1 red:1 yellow:1"),
                 rv("Anna", "A", "blue:5 red:4 yellow:1 green:1"))
    assert [e.area for e in state.evaluations] == ["R", "F"]
    rock, field = state.evaluations
    assert dict(rock.influence) == {"blue": 5, "yellow": 4}
    assert rock.awards == {"Anna": {"stone": 2}}
    assert dict(field.influence) == {"red": 4, "green": 3}
    assert field.awards == {"Csaba": {"grain": 2}}
    assert state.resources["Anna"] == (0, 0, 2) and state.resources["Csaba"] == (0, 2, 0)


BOARD_B = {
    "areas": {"M": {"kind": "market", "tents": 2, "at": [1, 1]},
              "F1": {"kind": "field", "at": [1, 3]}, "F2": {"kind": "field", "at": [3, 1]},
              "P": {"kind": "plain", "at": [3, 3]}},
    "spaces": {
        "s1": {"at": [0, 1], "sides": side("frame:neutral M P frame:neutral")},
        "s2": {"at": [0, 3], "sides": side("frame:neutral F1 P frame:neutral")},
        "s3": {"at": [2, 1], "sides": side("F2 P P frame:neutral")},
        "s4": {"at": [2, 3], "sides": side("frame:neutral P P frame:neutral")},
        "B": {"at": [4, 1], "sides": side("M F1 F2 P")},
    },
}


def test_rulebook_tile_b():
    """Green reveals B: draws a card; green/yellow tie in the market (1 card each); green 3 beats
    red 2 on a field; red takes the other field, where blue's shield is card-covered."""
    colors = {"Anna": "green", "Bela": "yellow", "Csaba": "red", "Dora": "blue"}
    state = start(BOARD_B, colors=colors)
    state = play(state, rv("Anna", "s1", "blue:1 green:2 red:1 yellow:1"),
                 rv("Bela", "s2", "blue:1 red:2 green:1 yellow:1"),
                 rv("Csaba", "s3", "blue:card red:1 green:1 yellow:1"),
                 rv("Dora", "s4", "blue:1 red:1 green:1 yellow:1"))
    cards_before = dict(state.cards)
    state = play(state, rv("Anna", "B", "yellow:2 green:3 red:2 blue:card"))
    assert [e.area for e in state.evaluations] == ["M", "F1", "F2"]
    market, f1, f2 = state.evaluations
    assert market.awards == {"Bela": {"cards": 1}, "Anna": {"cards": 1}}
    assert "tie with 2" in english(market.explanation)
    assert f1.awards == {"Anna": {"grain": 2}} and dict(f1.influence) == {"red": 2, "green": 3}
    assert f2.awards == {"Csaba": {"grain": 2}} and dict(f2.influence) == {"red": 2}
    assert state.cards["Anna"] == cards_before["Anna"] + 2  # the icon and the market
    assert state.cards["Bela"] == cards_before["Bela"] + 1

