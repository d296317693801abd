"""Each game's part of the pages, named by the game's descriptor (its ``web``): no list of games here.

A part is a module (``web/pages/games/<game>.py`` for the shipped games) with a ``PART``
(:class:`WebPart`): the template that draws the game's own section
(``web/templates/games/<game>.html``) and the function that gives it what to draw. A game
without one still has a page: the turn strip, the standings and the moves, from its engine alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.games.base import Game
from companion.registry import generation, load_part
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


def part_for(game: str) -> WebPart | None:
    """The part of ``game`` (its descriptor's ``web``, imported on first use); ``None`` for a game
    without one, not installed, or whose module fails to import (logged: the page still shows it)."""
    return _part_for(game, generation())


@cache
def _part_for(game: str, generation: int) -> WebPart | None:
    loaded = load_part(game, "web")
    return loaded if isinstance(loaded, WebPart) else None
