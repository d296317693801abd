"""Statistics and the BG Stats export: pure functions over stored results.

Nothing here touches the database or the clock: the store hands over
:class:`~companion.store.ResultRow`-like rows (anything with ``game``,
``player``, ``score``, ``winner``, ``session_id``) and the caller gives times.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol


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


# -- BG Stats --------------------------------------------------------------------

#: Fixed namespace so the same session always exports the same uuids (BG Stats
#: then recognises a re-imported play instead of counting it twice).
_NAMESPACE = uuid.UUID("6f1d3c1e-1f57-4a55-9a43-2b7c1b0f5e21")

BGSTATS_ABOUT = ("This is a Play file that can be read by Board Game Stats. If you see this text, "
                 "try to use a share, export or open-in function to open it with Board Game Stats.")


def _bgstats_time(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def bgstats_play(*, session_key: str, game_title: str, players: Sequence[str],
                 scores: Mapping[str, int], winners: Iterable[str], started: datetime,
                 finished: datetime, exported: datetime) -> dict[str, Any]:
    """A BG Stats play file (``.bgsplay`` JSON) holding one play.

    ``players`` in seating order (the first one started); ``started``,
    ``finished`` and ``exported`` as the wall-clock times to show (the caller
    converts to local time). ``session_key`` makes the uuids stable.
    """
    winners = set(winners)
    stamp = _bgstats_time(exported)
    player_entries = [
        {"uuid": str(uuid.uuid5(_NAMESPACE, f"player:{name}")), "id": index + 1, "name": name,
         "isAnonymous": False, "modificationDate": stamp, "bggUsername": ""}
        for index, name in enumerate(players)]
    game_entry = {"uuid": str(uuid.uuid5(_NAMESPACE, f"game:{game_title}")), "id": 1, "name": game_title,
                  "modificationDate": stamp, "cooperative": False, "highestWins": True,
                  "noPoints": False, "usesTeams": False}
    minutes = max(0, round((finished - started).total_seconds() / 60))
    play = {
        "uuid": str(uuid.uuid5(_NAMESPACE, f"play:{session_key}")),
        "playDate": _bgstats_time(started),
        "entryDate": stamp,
        "modificationDate": stamp,
        "durationMin": minutes,
        "ignored": False,
        "manualWinner": False,
        "rounds": 0,
        "gameRefId": 1,
        "board": "",
        "scoringSetting": 0,
        "playerScores": [
            {"playerRefId": index + 1, "score": str(scores.get(name, 0)), "winner": name in winners,
             "newPlayer": False, "startPlayer": index == 0, "seatOrder": index, "role": ""}
            for index, name in enumerate(players)],
    }
    return {"about": BGSTATS_ABOUT, "players": player_entries, "locations": [],
            "games": [game_entry], "plays": [play]}
