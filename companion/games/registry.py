"""The one list of games the companion knows.

The CLI, the store and the screens find engines here by the record's ``game``
name. Engines are imported on first use so that starting the CLI for one game
does not pay for the others.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Any

from companion.games.base import Game, RecordError
from companion.games.messages import msg

#: record ``game`` name -> "module:class" of its engine, in menu order.
_ENGINES: dict[str, str] = {
    "campanile": "companion.games.campanile:Campanile",
    "castelli": "companion.games.castelli:Castelli",
    "san-gimignano": "companion.games.san_gimignano:SanGimignano",
}

#: The game names, in the order the menu shows them.
GAMES: tuple[str, ...] = tuple(_ENGINES)


@cache
def get_game(name: str) -> Game[Any, Any]:
    """The engine for ``name``; :class:`RecordError` for a game the companion does not know."""
    try:
        target = _ENGINES[name]
    except KeyError:
        raise RecordError(msg("records.game.unknown", name=name, games=", ".join(GAMES)),
                          "game") from None
    module_name, class_name = target.split(":")
    engine: Game[Any, Any] = getattr(import_module(module_name), class_name)()
    return engine
