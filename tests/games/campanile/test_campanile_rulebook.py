"""The rulebook's worked examples (Campanile's rulebook), as unit tests and as full records."""

from __future__ import annotations

from typing import Any

from companion.games.campanile import Campanile
from companion.games.campanile.moves import Build, Influence, Reveal, Take
from companion.games.campanile.state import Award, Group
from companion.games.campanile.valuation import contenders, value_tower
from companion.games.campanile.views import marker_choices
from companion.games.messages import msg
from companion.i18n import summary_json
from companion.service.records import final_state, parse_record
from tests.helpers_campanile import explained, refused
from tests.refusals import assert_message

GAME = Campanile()
FOUR = ["Albert", "Birgit", "Franziska", "Helmut"]


def record(players: list[str], moves: list[dict[str, Any]], options: dict[str, Any] | None = None,
           setup: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"format": "companion-record/1", "game": "campanile", "players": players,
            "options": options or {}, "setup": setup or {}, "moves": moves}


def build(player: str, tower: str, stories: int, marker: str | None = None) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = [{"type": "build", "player": player, "tower": tower, "stories": stories}]
    if marker is not None:
        moves.append({"type": "influence", "player": player, "tower": marker})
    return moves


def summary_of(data: dict[str, Any]) -> dict[str, Any]:
    parsed = parse_record(data)
    return GAME.summary(final_state(parsed))


# -- the brown tower at the Intermezzo, as a pure valuation ------------------
INTERMEZZO_BROWN = (Group("Albert", (3, 2)), Group("Birgit", (2, 2, 1)), Group("Franziska", (1, 1)))
FINITO_BROWN = (Group("Albert", (3, 2, 1, 1)), Group("Birgit", (2, 2, 1, 3)),
                Group("Franziska", (1, 1)), Group("Helmut", (2,)))


def test_intermezzo_example_valuation_albert_wins_the_tie_on_position() -> None:
    result = value_tower("brown", 4, (1,), INTERMEZZO_BROWN)
    assert result.awards == (Award("Albert", 1),)
    assert dict(result.influence) == {"Albert": 5, "Birgit": 5, "Franziska": 2}
    assert [g.player for g in contenders(INTERMEZZO_BROWN)] == ["Albert", "Birgit", "Franziska"]
    text = explained(result.explanation)
    assert "Albert and Birgit both have 5; Albert's markers are closer to the base" in text
    assert "Birgit and Franziska get nothing" in text
    assert_message(result.explanation[1], "campanile.explain.tie_two", first="Albert", second="Birgit",
                   influence=5)
    hungarian = explained(result.explanation, "hu")
    assert "Albert és Birgit befolyása egyaránt 5; Albert jelzői vannak közelebb a torony aljához." \
        in hungarian
    assert "Birgit és Franziska nem kap semmit." in hungarian


def test_intermezzo_example_tie_goes_to_the_group_closer_to_the_base_whoever_it_is() -> None:
    # The same markers with Birgit's group first: now Birgit wins the tie.
    swapped = (INTERMEZZO_BROWN[1], INTERMEZZO_BROWN[0], INTERMEZZO_BROWN[2])
    result = value_tower("brown", 4, (1,), swapped)
    assert result.awards == (Award("Birgit", 1),)
    assert "Birgit and Albert both have 5; Birgit's markers are closer to the base" \
        in explained(result.explanation)


def test_finito_example_valuation() -> None:
    result = value_tower("brown", 2, (5, 3, 1), FINITO_BROWN)
    assert result.awards == (Award("Birgit", 5), Award("Albert", 3), Award("Franziska", 1))
    assert dict(result.influence) == {"Albert": 7, "Birgit": 8, "Franziska": 2, "Helmut": 2}
    tie = "Franziska and Helmut both have 2; Franziska's markers are closer to the base"
    text = explained(result.explanation)
    assert tie in text
    assert "Helmut gets nothing" in text
    assert "Points: Birgit 5, Albert 3 and Franziska 1." in text
    assert_message(result.explanation[-1], "campanile.explain.nothing", players=["Helmut"], count=1)
    assert "Győzelmi pontok: Birgit 5, Albert 3 és Franziska 1." in explained(result.explanation, "hu")


