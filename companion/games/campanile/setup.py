"""Reading and checking a Campanile record's ``options`` and ``setup``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import RecordError
from companion.games.campanile import tables
from companion.games.campanile.state import Rules
from companion.games.fields import check_keys, get_bool, type_name


def _flag_rows(value: Any, count: int, path: str) -> tuple[tuple[int, ...], ...]:
    if not isinstance(value, list):
        raise RecordError(f"must be a list of {count} flags, not {type_name(value)}", path)
    if len(value) != count:
        raise RecordError(f"must have exactly {count} flags (one per flagged tower), not {len(value)}", path)
    rows = []
    for index, row in enumerate(value):
        where = f"{path}[{index}]"
        if not isinstance(row, list) or not row:
            raise RecordError("a flag must be a non-empty list of point values", where)
        for item in row:
            if isinstance(item, bool) or not isinstance(item, int) or item < 1:
                raise RecordError(f"flag values must be whole numbers of at least 1, not {item!r}", where)
        if list(row) != sorted(row, reverse=True):
            raise RecordError("a flag's values go best first (e.g. [4, 2])", where)
        rows.append(tuple(row))
    return tuple(rows)


def read_flag_table(flags: Any, path: str = "options.flags"
                    ) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """The Intermezzo and Finito flags of an ``options.flags`` value, or :class:`RecordError`.

    Needs no players: the 2-player flag table is confirmed on its own, once,
    before any game uses it.
    """
    if not isinstance(flags, dict):
        raise RecordError(f"must be an object with intermezzo and finito, not {type_name(flags)}", path)
    check_keys(flags, required=("intermezzo", "finito"), path=path)
    inside = f"{path}." if path else ""
    intermezzo = _flag_rows(flags["intermezzo"], tables.FLAGGED_TOWERS["intermezzo"], f"{inside}intermezzo")
    finito = _flag_rows(flags["finito"], tables.FLAGGED_TOWERS["finito"], f"{inside}finito")
    return intermezzo, finito


def read_rules(players: Sequence[str], options: Mapping[str, Any], setup: Mapping[str, Any]) -> Rules:
    """The :class:`Rules` of a game, or :class:`RecordError` naming the bad option or setup field."""
    check_keys(options, optional=("two_player_move", "flags"), path="options")
    check_keys(setup, optional=("towers", "display"), path="setup")
    two_player_move = get_bool(options, "two_player_move", path="options")
    if two_player_move and len(players) != 2:
        raise RecordError("the relocate rule is only for 2-player games", "options.two_player_move")

    flags = options.get("flags")
    if flags is None:
        if len(players) == 2:
            raise RecordError(
                "a 2-player game needs the values of the 2-player flag cards, which the rulebook "
                "does not print: copy them from the cards into options.flags", "options.flags")
        intermezzo, finito, custom = tables.INTERMEZZO_FLAGS, tables.FINITO_FLAGS, False
    else:
        intermezzo, finito = read_flag_table(flags)
        # Flags equal to the rulebook's are not "custom": the chip supply still applies.
        custom = (intermezzo, finito) != (tables.INTERMEZZO_FLAGS, tables.FINITO_FLAGS)

    towers = setup.get("towers")
    if towers is None:
        towers = list(tables.DEFAULT_TOWERS)
    if not isinstance(towers, list):
        raise RecordError(f"must be a list of {tables.TOWER_COUNT} tower names, not {type_name(towers)}",
                          "setup.towers")
    if len(towers) != tables.TOWER_COUNT:
        raise RecordError(f"Campanile has {tables.TOWER_COUNT} towers, not {len(towers)}", "setup.towers")
    for index, name in enumerate(towers):
        if not isinstance(name, str) or not name.strip():
            raise RecordError("a tower name must be a non-empty text", f"setup.towers[{index}]")
        if name in towers[:index]:
            raise RecordError(f'duplicate tower "{name}"', f"setup.towers[{index}]")

    display = setup.get("display")
    if display is not None:
        if not isinstance(display, list) or len(display) != tables.DISPLAY_SIZE:
            raise RecordError(f"must list the {tables.DISPLAY_SIZE} styles face up at the start",
                              "setup.display")
        for index, style in enumerate(display):
            if style not in towers:
                raise RecordError(f"{style!r} is not one of the towers ({', '.join(towers)})",
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
