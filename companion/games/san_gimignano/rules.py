"""The rules: which move is legal now, and the state after it.

``apply`` checks the move in this order: the game is not over, it is the
player's turn (finishing what the previous player owed), the stage of the
turn fits, then the placement itself. Every refusal is an
:class:`IllegalMove` in a player's words, raised before anything is built,
so the given state is never touched.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.base import IllegalMove, require_player
from companion.games.san_gimignano import geometry, groups, tables, turns
from companion.games.san_gimignano.geometry import Space
from companion.games.san_gimignano.moves import Move, PassMove, SegmentMove, TokenMove, TowerMove
from companion.games.san_gimignano.state import (
    STAGE_SEGMENT,
    STAGE_TOKEN,
    STAGE_TOWER,
    STAGES,
    State,
)

_ONCE = {
    STAGE_TOKEN: "a player may put down only one token per turn",
    STAGE_SEGMENT: "a player may put down only one board segment per turn",
    STAGE_TOWER: "a player may build only one tower per turn",
}


def show(space: Space) -> str:
    """A space as players read it in messages: ``guild-2 on [1, 0]``."""
    return f"{space[2]} on [{space[0]}, {space[1]}]"


def _stage_of(move: Move) -> str:
    if isinstance(move, TokenMove):
        return STAGE_TOKEN
    if isinstance(move, SegmentMove):
        return STAGE_SEGMENT
    return STAGE_TOWER


def _check_turn(state: State, move: Move) -> tuple[int, bool]:
    """``(seat, new_turn)`` for the move's player, or :class:`IllegalMove` when it is not its turn."""
    player = move.player
    require_player(state.players, player)
    seat = state.players.index(player)
    if state.turn is not None and seat == state.turn:
        return seat, False
    if seat != state.next_seat:
        expected = turns.to_move(state)
        raise IllegalMove(f"it is not {player}'s turn: {expected} plays next")
    debt = turns.owed(state)
    if debt is not None:
        if debt == "build a tower":
            raise IllegalMove(f"{state.current} can still build a tower and must do so "
                              f"before {player} plays")
        raise IllegalMove(f"{state.current} must still {debt} before {player} plays")
    return seat, True


def _check_stage(state: State, move: Move, new_turn: bool) -> int:
    """The stage index after ``move``; refuses a stage out of order or played twice."""
    player = move.player
    order = STAGES[state.rules]
    at = 0 if new_turn else state.stage
    passed = False if new_turn else state.passed
    if isinstance(move, PassMove):
        if not new_turn:
            raise IllegalMove(f"{player} has already played this turn; a pass is for a whole turn")
        if turns.can_place_token(state, player):
            raise IllegalMove(f"{player} can still place a token and may not pass")
        if turns.can_place_segment(state, player):
            raise IllegalMove(f"{player} can still place a segment and may not pass")
        return order.index(STAGE_TOWER)
    stage = _stage_of(move)
    if stage == STAGE_SEGMENT and state.segments_left(player) < 1:
        if state.rules == tables.RULEBOOK:
            raise IllegalMove(f"{player} has no segments left")
        raise IllegalMove("all segments have been placed")
    index = order.index(stage)
    if index < at:
        if passed:
            raise IllegalMove(f"{player} passed this turn and can place nothing more")
        raise IllegalMove(_ONCE[stage])
    if not passed:
        for skipped in order[at:index]:
            if turns.stage_possible(state, player, skipped):
                first = "a turn starts with" if skipped == order[0] else "next comes"
                raise IllegalMove(f"{player} must place a {skipped} first ({first} the {skipped})")
    return index + 1


def _place_token(state: State, move: TokenMove) -> State:
    space = move.space
    if space not in state.adjacency:
        raise IllegalMove(f"there is no space {show(space)}")
    if space in state.towers:
        raise IllegalMove("a space with a tower takes no tokens")
    owners = state.tokens.get(space, ())
    if len(owners) >= tables.TOKENS_PER_SPACE:
        raise IllegalMove("a space holds at most two tokens")
    if state.in_hand(move.player) < 1:
        raise IllegalMove(f"{move.player} has no tokens left")
    tokens = dict(state.tokens)
    tokens[space] = (*owners, move.player)
    on_board = dict(state.on_board)
    on_board[move.player] += 1
    return replace(state, tokens=tokens, on_board=on_board)


