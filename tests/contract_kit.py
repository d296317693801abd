"""What the contract tests need: brute-force move enumeration, template reduction, random games.

The brute force is the oracle the engines' generators are checked against:
it writes out every move a record could hold at this point (legal or not),
with any observed field filled in with a fixed allowed value, and keeps
those ``apply`` accepts. It is slow on purpose and used on small states only.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

from companion.games.base import Game, IllegalMove, RecordError
from companion.games.registry import get_game

#: Fields a player does not choose but reads off the table, per move type (records.md).
OBSERVED = {"reveal": ("shields", "silver", "card")}
TILE = {"N": ["blue", 1], "E": ["yellow", 2], "S": ["red", "card"], "W": ["green", 6]}


def template(move: dict[str, Any]) -> dict[str, Any]:
    """A recorded move reduced as records.md says: observed and null/false fields gone, groups sorted."""
    out = {k: v for k, v in move.items() if v is not None and v is not False}
    for key in OBSERVED.get(out["type"], ()):
        out.pop(key, None)
    if out["type"] == "tower":
        out["group"] = sorted(out["group"])
    return out


def key(move: dict[str, Any]) -> str:
    return json.dumps(move, sort_keys=True)


def keys(moves: list[dict[str, Any]]) -> set[str]:
    return {key(m) for m in moves}


def fill(game: Game, state: Any, move: dict[str, Any], rnd: random.Random | None = None) -> dict[str, Any]:
    """A template with its observed fields filled in with something the table allows."""
    if move["type"] != "reveal":
        return move
    if game.name == "campanile":
        towers = game.setup_json(state)["towers"]
        return {**move, "card": rnd.choice(towers) if rnd else towers[0]}
    if rnd is None:
        return {**move, "shields": TILE, "silver": 0}
    colours = rnd.sample(["blue", "yellow", "red", "green"], 4)
    values = [rnd.choice([1, 2, 3, 4, 5, 6, "card"]) for _ in range(4)]
    shields = {side: [c, v] for side, c, v in zip("NESW", colours, values, strict=True)}
    return {**move, "shields": shields, "silver": rnd.randint(0, 2)}


def accepted(game: Game, state: Any, data: dict[str, Any]) -> bool:
    try:
        game.apply(state, game.parse_move(data))
    except (IllegalMove, RecordError):
        return False
    return True


def brute_force(game: Game, state: Any) -> list[dict[str, Any]]:
    """Every candidate the engine accepts now, reduced to its template."""
    candidates = {"campanile": _campanile, "castelli": _castelli, "san-gimignano": _sg}[game.name]
    return [template(m) for m in candidates(game, state) if accepted(game, state, fill(game, state, m))]


def _campanile(game: Game, state: Any) -> Iterator[dict[str, Any]]:
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


def _castelli(game: Game, state: Any) -> Iterator[dict[str, Any]]:
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


def _sg(game: Game, state: Any) -> Iterator[dict[str, Any]]:
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


# -- random games over the templates --------------------------------------------

def start(name: str, rnd: random.Random) -> tuple[Game, Any]:
    """A game with options drawn from those the engine offers, on a small table."""
    game = get_game(name)
    if name == "campanile":
        count = rnd.randint(2, 5)
        players = ["Albert", "Birgit", "Franziska", "Gustav", "Hanne"][:count]
        options: dict[str, Any] = {}
        if count == 2:
            options = {"two_player_move": rnd.random() < 0.7,
                       "flags": {"intermezzo": [[4, 2], [3, 1], [2], [1]],
                                 "finito": [[6, 4, 2], [5, 3, 1], [4, 2], [3, 1], [2]]}}
        setup: dict[str, Any] = {}
        if rnd.random() < 0.5:
            setup["display"] = rnd.sample(["grey", "brown", "red", "blue", "yellow"], 3)
        return game, game.start(players, options, setup)
    if name == "castelli":
        count = rnd.randint(2, 4)
        players = ["Anna", "Bela", "Csaba", "Dora"][:count]
        colours = rnd.sample(["blue", "yellow", "red", "green"], 4)
        modules = [m for m in ("dilemma", "battle") if rnd.random() < 0.6]
        setup = {"colors": dict(zip(players, colours, strict=False)),
                 "board": "example-2p" if count == 2 else "example-4p"}
        return game, game.start(players, {"modules": modules}, setup)
    g1, g2, g3, g4 = "guild-1", "guild-2", "guild-3", "guild-4"
    layout = [{"at": [0, 0], "edges": [g4, g1, g1, g2, g2, g4]},
              {"at": [1, 0], "edges": [g3, g3, g2, g2, g4, g4]},
              {"at": [0, 1], "edges": [g3, g1, g1, g4, g4, g3]},
              {"at": [1, -1], "edges": [g4, g4, g1, g1, g3, g3]}]
    count = rnd.randint(2, 4)
    players = ["Ada", "Bo", "Cy", "Di"][:count]
    rules = rnd.choice(["rulebook", "clarified"])
    variant = rnd.choice(["four", "string"])
    if rules == "rulebook":
        setup = {"segments": layout[:count]}
    else:
        setup = {"segments": [*layout[:3], {"at": [1, 1], "edges": [g3, g2, g2, g4, g4, g3]}],
                 "pool": rnd.choice([2, 5])}
    return game, game.start(players, {"rules": rules, "variant": variant}, setup)


def random_states(name: str, seed: int, length: int) -> Iterator[tuple[Game, Any, list[dict[str, Any]]]]:
    """States of a random game played only through ``legal_moves`` (observed fields drawn at random).

    Yields ``(game, state, moves so far)``. Every chosen template is applied
    with ``apply``, so a template the engine refuses fails here, loudly.
    """
    rnd = random.Random(seed)
    game, state = start(name, rnd)
    played: list[dict[str, Any]] = []
    yield game, state, list(played)
    for _ in range(length):
        listed = game.legal_moves(state)
        if not listed:
            return
        # Prefer anything but the game's end, so games grow long enough to matter.
        ending = [m for m in listed if m in ({"type": "end"}, {"type": "valuation", "phase": "finito"})]
        rest = [m for m in listed if m not in ending] or ending
        chosen = fill(game, state, rnd.choice(rest), rnd)
        state = game.apply(state, game.parse_move(chosen))
        played.append(chosen)
        yield game, state, list(played)
