"""Castelli as the core sees it: its pieces' colours kept in the setup, stored boards, its console words."""

from __future__ import annotations

from typing import Any

from companion.games.descriptor import GameDescriptor, NewGame, TableSettings

#: The record's ``game`` value.
NAME = "castelli"
#: The setting that keeps the boards entered on this companion: ``{name: board JSON}``. A game
#: started on one gets the board inline, so that its record never needs this setting.
BOARDS = f"{NAME}.boards"


def defaults(new: NewGame, table: TableSettings) -> tuple[dict[str, Any], dict[str, Any]]:
    """A board named from this table's stored ones goes inline into the setup."""
    options, setup = dict(new.options), dict(new.setup)
    if isinstance(setup.get("board"), str):
        stored = table.setting(BOARDS, {}) or {}
        if setup["board"] in stored:
            setup["board"] = stored[setup["board"]]
    return options, setup


DESCRIPTOR = GameDescriptor(
    name=NAME,
    engine="companion.games.castelli.game:Castelli",
    piece_colours=("blue", "yellow", "red", "green"),
    colours_in_setup=True,
    observed_hints={"reveal": "console.observed.castelli_reveal"},
    setting_keys=(BOARDS,),
    defaults=defaults,
)
