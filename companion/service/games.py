"""The service's per-game parts: the one list of what only one game asks of the service.

Each game with requests of its own (a table kept once, boards entered here)
has a module named for it in :mod:`companion.service` holding a class whose
methods :class:`~companion.service.app.Companion` takes on; they are listed
here, and nowhere else. A game without one needs nothing beyond its
descriptor (:mod:`companion.games.descriptor`).
"""

from __future__ import annotations

from companion.service.campanile import CampanileService
from companion.service.castelli import Board, CastelliService

__all__ = ["CHAMPIONSHIP_GAME", "Board", "GameServices"]

#: The game a championship's rounds are played at (two 2-player games at once: ``setup.groups``).
CHAMPIONSHIP_GAME = "castelli"


class GameServices(CampanileService, CastelliService):
    """Every game's service part, for :class:`~companion.service.app.Companion` to inherit."""
