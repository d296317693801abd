"""Castelli's part of the contract tests (:mod:`tests.contract_kit`): candidates, a tile's faces, games."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

from companion.games.base import Game
from companion.registry import get_game

#: Fields read off the table, per move type: a tile's shields and silver.
OBSERVED: dict[str, tuple[str, ...]] = {"reveal": ("shields", "silver")}
#: The moves that end the game (a random game prefers anything else).
ENDINGS = ({"type": "end"},)
TILE = {"N": ["blue", 1], "E": ["yellow", 2], "S": ["red", "card"], "W": ["green", 6]}


def normalise(move: dict[str, Any]) -> dict[str, Any]:
    return move


def fill(game: Game[Any, Any], state: Any, move: dict[str, Any], rnd: random.Random | None) -> dict[str, Any]:
    """A tile's faces: a fixed tile, or one drawn at random."""
    if move["type"] != "reveal":
        return move
    if rnd is None:
        return {**move, "shields": TILE, "silver": 0}
    colours = rnd.sample(["blue", "yellow", "red", "green"], 4)
    values = [rnd.choice([1, 2, 3, 4, 5, 6, "card"]) for _ in range(4)]
    shields = {side: [c, v] for side, c, v in zip("NESW", colours, values, strict=True)}
    return {**move, "shields": shields, "silver": rnd.randint(0, 2)}


def candidates(game: Game[Any, Any], state: Any) -> Iterator[dict[str, Any]]:
    """Every move worth trying: a Championship round's are each group's, its end with each group."""
    from companion.games.castelli.championship import Round

    if isinstance(state, Round):
        yield from ({"type": "end", "group": group} for group in (1, 2))
        for group in state.groups:
            yield from _candidates(group)
        return
    yield from _candidates(state)


def _candidates(state: Any) -> Iterator[dict[str, Any]]:
    from companion.games.castelli import tables
    from companion.games.castelli.moves import shields_json

    areas = list(state.board.areas)
    yield {"type": "end"}
    for player in state.players:
        for space in state.board.spaces:
            yield {"type": "reveal", "player": player, "space": space}
            yield {"type": "reveal", "player": player, "space": space, "swap": True}
        for shields in state.revealed.values():
            for k in range(4):
                yield {"type": "steward", "player": player,
                       "shields": shields_json(shields[k:] + shields[:k])}
        yield {"type": "guard", "player": player}
        for area in areas:
            for on in (None, *state.players):
                cards = tables.TOP_BUILD_CARDS if on else tables.BUILD_CARDS
                for card, silver_for in itertools.product((None, *cards), (None, *tables.RESOURCES)):
                    yield {"type": "build", "player": player, "area": area, "on": on, "card": card,
                           "silver_for": silver_for}
        for card in tables.PLAY_CARDS:
            base = {"type": "play", "player": player, "card": card}
            if card == "king":
                yield from ({**base, "value": v} for v in tables.KING_VALUES)
            elif card == "traitor":
                yield from ({**base, "target": p} for p in state.players)
            elif card in ("peasant", "prince", "arsonist"):
                yield from ({**base, "area": a} for a in areas)
            else:
                yield base
        for n in range(1, state.cards[player] + 2):
            yield {"type": "sell", "player": player, "cards": n}


def start(rnd: random.Random) -> tuple[Game[Any, Any], Any]:
    """2 to 4 players with colours drawn, the modules drawn, an example board."""
    game = get_game("castelli")
    count = rnd.randint(2, 4)
    players = ["Anna", "Bela", "Csaba", "Dora"][:count]
    colours = rnd.sample(["blue", "yellow", "red", "green"], 4)
    modules = [m for m in ("dilemma", "battle") if rnd.random() < 0.6]
    setup = {"colors": dict(zip(players, colours, strict=False)),
             "board": "example-2p" if count == 2 else "example-4p"}
    return game, game.start(players, {"modules": modules}, setup)
