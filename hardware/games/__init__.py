"""The OLED's and the buttons' per-game parts: one module per game, found here by the game's name.

A game's module (``hardware/games/<game>.py``) holds a ``PART``, a
:class:`GamePart`: its standings pages after the turn page, what the
Valuation button shows, the order its moves are offered in, which move
types the buttons cannot enter, and how an observed field is chosen with the
encoder. The game's descriptor names it
(:attr:`~companion.games.descriptor.GameDescriptor.oled`): this layer keeps no list of games.

A game without a module here still plays on the buttons: :data:`GENERIC`
gives no extra pages, the legal moves as the engine lists them, and the
scores on the Valuation button (never another game's pages).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from companion.games.base import Game
from companion.registry import load_part
from hardware.oled_render import Page

#: ``pages(game, state, summary)``: a game's own status pages after the turn page.
StatusPages = Callable[[Game[Any, Any], Any, Mapping[str, Any]], list[Page]]
#: ``pages(game, state)``: pages in place of the turn page (``[]``: the turn page as for every game).
TurnPages = Callable[[Game[Any, Any], Any], list[Page]]
#: ``pages(table)``: pages read from the table's service after the status (``[]``: none now).
TablePages = Callable[[Any], list[Page]]
#: ``pages(game, state)``: what the Valuation button shows.
ValuationPages = Callable[[Game[Any, Any], Any], list[Page]]
#: ``choices(game, state, template)``: the moves that fill a template's observed field.
ObservedChoices = Callable[[Game[Any, Any], Any, Mapping[str, Any]], list[dict[str, Any]]]
#: ``moves(game, state)``: the moves a long press of Valuation may record now (the first is recorded).
ValuationMoves = Callable[[Game[Any, Any], Any], list[dict[str, Any]]]
#: ``label(game, state, move)``: how a filled-in observed field is named in the encoder's list.
ChoiceLabel = Callable[[Game[Any, Any], Any, Mapping[str, Any]], str]


def _frozen(mapping: Mapping[str, str]) -> Mapping[str, str]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class GamePart:
    """What the OLED and the buttons do differently for one game; every field has a generic default."""

    #: The game's own standings pages, after the turn page (``None``: none).
    status_pages: StatusPages | None = None
    #: Pages in place of the turn page, when the game has more than one turn at once (``None``: none).
    turn_pages: TurnPages | None = None
    #: Pages from the table's service, after the status and after game over (``None``: none).
    table_pages: TablePages | None = None
    #: What the Valuation button shows (``None``: the scores now).
    valuation_pages: ValuationPages | None = None
    #: The order move types are offered in, most likely first (a type not named: as listed, after).
    likely: tuple[str, ...] = ()
    #: Move type -> ``oled.*`` message code saying which front end can enter its observed fields.
    needs_another_front_end: Mapping[str, str] = field(default_factory=lambda: _frozen({}))
    #: The encoder's choices for a template's observed field (``None``: the buttons cannot fill any).
    observed_choices: ObservedChoices | None = None
    #: How a choice of :attr:`observed_choices` is labelled (``None``: the game's notation).
    choice_label: ChoiceLabel | None = None
    #: The moves a long press of Valuation records (``None``: the game has no such card; it previews).
    valuation_moves: ValuationMoves | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "needs_another_front_end", _frozen(self.needs_another_front_end))


#: A game without a part of its own.
GENERIC = GamePart()

def part(name: str) -> GamePart:
    """The OLED part of the game ``name`` (its descriptor's ``oled``); :data:`GENERIC` when it has
    none, is not installed, or its module fails to import (logged)."""
    loaded = load_part(name, "oled")
    return loaded if isinstance(loaded, GamePart) else GENERIC
