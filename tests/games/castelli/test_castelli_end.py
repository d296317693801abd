"""The end: the mine, final scoring lines, silver awards and their ties, winners."""

from __future__ import annotations

import pytest
from castelli_testkit import GAME, End, given, play, refused, rv, start

from companion.games.castelli import tables
from companion.games.castelli.scoring import silver_awards

ALL = ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"]


def finish_tiles(state, tiles=None):
    tiles = tiles or {}
    for space in ALL:
        state = play(state, rv(GAME.to_move(state), space, tiles.get(space, "blue:1 yellow:1 red:1 green:1")))
    return state


def test_end_needs_every_tile_face_up():
    refused(start(), End(),
            "castelli.end.tiles_left", "the game ends after the last tile is revealed (8 still face down)")


def test_the_mine_goes_to_the_most_influence_then_final_scoring():
    # X (mine) is bordered by s6.S, s7.E, s8.N: give red 6 on s6's S side.
    state = finish_tiles(start(), {"s6": "blue:1 yellow:1 red:6 green:1"})
    in_mine = state.mine
    assert in_mine == 21  # one silver went to blue as s2's frame gift
    state = given(state, cards={"Anna": 2}, resources={"Bela": (1, 2, 0)})
    done = play(state, End())
    assert done.finished and done.mine == 0 and done.silver["Csaba"] == in_mine
    assert done.evaluations[-1].area == "X" and done.evaluations[-1].awards == {"Csaba": {"silver": in_mine}}
    assert done.final["Anna"] == {"cards": 2, "resources": sum(done.resources["Anna"]),
                                "silver": 2}  # 1 silver from the frame: second most
    assert done.final["Csaba"]["silver"] == 4
    summary = GAME.summary(done)
    assert summary["final"] == done.final and summary["finished"]
    for p in done.players:
        assert summary["scores"][p] == state.score[p] + sum(done.final[p].values())
    refused(done, End(), "castelli.game.over", "the game is over")


def test_mine_tie_is_shared_rounded_down():
    state = finish_tiles(start(mine=8), {"s6": "blue:1 yellow:1 red:3 green:1",
                                         "s7": "blue:1 green:3 yellow:1 red:1"})
    done = play(state, End())
    assert done.silver["Csaba"] == 3 and done.silver["Dora"] == 3 and done.mine == 1


@pytest.mark.parametrize(("silver", "tie", "expected"), [
    ({"A": 5, "B": 3, "C": 1, "D": 0}, "shared", {"A": 4, "B": 2, "C": 0, "D": 0}),
    ({"A": 5, "B": 5, "C": 1, "D": 0}, "shared", {"A": 3, "B": 3, "C": 0, "D": 0}),
    ({"A": 5, "B": 3, "C": 3, "D": 0}, "shared", {"A": 4, "B": 1, "C": 1, "D": 0}),
    ({"A": 5, "B": 3, "C": 3, "D": 3}, "shared", {"A": 4, "B": 0, "C": 0, "D": 0}),
    ({"A": 5, "B": 3, "C": 3, "D": 0}, "literal", {"A": 4, "B": 3, "C": 3, "D": 0}),
    ({"A": 5, "B": 5, "C": 3, "D": 0}, "literal", {"A": 3, "B": 3, "C": 0, "D": 0}),
    ({"A": 0, "B": 0, "C": 0, "D": 0}, "shared", {"A": 0, "B": 0, "C": 0, "D": 0}),
    ({"A": 2, "B": 0, "C": 0, "D": 0}, "shared", {"A": 4, "B": 0, "C": 0, "D": 0}),
])
def test_silver_awards(silver, tie, expected):
    assert silver_awards(silver, tables.SILVER_AWARDS, tie) == expected


def test_battle_silver_awards_are_doubled():
    assert silver_awards({"A": 5, "B": 5, "C": 1}, tables.BATTLE_SILVER_AWARDS, "shared") == \
        {"A": 6, "B": 6, "C": 0}
    assert silver_awards({"A": 5, "B": 3, "C": 3}, tables.BATTLE_SILVER_AWARDS, "shared") == \
        {"A": 8, "B": 2, "C": 2}


def test_silver_tie_option_changes_the_final_lines():
    base = finish_tiles(start(options={"silver_tie": "literal"}))
    base = given(base, silver={"Anna": 5, "Bela": 3, "Csaba": 3})
    done = play(base, End())
    assert [done.final[p]["silver"] for p in done.players] == [4, 3, 3, 0]


def test_winner_tie_goes_to_most_castles_then_shared():
    state = finish_tiles(start())
    zero = dict.fromkeys(state.players, 0)
    state = given(state, resources=dict.fromkeys(state.players, (0, 0, 0)), cards=zero, silver=zero)
    state = given(state, score={"Anna": 10, "Bela": 10, "Csaba": 10, "Dora": 1},
                  castles_built={"Anna": 2, "Bela": 2, "Csaba": 1})
    done = play(state, End())
    assert GAME.summary(done)["winners"] == ["Anna", "Bela"]
    clear = play(given(state, castles_built={"Anna": 3}), End())
    assert GAME.summary(clear)["winners"] == ["Anna"]
    assert GAME.summary(state)["winners"] == []


@pytest.mark.parametrize(("score", "castles", "english", "hungarian"), [
    ({"Anna": 9, "Bela": 8}, {"Anna": 0, "Bela": 3}, "Anna wins with the most points",
     "Anna nyer, a legtöbb ponttal"),
    ({"Anna": 8, "Bela": 8}, {"Anna": 1, "Bela": 3},
     "Bela wins: tied on points, the most castles built decides",
     "Bela nyer: pontegyenlőség esetén a több felépített vár dönt"),
    ({"Anna": 8, "Bela": 8}, {"Anna": 2, "Bela": 2},
     "Anna and Bela share the win: tied on points and on castles built",
     "Anna és Bela közösen nyernek: egyenlő a pontjuk és a felépített váraik száma is"),
])
def test_the_readable_report_says_why_the_winners_won(score, castles, english, hungarian):
    from companion.i18n import set_language

    two = start(players=("Anna", "Bela"))
    ended = given(two, score=score, castles_built=castles).with_(finished=True, final={
        "Anna": {"cards": 0}, "Bela": {"cards": 0}})
    lines = GAME.report(ended).splitlines()
    assert english in lines and not any(line.startswith("Castelli: in progress") for line in lines)
    set_language("hu")  # the conftest puts English back after the test
    assert hungarian in GAME.report(ended).splitlines()


def test_a_game_in_progress_names_no_winner():
    report = GAME.report(start())
    assert "wins" not in report and "share the win" not in report
    assert report.startswith("Castelli: in progress, Anna to move; mine 22 silver")
