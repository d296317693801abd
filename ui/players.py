"""Who is who on every screen: each player's colour and initials, decided in one place.

The shell's badges (turn banner, history, game over, statistics) and the game
boards (Campanile's markers) ask :func:`seat_colours` and
:func:`companion.service.names.initials`, so that a player wears the same colour and
the same initials everywhere. Identity is colour *and* initials, never colour
alone (ui.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.service.app import PIECE_COLOURS
from companion.service.names import initials

__all__ = ["initials", "seat_colours", "table_colours"]


def seat_colours(game: str, players: Sequence[str], recorded: Mapping[str, str] | None = None,
                 preferred: Mapping[str, str | None] | None = None) -> dict[str, str | None]:
    """Each player's colour, unique at the table.

    The game's own record comes first (Castelli's ``setup.colors``); then the
    profile's preferred colour when it is one of the game's pieces and still
    free (two wanting the same: the earlier seat has it); the rest get the
    game's free piece colours in the box's order, by seat. A game whose rulebook names no colours (San
    Gimignano) leaves a player without a recorded or preferred one at ``None``.
    """
    recorded = recorded or {}
    allowed = PIECE_COLOURS.get(game)
    chosen: dict[str, str | None] = {p: recorded[p] for p in players if recorded.get(p)}
    for player in players:
        wish = (preferred or {}).get(player)
        free = wish and wish not in chosen.values() and (allowed is None or wish in allowed)
        if player not in chosen and free:
            chosen[player] = wish
    free = [c for c in allowed or () if c not in chosen.values()]
    for player in players:
        if player not in chosen:
            chosen[player] = free.pop(0) if free else None
    return {p: chosen[p] for p in players}


def table_colours(app: Any, game: str, players: Sequence[str],
                  setup: Mapping[str, Any] | None = None) -> dict[str, str | None]:
    """:func:`seat_colours` from a game's setup and the players' profiles in ``app`` (the service)."""
    recorded = (setup or {}).get("colors") or {}
    return seat_colours(game, players, recorded, {p: app.preferred_colour(p, game) for p in players})
