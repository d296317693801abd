"""The screens' questions (views.py) on small hand-built states."""

from __future__ import annotations

from typing import Any

from companion.games.campanile import Campanile
from companion.games.campanile.moves import Build, Influence, Relocate, Reveal, Take, Valuation
from companion.games.campanile.state import Award
from companion.games.campanile.views import (
    TowerStanding,
    buildable_towers,
    marker_choices,
    markers_left,
    preview,
    relocations,
    standings,
)

GAME = Campanile()
TOWERS = ["grey", "brown", "red", "blue", "yellow"]
TWO_FLAGS = {"intermezzo": [[3], [2], [1], [1]], "finito": [[5, 1], [4], [3], [2], [1]]}


def play(state: Any, *moves: Any) -> Any:
    for move in moves:
        state = GAME.apply(state, move)
    return state


def test_standings_at_the_start_follow_the_row() -> None:
    state = GAME.start(["A", "B", "C"], {}, {})
    rows = standings(state)
    assert [r.tower for r in rows] == TOWERS
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5]
    assert [r.intermezzo_flag for r in rows] == [(4, 2), (3, 1), (2,), (1,), None]
    assert [r.finito_flag for r in rows] == [(6, 4, 2), (5, 3, 1), (4, 2), (3, 1), (2,)]
    assert [r.next_flag for r in rows] == [r.intermezzo_flag for r in rows]  # the Intermezzo is next


def test_standings_after_builds() -> None:
    state = play(GAME.start(["A", "B", "C"], {}, {}), Build("A", "yellow", 3), Build("B", "red", 2),
                 Build("C", "blue", 2))
    rows = standings(state)
    assert rows[0] == TowerStanding("yellow", 3, 1, (4, 2), (6, 4, 2), (4, 2))
    assert rows[1] == TowerStanding("red", 2, 2, (3, 1), (5, 3, 1), (3, 1))  # red is nearer than blue
    assert rows[2] == TowerStanding("blue", 2, 3, (2,), (4, 2), (2,))
    assert rows[4] == TowerStanding("brown", 0, 5, None, (2,))


def test_standings_use_custom_flags() -> None:
    state = GAME.start(["A", "B"], {"flags": TWO_FLAGS}, {})
    assert [r.intermezzo_flag for r in standings(state)] == [(3,), (2,), (1,), (1,), None]
    assert [r.finito_flag for r in standings(state)] == [(5, 1), (4,), (3,), (2,), (1,)]


def test_preview_is_the_next_valuation_if_it_came_now() -> None:
    state = play(GAME.start(["A", "B", "C"], {}, {}), Build("A", "red", 2), Influence("A", "red"),
                 Build("B", "grey", 1), Influence("B", "red"))
    results = preview(state)
    assert len(results) == 4
    assert [r.tower for r in results] == ["blue", "brown", "grey", "red"]
    red = results[-1]
    assert (red.tower, red.rank, red.flag) == ("red", 1, (4, 2))
    assert red.awards == (Award("A", 4), Award("B", 2))
    finito = preview(state, "finito")
    assert len(finito) == 5
    assert finito[-1].awards == (Award("A", 6), Award("B", 4))
    # previewing does not change the state, and matches the real valuation
    real = GAME.apply(state, Valuation("intermezzo"))
    assert real.valuations[0].flags == results
    after = play(real, Build("C", "red", 1))
    assert len(preview(after)) == 5  # after the Intermezzo the next one is Finito


def test_markers_left_view() -> None:
    state = play(GAME.start(["A", "B", "C"], {}, {}), Build("A", "red", 2), Influence("A", "red"))
    assert markers_left(state) == {"A": {3: 1, 2: 2, 1: 5}, "B": {3: 1, 2: 3, 1: 5}, "C": {3: 1, 2: 3, 1: 5}}


def test_buildable_towers() -> None:
    state = GAME.start(["A", "B", "C"], {}, {"display": ["grey", "red", "red"]})
    assert buildable_towers(state) == TOWERS
    state = GAME.apply(state, Build("A", "red", 1))
    assert buildable_towers(state) == []  # A must take a card first
    state = play(state, Take("A", "red"))
    assert buildable_towers(state) == []  # the display must be refilled
    state = play(state, Reveal("blue"))
    assert GAME.to_move(state) == "B"
    assert buildable_towers(state) == TOWERS
    done = play(GAME.start(["A", "B", "C"], {}, {}), Build("A", "red", 1), Valuation("finito"))
    assert buildable_towers(done) == []


def test_marker_choices() -> None:
    state = GAME.start(["A", "B", "C"], {}, {"display": ["grey", "red", "red"]})
    assert marker_choices(state) == (None, [])  # nobody has built
    state = GAME.apply(state, Build("A", "blue", 2))
    assert marker_choices(state) == (2, ["grey", "red"])
    placed = GAME.apply(state, Influence("A", "red"))
    assert marker_choices(placed) == (None, [])
    untracked = play(GAME.start(["A", "B", "C"], {}, {}), Build("A", "blue", 1))
    assert marker_choices(untracked) == (1, TOWERS)
    # after the turn, the view is for the next player who has not built yet
    assert marker_choices(play(untracked, Influence("A", "red"))) == (None, [])


def test_relocations() -> None:
    state = GAME.start(["A", "B"], {"flags": TWO_FLAGS, "two_player_move": True},
                       {"display": ["grey", "red", "blue"]})
    state = play(state, Build("A", "red", 2), Influence("A", "red"), Take("A", "grey"), Reveal("yellow"),
                 Build("B", "red", 1), Take("B", "yellow"), Reveal("grey"))
    assert relocations(state) == []  # B's turn is over, A has not built
    two = GAME.apply(state, Build("A", "brown", 2))
    assert sorted(two.display) == ["blue", "grey", "red"]
    assert relocations(two) == [("red", "grey"), ("red", "blue")]
    one = GAME.apply(state, Build("A", "brown", 1))
    assert relocations(one) == []
    no_option = GAME.start(["A", "B"], {"flags": TWO_FLAGS}, {})
    no_option = play(no_option, Build("A", "red", 2), Influence("A", "red"), Build("B", "red", 1),
                     Build("A", "red", 2))
    assert relocations(no_option) == []


def test_views_for_the_player_who_just_built_without_a_tracked_display() -> None:
    # Without a tracked display, to_move already names the next builder after a build,
    # but the builder may still place (or move) a marker: the views must offer it.
    state = GAME.start(["A", "B"], {"flags": TWO_FLAGS, "two_player_move": True}, {})
    state = play(state, Build("A", "red", 2), Influence("A", "red"), Build("B", "red", 1))
    two = GAME.apply(state, Build("A", "blue", 2))
    assert GAME.to_move(two) == "B"
    assert marker_choices(two) == (2, TOWERS)
    assert relocations(two) == [("red", t) for t in TOWERS if t != "red"]
    assert buildable_towers(two) == TOWERS  # B may start the next turn
    moved = GAME.apply(two, Relocate("A", "red", "grey"))
    assert marker_choices(moved) == (None, [])
    assert relocations(moved) == []
    ended = play(two, Valuation("intermezzo"))
    assert marker_choices(ended) == (None, [])
    assert relocations(ended) == []
