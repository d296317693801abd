"""Campanile's legal moves, generated from the rules rather than found by trial.

Each generator below mirrors one refusal path of :mod:`.rules`, so a
template listed here is a move ``apply`` accepts and every move it accepts
is listed (the contract tests compare both against a brute-force search).
The refill ``reveal`` is listed as ``{"type": "reveal"}``: the card turned
over is observed at the table, not chosen.
"""

from __future__ import annotations

from typing import Any

from companion.games.campanile import tables
from companion.games.campanile.rules import turn_complete
from companion.games.campanile.state import CampanileState


def legal_moves(state: CampanileState) -> list[dict[str, Any]]:
    """The move templates of ``records.md`` ("`companion moves`") for ``state``."""
    if state.phase == "finished":
        return []
    return [*_builds(state), *_markers(state), *_cards(state), *_valuations(state)]


def _builder(state: CampanileState) -> str | None:
    """Who may build now (start the next turn), or ``None`` while the display is owed."""
    turn = state.turn
    if turn is None:
        return state.players[0]
    if state.rules.tracks_display and not turn_complete(state, turn):
        return None
    return state.players[(turn.player + 1) % len(state.players)]


def _builds(state: CampanileState) -> list[dict[str, Any]]:
    player = _builder(state)
    if player is None:
        return []
    return [{"type": "build", "player": player, "tower": tower, "stories": stories}
            for tower in state.rules.towers for stories in tables.STORY_CHOICES]


def _marker_towers(state: CampanileState) -> tuple[str, ...]:
    """Towers a marker may go under now (the display's styles when it is tracked)."""
    towers = state.rules.towers
    if state.rules.tracks_display:
        return tuple(t for t in towers if t in state.display)
    return towers


def _markers(state: CampanileState) -> list[dict[str, Any]]:
    turn = state.turn
    if turn is None or turn.ended or turn.marker_placed or turn.card_taken:
        return []
    player = state.players[turn.player]
    targets = _marker_towers(state)
    found: list[dict[str, Any]] = []
    if state.markers_left[turn.player][turn.stories - 1] > 0:
        found += [{"type": "influence", "player": player, "tower": t} for t in targets]
    if state.rules.two_player_move and turn.stories == tables.RELOCATE_STORIES:
        for tower, stack in zip(state.rules.towers, state.stacks, strict=True):
            if any(g.player == player and tables.RELOCATE_STORIES in g.markers for g in stack):
                found += [{"type": "relocate", "player": player, "from": tower, "to": t}
                          for t in targets if t != tower]
    return found


def _cards(state: CampanileState) -> list[dict[str, Any]]:
    turn = state.turn
    if not state.rules.tracks_display or turn is None:
        return []
    found: list[dict[str, Any]] = []
    if not turn.ended and not turn.card_taken:
        player = state.players[turn.player]
        found += [{"type": "take", "player": player, "card": card} for card in dict.fromkeys(state.display)]
    if turn.card_taken and len(state.display) < tables.DISPLAY_SIZE:
        found.append({"type": "reveal"})
    return found


def _valuations(state: CampanileState) -> list[dict[str, Any]]:
    turn = state.turn
    if turn is None:
        return []
    if state.rules.tracks_display and (not turn.card_taken or len(state.display) >= tables.DISPLAY_SIZE):
        return []
    phases = tables.PHASES if state.phase == "opening" else ("finito",)
    return [{"type": "valuation", "phase": phase} for phase in phases]
