"""Toy Tally as the core sees it: three piece colours kept in the setup, a target from the table."""

from __future__ import annotations

from typing import Any

from companion.games.descriptor import GameDescriptor, NewGame, TableSettings

#: A setting the toy would own (never stored: the toy takes the default target when it is missing).
TARGET = "toy.target"


def defaults(new: NewGame, table: TableSettings) -> tuple[dict[str, Any], dict[str, Any]]:
    """The target the table keeps, when the players name none."""
    options, setup = dict(new.options), dict(new.setup)
    if "target" not in setup:
        target = table.setting(TARGET)
        if target is not None:
            setup["target"] = target
    return options, setup


DESCRIPTOR = GameDescriptor(
    name="toy-tally",
    engine="tests.toy_game.engine:ToyTally",
    piece_colours=("blue", "red", "green"),
    colours_in_setup=True,
    observed_hints={"roll": "toy.observed.roll"},
    setting_keys=(TARGET,),
    defaults=defaults,
    catalogues="tests.toy_game",
)
