"""The four moves of a San Gimignano record, and their JSON form.

Each move is a small frozen dataclass that maps one to one to the record
JSON of ``docs/records.md``; parsing checks structure only (field
names and types, the outline of a segment), legality is the engine's job.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.base import RecordError
from companion.games.fields import check_keys, check_player, get_list, get_str, type_name
from companion.games.messages import msg
from companion.games.san_gimignano.geometry import Edges, Position, Space, edges_problem, space_name

TOKEN = "token"
SEGMENT = "segment"
TOWER = "tower"
PASS = "pass"
MOVE_TYPES = (TOKEN, SEGMENT, TOWER, PASS)


@dataclass(frozen=True)
class TokenMove:
    """The player puts one token on a guild space."""

    player: str
    space: Space


@dataclass(frozen=True)
class SegmentMove:
    """The player adds a board segment at ``at`` with this outline."""

    player: str
    at: Position
    edges: Edges


@dataclass(frozen=True)
class TowerMove:
    """The player builds a tower on ``space``, one of the spaces of ``group``."""

    player: str
    space: Space
    group: tuple[Space, ...]


@dataclass(frozen=True)
class PassMove:
    """The player can place neither a token nor a segment this turn."""

    player: str


Move = TokenMove | SegmentMove | TowerMove | PassMove


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_position(value: object, name: str = "at") -> Position:
    """``[q, r]`` as a tuple; :class:`RecordError` naming ``name`` otherwise."""
    if not isinstance(value, list) or len(value) != 2 or not all(_is_int(v) for v in value):
        raise RecordError(msg("san_gimignano.position.shape", field=name))
    return (value[0], value[1])


def read_space(value: object, name: str = "space") -> Space:
    """``[q, r, guild]`` as a tuple; :class:`RecordError` naming ``name`` otherwise."""
    if (not isinstance(value, list) or len(value) != 3 or not _is_int(value[0])
            or not _is_int(value[1]) or not isinstance(value[2], str)):
        raise RecordError(msg("san_gimignano.space.shape", field=name))
    return (value[0], value[1], value[2])


def read_edges(value: object, name: str = "edges") -> Edges:
    """A segment outline: six guild names, three equal pairs of three different guilds."""
    if not isinstance(value, list):
        raise RecordError(msg("san_gimignano.edges.not_list", field=name, kind=type_name(value)))
    if not all(isinstance(v, str) for v in value):
        raise RecordError(msg("san_gimignano.edges.not_names", field=name))
    problem = edges_problem(value, name)
    if problem is not None:
        raise RecordError(problem)
    return (value[0], value[1], value[2], value[3], value[4], value[5])


def parse_move(data: object) -> Move:
    """A move from its record JSON; structure only (see :meth:`Game.parse_move`)."""
    if not isinstance(data, dict):
        raise RecordError(msg("san_gimignano.move.not_object", kind=type_name(data)))
    kind = get_str(data, "type", choices=MOVE_TYPES, required=True)
    if kind == TOKEN:
        check_keys(data, required=("type", "player", "space"))
        return TokenMove(check_player(data), read_space(data["space"]))
    if kind == SEGMENT:
        check_keys(data, required=("type", "player", "at", "edges"))
        return SegmentMove(check_player(data), read_position(data["at"]), read_edges(data["edges"]))
    if kind == TOWER:
        check_keys(data, required=("type", "player", "space", "group"))
        player = check_player(data)
        space = read_space(data["space"])
        raw = get_list(data, "group", required=True)
        assert raw is not None
        group = tuple(read_space(item, f"group[{index}]") for index, item in enumerate(raw))
        if not group:
            raise RecordError(msg("san_gimignano.group.empty"))
        twice = next((space for index, space in enumerate(group) if space in group[:index]), None)
        if twice is not None:
            raise RecordError(msg("san_gimignano.group.repeated", space=space_name(twice)))
        return TowerMove(player, space, group)
    check_keys(data, required=("type", "player"))
    return PassMove(check_player(data))


def move_to_json(move: Move) -> dict[str, Any]:
    """The record JSON of ``move``; ``parse_move(move_to_json(m)) == m``."""
    if isinstance(move, TokenMove):
        return {"type": TOKEN, "player": move.player, "space": list(move.space)}
    if isinstance(move, SegmentMove):
        return {"type": SEGMENT, "player": move.player, "at": list(move.at), "edges": list(move.edges)}
    if isinstance(move, TowerMove):
        return {"type": TOWER, "player": move.player, "space": list(move.space),
                "group": [list(space) for space in move.group]}
    if isinstance(move, PassMove):
        return {"type": PASS, "player": move.player}
    raise TypeError(f"not a San Gimignano move: {move!r}")
