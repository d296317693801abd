"""Long legal games of every registered game that has benchmark games, for the benchmarks: deterministic.

Each generator returns a ``companion-record/1`` record (a dict). Legality is
decided by the engines: a random chooser picks among candidate moves, and only
moves the engine's ``apply`` accepts are kept, as the property tests do
(``tests/helpers_campanile.py``, ``tests/games/castelli/test_castelli_properties.py``,
``tests/games/san_gimignano/test_sg_properties.py``). Nothing here re-implements a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from benchmarks.games import FORMAT, Spec
from companion.registry import descriptors

__all__ = ["FORMAT", "GENERATORS", "Spec", "generators"]


def generators() -> dict[str, Callable[[bool], list[Spec]]]:
    """Record ``game`` name -> the generator of its benchmark games (``benchmarks/games/<game>.py``),
    for every registered game that has one, in menu order."""
    found: dict[str, Callable[[bool], list[Spec]]] = {}
    for game in descriptors():
        module = f"benchmarks.games.{game.name.replace('-', '_')}"
        try:
            found[game.name] = import_module(module).games
        except ModuleNotFoundError as error:
            if error.name is None or not module.startswith(error.name):
                raise
    return found


#: Record ``game`` name -> the generator of its benchmark games.
GENERATORS = generators()
