"""The one list of games the companion knows: each game's :class:`GameDescriptor`.

The CLI, the store, the service and the screens find a game here by the
record's ``game`` name, and iterate :func:`descriptors` wherever they offer
every game. A game is added by naming its ``descriptor`` module in
:data:`BUILT_IN`; a test registers a game of its own with :func:`registered`
(and it is gone again afterwards). Engines are imported on first use so that
starting the CLI for one game does not pay for the others.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib import import_module
from typing import Any

from companion.games.base import Game, RecordError
from companion.games.descriptor import GameDescriptor
from companion.games.messages import msg

#: The modules whose ``DESCRIPTOR`` is a game the companion ships, in menu order.
BUILT_IN: tuple[str, ...] = (
    "companion.games.campanile.descriptor",
    "companion.games.castelli.descriptor",
    "companion.games.san_gimignano.descriptor",
)

#: name -> descriptor, in menu order; filled from :data:`BUILT_IN` on first use.
_REGISTERED: dict[str, GameDescriptor] = {}


def _known() -> dict[str, GameDescriptor]:
    if not _REGISTERED:
        for module in BUILT_IN:
            found: GameDescriptor = import_module(module).DESCRIPTOR
            _REGISTERED[found.name] = found
    return _REGISTERED


def descriptors() -> tuple[GameDescriptor, ...]:
    """Every game the companion knows, in the order the menus show them."""
    return tuple(_known().values())


def game_names() -> tuple[str, ...]:
    """The names of :func:`descriptors`, in menu order."""
    return tuple(_known())


def descriptor(name: str) -> GameDescriptor:
    """The descriptor of ``name``; :class:`RecordError` for a game the companion does not know."""
    try:
        return _known()[name]
    except KeyError:
        raise RecordError(msg("records.game.unknown", name=name, games=", ".join(game_names())),
                          "game") from None


def game_named(typed: str) -> str:
    """The name of the game a person typed: any case, with spaces, ``_`` or ``-`` between words.

    ``Castelli``, ``san gimignano`` and ``SAN_GIMIGNANO`` are games a player
    means; records keep the exact name (:func:`descriptor` reads those).
    :class:`RecordError` for a game the companion does not know.
    """
    key = _typed_key(typed)
    found = [name for name in _known() if _typed_key(name) == key]
    return found[0] if len(found) == 1 else descriptor(typed).name


def _typed_key(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


@cache
def get_game(name: str) -> Game[Any, Any]:
    """The engine for ``name`` (one per process); :class:`RecordError` for an unknown game."""
    return descriptor(name).load()


def register(game: GameDescriptor) -> None:
    """Add a game (last in the menus); :class:`ValueError` if its name is taken."""
    known = _known()
    if game.name in known:
        raise ValueError(f"a game named {game.name!r} is registered already")
    known[game.name] = game
    get_game.cache_clear()


def unregister(name: str) -> None:
    """Forget a game added by :func:`register` (its stored games then open as unknown)."""
    _known().pop(name, None)
    get_game.cache_clear()


@contextmanager
def registered(game: GameDescriptor) -> Iterator[GameDescriptor]:
    """``game`` known for the ``with`` block only (a test's own game)."""
    register(game)
    try:
        yield game
    finally:
        unregister(game.name)


def built_in_names() -> tuple[str, ...]:
    """The shipped games' names, in menu order (what the settings of this release know)."""
    return tuple(import_module(module).DESCRIPTOR.name for module in BUILT_IN)


def __getattr__(name: str) -> Any:
    """``GAMES``: :func:`built_in_names`, read on first use so that importing this module imports no game."""
    if name == "GAMES":
        return built_in_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
