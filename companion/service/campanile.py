"""Campanile's part of the service: the 2-player flag table the players confirm once, for every 2-player game.

A new 2-player game gets it written into its options (the game's descriptor,
:mod:`companion.games.campanile.descriptor`), so that its record never needs it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.campanile.descriptor import NAME, TWO_PLAYER_FLAGS
from companion.service.parts import GameService


class CampanileService(GameService):
    """Campanile's part of the service: the flag table (``CampanileService.of(app)``)."""

    game = NAME

    def flag_table(self) -> dict[str, list[list[int]]] | None:
        """The 2-player Campanile flag table the players confirmed, or ``None``."""
        table: dict[str, list[list[int]]] | None = self.store.get_setting(TWO_PLAYER_FLAGS)
        return table

    def confirm_flag_table(self, table: Mapping[str, Any]) -> dict[str, list[list[int]]]:
        """Check the flag values copied from the cards and keep them for every 2-player game.

        :class:`RecordError` naming the flag (``intermezzo[2]: ...``); nothing is stored then.
        """
        from companion.games.campanile.setup import read_flag_table

        intermezzo, finito = read_flag_table(dict(table), path="")
        confirmed = {"intermezzo": [list(f) for f in intermezzo], "finito": [list(f) for f in finito]}
        self.store.set_setting(TWO_PLAYER_FLAGS, confirmed)
        return confirmed

    def forget_flag_table(self) -> None:
        self.store.delete_setting(TWO_PLAYER_FLAGS)
