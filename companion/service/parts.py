"""A game's own part of the service, and the one game the Championship is played at.

What only one game asks of the service (a flag table kept once, boards
entered at the table) lives in a class of that game's service module
(``companion/service/<game>.py``), named by its descriptor
(:attr:`~companion.games.descriptor.GameDescriptor.service`). The service
builds it once, on first use (:meth:`~companion.service.app.Companion.part`);
the game's own front-end parts reach it with ``TheirService.of(app)``, so no
shared module names a game.
"""

from __future__ import annotations

from importlib import import_module
from typing import ClassVar, Protocol, TypeVar

from companion.games.messages import msg
from companion.registry import descriptor, with_capability
from companion.service.errors import AppError
from companion.storage.store import Store

#: The capability a game declares to be played as a championship (:mod:`companion.service.championship`).
CHAMPIONSHIP = "championship"

Part = TypeVar("Part", bound="GameService")


class PartHost(Protocol):
    """What a game's part asks of the service it belongs to."""

    @property
    def store(self) -> Store: ...

    def part(self, game: str) -> object | None: ...


class GameService:
    """The base of a game's part of the service: built once per service over its store."""

    #: The descriptor name of the game the part belongs to.
    game: ClassVar[str]

    def __init__(self, host: PartHost) -> None:
        self._host = host

    @property
    def store(self) -> Store:
        """The service's store now (the same object after the store is reopened by a repair)."""
        return self._host.store

    @classmethod
    def of(cls: type[Part], host: PartHost) -> Part:
        """This game's part of ``host``; :class:`AppError` when the game is not installed there."""
        found = host.part(cls.game)
        if not isinstance(found, cls):
            raise AppError(msg("app.part.missing", game=cls.game))
        return found


def build_part(game: str, host: PartHost) -> object | None:
    """A new part of the service for ``game`` (its descriptor's ``service``), or ``None`` without one."""
    where = descriptor(game).service
    if where is None:
        return None
    module_name, _, class_name = where.partition(":")
    made: object = getattr(import_module(module_name), class_name)(host)
    return made


def championship_game() -> str:
    """The game a championship's rounds are played at: the first game that declares the
    capability (:data:`CHAMPIONSHIP`); :class:`AppError` when no installed game does."""
    found = with_capability(CHAMPIONSHIP)
    if not found:
        raise AppError(msg("championship.no_game"))
    return found[0].name
