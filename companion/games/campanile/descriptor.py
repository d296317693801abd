"""Campanile as the core sees it: its pieces' colours, its flag table from the table, its console words."""

from __future__ import annotations

from typing import Any

from companion.games.descriptor import GameDescriptor, NewGame, SetupNeeded, TableSettings
from companion.games.messages import msg

#: The record's ``game`` value.
NAME = "campanile"
#: The setting that keeps the 2-player flag table the players confirmed from their cards:
#: ``{"intermezzo": [[...], ...], "finito": [[...], ...]}``, written into each 2-player game's options.
TWO_PLAYER_FLAGS = f"{NAME}.flags.2p"
#: The keys of a game's setup, each with what it holds (``new --help``); all may be left out.
SETUP_KEYS = {"towers": msg("campanile.setup_key.towers"), "display": msg("campanile.setup_key.display")}
#: The rule options, each with what it chooses (``new --help``); all may be left out.
OPTION_KEYS = {"two_player_move": msg("campanile.option_key.two_player_move"),
               "flags": msg("campanile.option_key.flags")}


def defaults(new: NewGame, table: TableSettings) -> tuple[dict[str, Any], dict[str, Any]]:
    """A 2-player game gets the confirmed flag table (the record must not need local settings);
    without one it cannot start."""
    options, setup = dict(new.options), dict(new.setup)
    if len(new.players) == 2 and "flags" not in options:
        flags = table.setting(TWO_PLAYER_FLAGS)
        if flags is None:
            raise SetupNeeded(msg("campanile.setup.flags_needed"))
        options["flags"] = flags
    return options, setup


DESCRIPTOR = GameDescriptor(
    name=NAME,
    engine="companion.games.campanile.game:Campanile",
    piece_colours=("blue", "yellow", "red", "black", "white"),
    observed_hints={"reveal": "console.observed.campanile_reveal"},
    setting_keys=(TWO_PLAYER_FLAGS,),
    defaults=defaults,
    setup_keys=SETUP_KEYS,
    option_keys=OPTION_KEYS,
    order=10,
    catalogues="companion.games.campanile",
    service="companion.service.campanile:CampanileService",
    commands="companion.cli.commands.campanile",
    command_names=("campanile",),
    oled="hardware.games.campanile:PART",
    touchscreen="ui.games.campanile:PART",
    web="web.pages.games.campanile:PART",
)
