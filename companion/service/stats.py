"""Statistics: pure functions over stored results (BG Stats: :mod:`companion.service.bgstats`).

Nothing here touches the database or the clock: the store hands over
:class:`~companion.storage.store.ResultRow`-like rows (anything with ``game``,
``player``, ``score``, ``winner``, ``session_id``) and the caller gives times.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from companion.i18n import decimal, text


class Result(Protocol):
    """One player's result in one finished session, as :func:`player_stats` reads it.

    Read-only members, so that the store's frozen ``ResultRow`` (and any
    other row-like value) satisfies it.
    """

    @property
    def session_id(self) -> int: ...
    @property
    def game(self) -> str: ...
    @property
    def player(self) -> str: ...
    @property
    def score(self) -> int: ...
    @property
    def winner(self) -> bool: ...


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
        return text("cli.stats.empty")
    titles = titles or {}
    headings = [text(f"cli.stats.heading.{column}")
                for column in ("player", "played", "won", "average", "best")]
    widths = [max(width, len(heading)) for width, heading in zip((24, 6, 4, 8, 5), headings, strict=True)]
    lines: list[str] = []
    current = None
    for entry in stats:
        if entry.game != current:
            current = entry.game
            if lines:
                lines.append("")
            lines.append(titles.get(entry.game, entry.game))
            right = (h.rjust(w) for h, w in zip(headings[1:], widths[1:], strict=True))
            lines.append("  " + " ".join([headings[0].ljust(widths[0]), *right]))
        figures = (str(entry.played), str(entry.won), decimal(entry.average), str(entry.best))
        lines.append("  " + " ".join([entry.player.ljust(widths[0]),
                                      *(f.rjust(w) for f, w in zip(figures, widths[1:], strict=True))]))
    return "\n".join(lines)

