"""Whose turn it is and which stages of it are still owed.

A turn has three stages in a rule set's order (rulebook: token, segment,
tower; clarified: segment, token, tower). A stage may be skipped only when it
is impossible (no token to place or no room; no segment left or nowhere it
fits); the tower stage is owed under the rulebook whenever the player can
build ("Build one tower, if possible"), and optional under the clarified rules.
"""

from __future__ import annotations

from companion.games.san_gimignano import geometry, tables
from companion.games.san_gimignano.geometry import Edges, Position
from companion.games.san_gimignano.groups import can_build
from companion.games.san_gimignano.state import (
    STAGE_SEGMENT,
    STAGE_TOKEN,
    STAGE_TOWER,
    STAGES,
    State,
)


def token_room(state: State) -> bool:
    """Whether any space can take a token (no tower, fewer than two tokens)."""
    return any(space not in state.towers and len(state.tokens.get(space, ())) < tables.TOKENS_PER_SPACE
               for space in state.adjacency)


def can_place_token(state: State, player: str) -> bool:
    """Whether ``player`` holds a token and some space has room for it."""
    return state.in_hand(player) > 0 and token_room(state)


def placements(state: State) -> tuple[tuple[Position, Edges], ...]:
    """Every open position with every outline that fits there, worked out once per state.

    The record does not say which segments a hand holds, so any outline of
    three of the four guilds counts.
    """
    key = ("placements", "")
    if key not in state.derived:
        outlines = geometry.all_outlines(state.guilds)
        state.derived[key] = tuple(
            (at, edges) for at in geometry.open_positions(state.segments)
            for edges in geometry.fitting(state.segments, at, outlines))
    found: tuple[tuple[Position, Edges], ...] = state.derived[key]
    return found


def segment_fits_somewhere(state: State) -> bool:
    """Whether some segment outline fits at some open position (stops at the first, unless all are known)."""
    known = state.derived.get(("placements", ""))
    if known is not None:
        return bool(known)
    outlines = geometry.all_outlines(state.guilds)
    return any(geometry.fitting(state.segments, at, outlines)
               for at in geometry.open_positions(state.segments))


def can_place_segment(state: State, player: str) -> bool:
    """Whether ``player`` still has a segment to place and it could go somewhere."""
    return state.segments_left(player) > 0 and segment_fits_somewhere(state)


def stage_possible(state: State, player: str, stage: str) -> bool:
    """Whether ``player`` could do the token or segment stage now."""
    if stage == STAGE_TOKEN:
        return can_place_token(state, player)
    if stage == STAGE_SEGMENT:
        return can_place_segment(state, player)
    return False


def must_build(state: State) -> str | None:
    """Under the rulebook: the player whose turn it is, if it has not built and could."""
    player = state.current
    if (state.rules != tables.RULEBOOK or player is None or state.finished
            or state.stage > STAGES[state.rules].index(STAGE_TOWER)):
        return None
    return player if can_build(state, player) else None


def owed(state: State) -> str | None:
    """The stage the player whose turn it is still owes before the next player may start, or ``None``.

    Returns the stage (``"token"``, ``"segment"``, ``"tower"``): the refusal
    says it in a player's words.
    """
    player = state.current
    if player is None or state.finished:
        return None
    key = ("owed", "")
    if key not in state.derived:  # once per state: the summary's to_move and the legal moves ask it
        state.derived[key] = _owed(state, player)
    found: str | None = state.derived[key]
    return found


def _owed(state: State, player: str) -> str | None:
    order = STAGES[state.rules]
    if not state.passed:
        for stage in order[state.stage:]:
            if stage != STAGE_TOWER and stage_possible(state, player, stage):
                return stage
    if must_build(state) is not None:
        return STAGE_TOWER
    return None


def to_move(state: State) -> str | None:
    """The player expected to act next; ``None`` once the game is over."""
    if state.finished:
        return None
    if owed(state) is not None:
        return state.current
    return state.players[state.next_seat]


def in_progress(state: State) -> tuple[str | None, str | None]:
    """``(player, next)``: whose turn is in progress (from its first move on) and who starts the next."""
    if state.finished:
        return None, None
    return state.current, state.players[state.next_seat]
