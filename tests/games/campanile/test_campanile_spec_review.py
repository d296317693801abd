"""Sequences the spec allows that are easy to get wrong (records.md, Campanile)."""

from __future__ import annotations

from typing import Any

from companion.games.campanile import Campanile
from companion.games.campanile.moves import Build, Influence, Reveal, Take, Valuation
from companion.i18n import summary_json
from companion.service.records import final_state, parse_record
from tests.helpers_campanile import refused

GAME = Campanile()
PLAYERS = ["Albert", "Birgit", "Franziska"]


def play(state: Any, *moves: Any) -> Any:
    for move in moves:
        state = GAME.apply(state, move)
    return state


def record(moves: list[dict[str, Any]], setup: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"format": "companion-record/1", "game": "campanile", "players": PLAYERS,
            "options": {}, "setup": setup or {}, "moves": moves}


# "a further reveal refills the display after the Intermezzo": when the card turned over for
# that refill is the Finito card, it stands in place of that reveal too. Nothing in the spec
# asks for a turn between the two valuations.
def test_finito_right_after_the_intermezzo_without_a_tracked_display() -> None:
    state = play(GAME.start(PLAYERS, {}, {}), Build("Albert", "red", 2), Influence("Albert", "red"),
                 Valuation("intermezzo"), Valuation("finito"))
    summary = GAME.summary(state)
    assert summary["finished"] is True
    assert [v["phase"] for v in summary["valuations"]] == ["intermezzo", "finito"]
    assert summary["chips"]["Albert"] == [6, 4]
    assert summary["winners"] == ["Albert"]


def test_finito_in_place_of_the_refill_after_the_intermezzo_with_a_tracked_display() -> None:
    state = play(GAME.start(PLAYERS, {}, {"display": ["blue", "brown", "red"]}),
                 Build("Albert", "red", 2), Influence("Albert", "red"), Take("Albert", "blue"),
                 Valuation("intermezzo"), Valuation("finito"))
    assert GAME.is_finished(state)
    assert [v.phase for v in state.valuations] == ["intermezzo", "finito"]


def test_finito_after_the_refill_that_followed_the_intermezzo_waits_for_the_next_turn() -> None:
    state = play(GAME.start(PLAYERS, {}, {"display": ["blue", "brown", "red"]}),
                 Build("Albert", "red", 2), Take("Albert", "blue"), Valuation("intermezzo"), Reveal("grey"))
    with refused("campanile.valuation.in_place_of_refill", "in place of the refill"):
        GAME.apply(state, Valuation("finito"))


def test_finito_right_after_the_intermezzo_in_a_replayed_record() -> None:
    moves = [{"type": "build", "player": "Albert", "tower": "red", "stories": 1},
             {"type": "valuation", "phase": "intermezzo"},
             {"type": "valuation", "phase": "finito"}]
    summary = summary_json(GAME.summary(final_state(parse_record(record(moves)))))
    assert summary["finished"] is True
    assert summary["winners"] == PLAYERS  # nobody placed a marker: 0 points each, shared
    assert summary["win_reason"]["code"] == "campanile.outcome.shared"
    assert summary["win_reason"]["params"]["players"] == PLAYERS


def test_nothing_but_the_finito_follows_the_intermezzo_before_the_next_build() -> None:
    state = play(GAME.start(PLAYERS, {}, {}), Build("Albert", "red", 1), Valuation("intermezzo"))
    with refused("campanile.valuation.intermezzo_done", "already been valued"):
        GAME.apply(state, Valuation("intermezzo"))
    with refused("campanile.turn.build_first", "Birgit must build", player="Birgit"):
        GAME.apply(state, Influence("Albert", "red"))
