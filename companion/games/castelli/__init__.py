"""Castelli (Queen Games 2011, Günter Burkhardt): the rules engine.

Pure: standard library only, no I/O beyond reading the package's own layout
files. ``Castelli`` is the engine; ``validate_board`` and ``load_layout`` are
for the store and the CLI; ``resolve`` is the area resolver.
"""

from companion.games.castelli.board import Board, layout_names, load_layout, validate_board
from companion.games.castelli.engine import Castelli
from companion.games.castelli.evaluation import Resolution, resolve

__all__ = ["Board", "Castelli", "Resolution", "layout_names", "load_layout", "resolve",
           "validate_board"]
