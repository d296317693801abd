"""Statistics: pure functions over stored results (the BG Stats export is in :mod:`companion.bgstats`).

Nothing here touches the database or the clock: the store hands over
:class:`~companion.store.ResultRow`-like rows (anything with ``game``,
``player``, ``score``, ``winner``, ``session_id``) and the caller gives times.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol


class Result(Protocol):
    session_id: int
    game: str
    player: str
    score: int
    winner: bool


@dataclass(frozen=True)
class PlayerStats:
    """One player's record at one game."""

    game: str
    player: str
    played: int
    won: int
    average: float
    best: int


def player_stats(rows: Iterable[Result], game_order: Sequence[str] = ()) -> list[PlayerStats]:
    """Per game, per player: games played, won (a shared win counts), average and best score.

    Games come in ``game_order`` (others after, by name); within a game the
    players with most wins first, then most played, then by name.
    """
    table: dict[tuple[str, str], list[Result]] = {}
    for row in rows:
        table.setdefault((row.game, row.player), []).append(row)
    stats = [PlayerStats(game, player, len(entries), sum(1 for e in entries if e.winner),
                         sum(e.score for e in entries) / len(entries), max(e.score for e in entries))
             for (game, player), entries in table.items()]
    rank = {name: index for index, name in enumerate(game_order)}
    stats.sort(key=lambda s: (rank.get(s.game, len(rank)), s.game, -s.won, -s.played, s.player))
    return stats


def format_stats(stats: Sequence[PlayerStats], titles: Mapping[str, str] | None = None) -> str:
    """A readable table of :func:`player_stats` for the terminal."""
    if not stats:
        return "No finished games yet."
    titles = titles or {}
    lines = []
    current = None
    for entry in stats:
        if entry.game != current:
            current = entry.game
            if lines:
                lines.append("")
            lines.append(titles.get(entry.game, entry.game))
            lines.append(f"  {'player':<24} {'played':>6} {'won':>4} {'average':>8} {'best':>5}")
        lines.append(f"  {entry.player:<24} {entry.played:>6} {entry.won:>4} {entry.average:>8.1f} "
                     f"{entry.best:>5}")
    return "\n".join(lines)

