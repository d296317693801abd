"""What the contract tests need: brute-force move enumeration, template reduction, random games.

The brute force is the oracle the engines' generators are checked against:
it writes out every move a record could hold at this point (legal or not),
with any observed field filled in with a fixed allowed value, and keeps
those ``apply`` accepts. It is slow on purpose and used on small states only.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator
from importlib import import_module
from types import ModuleType
from typing import Any

from companion.games.base import Game, IllegalMove, RecordError
from companion.registry import descriptors


@functools.cache
def contracts() -> dict[str, ModuleType]:
    """Each registered game's part of these tests, ``tests/games/<game>/contract.py``: its
    ``candidates``, ``fill``, ``start``, ``OBSERVED``, ``ENDINGS`` and ``normalise`` (a game without
    one, such as a test's own, is left out). Found once: the brute force asks for them for every
    candidate move (half a million times in one Castelli test, a third of its time)."""
    found: dict[str, ModuleType] = {}
    for game in descriptors():
        module = f"tests.games.{game.name.replace('-', '_')}.contract"
        try:
            found[game.name] = import_module(module)
        except ModuleNotFoundError as error:
            if error.name is None or not module.startswith(error.name):
                raise
    return found


def template(move: dict[str, Any]) -> dict[str, Any]:
    """A recorded move reduced as records.md says: observed and null/false fields gone, groups sorted."""
    out = {k: v for k, v in move.items() if v is not None and v is not False}
    for part in contracts().values():
        for field in part.OBSERVED.get(out["type"], ()):
            out.pop(field, None)
        out = part.normalise(out)
    return out


def key(move: dict[str, Any]) -> str:
    return json.dumps(move, sort_keys=True)


def keys(moves: list[dict[str, Any]]) -> set[str]:
    return {key(m) for m in moves}


def fill(game: Game[Any, Any], state: Any, move: dict[str, Any],
         rnd: random.Random | None = None) -> dict[str, Any]:
    """A template with its observed fields filled in with something the table allows."""
    filled: dict[str, Any] = contracts()[game.name].fill(game, state, move, rnd)
    return filled


def accepted(game: Game[Any, Any], state: Any, data: dict[str, Any]) -> bool:
    try:
        game.apply(state, game.parse_move(data))
    except (IllegalMove, RecordError):
        return False
    return True


def brute_force(game: Game[Any, Any], state: Any) -> list[dict[str, Any]]:
    """Every candidate the engine accepts now, reduced to its template."""
    candidates = contracts()[game.name].candidates
    return [template(m) for m in candidates(game, state) if accepted(game, state, fill(game, state, m))]


# -- random games over the templates --------------------------------------------

def start(name: str, rnd: random.Random) -> tuple[Game[Any, Any], Any]:
    """A game with options drawn from those the engine offers, on a small table."""
    started: tuple[Game[Any, Any], Any] = contracts()[name].start(rnd)
    return started


def random_states(name: str, seed: int,
                  length: int) -> Iterator[tuple[Game[Any, Any], Any, list[dict[str, Any]]]]:
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
        ending = [m for m in listed if m in contracts()[name].ENDINGS]
        rest = [m for m in listed if m not in ending] or ending
        chosen = fill(game, state, rnd.choice(rest), rnd)
        state = game.apply(state, game.parse_move(chosen))
        played.append(chosen)
        yield game, state, list(played)
