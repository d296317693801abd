"""Each game's part of the pages, found by the game's name: this layer's one list of games.

A part is a module under ``web.pages.games`` with a ``PART`` (:class:`WebPart`): the template
that draws the game's own section (``web/templates/games/<game>.html``) and the function that
gives it what to draw. A game not listed here still has a page: the turn strip, the standings and
the moves, from its engine alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any

from companion.games.base import Game
from web.pages.people import Person
from web.pages.words import Words

#: ``context(game, state, states, who, words)``: what the game's template draws for ``state``
#: (``states``: every state from the first, for what happened before; ``who``: the players).
Context = Callable[[Game[Any, Any], Any, Sequence[Any], Mapping[str, Person], Words], dict[str, Any]]


@dataclass(frozen=True)
class WebPart:
    """A game's section of its page: the template (under ``web/templates``) and its context."""

    template: str
    context: Context


#: Game name (its descriptor's) -> the module whose ``PART`` draws it.
MODULES: dict[str, str] = {
    "campanile": f"{__name__}.campanile",
    "castelli": f"{__name__}.castelli",
    "san-gimignano": f"{__name__}.san_gimignano",
}


@cache
def part_for(game: str) -> WebPart | None:
    """The part of ``game`` (imported on first use), ``None`` for a game without one."""
    module = MODULES.get(game)
    if module is None:
        return None
    part: WebPart = import_module(module).PART
    return part
