"""The club's standings per game: plays, wins, average score and a rating, over a chosen period.

**The same person.** Tables are typed at by different hands: "Anna", "anna" and "ＡＮＮＡ" (full
width) are one person. Two names are the same person when they are equal after Unicode NFKC
normalisation and case folding (:func:`person_key`: NFKC, casefold, NFKC again, as Unicode's
"compatibility caseless match" reads). A person is shown by the spelling of their first play.
Within one play, two seats that are the same person count once, by the better seat.

**The rating** is an Elo rating made for games of more than two players, computed play by play
in the order the plays are dated, every person starting at :data:`START`. Each play is read as
every pair of its players meeting: a winner beats every non-winner; two non-winners are told
apart by their scores (the higher beats the lower, equal scores draw); two winners draw (a
shared win). For each pair, the expected result of A against B is ``1 / (1 + 10^((Rb - Ra)/400))``
and A's rating moves by ``K / (n - 1) * (result - expected)`` summed over the n - 1 others
(``K`` = :data:`K_FACTOR`), so a play moves a rating as much as one two-player game, however many
sat at the table. Ratings are per game (a Campanile rating says nothing of Castelli). Plays of a
game not installed on the club server are listed, not ranked.

**The evening** is a period: from a moment to a moment (either open). Plays are dated by the
table's clock when the table said its clock was sure, else by the club server's when it
received them (:mod:`club.club_store`). By default it starts at :data:`EVENING_STARTS` o'clock of
the club server's day (of the day before, before that hour: an evening past midnight stays one).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta

from club.club_store import StoredPlay

#: Every person's rating before their first play.
START = 1500.0
#: How far one play moves a rating at most (about: a two-player game's K).
K_FACTOR = 32.0
#: The hour the default evening starts at (the club server's local time).
EVENING_STARTS = 6


def person_key(name: str) -> str:
    """What makes two names the same person: NFKC, case folding, NFKC again."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


@dataclass(frozen=True)
class Period:
    """From ``start`` (included) to ``end`` (excluded); ``None`` is open."""

    start: datetime | None = None
    end: datetime | None = None

    def holds(self, moment: datetime) -> bool:
        return (self.start is None or moment >= self.start) and (self.end is None or moment < self.end)


def evening(now: datetime) -> Period:
    """The default evening around ``now`` (an aware local time): from :data:`EVENING_STARTS` o'clock."""
    start = datetime.combine(now.date(), time(EVENING_STARTS), tzinfo=now.tzinfo)
    if now < start:
        start -= timedelta(days=1)
    return Period(start, None)


@dataclass
class Standing:
    """One person's line for one game."""

    player: str
    key: str
    plays: int = 0
    wins: int = 0
    total: int = 0
    rating: float = START

    @property
    def average(self) -> float:
        return self.total / self.plays if self.plays else 0.0

    def to_json(self) -> dict[str, object]:
        return {"player": self.player, "plays": self.plays, "wins": self.wins,
                "average": round(self.average, 2), "rating": round(self.rating)}


@dataclass
class GameStandings:
    """A game's standings, best first (by rating, then wins, then name)."""

    game: str
    lines: list[Standing] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {"game": self.game, "players": [line.to_json() for line in self.lines]}


def _seats(play: StoredPlay) -> dict[str, tuple[str, bool, int]]:
    """The play's people: key -> (name as written, won, score), the better seat of one person kept."""
    seats: dict[str, tuple[str, bool, int]] = {}
    for name in play.players:
        seat = (name, name in play.winners, int(play.scores.get(name, 0)))
        key = person_key(name)
        if key not in seats or seat[1:] > seats[key][1:]:
            seats[key] = seat
    return seats


def _result(mine: tuple[str, bool, int], theirs: tuple[str, bool, int]) -> float:
    """What ``mine`` scored against ``theirs`` in one play: 1, 0.5 or 0."""
    if mine[1] != theirs[1]:
        return 1.0 if mine[1] else 0.0
    if mine[1] or mine[2] == theirs[2]:
        return 0.5
    return 1.0 if mine[2] > theirs[2] else 0.0


def rate(ratings: dict[str, float], seats: dict[str, tuple[str, bool, int]]) -> dict[str, float]:
    """Every person's rating after one play (``ratings`` holds those before; a newcomer is at START)."""
    if len(seats) < 2:
        return {}
    before = {key: ratings.get(key, START) for key in seats}
    share = K_FACTOR / (len(seats) - 1)
    after = {}
    for key, seat in seats.items():
        change = 0.0
        for other, their_seat in seats.items():
            if other == key:
                continue
            expected = 1.0 / (1.0 + 10.0 ** ((before[other] - before[key]) / 400.0))
            change += _result(seat, their_seat) - expected
        after[key] = before[key] + share * change
    return after


def standings(plays: Iterable[StoredPlay], period: Period | None = None) -> list[GameStandings]:
    """Each ranked game's standings over the plays of ``period`` (all when ``None``), by game name."""
    period = period or Period()
    games: dict[str, dict[str, Standing]] = {}
    ordered = sorted((p for p in plays if p.ranked and period.holds(p.played_at)),
                     key=lambda p: (p.played_at, p.seq))
    for play in ordered:
        lines = games.setdefault(play.game, {})
        seats = _seats(play)
        ratings = rate({key: line.rating for key, line in lines.items()}, seats)
        for key, (name, won, score) in seats.items():
            line = lines.setdefault(key, Standing(name, key))
            line.plays += 1
            line.wins += won
            line.total += score
            line.rating = ratings.get(key, line.rating)
    return [GameStandings(game, sorted(lines.values(), key=lambda s: (-s.rating, -s.wins, s.key)))
            for game, lines in sorted(games.items())]


def in_period(plays: Sequence[StoredPlay], period: Period) -> list[StoredPlay]:
    """The plays dated in ``period``, the latest first."""
    return sorted((p for p in plays if period.holds(p.played_at)), key=lambda p: (p.played_at, p.seq),
                  reverse=True)


def play_json(play: StoredPlay) -> dict[str, object]:
    """A play as ``club standings --json`` lists it (docs/club.md)."""
    return {"id": play.id, "table": play.table, "game": play.game, "ranked": play.ranked,
            "played_at": play.played_at.isoformat(), "clock_sure": play.clock_sure,
            "players": list(play.players), "scores": dict(play.scores), "winners": list(play.winners),
            "championship": play.championship}
