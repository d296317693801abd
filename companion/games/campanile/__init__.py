"""Campanile (DDD Verlag 2009): towers, influence markers and two valuations."""

from companion.games.campanile.engine import Campanile

__all__ = ["Campanile"]
