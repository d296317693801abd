"""What the screens show, as functions of the state: areas in play, players, legal builds.

The UI asks these instead of re-implementing rules; ``build_targets`` tries
each candidate build against the engine itself, so a target shown is a build
the engine accepts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.base import IllegalMove
from companion.games.castelli import tables
from companion.games.castelli.evaluation import influence_of
from companion.games.castelli.moves import Build
from companion.games.castelli.rules import apply_move
from companion.games.castelli.scoring import castle_points
from companion.games.castelli.state import State

if TYPE_CHECKING:
    from companion.games.castelli.engine import Castelli


def area_views(state: State) -> list[dict[str, Any]]:
    """Every area not yet evaluated (plains excluded): influence so far, tiles still down, who leads."""
    by_colour = state.players_by_colour
    out = []
    for name, area in state.board.areas.items():
        if name in state.done or area.kind == "plain":
            continue
        influence = influence_of(state.shields_into(name))
        down = [s for s, _ in state.board.borders[name] if s not in state.revealed]
        best = max(influence.values(), default=0)
        leaders = [c for c, v in influence.items() if v == best] if best else []
        out.append({
            "area": name, "kind": area.kind,
            "amount": state.mine if area.kind == "mine" else area.amount,
            "influence": influence,
            "face_down": sorted(set(down)),
            "leaders": [{"colour": c, "player": by_colour.get(c)} for c in leaders],
        })
    return out


def player_views(state: State) -> dict[str, dict[str, Any]]:
    """Per player: colour, resources, silver, cards, castles built and left, score."""
    return {p: {"colour": state.colors[p],
                "resources": dict(zip(tables.RESOURCES, state.resources[p], strict=True)),
                "silver": state.silver[p], "cards": state.cards[p],
                "castles": state.castles_built[p], "castles_left": state.castles_left(p),
                "score": state.score[p]}
            for p in state.players}


def _candidates(state: State, player: str) -> list[Build]:
    moves: list[Build] = []
    cards: list[str | None] = [None, "master-builder"]
    for area, spec in state.board.areas.items():
        if spec.kind == "rock":
            for card in cards:
                moves.append(Build(player, area, None, card))
                for res in tables.RESOURCES:
                    moves.append(Build(player, area, res, None))
        elif spec.kind in ("field", "forest"):
            card = "count" if spec.kind == "field" else "countess"
            moves.append(Build(player, area, None, card))
            moves.extend(Build(player, area, res, card) for res in tables.RESOURCES)
        if state.options.battle:
            for stack in state.castles.get(area, ()):
                if len(stack) == 1 and stack[0] != player:
                    for card in (None, "abbot", "knights"):
                        moves.append(Build(player, area, None, card, stack[0]))
                        moves.extend(Build(player, area, res, card, stack[0])
                                     for res in tables.RESOURCES)
    return moves


def build_targets(state: State, player: str) -> list[dict[str, Any]]:
    """Every build the engine would accept from ``player`` now: where, how paid, what it scores.

    Each entry: ``move`` (the build's fields), ``cost`` (resources, silver, card
    used) and ``points``. The cheapest way per (area, on) is listed first.
    """
    out = []
    seen = set()
    for move in _candidates(state, player):
        try:
            after = apply_move(state, move)
        except IllegalMove:
            continue
        before_res, after_res = state.resources[player], after.resources[player]
        cost = {r: before_res[i] - after_res[i] for i, r in enumerate(tables.RESOURCES)}
        cost["silver"] = state.silver[player] - after.silver[player]
        cost["card"] = 1 if move.card else 0
        key = (move.area, move.on, tuple(cost.items()))
        if key in seen:
            continue
        seen.add(key)
        out.append({"move": {"area": move.area, "silver_for": move.silver_for, "card": move.card,
                             "on": move.on},
                    "cost": cost,
                    "points": castle_points(state.board, state.settlements, move.area)})
    out.sort(key=lambda t: (t["move"]["area"], t["move"]["on"] or "",
                            t["cost"]["card"], t["cost"]["silver"]))
    return out


def report(engine: Castelli, state: State) -> str:
    """The readable table of ``companion replay`` without ``--json``."""
    status = "finished" if state.finished else f"in progress, {engine.to_move(state)} to move"
    lines = [f"Castelli: {status}; mine {state.mine} silver, deck {state.deck()} cards, "
             f"{len(state.revealed)}/{len(state.board.spaces)} tiles face up", ""]
    lines.append(f"  {'player':<24} {'colour':<7} {'wood':>4} {'grain':>5} {'stone':>5} {'silver':>6} "
                 f"{'cards':>5} {'castles':>7} {'score':>5}")
    wins = engine.summary(state)["winners"]
    for p in state.players:
        wood, grain, stone = state.resources[p]
        mark = "  winner" if p in wins else ""
        lines.append(f"  {p:<24} {state.colors[p]:<7} {wood:>4} {grain:>5} {stone:>5} "
                     f"{state.silver[p]:>6} {state.cards[p]:>5} {state.castles_built[p]:>7} "
                     f"{state.score[p]:>5}{mark}")
    if state.evaluations:
        lines += ["", "Evaluations:"]
        for e in state.evaluations:
            lines.append(f"  {e.area} ({e.kind}): {e.explanation}")
    if state.notes:
        lines += ["", "Not evaluated:"]
        lines += [f"  {note}" for note in state.notes]
    if state.final:
        lines += ["", "Final scoring:"]
        for p in state.players:
            parts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in state.final[p].items())
            lines.append(f"  {p}: {parts}")
    return "\n".join(lines)
