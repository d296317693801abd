"""The layout offered when a new game names none: legal for every guild naming, rule set and table
size, one segment of a different kind per start position, and what ``Companion.start`` uses."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.games.san_gimignano import geometry, tables
from companion.games.san_gimignano.layout import (
    START_POSITIONS,
    default_setup,
    laid_count,
    segment_types,
)
from companion.registry import get_game

GAME = get_game("san-gimignano")
NAMES = ("Ada", "Bo", "Cy", "Di")


def test_there_are_eight_kinds_and_no_rotation_of_one_is_another():
    kinds = segment_types(tables.DEFAULT_GUILDS)
    assert len(kinds) == 8
    shapes = [frozenset(geometry.rotations(kind)) for kind in kinds]
    for index, shape in enumerate(shapes):
        assert all(shape.isdisjoint(other) for other in shapes[index + 1:])


def test_the_rulebook_lays_one_per_player_and_the_clarified_rules_four():
    assert [laid_count(tables.RULEBOOK, n) for n in (2, 3, 4)] == [2, 3, 4]
    assert [laid_count(tables.CLARIFIED, n) for n in (2, 3, 4)] == [4, 4, 4]


@given(guilds=st.lists(st.text(st.characters(categories=("L", "N")), min_size=1, max_size=8),
                       min_size=4, max_size=4, unique=True),
       rules=st.sampled_from(tables.RULES), players=st.integers(2, 4))
def test_the_default_layout_starts_a_game_for_any_guilds_rules_and_table(guilds, rules, players):
    names = NAMES[:players]
    options = {"rules": rules}
    setup = default_setup(names, options, guilds)
    state = GAME.start(names, options, setup)  # the engine checks that every segment fits
    laid = [tuple(segment["at"]) for segment in setup["segments"]]
    assert laid == list(START_POSITIONS[:laid_count(rules, players)])
    kinds = [next(i for i, kind in enumerate(segment_types(guilds))
                  if tuple(segment["edges"]) in geometry.rotations(kind)) for segment in setup["segments"]]
    assert len(set(kinds)) == len(kinds)  # each of another kind
    assert GAME.legal_moves(state)  # and the first player has something to do
