"""The rules: which move is legal now, and the state after it.

``apply`` checks the move in this order: the game is not over, it is the
player's turn (finishing what the previous player owed), the stage of the
turn fits, then the placement itself. Every refusal is an
:class:`IllegalMove` carrying a message code (``san_gimignano.…``) and its
parameters, which the catalogues put into a player's words; it is raised
before anything is built, so the given state is never touched.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NoReturn

from companion.games.base import IllegalMove, require_player
from companion.games.messages import msg
from companion.games.san_gimignano import geometry, groups, tables, turns
from companion.games.san_gimignano.geometry import Space, space_name
from companion.games.san_gimignano.moves import Move, PassMove, SegmentMove, TokenMove, TowerMove
from companion.games.san_gimignano.state import (
    STAGE_SEGMENT,
    STAGE_TOKEN,
    STAGE_TOWER,
    STAGES,
    State,
)

#: The refusal of a second token, segment or tower in one turn, by stage.
_ONCE = {
    STAGE_TOKEN: "san_gimignano.once.token",
    STAGE_SEGMENT: "san_gimignano.once.segment",
    STAGE_TOWER: "san_gimignano.once.tower",
}
#: The refusal of a next player's move while the turn's player still owes a stage, by stage.
_OWED = {
    STAGE_TOKEN: "san_gimignano.turn.owes_token",
    STAGE_SEGMENT: "san_gimignano.turn.owes_segment",
    STAGE_TOWER: "san_gimignano.turn.owes_tower",
}
#: The refusal of a stage played before one still possible: (skipped stage, turn starts with it).
_SKIPPED = {
    (STAGE_TOKEN, True): "san_gimignano.stage.starts_with_token",
    (STAGE_SEGMENT, True): "san_gimignano.stage.starts_with_segment",
    (STAGE_TOKEN, False): "san_gimignano.stage.next_token",
    (STAGE_SEGMENT, False): "san_gimignano.stage.next_segment",
}


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
        raise IllegalMove(msg("san_gimignano.turn.not_yours", player=player, expected=expected))
    debt = turns.owed(state)
    if debt is not None:
        raise IllegalMove(msg(_OWED[debt], current=state.current, player=player))
    return seat, True


def _check_stage(state: State, move: Move, new_turn: bool) -> int:
    """The stage index after ``move``; refuses a stage out of order or played twice."""
    player = move.player
    order = STAGES[state.rules]
    at = 0 if new_turn else state.stage
    passed = False if new_turn else state.passed
    if isinstance(move, PassMove):
        if not new_turn:
            raise IllegalMove(msg("san_gimignano.pass.after_move", player=player))
        if turns.can_place_token(state, player):
            raise IllegalMove(msg("san_gimignano.pass.can_token", player=player))
        if turns.can_place_segment(state, player):
            raise IllegalMove(msg("san_gimignano.pass.can_segment", player=player))
        return order.index(STAGE_TOWER)
    stage = _stage_of(move)
    if stage == STAGE_SEGMENT and state.segments_left(player) < 1:
        _no_segment_left(state, player)
    index = order.index(stage)
    if index < at:
        if passed:
            raise IllegalMove(msg("san_gimignano.turn.passed", player=player))
        raise IllegalMove(msg(_ONCE[stage]))
    if not passed:
        for skipped in order[at:index]:
            if turns.stage_possible(state, player, skipped):
                raise IllegalMove(msg(_SKIPPED[skipped, skipped == order[0]], player=player))
    return index + 1


def _no_segment_left(state: State, player: str) -> NoReturn:
    """Refuse a segment when none is left: the player's hand (rulebook) or the shared pool."""
    if state.rules == tables.RULEBOOK:
        raise IllegalMove(msg("san_gimignano.segment.none_left", player=player))
    raise IllegalMove(msg("san_gimignano.segment.pool_empty"))


