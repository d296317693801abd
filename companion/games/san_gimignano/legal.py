"""San Gimignano's legal moves, generated from the rules rather than found by trial.

A move is legal when its player may act (the player whose turn it is, or the
next one once nothing is owed), its stage fits the turn (no stage out of
order, none skipped while still possible) and the placement itself fits. The
functions below mirror :mod:`.rules`' checks in that order; the contract
tests compare the result against a brute-force search through ``apply``.
"""

from __future__ import annotations

from typing import Any

from companion.games.san_gimignano import groups, tables, turns
from companion.games.san_gimignano.geometry import Space
from companion.games.san_gimignano.state import (
    STAGE_SEGMENT,
    STAGE_TOKEN,
    STAGE_TOWER,
    STAGES,
    State,
)

Template = dict[str, Any]


def legal_moves(state: State) -> list[Template]:
    """The move templates of ``records.md`` ("`companion moves`") for ``state``.

    Worked out once per state (:attr:`State.derived`): after a move the screens ask for them,
    the turn (:meth:`Game.turn`) and the step due (:meth:`Game.what_now`) are read off them, and
    each used to generate them anew. Each caller gets its own list of its own dicts (a caller
    may add to a template); the lists inside a template are shared and never changed.
    """
    if state.finished:
        return []
    key = ("legal_moves", "")
    if key not in state.derived:
        found: list[Template] = []
        for player, new_turn in actors(state):
            found += moves_of(state, player, new_turn)
        state.derived[key] = tuple(found)
    return [dict(template) for template in state.derived[key]]


def actors(state: State) -> list[tuple[str, bool]]:
    """Who may move now, each with whether its move would start a new turn."""
    found: list[tuple[str, bool]] = []
    if state.current is not None:
        found.append((state.current, False))
    following = state.players[state.next_seat]
    if following != state.current and turns.owed(state) is None:
        found.append((following, True))
    return found


def open_stages(state: State, player: str, new_turn: bool) -> list[str]:
    """The stages ``player`` may play now: not before the turn's stage, none possible skipped."""
    order = STAGES[state.rules]
    at = 0 if new_turn else state.stage
    passed = False if new_turn else state.passed
    allowed: list[str] = []
    for stage in order[at:]:
        if stage == STAGE_SEGMENT and state.segments_left(player) < 1:
            blocked = True
        else:
            allowed.append(stage)
            blocked = False
        if passed:
            continue
        if stage != STAGE_TOWER and not blocked and turns.stage_possible(state, player, stage):
            break
    return allowed


def moves_of(state: State, player: str, new_turn: bool) -> list[Template]:
    found: list[Template] = []
    for stage in open_stages(state, player, new_turn):
        if stage == STAGE_TOKEN:
            found += [{"type": "token", "player": player, "space": list(space)}
                      for space in token_spaces(state, player)]
        elif stage == STAGE_SEGMENT:
            found += [{"type": "segment", "player": player, "at": list(at), "edges": list(edges)}
                      for at, edges in turns.placements(state)]
        else:
            found += towers(state, player)
    if (new_turn and not turns.can_place_token(state, player)
            and not turns.can_place_segment(state, player)):
        found.append({"type": "pass", "player": player})
    return found


def token_spaces(state: State, player: str) -> list[Space]:
    """Spaces where ``player`` may put a token (a token in hand, no tower, room left)."""
    if state.in_hand(player) < 1:
        return []
    return [space for space in state.spaces() if space not in state.towers
            and len(state.tokens.get(space, ())) < tables.TOKENS_PER_SPACE]


def towers(state: State, player: str) -> list[Template]:
    """A tower on each space of each group ``player`` may build on, the group sorted."""
    found: list[Template] = []
    for group in groups.buildable(state, player):
        ordered = [list(space) for space in sorted(group)]
        found += [{"type": "tower", "player": player, "space": space, "group": ordered}
                  for space in ordered]
    return found
