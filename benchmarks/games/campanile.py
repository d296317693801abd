"""Campanile's benchmark games: long random legal games of the property tests' chooser (fixed seeds)."""

from __future__ import annotations

import random
from typing import Any

from benchmarks.games import FORMAT, Spec
from tests import helpers_campanile as camp

CAMPANILE_FIVE = ("Albert", "Birgit", "Franziska", "Gustav", "Hanne")


def campanile_long_record(moves_wanted: int, seed: int = 1) -> dict[str, Any]:
    """A legal 3-player Campanile record of about ``moves_wanted`` moves (Intermezzo halfway, Finito last).

    Campanile has no natural end before Finito (markers can always be moved),
    so the length is chosen; this is the replay benchmark's long record.
    """
    game = camp.engine()
    rng = random.Random(seed)
    state = camp.initial()
    moves: list[Any] = []
    choose = camp.weighted_chooser(rng, valuation_weight=0.0)
    intermezzo_at = moves_wanted // 2
    while len(moves) < moves_wanted - 1:
        if len(moves) == intermezzo_at:
            for candidate in camp.legal_moves(state):
                if game.move_to_json(candidate) == {"type": "valuation", "phase": "intermezzo"}:
                    state = game.apply(state, candidate)
                    moves.append(candidate)
                    break
        (move,) = camp.playout(choose, state, 1)
        state = game.apply(state, move)
        moves.append(move)
    moves.append(game.parse_move({"type": "valuation", "phase": "finito"}))
    state = game.apply(state, moves[-1])
    return {"format": FORMAT, "game": "campanile", "players": list(camp.PLAYERS),
            "setup": camp.SETUP, "moves": [game.move_to_json(m) for m in moves]}


def campanile_game(seed: int, players: tuple[str, ...], moves_wanted: int) -> dict[str, Any]:
    """A finished Campanile game: ~``moves_wanted`` random legal moves, then Finito as soon as legal."""
    game = camp.engine()
    start = camp.initial(players)
    moves = camp.random_game(seed, moves_wanted, state=start)
    return {"format": FORMAT, "game": "campanile", "players": list(players), "setup": camp.SETUP,
            "moves": [game.move_to_json(m) for m in moves]}


def games(quick: bool) -> list[Spec]:
    length = 150 if quick else 300
    plan = [(11, camp.PLAYERS), (12, CAMPANILE_FIVE), (13, camp.PLAYERS)]
    return [Spec(f"{len(players)}p seed {seed}", campanile_game(seed, players, length))
            for seed, players in (plan[:1] if quick else plan)]
