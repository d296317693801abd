"""Scoring rules as pure functions: castle points, silver awards, the Battle final scoring.

Kept apart from the move handling so the screens can show "what this would
score" with the same code that scores it.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.games.castelli import tables
from companion.games.castelli.board import Board


def castle_points(board: Board, settlements: Mapping[str, str], area: str) -> int:
    """Points for a new castle in ``area``: per town 2, per village 1 in its row or column."""
    row, col = board.areas[area].at
    total = 0
    for place, kind in settlements.items():
        at = board.areas[place].at
        if place != area and (at[0] == row or at[1] == col):
            total += tables.SETTLEMENT_POINTS[kind]
    return total


def silver_awards(silver: Mapping[str, int], table: Mapping[str, int], tie: str) -> dict[str, int]:
    """Points for most / second most silver (players with none get nothing).

    ``shared``: a tie for the most gives each tied player ``table["tie"]`` and
    no second place; a tie for second shares ``table["second"]`` rounded down.
    ``literal``: every player in any tie gets ``table["tie"]``.
    """
    amounts = sorted({n for n in silver.values() if n > 0}, reverse=True)
    awards = {p: 0 for p in silver}
    if not amounts:
        return awards
    first = [p for p, n in silver.items() if n == amounts[0]]
    if len(first) > 1:
        for p in first:
            awards[p] = table["tie"]
        return awards
    awards[first[0]] = table["first"]
    if len(amounts) > 1:
        second = [p for p, n in silver.items() if n == amounts[1]]
        if len(second) == 1:
            awards[second[0]] = table["second"]
        else:
            each = table["tie"] if tie == "literal" else table["second"] // len(second)
            for p in second:
                awards[p] = each
    return awards


def top_castles(castles: Mapping[str, tuple[tuple[str, ...], ...]]) -> list[tuple[str, str]]:
    """(area, owner) of every castle nobody built on (the top of each stack)."""
    return [(area, stack[-1]) for area, stacks in castles.items() for stack in stacks]


def battle_settlement_points(board: Board, settlements: Mapping[str, str],
                             castles: Mapping[str, tuple[tuple[str, ...], ...]],
                             players: tuple[str, ...]) -> dict[str, int]:
    """Battle final scoring: per village/town, most top castles in its row and column scores 3/6.

    Ties share the points, rounded up.
    """
    points = {p: 0 for p in players}
    tops = top_castles(castles)
    for place, kind in settlements.items():
        row, col = board.areas[place].at
        counts: dict[str, int] = {}
        for area, owner in tops:
            at = board.areas[area].at
            if at[0] == row or at[1] == col:
                counts[owner] = counts.get(owner, 0) + 1
        if not counts:
            continue
        best = max(counts.values())
        leaders = [p for p, n in counts.items() if n == best]
        value = tables.BATTLE_SETTLEMENT_POINTS[kind]
        share = -(-value // len(leaders))
        for p in leaders:
            points[p] += share
    return points
