"""San Gimignano's benchmark games: played to their end by the property tests' chooser (fixed seeds)."""

from __future__ import annotations

import random
from typing import Any

from benchmarks.games import FORMAT, Spec
from companion.games.base import IllegalMove
from companion.registry import get_game

SG_NAMES = ("Ada", "Bo", "Cy", "Di")
G1, G2, G3, G4 = "guild-1", "guild-2", "guild-3", "guild-4"
#: San Gimignano opening segments (those of the property tests): rulebook lays one per player,
#: the clarified rules lay four.
SG_LAYOUT = [
    {"at": [0, 0], "edges": [G4, G1, G1, G2, G2, G4]},
    {"at": [1, 0], "edges": [G3, G3, G2, G2, G4, G4]},
    {"at": [0, 1], "edges": [G3, G1, G1, G4, G4, G3]},
    {"at": [1, -1], "edges": [G4, G4, G1, G1, G3, G3]},
]
SG_RHOMBUS = [*SG_LAYOUT[:3], {"at": [1, 1], "edges": [G3, G2, G2, G4, G4, G3]}]


def sg_game(seed: int, rules: str, variant: str, count: int, tower_bias: float,
            limit: int = 1000) -> dict[str, Any]:
    """A San Gimignano game played to its end (all segments placed, nobody can build, or 10 towers).

    The chooser of ``test_sg_properties.random_game``: candidate moves of
    ``views.candidate_moves`` (five random segment outlines), shuffled, towers
    first with probability ``tower_bias``; the first one the engine accepts is played.
    The setup is the full box: the rulebook's hands, or the clarified pool of 12.
    """
    from companion.games.san_gimignano import geometry, views
    from companion.games.san_gimignano.moves import TowerMove

    game = get_game("san-gimignano")
    rng = random.Random(seed)
    players = list(SG_NAMES[:count])
    setup: dict[str, Any] = {"segments": SG_LAYOUT[:count] if rules == "rulebook" else SG_RHOMBUS}
    options = {"rules": rules, "variant": variant}
    state = game.start(players, options, setup)
    outlines = geometry.all_outlines(state.guilds)
    moves: list[Any] = []
    while not state.finished and len(moves) < limit:
        candidates = views.candidate_moves(state, rng.sample(outlines, 5))
        rng.shuffle(candidates)
        towers = [m for m in candidates if isinstance(m, TowerMove)]
        if towers and rng.random() < tower_bias:
            candidates = towers + candidates
        for move in candidates:
            try:
                after = game.apply(state, move)
            except IllegalMove:
                continue
            break
        else:
            raise AssertionError(f"no legal move in\n{game.report(state)}")
        state = after
        moves.append(move)
    return {"format": FORMAT, "game": "san-gimignano", "players": players, "options": options,
            "setup": setup, "moves": [game.move_to_json(m) for m in moves]}


def games(quick: bool) -> list[Spec]:
    plan = [
        (31, "rulebook", "four", 4, 0.6),
        (32, "rulebook", "string", 4, 0.6),
        (33, "clarified", "four", 4, 0.3),
        (34, "clarified", "string", 4, 0.3),
        (35, "rulebook", "four", 3, 0.6),
    ]
    return [Spec(f"{count}p {rules}/{variant} seed {seed}", sg_game(seed, rules, variant, count, bias))
            for seed, rules, variant, count, bias in (plan[:2] if quick else plan)]
