"""Properties of random legal Campanile games (hypothesis).

Games are generated turn by turn: the player to move builds a random tower by 1–3 stories,
maybe places a marker (or relocates one) on a random tower the engine accepts, takes and
reveals cards when the display is tracked, and the valuations come at random turns.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalMove
from companion.games.campanile import Campanile, tables
from companion.games.campanile.moves import Build, Influence, Relocate, Reveal, Take, Valuation
from companion.games.campanile.state import CampanileState
from companion.games.campanile.views import marker_choices
from companion.games.messages import Message
from companion.i18n import render_json, summary_json
from companion.service.records import final_state, parse_record, record_json
from companion.service.session import Session
from tests.refusals import assert_words

GAME = Campanile()
NAMES = ["Albert", "Birgit", "Franziska", "Helmut", "Ida"]
TOWERS = list(tables.DEFAULT_TOWERS)
MARKERS = (5, 3, 1)  # per player: value 1, 2, 3

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

flag_row = st.lists(st.integers(1, 6), min_size=1, max_size=3).map(lambda r: sorted(r, reverse=True))


@st.composite
def game_options(draw: st.DrawFn) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
    count = draw(st.integers(2, 5))
    players = NAMES[:count]
    options: dict[str, Any] = {}
    if count == 2 or draw(st.integers(0, 4)) == 0:
        options["flags"] = {"intermezzo": draw(st.lists(flag_row, min_size=4, max_size=4)),
                            "finito": draw(st.lists(flag_row, min_size=5, max_size=5))}
    if count == 2:
        options["two_player_move"] = draw(st.booleans())
    setup: dict[str, Any] = {}
    if draw(st.booleans()):
        setup["display"] = draw(st.lists(st.sampled_from(TOWERS), min_size=3, max_size=3))
    return players, options, setup


def legal(state: CampanileState, move: Any) -> bool:
    try:
        GAME.apply(state, move)
    except IllegalMove:
        return False
    return True


@dataclass
class Played:
    players: list[str]
    options: dict[str, Any]
    setup: dict[str, Any]
    session: Session
    history: list[tuple[Any, Any]] = field(default_factory=list)  # (state before, move)


def propose(played: Played, move: Any) -> None:
    session = played.session
    before, log = session.state, session.log
    after = session.propose(move)
    assert session.log == (*log, move)
    played.history.append((before, move))
    # undo returns exactly to the previous state and log; redo comes back
    assert session.undo() == move
    assert session.state == before and session.log == log
    assert session.redo() == move
    assert session.state == after and session.log == (*log, move)


@st.composite
def random_games(draw: st.DrawFn) -> Played:
    players, options, setup = draw(game_options())
    initial = GAME.start(players, options, setup)
    played = Played(players, options, setup, Session(GAME, players, initial))
    tracked = "display" in setup
    intermezzo_at = draw(st.integers(1, 14))
    finito_after = draw(st.integers(1, 14))
    finish = draw(st.booleans())
    turns = intermezzo_at + finito_after if finish else draw(st.integers(0, 24))
    for turn in range(1, turns + 1):
        state = played.session.state
        player = GAME.to_move(state)
        assert player is not None
        stories = draw(st.integers(1, 3))
        propose(played, Build(player, draw(st.sampled_from(TOWERS)), stories))
        state = played.session.state
        if draw(st.integers(0, 3)) > 0:
            candidates: list[Any] = [Influence(player, t) for t in TOWERS]
            if draw(st.booleans()):
                candidates += [Relocate(player, a, b) for a in TOWERS for b in TOWERS]
            accepted = [m for m in candidates if legal(state, m)]
            if accepted:
                propose(played, draw(st.sampled_from(accepted)))
        if tracked:
            propose(played, Take(player, draw(st.sampled_from(sorted(set(played.session.state.display))))))
        phase = "intermezzo" if turn == intermezzo_at else "finito" if finish and turn == turns else None
        if phase is not None:
            propose(played, Valuation(phase))
        if tracked and phase != "finito":
            propose(played, Reveal(draw(st.sampled_from(TOWERS))))
    return played


def custom(played: Played) -> bool:
    return played.session.state.rules.custom_flags


@SETTINGS
@given(random_games())
def test_markers_are_conserved(played: Played) -> None:
    state = played.session.state
    for player in played.players:
        placed = Counter(v for stack in state.stacks for g in stack if g.player == player for v in g.markers)
        left = state.markers_of(player)
        for value in (1, 2, 3):
            assert placed[value] + left[value] == MARKERS[value - 1]
            assert left[value] >= 0
    for stack in state.stacks:
        owners = [g.player for g in stack]
        assert len(owners) == len(set(owners))  # one group per player per tower
        assert all(g.markers for g in stack)  # no empty group


@SETTINGS
@given(random_games())
def test_chips_are_the_flag_values_given(played: Played) -> None:
    state = played.session.state
    awarded: dict[str, list[int]] = {p: [] for p in played.players}
    for valuation in state.valuations:
        assert len(valuation.flags) == tables.FLAGGED_TOWERS[valuation.phase]
        assert [f.rank for f in valuation.flags] == list(range(len(valuation.flags), 0, -1))
        for result in valuation.flags:
            assert len(result.awards) == min(len(result.flag), len(result.influence))
            assert [a.points for a in result.awards] == list(result.flag[:len(result.awards)])
            influence = dict(result.influence)
            assert [influence[a.player] for a in result.awards] == sorted(
                (influence[a.player] for a in result.awards), reverse=True)
            for award in result.awards:
                awarded[award.player].append(award.points)
    for index, player in enumerate(played.players):
        assert sorted(state.chips[index]) == sorted(awarded[player])
    summary = GAME.summary(state)
    assert summary["chips"] == {p: sorted(c, reverse=True) for p, c in awarded.items()}
    assert summary["scores"] == {p: sum(c) for p, c in awarded.items()}
    if not custom(played):
        given_out = Counter(v for chips in awarded.values() for v in chips)
        for value, count in tables.CHIP_SUPPLY.items():
            assert given_out[value] <= count
            assert given_out[value] + dict(state.chip_supply)[value] == count


@SETTINGS
@given(random_games())
def test_winners_follow_points_then_highest_chip(played: Played) -> None:
    summary = GAME.summary(played.session.state)
    if not summary["finished"]:
        assert summary["winners"] == []
        return
    best = max(summary["scores"].values())
    assert summary["winners"]
    for player in summary["winners"]:
        assert summary["scores"][player] == best
    top = {p: max(summary["chips"][p], default=0) for p in summary["winners"]}
    assert len(set(top.values())) == 1
    for player in played.players:
        if summary["scores"][player] == best and player not in summary["winners"]:
            assert max(summary["chips"][player], default=0) < next(iter(top.values()))


@SETTINGS
@given(random_games())
def test_replay_of_the_log_equals_incremental_play(played: Played) -> None:
    session = played.session
    data = record_json(GAME, played.players, session.state, session.log)
    parsed = parse_record(data)
    assert parsed.moves == session.log
    assert final_state(parsed) == session.state
    # the same through JSON text, and the summary is the same
    again = parse_record(json.loads(json.dumps(data)))
    assert GAME.summary(final_state(again)) == GAME.summary(session.state)
    assert record_json(GAME, played.players, final_state(again), again.moves) == data


@SETTINGS
@given(random_games(), st.data())
def test_amend_a_move_to_itself_is_identity(played: Played, data: st.DataObject) -> None:
    session = played.session
    if not session.log:
        return
    state, log = session.state, session.log
    index = data.draw(st.integers(0, len(log) - 1))
    assert session.amend(index, log[index]) == state
    assert session.state == state and session.log == log
    for i, (before, move) in enumerate(played.history):
        assert session.state_before(i) == before
        assert session.log[i] == move


@SETTINGS
@given(random_games(), st.data())
def test_undo_to_any_point_restores_that_state(played: Played, data: st.DataObject) -> None:
    session = played.session
    if not session.log:
        return
    back = data.draw(st.integers(1, len(session.log)))
    final = session.state
    for _ in range(back):
        session.undo()
    index = len(played.history) - back
    assert session.state == played.history[index][0]
    assert session.log == tuple(m for _, m in played.history[:index])
    for _ in range(back):
        session.redo()
    assert session.state == final


@SETTINGS
@given(random_games(), st.data())
def test_refused_candidates_change_nothing(played: Played, data: st.DataObject) -> None:
    state = played.session.state
    snapshot = GAME.summary(state)
    player = data.draw(st.sampled_from(played.players))
    tower = data.draw(st.sampled_from(TOWERS))
    candidates = [Build(player, tower, data.draw(st.integers(1, 3))), Influence(player, tower),
                  Relocate(player, tower, data.draw(st.sampled_from(TOWERS))), Take(player, tower),
                  Reveal(tower), Valuation(data.draw(st.sampled_from(["intermezzo", "finito"])))]
    for move in candidates:
        try:
            after = GAME.apply(state, move)
        except IllegalMove as refusal:
            assert isinstance(refusal.reason, Message)
            assert_words(refusal.reason)  # a code with words in English and Hungarian, no English left
            assert GAME.summary(state) == snapshot
        else:
            assert after is not state
            assert GAME.summary(state) == snapshot


@SETTINGS
@given(random_games())
def test_summary_shape(played: Played) -> None:
    state = played.session.state
    summary = summary_json(GAME.summary(state))  # as replay --json writes it
    assert [t["tower"] for t in summary["towers"]] == TOWERS
    assert sum(t["height"] for t in summary["towers"]) == sum(
        m.stories for m in played.session.log if isinstance(m, Build))
    assert summary["finished"] == (state.phase == "finished")
    for valuation in summary["valuations"]:
        for flag in valuation["flags"]:
            stack = next(t["stack"] for t in summary["towers"] if t["tower"] == flag["tower"])
            if not flag["influence"]:
                assert flag["awards"] == []
            if valuation is summary["valuations"][-1] and state.phase == "finished":
                assert flag["influence"] == {g["player"]: sum(g["markers"]) for g in stack}
    assert (summary["win_reason"] is not None) == summary["finished"]
    explained = [(v.phase, f) for v in state.valuations for f in v.flags]
    assert [(e["phase"], e["tower"]) for e in summary["explanations"]] == [(p, f.tower) for p, f in explained]
    for entry, (_, flag) in zip(summary["explanations"], explained, strict=True):
        assert entry["sentences"] == [render_json(sentence) for sentence in flag.explanation]
        assert entry["text"] == " ".join(sentence["text"] for sentence in entry["sentences"])
        for sentence in flag.explanation:
            assert_words(sentence)
    if state.rules.tracks_display:
        assert len(summary["display"]) in (2, 3)
        if not summary["finished"]:
            assert GAME.to_move(state) is not None


@SETTINGS
@given(random_games())
def test_marker_choices_after_each_build_are_exactly_the_accepted_markers(played: Played) -> None:
    session = played.session
    for index, (_, move) in enumerate(played.history):
        if not isinstance(move, Build):
            continue
        state = session.state_before(index + 1)
        towers = [t for t in TOWERS if legal(state, Influence(move.player, t))]
        assert marker_choices(state) == ((move.stories if towers else None), towers)
