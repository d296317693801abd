"""What the screens, the OLED and the summary show: plain functions of the state.

The UI asks these what is legal for the next tap rather than re-implementing
rules; the summary of ``companion replay --json`` is built from the same
functions, so the screen and the record always agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.messages import Message, msg
from companion.games.san_gimignano import geometry, groups, tables, turns
from companion.games.san_gimignano.geometry import Edges, Position, Space
from companion.games.san_gimignano.legal import legal_moves
from companion.games.san_gimignano.moves import PassMove, SegmentMove, TokenMove, TowerMove
from companion.games.san_gimignano.state import State
from companion.games.san_gimignano.summary import SanGimignanoSummary, SpaceJson


def space_json(space: Space) -> list[Any]:
    """A space as the record writes it: ``[q, r, guild]``."""
    return [space[0], space[1], space[2]]


def group_json(group: groups.Group) -> list[list[Any]]:
    """A group as a sorted list of spaces (sorted so output is stable)."""
    return [space_json(space) for space in sorted(group)]


def board(state: State) -> list[SpaceJson]:
    """Every space with its tokens (placement order) and tower, segment by segment."""
    return [{"space": space_json(space), "tokens": list(state.tokens.get(space, ())),
             "tower": state.towers.get(space)} for space in state.spaces()]


def token_spaces(state: State, player: str) -> list[Space]:
    """Spaces where ``player`` may put a token now (room, no tower, a token in hand)."""
    if state.in_hand(player) < 1:
        return []
    return [space for space in state.spaces() if space not in state.towers
            and len(state.tokens.get(space, ())) < tables.TOKENS_PER_SPACE]


def open_positions(state: State) -> list[Position]:
    """Empty positions touching at least two segments: where a segment may be offered."""
    return geometry.open_positions(state.segments)


def segment_placements(state: State, guilds: Sequence[str]) -> list[tuple[Position, Edges]]:
    """Every position and rotation where a segment showing ``guilds`` clockwise fits now."""
    if len(guilds) != tables.GUILDS_PER_SEGMENT or len(set(guilds)) != tables.GUILDS_PER_SEGMENT:
        return []
    result = []
    for at in geometry.open_positions(state.segments):
        for edges in geometry.rotations(guilds):
            if geometry.clash(state.segments, at, edges) is None:
                result.append((at, edges))
    return result


def buildable_groups(state: State, player: str) -> list[groups.Group]:
    """Groups ``player`` could build a tower on now (string variant: maximal connected sets)."""
    return groups.buildable(state, player)


def hints(state: State, player: str) -> list[tuple[groups.Group, Space]]:
    """Groups one token short, with the space the token would go on."""
    return groups.one_short(state, player)


def who_must_build(state: State) -> list[str]:
    """``[P]`` while, under the rulebook, the player whose turn it is could build and has not."""
    player = turns.must_build(state)
    return [] if player is None else [player]


def winners(state: State) -> list[str]:
    """Most towers; tie → most tokens on the board; still tied → shared. Empty until the end."""
    if not state.finished:
        return []
    best = max((state.tower_count[p], state.on_board[p]) for p in state.players)
    return [p for p in state.players if (state.tower_count[p], state.on_board[p]) == best]


def segments_left(state: State) -> dict[str, int]:
    """Segments still to place: per player (rulebook) or ``{"pool": n}`` (clarified)."""
    if state.rules == tables.RULEBOOK:
        return dict(state.hands)
    return {"pool": state.pool}


def summary(state: State, game: str) -> SanGimignanoSummary:
    """The ``companion replay --json`` summary (records.md, San Gimignano)."""
    player, following = turns.in_progress(state)
    return {
        "game": game,
        "players": list(state.players),
        "finished": state.finished,
        "scores": dict(state.tower_count),
        "winners": winners(state),
        "towers": dict(state.tower_count),
        "tokens": dict(state.on_board),
        "buildable": {p: [group_json(g) for g in buildable_groups(state, p)] for p in state.players},
        "must_build": who_must_build(state),
        "board": board(state),
        "to_move": turns.to_move(state),
        "turn": {"player": player, "next": following},
        "segments_left": segments_left(state),
    }


#: The words of the report's heading: the rule set and the variant (option value -> message code).
_RULES_WORDS = {tables.RULEBOOK: "san_gimignano.rules.rulebook",
                tables.CLARIFIED: "san_gimignano.rules.clarified"}
_VARIANT_WORDS = {tables.FOUR: "san_gimignano.variant.four", tables.STRING: "san_gimignano.variant.string"}
#: The report's figure columns: heading code and least width (a longer heading widens its column).
_COLUMNS = (("san_gimignano.report.towers", 6), ("san_gimignano.report.on_board", 8),
            ("san_gimignano.report.in_hand", 7), ("san_gimignano.report.buildable", 9))
#: The least width of the report's player column.
_NAME_WIDTH = 24


def heading(state: State, title: str) -> Message:
    """The report's first line: the game, whether it is over, the rule set and the variant."""
    status = "san_gimignano.report.finished" if state.finished else "san_gimignano.report.in_progress"
    return msg("san_gimignano.report.heading", title=title, status=msg(status),
               rules=msg(_RULES_WORDS[state.rules]), variant=msg(_VARIANT_WORDS[state.variant]))


