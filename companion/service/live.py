"""An opened stored game (:class:`LiveGame`): what the service hands a front end, in a module of its own
so that the service's parts (the championship) name it without importing the service."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.messages import Message
from companion.service.session import AnySession
from companion.storage.store import SessionRow, StoreJournal


@dataclass(frozen=True)
class LiveGame:
    """An opened stored game: its id, its stored row (as opened) and the live session."""

    id: int
    row: SessionRow
    session: AnySession
    #: The journal that stores the session's changes and measures how long the game was open.
    journal: StoreJournal | None = None
    #: For a game just started: the setup fields the players did not give, as the companion filled
    #: them (colours by seat, the board for the player count, the offered layout), so that a front
    #: end can say what it assumed and how to change it.
    assumed: Mapping[str, Any] = field(default_factory=dict)
    #: For a game just started: what its descriptor says the players should know (a board made
    #: for another player count).
    notices: tuple[Message, ...] = ()
