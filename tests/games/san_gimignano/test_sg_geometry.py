"""Geometry of San Gimignano segments: outlines, touching spaces, where segments fit."""

from __future__ import annotations

import pytest

from companion.games.san_gimignano import geometry, views
from companion.games.san_gimignano.state import start_state
from tests.refusals import assert_message

G1, G2, G3, G4 = "guild-1", "guild-2", "guild-3", "guild-4"


@pytest.mark.parametrize("edges", [
    [G1, G1, G2, G2, G3, G3],
    [G3, G1, G1, G2, G2, G3],
    [G4, G4, G1, G1, G2, G2],
])
def test_outlines_of_three_pairs_are_accepted(edges):
    assert geometry.edges_problem(edges) is None


@pytest.mark.parametrize(("edges", "code", "problem"), [
    ([G1, G2, G2, G3, G3], "san_gimignano.edges.six", "edges must list six guilds, one per edge"),
    ([G1, G2, G1, G2, G3, G3], "san_gimignano.edges.pairs", "edges must be three pairs of equal guilds"),
    ([G1, G1, G2, G2, G1, G1], "san_gimignano.edges.three_guilds", "edges must show three different guilds"),
    ([G1, G1, G1, G1, G1, G1], "san_gimignano.edges.three_guilds", "edges must show three different guilds"),
    ([G1, G1, G2, G3, G3, G2], "san_gimignano.edges.pairs", "edges must be three pairs of equal guilds"),
])
def test_bad_outlines_are_named(edges, code, problem):
    found = geometry.edges_problem(edges)
    assert assert_message(found, code, field="edges")["en"] == problem
    assert geometry.edges_problem(edges, "setup.segments[2].edges").params["field"] == \
        "setup.segments[2].edges"


def test_neighbours_follow_the_clockwise_d_vectors():
    assert [geometry.neighbour((0, 0), i) for i in range(6)] == [
        (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]
    assert [geometry.opposite(i) for i in range(6)] == [3, 4, 5, 0, 1, 2]


def test_spaces_of_a_segment_touch_each_other_and_across_edges():
    state = start_state(["A", "B"], {}, {"segments": [
        {"at": [0, 0], "edges": [G1, G1, G2, G2, G3, G3]},
        {"at": [1, 0], "edges": [G4, G4, G2, G2, G3, G3]},
    ]})
    adjacency = state.adjacency
    # inside the segment at (0, 0): a triangle
    assert set(adjacency[(0, 0, G1)]) >= {(0, 0, G2), (0, 0, G3)}
    # edge 1 of (0, 0) is guild-1; it faces edge 4 of (1, 0), which is guild-3
    assert (1, 0, G3) in adjacency[(0, 0, G1)]
    assert (0, 0, G1) in adjacency[(1, 0, G3)]
    # nothing else crosses between the two segments
    crossing = {(a, b) for a, near in adjacency.items() for b in near if a[:2] != b[:2]}
    assert crossing == {((0, 0, G1), (1, 0, G3)), ((1, 0, G3), (0, 0, G1))}
    assert len(adjacency) == 6


def test_open_positions_need_two_touching_segments():
    segments = {(0, 0): (G1, G1, G2, G2, G3, G3), (1, 0): (G4, G4, G2, G2, G3, G3)}
    # the two common neighbours of (0, 0) and (1, 0)
    assert geometry.open_positions(segments) == [(0, 1), (1, -1)]
    assert geometry.touching(segments, (2, 0)) == 1


def test_clash_finds_the_edge_with_the_same_guild_across_it():
    segments = {(0, 0): (G1, G1, G2, G2, G3, G3)}
    # at (1, 0) edge 4 faces edge 1 of (0, 0), which shows guild-1
    assert geometry.clash(segments, (1, 0), (G2, G2, G3, G3, G1, G1)) == 4
    assert geometry.clash(segments, (1, 0), (G1, G1, G2, G2, G3, G3)) is None


def test_rotations_and_all_outlines():
    turns = geometry.rotations([G1, G2, G3])
    assert turns[0] == (G1, G1, G2, G2, G3, G3)
    assert turns[1] == (G3, G1, G1, G2, G2, G3)
    assert len(set(turns)) == 6
    outlines = geometry.all_outlines([G1, G2, G3, G4])
    assert len(outlines) == 48
    assert all(geometry.edges_problem(edges) is None for edges in outlines)


def test_segment_placements_list_every_fitting_position_and_rotation():
    state = start_state(["A", "B"], {}, {"segments": [
        {"at": [0, 0], "edges": [G1, G1, G2, G2, G3, G3]},
        {"at": [1, 0], "edges": [G4, G4, G2, G2, G3, G3]},
    ]})
    placements = views.segment_placements(state, [G1, G2, G4])
    assert placements, "a segment must fit somewhere next to two segments"
    for at, edges in placements:
        assert at in [(0, 1), (1, -1)]
        assert geometry.clash(state.segments, at, edges) is None
    # every rotation that does not clash is listed, and only those
    expected = [(at, edges) for at in [(0, 1), (1, -1)]
                for edges in geometry.rotations([G1, G2, G4])
                if geometry.clash(state.segments, at, edges) is None]
    assert placements == expected
    assert len(placements) < 12  # some rotations clash
    assert views.segment_placements(state, [G1, G1, G2]) == []


def test_fitting_keeps_exactly_the_outlines_without_a_clash():
    from companion.games.san_gimignano import geometry as geo

    segments = {(0, 0): ("g4", "g1", "g1", "g2", "g2", "g4"), (1, 0): ("g3", "g3", "g2", "g2", "g4", "g4")}
    outlines = geo.all_outlines(["g1", "g2", "g3", "g4"])
    for at in [*geo.open_positions(segments), (5, 5)]:
        assert geo.fitting(segments, at, outlines) == [
            e for e in outlines if geo.clash(segments, at, e) is None]
    assert 0 < len(geo.fitting(segments, (1, -1), outlines)) < len(outlines)