# -- the same two examples as one full game record ---------------------------
def example_game_moves() -> list[dict[str, Any]]:
    """Albert, Birgit, Franziska and Helmut; towers grey, brown, red, blue, yellow (default row).

    Every marker goes under the brown tower, in the rulebook's order: Albert 3+2 (+1+1 later),
    Birgit 2+2+1 (+3 later), Franziska 1+1, Helmut 2 after the Intermezzo.
    """
    moves: list[dict[str, Any]] = []
    # round 1
    moves += build("Albert", "grey", 3, "brown")
    moves += build("Birgit", "red", 2, "brown")
    moves += build("Franziska", "brown", 1, "brown")
    moves += build("Helmut", "grey", 3)
    # round 2
    moves += build("Albert", "blue", 2, "brown")
    moves += build("Birgit", "red", 2, "brown")
    moves += build("Franziska", "brown", 1, "brown")
    moves += build("Helmut", "grey", 2)
    # round 3: grey 8, red 5+1, blue 3, brown 2, yellow 1
    moves += build("Albert", "blue", 1)
    moves += build("Birgit", "red", 1, "brown")
    moves += build("Franziska", "yellow", 1)
    moves += build("Helmut", "red", 1)
    moves.append({"type": "valuation", "phase": "intermezzo"})
    # round 4
    moves += build("Albert", "brown", 1, "brown")
    moves += build("Birgit", "brown", 3, "brown")
    moves += build("Franziska", "grey", 1)
    moves += build("Helmut", "brown", 2, "brown")
    # round 5: grey 9, brown 9 (brown ranks 2nd: grey is nearer the display), red 7, blue 5, yellow 3
    moves += build("Albert", "brown", 1, "brown")
    moves += build("Birgit", "blue", 2)
    moves += build("Franziska", "yellow", 2)
    moves += build("Helmut", "red", 1)
    moves.append({"type": "valuation", "phase": "finito"})
    return moves


def test_example_record_intermezzo_brown_is_rank_4_and_albert_takes_the_1() -> None:
    moves = example_game_moves()
    cut = moves.index({"type": "valuation", "phase": "intermezzo"}) + 1
    summary = summary_of(record(FOUR, moves[:cut]))
    assert summary["finished"] is False
    assert summary["winners"] == []
    [intermezzo] = summary["valuations"]
    assert intermezzo["phase"] == "intermezzo"
    # lowest flag first: brown (rank 4) is valued first
    assert [(f["tower"], f["rank"], f["flag"]) for f in intermezzo["flags"]] == [
        ("brown", 4, [1]), ("blue", 3, [2]), ("red", 2, [3, 1]), ("grey", 1, [4, 2])]
    brown = intermezzo["flags"][0]
    assert brown["influence"] == {"Albert": 5, "Birgit": 5, "Franziska": 2}
    assert brown["awards"] == [{"player": "Albert", "points": 1}]
    for other in intermezzo["flags"][1:]:
        assert other["influence"] == {}
        assert other["awards"] == []
    assert summary["scores"] == {"Albert": 1, "Birgit": 0, "Franziska": 0, "Helmut": 0}
    assert summary["chips"] == {"Albert": [1], "Birgit": [], "Franziska": [], "Helmut": []}
    towers = {t["tower"]: t for t in summary["towers"]}
    assert towers["brown"]["stack"] == [{"player": "Albert", "markers": [3, 2]},
                                        {"player": "Birgit", "markers": [2, 2, 1]},
                                        {"player": "Franziska", "markers": [1, 1]}]
    assert [t["tower"] for t in summary["towers"]] == ["grey", "brown", "red", "blue", "yellow"]
    assert [t["height"] for t in summary["towers"]] == [8, 2, 6, 3, 1]


