"""Pure rules engines, one package per game, their shared contract and each game's descriptor.

Nothing under this package may import Kivy, gpiozero, luma or pyserial, read a
clock, draw random numbers or do I/O: an engine is a function of its moves.
Which games are installed is the registry's business (:mod:`companion.registry`).
"""

from companion.games.base import Game, IllegalMove, RecordError

__all__ = ["Game", "IllegalMove", "RecordError"]
