"""San Gimignano's part of the contract tests (:mod:`tests.contract_kit`): its candidates and its games."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

from companion.games.base import Game
from companion.registry import get_game

#: Fields read off the table, per move type: none.
OBSERVED: dict[str, tuple[str, ...]] = {}
#: The moves that end the game: none is chosen (a game ends when the last tower is built).
ENDINGS: tuple[dict[str, Any], ...] = ()


def normalise(move: dict[str, Any]) -> dict[str, Any]:
    """A tower's group in a fixed order (records.md: a template's group is sorted)."""
    if move["type"] == "tower":
        move["group"] = sorted(move["group"])
    return move


def fill(game: Game[Any, Any], state: Any, move: dict[str, Any], rnd: random.Random | None) -> dict[str, Any]:
    return move


def candidates(game: Game[Any, Any], state: Any) -> Iterator[dict[str, Any]]:
    from companion.games.san_gimignano import geometry, groups

    outlines = geometry.all_outlines(state.guilds)
    near = {geometry.neighbour(at, e) for at in state.segments for e in range(6)} - set(state.segments)
    for player in state.players:
        yield {"type": "pass", "player": player}
        for space in state.adjacency:
            yield {"type": "token", "player": player, "space": list(space)}
        for at in sorted(near):
            for edges in outlines:
                yield {"type": "segment", "player": player, "at": list(at), "edges": list(edges)}
        mine = sorted(groups.player_spaces(state, player))
        shapes = {frozenset(c) for c in itertools.combinations(mine, 4)}
        shapes |= set(groups.components(mine, state.adjacency))
        for shape in shapes:
            ordered = [list(s) for s in sorted(shape)]
            for space in ordered:
                yield {"type": "tower", "player": player, "space": space, "group": ordered}


def start(rnd: random.Random) -> tuple[Game[Any, Any], Any]:
    """2 to 4 players, the rules and variant drawn, the property tests' opening segments."""
    game = get_game("san-gimignano")
    g1, g2, g3, g4 = "guild-1", "guild-2", "guild-3", "guild-4"
    layout = [{"at": [0, 0], "edges": [g4, g1, g1, g2, g2, g4]},
              {"at": [1, 0], "edges": [g3, g3, g2, g2, g4, g4]},
              {"at": [0, 1], "edges": [g3, g1, g1, g4, g4, g3]},
              {"at": [1, -1], "edges": [g4, g4, g1, g1, g3, g3]}]
    count = rnd.randint(2, 4)
    players = ["Ada", "Bo", "Cy", "Di"][:count]
    rules = rnd.choice(["rulebook", "clarified"])
    variant = rnd.choice(["four", "string"])
    setup: dict[str, Any]
    if rules == "rulebook":
        setup = {"segments": layout[:count]}
    else:
        setup = {"segments": [*layout[:3], {"at": [1, 1], "edges": [g3, g2, g2, g4, g4, g3]}],
                 "pool": rnd.choice([2, 5])}
    return game, game.start(players, {"rules": rules, "variant": variant}, setup)
