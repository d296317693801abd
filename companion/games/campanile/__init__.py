"""Campanile (DDD Verlag 2009): towers, influence markers and two valuations."""

from companion.games.campanile.game import Campanile

__all__ = ["Campanile"]
