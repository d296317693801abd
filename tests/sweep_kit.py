"""Games the examples never reach, for the layout sweep: random games of all three games played
through ``legal_moves`` to a random cut or to their end, of every player count each game allows,
with the options and modules it offers drawn, long names among the short, and Castelli's
Championship rounds; each written out as a ``companion-record/1`` record (issue 35)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from companion.games.base import Game
from companion.registry import get_game
from companion.service.records import record_json
from tests.contract_kit import contracts, fill
from tests.games.campanile.contract import drawn_options

#: Names players type: short ones, and long ones that wrap a headline (Hungarian among them).
NAMES = ["Bo", "Annamária", "Franziska-Luise", "Csaba", "Dorottya", "Gustav", "Boglárka",
         "Hanne", "Maximilian"]
#: How many moves a game may run before it is taken as it is (every game here ends well before).
LONGEST = 600


@dataclass(frozen=True)
class Generated:
    """A generated record and what it is (for a test's id and a report's line)."""

    label: str
    record: dict[str, Any]
    finished: bool


def _campanile(rnd: random.Random, players: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    return drawn_options(rnd, len(players))


def _castelli(rnd: random.Random, players: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    colours = rnd.sample(["blue", "yellow", "red", "green"], 4)
    modules = [m for m in ("dilemma", "battle") if rnd.random() < 0.6]
    setup: dict[str, Any] = {"colors": dict(zip(players, colours, strict=False)),
                             "board": "example-2p" if len(players) == 2 else "example-4p"}
    return {"modules": modules}, setup


def _round(rnd: random.Random, players: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    colours = rnd.sample(["blue", "yellow", "red", "green"], 4)
    return {}, {"colors": dict(zip(players, colours, strict=True)),
                "groups": [players[:2], players[2:]], "boards": ["example-2p", "example-2p"]}


def _san_gimignano(rnd: random.Random, players: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    g1, g2, g3, g4 = "guild-1", "guild-2", "guild-3", "guild-4"
    layout = [{"at": [0, 0], "edges": [g4, g1, g1, g2, g2, g4]},
              {"at": [1, 0], "edges": [g3, g3, g2, g2, g4, g4]},
              {"at": [0, 1], "edges": [g3, g1, g1, g4, g4, g3]},
              {"at": [1, -1], "edges": [g4, g4, g1, g1, g3, g3]}]
    rules = rnd.choice(["rulebook", "clarified"])
    setup: dict[str, Any]
    if rules == "rulebook":
        setup = {"segments": layout[:len(players)]}
    else:
        setup = {"segments": [*layout[:3], {"at": [1, 1], "edges": [g3, g2, g2, g4, g4, g3]}],
                 "pool": rnd.choice([2, 5])}
    return {"rules": rules, "variant": rnd.choice(["four", "string"])}, setup


#: Each kind of game: its engine, the player counts it allows, how its options are drawn.
KINDS = {
    "campanile": ("campanile", (2, 5), _campanile),
    "castelli": ("castelli", (2, 4), _castelli),
    "castelli-round": ("castelli", (4, 4), _round),
    "san-gimignano": ("san-gimignano", (2, 4), _san_gimignano),
}


def _play(game: Game[Any, Any], state: Any, rnd: random.Random, cut: int | None) -> tuple[Any, list[Any]]:
    """Random moves from ``state``: ``cut`` of them (the game's end avoided), or to the end (the
    moves that end it taken once the game has run a while)."""
    moves: list[Any] = []
    endings = contracts()[game.name].ENDINGS
    while len(moves) < (cut if cut is not None else LONGEST) and not game.is_finished(state):
        listed = game.legal_moves(state)
        if not listed:
            break
        ending = [m for m in listed if m in endings]
        rest = [m for m in listed if m not in ending] or ending
        closing = cut is None and ending and len(moves) > 30 and rnd.random() < 0.2
        move = game.parse_move(fill(game, state, rnd.choice(ending if closing else rest), rnd))
        state = game.apply(state, move)
        moves.append(move)
    return state, moves


def generated(seed: int, kind: str, finished: bool) -> Generated:
    """One random game of ``kind``, cut at a random move or (``finished``) played to its end."""
    rnd = random.Random(f"{seed}-{kind}-{finished}")
    name, (least, most), draw = KINDS[kind]
    game = get_game(name)
    players = rnd.sample(NAMES, rnd.randint(least, most))
    options, setup = draw(rnd, players)
    initial = game.start(players, options, setup)
    state, moves = _play(game, initial, rnd, None if finished else rnd.randint(1, 45))
    done = game.is_finished(state)
    label = f"{kind}-{len(players)}p-{'end' if done else f'cut{len(moves)}'}-s{seed}"
    return Generated(label, record_json(game, players, initial, moves), done)


def sweep(count: int) -> Iterator[tuple[Generated, str]]:
    """``count`` generated games, kinds and ends taken in turn, each in one language: a kind's end
    and its cut in different ones."""
    kinds = list(KINDS)
    for index in range(count):
        kind = kinds[index % len(kinds)]
        finished = (index // len(kinds)) % 2 == 0
        yield generated(index, kind, finished), ("en", "hu")[(index + index // len(kinds)) % 2]
