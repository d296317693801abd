"""Reading and checking a Campanile record's ``options`` and ``setup``."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import RecordError
from companion.games.campanile import tables
from companion.games.campanile.descriptor import OPTION_KEYS, SETUP_KEYS
from companion.games.campanile.state import Rules
from companion.games.campanile.words import kind
from companion.games.fields import check_keys, get_bool
from companion.games.messages import msg


def _flag_rows(value: object, count: int, path: str) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, list):
        raise RecordError(msg("campanile.flags.not_a_list", count=count, kind=kind(value)), path)
    if len(value) != count:
        raise RecordError(msg("campanile.flags.count", count=count, given=len(value)), path)
    rows = []
    for index, row in enumerate(value):
        where = f"{path}[{index}]"
        if not isinstance(row, list) or not row:
            raise RecordError(msg("campanile.flags.empty"), where)
        for item in row:
            if isinstance(item, bool) or not isinstance(item, int) or item < 1:
                raise RecordError(msg("campanile.flags.value", value=json.dumps(item, ensure_ascii=False)),
                                  where)
        if list(row) != sorted(row, reverse=True):
            raise RecordError(msg("campanile.flags.order"), where)
        rows.append(tuple(row))
    return tuple(rows)


def read_flag_table(flags: object, path: str = "options.flags"
                    ) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """The Intermezzo and Finito flags of an ``options.flags`` value, or :class:`RecordError`.

    Needs no players: the 2-player flag table is confirmed on its own, once,
    before any game uses it.
    """
    if not isinstance(flags, dict):
        raise RecordError(msg("campanile.flags.not_an_object", kind=kind(flags)), path)
    check_keys(flags, required=("intermezzo", "finito"), path=path)
    inside = f"{path}." if path else ""
    intermezzo = _flag_rows(flags["intermezzo"], tables.FLAGGED_TOWERS["intermezzo"], f"{inside}intermezzo")
    finito = _flag_rows(flags["finito"], tables.FLAGGED_TOWERS["finito"], f"{inside}finito")
    return intermezzo, finito


def read_rules(players: Sequence[str], options: Mapping[str, Any], setup: Mapping[str, Any]) -> Rules:
    """The :class:`Rules` of a game, or :class:`RecordError` naming the bad option or setup field."""
    check_keys(options, optional=OPTION_KEYS, path="options", listed=True)
    check_keys(setup, optional=SETUP_KEYS, path="setup", listed=True)
    two_player_move = get_bool(options, "two_player_move", path="options")
    if two_player_move and len(players) != 2:
        raise RecordError(msg("campanile.options.relocate_players"), "options.two_player_move")

    flags = options.get("flags")
    if flags is None:
        if len(players) == 2:
            raise RecordError(msg("campanile.options.flags_needed"), "options.flags")
        intermezzo, finito, custom = tables.INTERMEZZO_FLAGS, tables.FINITO_FLAGS, False
    else:
        intermezzo, finito = read_flag_table(flags)
        # Flags equal to the rulebook's are not "custom": the chip supply still applies.
        custom = (intermezzo, finito) != (tables.INTERMEZZO_FLAGS, tables.FINITO_FLAGS)

    towers = setup.get("towers")
    if towers is None:
        towers = list(tables.DEFAULT_TOWERS)
    if not isinstance(towers, list):
        raise RecordError(msg("campanile.towers.not_a_list", count=tables.TOWER_COUNT, kind=kind(towers)),
                          "setup.towers")
    if len(towers) != tables.TOWER_COUNT:
        raise RecordError(msg("campanile.towers.count", count=tables.TOWER_COUNT, given=len(towers)),
                          "setup.towers")
    for index, name in enumerate(towers):
        if not isinstance(name, str) or not name.strip():
            raise RecordError(msg("campanile.towers.empty_name"), f"setup.towers[{index}]")
        if name in towers[:index]:
            raise RecordError(msg("campanile.towers.duplicate", tower=name), f"setup.towers[{index}]")

    display = setup.get("display")
    if display is not None:
        if not isinstance(display, list) or len(display) != tables.DISPLAY_SIZE:
            raise RecordError(msg("campanile.display.setup_size", count=tables.DISPLAY_SIZE), "setup.display")
        for index, style in enumerate(display):
            if style not in towers:
                shown = json.dumps(style, ensure_ascii=False)
                raise RecordError(msg("campanile.display.not_a_tower", style=shown, towers=list(towers)),
                                  f"setup.display[{index}]")
    return Rules(players=tuple(players), towers=tuple(towers), intermezzo_flags=intermezzo,
                 finito_flags=finito, two_player_move=two_player_move, custom_flags=custom,
                 tracks_display=display is not None, initial_display=tuple(display or ()))


def options_json(rules: Rules) -> dict[str, Any]:
    return {
        "two_player_move": rules.two_player_move,
        "flags": {"intermezzo": [list(f) for f in rules.intermezzo_flags],
                  "finito": [list(f) for f in rules.finito_flags]},
    }


def setup_json(rules: Rules) -> dict[str, Any]:
    setup: dict[str, Any] = {"towers": list(rules.towers)}
    if rules.tracks_display:
        setup["display"] = list(rules.initial_display)
    return setup
