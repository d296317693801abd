"""Campanile's part of the contract tests (:mod:`tests.contract_kit`): candidates, the refill card, games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from companion.games.base import Game
from companion.registry import get_game

#: Fields read off the table, per move type: the refill card.
OBSERVED: dict[str, tuple[str, ...]] = {"reveal": ("card",)}
#: The moves that end the game (a random game prefers anything else).
ENDINGS = ({"type": "valuation", "phase": "finito"},)


def normalise(move: dict[str, Any]) -> dict[str, Any]:
    return move


def fill(game: Game[Any, Any], state: Any, move: dict[str, Any], rnd: random.Random | None) -> dict[str, Any]:
    """The refill card: a tower style of the setup (the first, or one at random)."""
    if move["type"] != "reveal":
        return move
    towers = game.setup_json(state)["towers"]
    return {**move, "card": rnd.choice(towers) if rnd else towers[0]}


def candidates(game: Game[Any, Any], state: Any) -> Iterator[dict[str, Any]]:
    towers = game.setup_json(state)["towers"]
    for player in state.players:
        for tower in towers:
            for stories in (1, 2, 3):
                yield {"type": "build", "player": player, "tower": tower, "stories": stories}
            yield {"type": "influence", "player": player, "tower": tower}
            yield {"type": "take", "player": player, "card": tower}
            for target in towers:
                if target != tower:
                    yield {"type": "relocate", "player": player, "from": tower, "to": target}
    yield {"type": "reveal"}
    yield {"type": "valuation", "phase": "intermezzo"}
    yield {"type": "valuation", "phase": "finito"}


def drawn_options(rnd: random.Random, count: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The options and setup of a game of ``count`` players: the 2-player options drawn, sometimes a
    display chosen (the layout sweep draws its games with this too)."""
    options: dict[str, Any] = {}
    if count == 2:
        options = {"two_player_move": rnd.random() < 0.7,
                   "flags": {"intermezzo": [[4, 2], [3, 1], [2], [1]],
                             "finito": [[6, 4, 2], [5, 3, 1], [4, 2], [3, 1], [2]]}}
    setup: dict[str, Any] = {}
    if rnd.random() < 0.5:
        setup["display"] = rnd.sample(["grey", "brown", "red", "blue", "yellow"], 3)
    return options, setup


def start(rnd: random.Random) -> tuple[Game[Any, Any], Any]:
    """2 to 5 players, the 2-player options drawn, sometimes a display chosen."""
    game = get_game("campanile")
    count = rnd.randint(2, 5)
    players = ["Albert", "Birgit", "Franziska", "Gustav", "Hanne"][:count]
    options, setup = drawn_options(rnd, count)
    return game, game.start(players, options, setup)
