"""Legal Campanile move sequences for tests and benchmarks, found by asking the engine.

Candidates are written as record JSON (every build, marker, relocation and
valuation the record format allows); the legal ones are those the engine's
``apply`` accepts. Nothing here re-implements a rule.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from companion.games.base import IllegalMove
from companion.games.messages import Message
from companion.i18n import render
from companion.registry import get_game
from tests.refusals import assert_words, refuses

PLAYERS = ("Albert", "Birgit", "Franziska")
SETUP = {"towers": ["red", "blue", "yellow", "brown", "grey"]}
TWO_PLAYER_FLAGS = {"intermezzo": [[4, 2], [3, 1], [2], [1]],
                    "finito": [[6, 4, 2], [5, 3, 1], [4, 2], [3, 1], [2]]}


def engine():
    return get_game("campanile")


def initial(players: Sequence[str] = PLAYERS, options: dict[str, Any] | None = None,
            setup: dict[str, Any] | None = None) -> Any:
    return engine().start(list(players), options or {}, setup or SETUP)


def candidates(state: Any) -> list[dict[str, Any]]:
    """Every move a record could hold at this point (legal or not), as JSON."""
    game = engine()
    setup = game.setup_json(state)
    towers = setup["towers"]
    players = list(state.players)
    found: list[dict[str, Any]] = []
    for player in players:
        for tower in towers:
            for stories in (1, 2, 3):
                found.append({"type": "build", "player": player, "tower": tower, "stories": stories})
            found.append({"type": "influence", "player": player, "tower": tower})
            for target in towers:
                if target != tower:
                    found.append({"type": "relocate", "player": player, "from": tower, "to": target})
    found.append({"type": "valuation", "phase": "intermezzo"})
    found.append({"type": "valuation", "phase": "finito"})
    return found


def legal_moves(state: Any) -> list[Any]:
    """The parsed moves the engine lists now (its ``legal_moves``), in the order of :func:`candidates`.

    The order keeps the seeded games of the tests and benchmarks as they were
    when this helper tried every candidate through ``apply``.
    """
    game = engine()
    order = {json.dumps(c, sort_keys=True): i for i, c in enumerate(candidates(state))}
    listed = [t for t in game.legal_moves(state) if json.dumps(t, sort_keys=True) in order]
    listed.sort(key=lambda t: order[json.dumps(t, sort_keys=True)])
    return [game.parse_move(t) for t in listed]


def kind(move: Any) -> str:
    return engine().move_to_json(move)["type"]


def playout(choose: Callable[[list[Any]], Any], state: Any, steps: int, *,
            allow_finito: bool = False) -> list[Any]:
    """Up to ``steps`` legal moves from ``state``, each picked by ``choose`` among the legal ones."""
    game = engine()
    moves: list[Any] = []
    for _ in range(steps):
        options = legal_moves(state)
        if not allow_finito:
            options = [m for m in options if game.move_to_json(m) != {"type": "valuation", "phase": "finito"}]
        if not options:
            break
        move = choose(options)
        state = game.apply(state, move)
        moves.append(move)
    return moves


def weighted_chooser(rng: random.Random, valuation_weight: float = 0.02) -> Callable[[list[Any]], Any]:
    """Pick a marker when one may be placed, rarely a valuation, else a random build."""

    def choose(options: list[Any]) -> Any:
        by_kind: dict[str, list[Any]] = {}
        for move in options:
            by_kind.setdefault(kind(move), []).append(move)
        if "valuation" in by_kind and rng.random() < valuation_weight:
            return rng.choice(by_kind["valuation"])
        markers = by_kind.get("influence", []) + by_kind.get("relocate", [])
        if markers and rng.random() < 0.7:
            return rng.choice(markers)
        builds = by_kind.get("build") or options
        return rng.choice(builds)

    return choose


def random_game(seed: int, steps: int, *, finish: bool = True, state: Any = None) -> list[Any]:
    """A legal move list of about ``steps`` moves, ending with Finito when ``finish``."""
    game = engine()
    rng = random.Random(seed)
    state = initial() if state is None else state
    moves = playout(weighted_chooser(rng), state, steps)
    for move in moves:
        state = game.apply(state, move)
    if finish:
        finito = game.parse_move({"type": "valuation", "phase": "finito"})
        while True:
            try:
                game.apply(state, finito)
                break
            except IllegalMove:
                extra = playout(weighted_chooser(rng, 0.0), state, 1)
                state = game.apply(state, extra[0])
                moves.append(extra[0])
        moves.append(finito)
    return moves


@contextmanager
def refused(code: str, match: str | None = None, **params: Any) -> Iterator[Any]:
    """A Campanile refusal: its code (and parameters) in every language, and its English words."""
    with refuses(code, **params) as caught:
        yield caught
    if match is not None:
        caught.match(match)  # the English text (tests start in English)


def explained(explanation: Sequence[Message], language: str = "en") -> str:
    """A valuation's explanation in ``language``, every sentence checked in every language first."""
    for sentence in explanation:
        assert_words(sentence)
    return " ".join(render(sentence, language) for sentence in explanation)