def test_example_record_finito_birgit_5_albert_3_franziska_1_helmut_nothing() -> None:
    summary = summary_of(record(FOUR, example_game_moves()))
    assert summary["finished"] is True
    finito = summary["valuations"][1]
    assert finito["phase"] == "finito"
    assert [(f["tower"], f["rank"]) for f in finito["flags"]] == [
        ("yellow", 5), ("blue", 4), ("red", 3), ("brown", 2), ("grey", 1)]
    brown = finito["flags"][3]
    assert brown["flag"] == [5, 3, 1]
    assert brown["influence"] == {"Albert": 7, "Birgit": 8, "Franziska": 2, "Helmut": 2}
    assert brown["awards"] == [{"player": "Birgit", "points": 5}, {"player": "Albert", "points": 3},
                               {"player": "Franziska", "points": 1}]
    assert summary["scores"] == {"Albert": 4, "Birgit": 5, "Franziska": 1, "Helmut": 0}
    assert summary["chips"] == {"Albert": [3, 1], "Birgit": [5], "Franziska": [1], "Helmut": []}
    assert summary["winners"] == ["Birgit"]
    towers = {t["tower"]: t for t in summary["towers"]}
    assert towers["brown"]["stack"] == [{"player": "Albert", "markers": [3, 2, 1, 1]},
                                        {"player": "Birgit", "markers": [2, 2, 1, 3]},
                                        {"player": "Franziska", "markers": [1, 1]},
                                        {"player": "Helmut", "markers": [2]}]
    texts = [e["text"] for e in summary_json(summary["explanations"]) if e["tower"] == "brown"]
    assert "Albert and Birgit both have 5; Albert's markers are closer to the base" in texts[0]
    assert "Franziska and Helmut both have 2; Franziska's markers are closer to the base" in texts[1]


def test_example_record_markers_left_after_the_game() -> None:
    summary = summary_of(record(FOUR, example_game_moves()))
    assert summary["markers_left"]["Albert"] == {"3": 0, "2": 2, "1": 3}
    assert summary["markers_left"]["Birgit"] == {"3": 0, "2": 1, "1": 4}
    assert summary["markers_left"]["Franziska"] == {"3": 1, "2": 3, "1": 3}
    assert summary["markers_left"]["Helmut"] == {"3": 1, "2": 2, "1": 5}


# -- the placement examples ------------------------------------------------
def test_placement_example_three_story_build_allows_only_the_value_3_marker_under_a_displayed_style() -> None:
    state = GAME.start(["Albert", "Birgit", "Franziska"], {},
                       {"display": ["blue", "brown", "brown"]})
    state = GAME.apply(state, Build("Albert", "brown", 3))
    assert marker_choices(state) == (3, ["brown", "blue"])
    for tower in ("grey", "red", "yellow"):
        with refused("campanile.marker.not_in_display", "only under a tower whose style is in the display",
                 display=[msg("campanile.colour.blue"), msg("campanile.colour.brown"),
                          msg("campanile.colour.brown")]):
            GAME.apply(state, Influence("Albert", tower))
    state = GAME.apply(state, Influence("Albert", "brown"))
    assert state.markers_of("Albert") == {3: 0, 2: 3, 1: 5}
    assert state.stacks[1] == (Group("Albert", (3,)),)

    # Second example: later Albert raises brown by 2 with 1 red and 2 brown shown;
    # his value-2 marker goes next to his value-3 marker.
    state = GAME.apply(state, Take("Albert", "blue"))
    state = GAME.apply(state, Reveal("red"))
    assert sorted(state.display) == ["brown", "brown", "red"]
    state = GAME.apply(state, Build("Birgit", "red", 1))
    state = GAME.apply(state, Take("Birgit", "red"))
    state = GAME.apply(state, Reveal("grey"))
    state = GAME.apply(state, Build("Franziska", "grey", 1))
    state = GAME.apply(state, Take("Franziska", "grey"))
    state = GAME.apply(state, Reveal("red"))
    state = GAME.apply(state, Build("Albert", "brown", 2))
    assert marker_choices(state) == (2, ["brown", "red"])
    state = GAME.apply(state, Influence("Albert", "brown"))
    assert state.stacks[1] == (Group("Albert", (3, 2)),)
    assert state.heights[1] == 5


def test_placement_example_no_second_value_3_marker() -> None:
    state = GAME.start(["Albert", "Birgit", "Franziska"], {}, {})
    for player in ("Albert", "Birgit", "Franziska"):
        state = GAME.apply(state, Build(player, "brown", 3))
        state = GAME.apply(state, Influence(player, "brown"))
    state = GAME.apply(state, Build("Albert", "brown", 3))
    assert marker_choices(state) == (None, [])
    with refused("campanile.marker.none_left", "a 3-story raise lets you place only a value-3 marker",
                 stories=3, player="Albert"):
        GAME.apply(state, Influence("Albert", "brown"))
