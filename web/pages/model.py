"""What the index page is given about each stored game: a small value the server fills from the store."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class GameListing:
    """One stored game as the index lists it.

    ``game`` is the record's game name (the registry's key); ``colours`` each player's piece colour
    when the server knows them (a setup's, a profile's), else the pages give them by seat
    as the touchscreen does; ``winners`` those of a finished game, when known.
    """

    id: int
    game: str
    players: tuple[str, ...]
    started: datetime
    ended: datetime | None = None
    finished: bool = False
    colours: Mapping[str, str | None] = field(default_factory=dict)
    winners: tuple[str, ...] = ()
