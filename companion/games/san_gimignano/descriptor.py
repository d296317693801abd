"""San Gimignano as the core sees it: the layout a new game is offered, with the table's guild names."""

from __future__ import annotations

from typing import Any

from companion.games.descriptor import GameDescriptor, NewGame, TableSettings

#: The prefix of the game's settings' keys (not message codes).
SETTINGS = "san_gimignano"
#: The setting with the four guild names new games get, by commas ("guild-1, guild-2, guild-3, guild-4").
GUILDS = f"{SETTINGS}.guilds"
#: The setting with the colours the touchscreen draws the four guilds in, by commas.
GUILD_COLOURS = f"{SETTINGS}.guild_colours"


def defaults(new: NewGame, table: TableSettings) -> tuple[dict[str, Any], dict[str, Any]]:
    """Without segments, the offered layout (:mod:`~companion.games.san_gimignano.layout`) with the
    table's guild names; what the players gave wins."""
    options, setup = dict(new.options), dict(new.setup)
    if "segments" not in setup:
        from companion.games.san_gimignano.layout import default_setup

        guilds = setup.get("guilds") or table.words(GUILDS)
        setup = {**default_setup(new.players, options, guilds), **setup}
    return options, setup


DESCRIPTOR = GameDescriptor(
    name="san-gimignano",
    engine="companion.games.san_gimignano.game:SanGimignano",
    piece_colours=None,  # the rulebook says "four colours" and names none
    setting_keys=(GUILDS, GUILD_COLOURS),
    defaults=defaults,
)