def outcome_reason(state: State) -> Message | None:
    """Why the winners won (most towers, the tokens on the board, or a shared win); ``None`` until the end."""
    won = winners(state)
    if not won:
        return None
    if len(won) > 1:
        return msg("san_gimignano.outcome.shared", players=won)
    most = max(state.tower_count.values())
    if sum(1 for count in state.tower_count.values() if count == most) == 1:
        return msg("san_gimignano.outcome.most_towers", player=won[0], count=most)
    return msg("san_gimignano.outcome.tokens_decide", player=won[0])


def notes(state: State) -> list[Message]:
    """What the report says under its table: segments left, groups to build or one token short,
    the forced build, why the winners won, who plays next."""
    found: list[Message] = []
    if state.rules == tables.RULEBOOK:
        hands = [msg("san_gimignano.report.hand", player=p, count=n) for p, n in state.hands.items()]
        found.append(msg("san_gimignano.report.segments_left", hands=hands))
    else:
        found.append(msg("san_gimignano.report.pool_left", count=state.pool))
    if not state.finished:
        for player in state.players:
            for group in buildable_groups(state, player):
                spaces = [geometry.space_name(space, state.segments) for space in sorted(group)]
                found.append(msg("san_gimignano.report.can_build", player=player, spaces=spaces))
            gaps = sorted({gap for _, gap in hints(state, player)})
            if gaps:
                found.append(msg("san_gimignano.report.one_short", player=player, count=len(gaps),
                                 spaces=[geometry.space_name(gap, state.segments) for gap in gaps]))
    forced = who_must_build(state)
    if forced:
        found.append(msg("san_gimignano.report.must_build", player=forced[0]))
    reason = outcome_reason(state)
    if reason is not None:
        found.append(reason)
    nxt = turns.to_move(state)
    if nxt is not None:
        found.append(msg("san_gimignano.report.next", player=nxt))
    return found


def report(state: State, title: str) -> str:
    """A readable table for people: towers, tokens, buildable groups, who must build.

    What to say is decided here as messages (:func:`heading`, :func:`notes`);
    the words are the catalogues' in the current language (``str`` of a
    message, as a front end renders it), so ``companion --lang hu replay``
    prints the same table in Hungarian.
    """
    words = [str(msg(code)) for code, _ in _COLUMNS]
    widths = [max(least, len(word)) for word, (_, least) in zip(words, _COLUMNS, strict=True)]
    name_width = max([_NAME_WIDTH, *(len(player) for player in state.players)])

    def row(name: str, cells: Sequence[object], mark: str = "") -> str:
        return (f"  {name:<{name_width}}"
                + "".join(f" {cell!s:>{width}}" for cell, width in zip(cells, widths, strict=True)) + mark)

    lines = [str(heading(state, title)), row(str(msg("san_gimignano.report.player")), words)]
    won = winners(state)
    winner_word = str(msg("san_gimignano.report.winner"))
    for player in state.players:
        figures = (state.tower_count[player], state.on_board[player], state.in_hand(player),
                   len(buildable_groups(state, player)))
        lines.append(row(player, figures, f"  {winner_word}" if player in won else ""))
    lines.extend(f"  {note}" for note in notes(state))
    return "\n".join(lines)


def candidate_moves(state: State, outlines: Sequence[Edges] | None = None) -> list[Any]:
    """Moves worth offering now, before the engine's checks (a superset of the legal ones).

    Tokens on every space with room, segments of ``outlines`` (default: every
    outline of three guilds) at every open position where they fit, a tower on
    each space of each buildable group, and a pass — for the player whose turn
    it is and for the player who would start the next one.
    """
    actors = [p for p in (state.current, state.players[state.next_seat]) if p is not None]
    shapes = list(outlines) if outlines is not None else geometry.all_outlines(state.guilds)
    result: list[Any] = []
    for player in dict.fromkeys(actors):
        result.extend(TokenMove(player, space) for space in token_spaces(state, player))
        if state.segments_left(player) > 0:
            for at in geometry.open_positions(state.segments):
                result.extend(SegmentMove(player, at, edges) for edges in shapes
                              if geometry.clash(state.segments, at, edges) is None)
        for group in buildable_groups(state, player):
            ordered = tuple(sorted(group))
            result.extend(TowerMove(player, space, ordered) for space in ordered)
        result.append(PassMove(player))
    return result


@dataclass(frozen=True)
class Targets:
    """What ``player`` may place now, respecting the turn's stage (from the engine's legal moves)."""

    player: str
    token_spaces: tuple[Space, ...]
    placements: tuple[tuple[Position, Edges], ...]
    towers: tuple[tuple[Space, tuple[Space, ...]], ...]
    may_pass: bool


def targets(state: State, player: str) -> Targets:
    """The token spaces, segment placements and towers open to ``player`` now (empty if it may not act)."""
    mine = [m for m in legal_moves(state) if m["player"] == player]

    def space(raw: list[Any]) -> Space:
        return (raw[0], raw[1], raw[2])

    return Targets(
        player=player,
        token_spaces=tuple(space(m["space"]) for m in mine if m["type"] == "token"),
        placements=tuple(((m["at"][0], m["at"][1]), _edges(m["edges"])) for m in mine
                         if m["type"] == "segment"),
        towers=tuple((space(m["space"]), tuple(space(s) for s in m["group"])) for m in mine
                     if m["type"] == "tower"),
        may_pass=any(m["type"] == "pass" for m in mine),
    )


def _edges(raw: list[str]) -> Edges:
    return (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5])