def _place_segment(state: State, move: SegmentMove) -> State:
    player, at, edges = move.player, move.at, move.edges
    if state.segments_left(player) < 1:
        if state.rules == tables.RULEBOOK:
            raise IllegalMove(f"{player} has no segments left")
        raise IllegalMove("all segments have been placed")
    for guild in edges:
        if guild not in state.guilds:
            raise IllegalMove(f'"{guild}" is not one of the guilds ({", ".join(state.guilds)})')
    if at in state.segments:
        raise IllegalMove(f"there is already a segment at [{at[0]}, {at[1]}]")
    if geometry.touching(state.segments, at) < 2:
        raise IllegalMove("a new segment must adjoin at least two segments already on the table")
    if geometry.clash(state.segments, at, edges) is not None:
        raise IllegalMove("two touching edges may not show the same guild")
    adjacency = geometry.adjacency_with(state.adjacency, state.segments, at, edges)
    segments = dict(state.segments)
    segments[at] = edges
    if state.rules == tables.RULEBOOK:
        hands = dict(state.hands)
        hands[player] -= 1
        return replace(state, segments=segments, adjacency=adjacency, hands=hands)
    return replace(state, segments=segments, adjacency=adjacency, pool=state.pool - 1)


def check_group(state: State, player: str, group: tuple[Space, ...]) -> None:
    """Refuse a group that does not meet the building condition for ``player`` now."""
    for space in group:
        if space not in state.adjacency:
            raise IllegalMove(f"there is no space {show(space)}")
    for space in group:
        if space in state.towers:
            raise IllegalMove(f"{show(space)} has a tower and can no longer be part of a group")
    for space in group:
        if player not in state.tokens.get(space, ()):
            raise IllegalMove(f"each space of the group must hold one of {player}'s tokens "
                              f"({show(space)} does not)")
    guilds = {space[2] for space in group}
    if state.variant == tables.STRING:
        if len(guilds) < tables.GUILD_COUNT:
            raise IllegalMove("the group must show all four guilds")
    else:
        if len(group) != tables.GROUP_SIZE:
            raise IllegalMove(f"a group is four spaces, not {len(group)}")
        if len(guilds) != tables.GROUP_SIZE:
            raise IllegalMove("the four guilds of a group must all be different")
    if not groups.is_connected(group, state.adjacency):
        raise IllegalMove("the spaces of a group must be connected")
    if state.variant == tables.STRING:
        # records.md: with ``string`` the group is "a whole connected set", the maximal one.
        mine = groups.player_spaces(state, player)
        members = set(group)
        for space in group:
            for near in state.adjacency.get(space, ()):
                if near in mine and near not in members:
                    raise IllegalMove(f"the group must be the whole connected set of {player}'s "
                                      f"spaces ({show(near)} belongs to it too)")


def _build_tower(state: State, move: TowerMove) -> State:
    player, space = move.player, move.space
    if space not in move.group:
        raise IllegalMove("the tower must stand on one of the spaces of the group")
    check_group(state, player, move.group)
    towers = dict(state.towers)
    towers[space] = player
    tokens = dict(state.tokens)
    returned = tokens.pop(space, ())
    on_board = dict(state.on_board)
    for owner in returned:
        on_board[owner] -= 1
    count = dict(state.tower_count)
    count[player] += 1
    return replace(state, towers=towers, tokens=tokens, on_board=on_board, tower_count=count)


def is_over(state: State) -> bool:
    """Ten towers for one player, or every segment placed and nobody could still build."""
    if any(count >= tables.TOWERS_TO_WIN for count in state.tower_count.values()):
        return True
    if not state.all_segments_placed():
        return False
    return not any(groups.could_still_build(state, player) for player in state.players)


def apply(state: State, move: Move) -> State:
    """The state after ``move`` (see :meth:`Game.apply`)."""
    if state.finished:
        raise IllegalMove("the game is over")
    seat, new_turn = _check_turn(state, move)
    stage = _check_stage(state, move, new_turn)
    if isinstance(move, TokenMove):
        after = _place_token(state, move)
    elif isinstance(move, SegmentMove):
        after = _place_segment(state, move)
    elif isinstance(move, TowerMove):
        after = _build_tower(state, move)
    else:
        after = state
    after = replace(after, turn=seat, stage=stage, passed=isinstance(move, PassMove) or
                    (not new_turn and state.passed))
    return replace(after, finished=is_over(after))
