"""Who is who on every screen: each player's colour and initials, decided in one place.

The shell's badges (turn banner, history, game over, statistics) and the game
boards (a game's markers) ask :func:`seat_colours` and
:func:`companion.service.names.initials`, so that a player wears the same colour and
the same initials everywhere. Identity is colour *and* initials, never colour
alone (ui.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.descriptor import SPARE_COLOURS, with_spare_colours
from companion.games.descriptor import seat_colours as core_seat_colours
from companion.games.messages import Message, msg
from companion.registry import descriptor
from companion.service.app import Companion
from companion.service.names import initials

__all__ = ["SPARE_COLOURS", "initials", "named", "seat_colours", "table_colours"]


def seat_colours(game: str, players: Sequence[str], recorded: Mapping[str, str] | None = None,
                 preferred: Mapping[str, str | None] | None = None) -> dict[str, str | None]:
    """Each player's colour, unique at the table: the core's rule
    (:func:`companion.games.descriptor.seat_colours`) with ``game``'s piece colours."""
    return core_seat_colours(descriptor(game).piece_colours, players, recorded, preferred)


def table_colours(app: Companion, game: str, players: Sequence[str],
                  setup: Mapping[str, Any] | None = None) -> dict[str, str | None]:
    """Each player's colour from a game's setup and the players' profiles in ``app`` (the service);
    a player without one gets a spare colour nobody at the table has, the same on every screen
    (a board once drew white, black and orange while the bar and the history drew the same
    players grey); the rule is the core's (:func:`~companion.games.descriptor.with_spare_colours`),
    which the phones' pages share."""
    colours: dict[str, str | None] = app.seat_colours(game, players, setup)
    return with_spare_colours(colours, players)


def named(player: str, tag: str) -> Message | str:
    """A player as the banners say them: "Albert (Al)", or just "Bo" when the initials are the
    whole name ("Bo (Bo)" says nothing twice)."""
    if tag.casefold() == player.casefold():
        return player
    return msg("ui.player.with_initials", player=player, initials=tag)