def _place_token(state: State, move: TokenMove) -> State:
    space = move.space
    if space not in state.adjacency:
        raise IllegalMove(msg("san_gimignano.space.missing", space=space_name(space, state.segments)))
    if space in state.towers:
        raise IllegalMove(msg("san_gimignano.token.on_tower"))
    owners = state.tokens.get(space, ())
    if len(owners) >= tables.TOKENS_PER_SPACE:
        raise IllegalMove(msg("san_gimignano.token.full", count=tables.TOKENS_PER_SPACE))
    if state.in_hand(move.player) < 1:
        raise IllegalMove(msg("san_gimignano.token.none_left", player=move.player))
    tokens = dict(state.tokens)
    tokens[space] = (*owners, move.player)
    on_board = dict(state.on_board)
    on_board[move.player] += 1
    return replace(state, tokens=tokens, on_board=on_board)


def _place_segment(state: State, move: SegmentMove) -> State:
    player, at, edges = move.player, move.at, move.edges
    if state.segments_left(player) < 1:
        _no_segment_left(state, player)
    for guild in edges:
        if guild not in state.guilds:
            raise IllegalMove(msg("san_gimignano.guild.unknown", guild=guild, guilds=list(state.guilds)))
    if at in state.segments:
        raise IllegalMove(msg("san_gimignano.segment.occupied", q=at[0], r=at[1]))
    if geometry.touching(state.segments, at) < 2:
        raise IllegalMove(msg("san_gimignano.segment.needs_two"))
    if geometry.clash(state.segments, at, edges) is not None:
        raise IllegalMove(msg("san_gimignano.segment.same_guild"))
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
            raise IllegalMove(msg("san_gimignano.space.missing", space=space_name(space, state.segments)))
    for space in group:
        if space in state.towers:
            raise IllegalMove(msg("san_gimignano.group.tower_on", space=space_name(space, state.segments)))
    for space in group:
        if player not in state.tokens.get(space, ()):
            raise IllegalMove(msg("san_gimignano.group.not_holding", player=player,
                                  space=space_name(space, state.segments)))
    guilds = {space[2] for space in group}
    if state.variant == tables.STRING:
        if len(guilds) < tables.GUILD_COUNT:
            raise IllegalMove(msg("san_gimignano.group.all_guilds"))
    else:
        if len(group) != tables.GROUP_SIZE:
            raise IllegalMove(msg("san_gimignano.group.size", count=len(group)))
        if len(guilds) != tables.GROUP_SIZE:
            raise IllegalMove(msg("san_gimignano.group.guilds_differ"))
    if not groups.is_connected(group, state.adjacency):
        raise IllegalMove(msg("san_gimignano.group.not_connected"))
    if state.variant == tables.STRING:
        # records.md: with ``string`` the group is "a whole connected set", the maximal one.
        mine = groups.player_spaces(state, player)
        members = set(group)
        for space in group:
            for near in state.adjacency.get(space, ()):
                if near in mine and near not in members:
                    raise IllegalMove(msg("san_gimignano.group.not_whole", player=player,
                                          space=space_name(near, state.segments)))


def _build_tower(state: State, move: TowerMove) -> State:
    player, space = move.player, move.space
    if space not in move.group:
        raise IllegalMove(msg("san_gimignano.tower.outside_group"))
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


#: The derived facts (:attr:`State.derived`) that depend on the placed segments alone (and the
#: guilds, which never change): where a segment fits, the spaces. A move that places no segment
#: hands them to the next state, so that a token's screens do not work out every placement again.
SEGMENT_FACTS = (("placements", ""), ("spaces", ""))


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
        raise IllegalMove(msg("san_gimignano.game.over"))
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
    if after.segments is state.segments:  # no segment placed: what the segments alone decide holds on
        for key in SEGMENT_FACTS:
            if key in state.derived:
                after.derived[key] = state.derived[key]
    # the state itself while the game goes on: what the end test worked out (who could still
    # build, the buildable groups) stays in its derived facts for the screens that ask next
    return replace(after, finished=True) if is_over(after) else after
