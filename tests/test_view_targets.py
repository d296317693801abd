"""The screens' targets and previews agree with the engines' legal moves and scoring, on random games."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.campanile import views as campanile_views
from companion.games.castelli import views as castelli_views
from companion.games.san_gimignano import views as sg_views
from tests.contract_kit import random_states


def listed(game, state, kind, **fields):
    return [m for m in game.legal_moves(state) if m["type"] == kind
            and all(m.get(k) == v for k, v in fields.items())]


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_campanile_targets_are_the_legal_moves(seed):
    for game, state, _ in random_states("campanile", seed, 120):
        found = campanile_views.targets(state)
        assert set(found.cards) == {m["card"] for m in listed(game, state, "take")}
        assert found.refill == bool(listed(game, state, "reveal"))
        assert set(found.valuations) == {m["phase"] for m in listed(game, state, "valuation")}
        assert set(found.marker_towers) == {m["tower"] for m in listed(game, state, "influence")}
        for phase in found.valuations:  # the preview is what turning the card over would award
            after = game.apply(state, game.parse_move({"type": "valuation", "phase": phase}))
            assert campanile_views.preview(state, phase) == after.valuations[-1].flags


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_castelli_targets_and_previews(seed):
    for game, state, _ in random_states("castelli", seed, 200):
        found = castelli_views.targets(state)
        assert set(found.reveal_spaces) == {m["space"] for m in listed(game, state, "reveal")}
        assert found.end == bool(listed(game, state, "end"))
        assert {(s.player, tuple(s.shields)) for s in found.stewards} == {
            (m["player"], tuple((c, v) for c, v in m["shields"].values()))
            for m in listed(game, state, "steward")}
        plays = {(p.player, p.card) for p in found.plays}
        assert plays == {(m["player"], m["card"]) for m in listed(game, state, "play")}
        for player, most in found.sell:
            assert max(m["cards"] for m in listed(game, state, "sell", player=player)) == most
        for evaluation in state.evaluations:  # every shield of an evaluated area is up: same influence
            if evaluation.kind != "mine":
                preview = castelli_views.preview_area(state, evaluation.area)
                assert preview.influence == dict(evaluation.influence)
        if game.is_finished(state):
            assert castelli_views.preview_final(state) == state.final
        elif found.end:
            ended = game.apply(state, game.parse_move({"type": "end"}))
            assert castelli_views.preview_final(state) == ended.final


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_san_gimignano_targets_respect_the_stage(seed):
    for game, state, _ in random_states("san-gimignano", seed, 150):
        for player in state.players:
            found = sg_views.targets(state, player)
            mine = [m for m in game.legal_moves(state) if m["player"] == player]
            assert sorted(map(list, found.token_spaces)) == sorted(m["space"] for m in mine
                                                                   if m["type"] == "token")
            assert len(found.placements) == sum(1 for m in mine if m["type"] == "segment")
            assert found.may_pass == any(m["type"] == "pass" for m in mine)
        assert dataclasses.is_dataclass(found)
