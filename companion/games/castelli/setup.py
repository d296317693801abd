"""A Castelli record's options and setup read into the engine's terms, and a game's opening state.

Shared by the base game (:mod:`.game`) and the Championship round (:mod:`.championship`), which
builds each group's game the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import RecordError
from companion.games.castelli import tables
from companion.games.castelli.board import Board, load_layout, validate_board
from companion.games.castelli.descriptor import OPTION_KEYS, SETUP_KEYS, SETUP_REQUIRED
from companion.games.castelli.state import Options, State
from companion.games.fields import check_keys, get_int, get_list, get_str, require_object, type_name
from companion.games.messages import msg


def parse_options(options: Mapping[str, Any]) -> Options:
    """The rule options of a record (``options``), defaults filled in."""
    check_keys(options, optional=OPTION_KEYS, path="options", listed=True)
    modules = get_list(options, "modules", path="options") or []
    chosen: list[str] = []
    for index, module in enumerate(modules):
        if module not in tables.MODULES:
            shown = f'"{module}"' if isinstance(module, str) else type_name(module)
            raise RecordError(msg("castelli.options.module_unknown", choices=", ".join(tables.MODULES),
                                  shown=shown), f"options.modules[{index}]")
        if module in chosen:
            raise RecordError(msg("castelli.options.module_twice", module=module),
                              f"options.modules[{index}]")
        chosen.append(module)
    neutral = get_str(options, "neutral", choices=tables.NEUTRAL_CHOICES,
                      default=tables.NEUTRAL_CHOICES[0], path="options")
    silver_tie = get_str(options, "silver_tie", choices=tables.SILVER_TIE_CHOICES,
                         default=tables.SILVER_TIE_CHOICES[0], path="options")
    return Options(frozenset(chosen), neutral or "void", silver_tie or "shared")


def parse_board(value: object) -> Board:
    """``setup.board``: a shipped layout's name or an inline board."""
    if isinstance(value, str):
        try:
            return load_layout(value)
        except RecordError as error:
            raise RecordError(error.message, "setup.board") from None
    if not isinstance(value, dict):
        raise RecordError(msg("castelli.setup.board_type", type=type_name(value)), "setup.board")
    try:
        return validate_board(value)
    except RecordError as error:
        raise error.within("setup.board") from None


def parse_colors(players: Sequence[str], value: object) -> dict[str, str]:
    """``setup.colors``: every player exactly one of the four colours, no colour twice."""
    data = require_object(value, "setup.colors")
    for name in data:
        if name not in players:
            raise RecordError(msg("castelli.setup.colors_not_player", name=name), "setup.colors")
    colors: dict[str, str] = {}
    for player in players:
        colour = data.get(player)
        if colour is None:
            raise RecordError(msg("castelli.setup.no_colour", player=player), "setup.colors")
        if colour not in tables.COLORS:
            shown = f'"{colour}"' if isinstance(colour, str) else f"{type_name(colour)} {colour!r}"
            raise RecordError(msg("castelli.setup.colour_unknown", choices=", ".join(tables.COLORS),
                                  shown=shown), f"setup.colors.{player}")
        if colour in colors.values():
            other = next(p for p, c in colors.items() if c == colour)
            raise RecordError(msg("castelli.setup.colour_taken", colour=colour, other=other),
                              f"setup.colors.{player}")
        colors[player] = colour
    return colors


def initial_state(players: Sequence[str], options: Mapping[str, Any],
                  setup: Mapping[str, Any]) -> State:
    """The state before the first move, from a record's players, options and setup."""
    opts = parse_options(options)
    check_keys(setup, required=SETUP_REQUIRED, optional=SETUP_KEYS, path="setup", listed=True)
    colors = parse_colors(players, setup["colors"])
    board = parse_board(setup["board"])
    mine = get_int(setup, "mine", low=0, default=tables.MINE_SILVER[len(players)], path="setup")
    assert mine is not None
    return fresh_state(players, colors, board, mine, opts)


def fresh_state(players: Sequence[str], colors: Mapping[str, str], board: Board, mine: int,
                opts: Options) -> State:
    """A game before its first move: ``players`` at ``board`` with ``mine`` silver in the mine
    (a base game, or one group of a Championship round)."""
    names = tuple(players)
    zero = dict.fromkeys(names, 0)
    return State(
        board=board, players=names, colors=dict(colors), options=opts, mine_start=mine, mine=mine,
        resources=dict.fromkeys(names, (0, 0, 0)), silver=dict(zero), cards=dict(zero),
        score=dict(zero), castles_built=dict(zero), castles={}, settlements=dict(board.settlements),
        revealed={}, done=frozenset(),
        holds_own_tile=dict.fromkeys(names, True) if opts.dilemma else {})
