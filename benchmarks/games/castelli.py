"""Castelli's benchmark games: the property tests' chooser with seeded generators, each module combination."""

from __future__ import annotations

import contextlib
import random
from typing import Any

from benchmarks.games import FORMAT, Spec
from companion.games.base import IllegalMove
from companion.registry import get_game

CASTELLI_NAMES = ("Anna", "Bela", "Csaba", "Dora")


def castelli_game(seed: int, count: int, options: dict[str, Any]) -> dict[str, Any]:
    """A finished Castelli game, every reveal and action legal; actions preferred to reveals.

    The chooser of ``test_castelli_properties.games`` with a seeded generator and
    more kinds of move offered (every build target, the Battle cards, the Guard),
    so the game is as long as its board allows: a game ends after the last tile
    is revealed and ``end`` is entered.
    """
    from companion.games.castelli import tables

    game = get_game("castelli")
    rng = random.Random(seed)
    players = CASTELLI_NAMES[:count]
    colours = rng.sample(tables.COLORS, len(tables.COLORS))
    setup = {"colors": dict(zip(players, colours, strict=False)),
             "board": "example-2p" if count == 2 else "example-4p"}
    state = game.start(list(players), options, setup)
    moves: list[Any] = []
    while not state.finished:
        legal = []
        for move in offers(state, rng):
            with contextlib.suppress(IllegalMove):
                legal.append((move, game.apply(state, move)))
        # The first offer (a reveal, or end) is always legal; mostly take another, so turns are full.
        index = rng.randrange(1, len(legal)) if len(legal) > 1 and rng.random() < 0.85 else 0
        move, state = legal[index]
        moves.append(move)
    return {"format": FORMAT, "game": "castelli", "players": list(players), "options": options,
            "setup": setup, "moves": [game.move_to_json(m) for m in moves]}


def offers(state: Any, rng: random.Random) -> list[Any]:
    """The moves the chooser offers in ``state`` (a base game's or one group's): the reveal (or the
    end) first, then every build target, the cards, sales, a Steward and the Guard."""
    from companion.games.castelli import tables
    from companion.games.castelli.moves import End, Guard, Play, Reveal, Sell, Steward
    from companion.games.castelli.views import build_targets

    game = get_game("castelli")
    modules = state.options.modules
    offered: list[Any] = []
    if state.all_revealed():
        offered.append(End())
    else:
        who = game.to_move(state)
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
        area = rng.choice(list(state.board.areas))
        offered += [Play(actor, card, area=area) for card in ("peasant", "prince", "arsonist")]
        if state.pending is not None and state.pending.kind == "reveal":
            old = state.revealed[state.pending.space]
            offered += [Steward(p, old[1:] + old[:1]) for p in state.players]
        if state.pending is not None and state.pending.kind == "top":
            offered.append(Guard(state.pending.owner))
    return offered


def round_game(seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """A finished Castelli Championship round: each step a group drawn at random, then the chooser
    of :func:`castelli_game` on that group's game; every move is proposed to the round (whose
    ``apply`` decides), so the shared deck runs short where it does."""
    from dataclasses import replace

    from companion.games.castelli.moves import End

    game = get_game("castelli")
    rng = random.Random(seed)
    setup = {"colors": dict(zip(CASTELLI_NAMES, rng.sample(["blue", "yellow", "red", "green"], 4),
                                strict=True)),
             "groups": [list(CASTELLI_NAMES[:2]), list(CASTELLI_NAMES[2:])],
             "boards": ["example-2p", "example-2p"]}
    state = game.start(list(CASTELLI_NAMES), options, setup)
    moves: list[Any] = []
    while not state.finished:
        group = rng.choice([g for g in (1, 2) if not state.groups[g - 1].finished])
        legal = []
        for move in offers(state.groups[group - 1], rng):
            if isinstance(move, End):
                move = replace(move, group=group)
            with contextlib.suppress(IllegalMove):
                legal.append((move, game.apply(state, move)))
        index = rng.randrange(1, len(legal)) if len(legal) > 1 and rng.random() < 0.85 else 0
        move, state = legal[index]
        moves.append(move)
    return {"format": FORMAT, "game": "castelli", "players": list(CASTELLI_NAMES), "options": options,
            "setup": setup, "moves": [game.move_to_json(m) for m in moves]}


def round_games(quick: bool) -> list[Spec]:
    """The Championship rounds of ``benchmarks/castelli_round.py``."""
    plan = [(31, {}), (32, {"modules": ["battle"]}), (33, {"modules": ["dilemma"], "spares": "split"})]
    return [Spec(f"round {'+'.join(opts.get('modules', [])) or 'base'} seed {seed}", round_game(seed, opts))
            for seed, opts in (plan[:1] if quick else plan)]


def games(quick: bool) -> list[Spec]:
    plan = [
        (21, 4, {"modules": ["battle", "dilemma"], "neutral": "void"}),
        (22, 4, {"modules": ["battle"], "neutral": "split", "silver_tie": "literal"}),
        (23, 3, {"modules": ["dilemma"]}),
        (24, 2, {"modules": ["battle", "dilemma"], "neutral": "split"}),
    ]
    return [Spec(f"{count}p {'+'.join(opts.get('modules', [])) or 'base'} seed {seed}",
                 castelli_game(seed, count, opts))
            for seed, count, opts in (plan[:1] if quick else plan)]
