"""Long legal games of the three engines, for the benchmarks: deterministic (fixed seeds).

Each generator returns a ``companion-record/1`` record (a dict). Legality is
decided by the engines: a random chooser picks among candidate moves, and only
moves the engine's ``apply`` accepts are kept, as the property tests do
(``tests/helpers_campanile.py``, ``tests/games/castelli/test_castelli_properties.py``,
``tests/games/san_gimignano/test_sg_properties.py``). Nothing here re-implements a rule.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass
from typing import Any

from companion.games.base import IllegalMove
from companion.games.registry import get_game
from tests import helpers_campanile as camp

FORMAT = "companion-record/1"
CAMPANILE_FIVE = ("Albert", "Birgit", "Franziska", "Gustav", "Hanne")
CASTELLI_NAMES = ("Anna", "Bela", "Csaba", "Dora")
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


@dataclass(frozen=True)
class Spec:
    """One benchmark game: a label for people and the record."""

    label: str
    record: dict[str, Any]


# -- Campanile -------------------------------------------------------------

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


def campanile_games(quick: bool) -> list[Spec]:
    length = 150 if quick else 300
    plan = [(11, camp.PLAYERS), (12, CAMPANILE_FIVE), (13, camp.PLAYERS)]
    return [Spec(f"{len(players)}p seed {seed}", campanile_game(seed, players, length))
            for seed, players in (plan[:1] if quick else plan)]


# -- Castelli --------------------------------------------------------------

def castelli_game(seed: int, count: int, options: dict[str, Any]) -> dict[str, Any]:
    """A finished Castelli game, every reveal and action legal; actions preferred to reveals.

    The chooser of ``test_castelli_properties.games`` with a seeded generator and
    more kinds of move offered (every build target, the Battle cards, the Guard),
    so the game is as long as its board allows: a game ends after the last tile
    is revealed and ``end`` is entered.
    """
    from companion.games.castelli import tables
    from companion.games.castelli.moves import End, Guard, Play, Reveal, Sell, Steward
    from companion.games.castelli.views import build_targets

    game = get_game("castelli")
    rng = random.Random(seed)
    players = CASTELLI_NAMES[:count]
    colours = rng.sample(tables.COLORS, len(tables.COLORS))
    setup = {"colors": dict(zip(players, colours, strict=False)),
             "board": "example-2p" if count == 2 else "example-4p"}
    state = game.start(list(players), options, setup)
    modules = set(options.get("modules", ()))
    areas = list(state.board.areas)
    moves: list[Any] = []
    while not state.finished:
        who = game.to_move(state)
        offered: list[Any] = []
        if state.all_revealed():
            offered.append(End())
        else:
            space = rng.choice(state.face_down())
            colours_now = rng.sample(tables.COLORS, len(tables.COLORS))
            values = [rng.choice([1, 2, 3, 4, 5, 6, "card"]) for _ in colours_now]
            offered.append(Reveal(who, space, tuple(zip(colours_now, values, strict=True)),
                                  rng.randint(0, 2), "dilemma" in modules and rng.random() < 0.5))
        if state.current is not None:
            actor = state.players[state.current]
            if state.revealed_this_turn:
                offered += [game.parse_move({"type": "build", "player": actor, **target["move"]})
                            for target in build_targets(state, actor)]
            offered += [Play(actor, "king", value=rng.choice([3, 4, 5])), Play(actor, "thief"),
                        Play(actor, "bandits"), Play(actor, "robber-baron"), Sell(actor, 1), Sell(actor, 2)]
            offered += [Play(actor, "traitor", target=p) for p in state.players if p != actor]
            area = rng.choice(areas)
            offered += [Play(actor, card, area=area) for card in ("peasant", "prince", "arsonist")]
            if state.pending is not None and state.pending.kind == "reveal":
                old = state.revealed[state.pending.space]
                offered += [Steward(p, old[1:] + old[:1]) for p in state.players]
            if state.pending is not None and state.pending.kind == "top":
                offered.append(Guard(state.pending.owner))
        legal = []
        for move in offered:
            with contextlib.suppress(IllegalMove):
                legal.append((move, game.apply(state, move)))
        # The first offer (a reveal, or end) is always legal; mostly take another, so turns are full.
        index = rng.randrange(1, len(legal)) if len(legal) > 1 and rng.random() < 0.85 else 0
        move, state = legal[index]
        moves.append(move)
    return {"format": FORMAT, "game": "castelli", "players": list(players), "options": options,
            "setup": setup, "moves": [game.move_to_json(m) for m in moves]}


def castelli_games(quick: bool) -> list[Spec]:
    plan = [
        (21, 4, {"modules": ["battle", "dilemma"], "neutral": "void"}),
        (22, 4, {"modules": ["battle"], "neutral": "split", "silver_tie": "literal"}),
        (23, 3, {"modules": ["dilemma"]}),
        (24, 2, {"modules": ["battle", "dilemma"], "neutral": "split"}),
    ]
    return [Spec(f"{count}p {'+'.join(opts.get('modules', [])) or 'base'} seed {seed}",
                 castelli_game(seed, count, opts))
            for seed, count, opts in (plan[:1] if quick else plan)]


# -- San Gimignano ---------------------------------------------------------

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


def sg_games(quick: bool) -> list[Spec]:
    plan = [
        (31, "rulebook", "four", 4, 0.6),
        (32, "rulebook", "string", 4, 0.6),
        (33, "clarified", "four", 4, 0.3),
        (34, "clarified", "string", 4, 0.3),
        (35, "rulebook", "four", 3, 0.6),
    ]
    return [Spec(f"{count}p {rules}/{variant} seed {seed}", sg_game(seed, rules, variant, count, bias))
            for seed, rules, variant, count, bias in (plan[:2] if quick else plan)]


#: Record ``game`` name -> the generator of its benchmark games.
GENERATORS = {"campanile": campanile_games, "castelli": castelli_games, "san-gimignano": sg_games}
