"""Pure rules engines, one package per game, and the registry that lists them.

Nothing under this package may import Kivy, gpiozero, luma or pyserial, read a
clock, draw random numbers or do I/O: an engine is a function of its moves.
"""

from companion.games.base import Game, IllegalMove, RecordError
from companion.games.registry import GAMES, get_game

__all__ = ["GAMES", "Game", "IllegalMove", "RecordError", "get_game"]
