"""The touchscreen's side of a Castelli Championship: the service's championship read for the screens.

The championship itself (its rounds, pairings, decisions and standings) is the
service's (:mod:`companion.service.championship`); this module only reads it
into the standings screen's :class:`~ui.games.castelli.standings.Standings`
and passes the players' taps on (start a championship, the next round, a
decision), every refusal shown in the shell's banner.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Match:
    """One game of a round between two players: as it stands (``scores``), and its winners once
    ``finished``; ``started``: its round is being played or was (else only its pairing is known)."""

    players: tuple[str, str]
    scores: Mapping[str, int] = field(default_factory=dict)
    winners: tuple[str, ...] = ()
    finished: bool = False
    started: bool = True


@dataclass(frozen=True)
class Line:
    """A player's line in the standings (``place`` ``None`` while it is not settled)."""

    place: int | None
    player: str
    played: int
    won: int
    points: float
    score: int


@dataclass(frozen=True)
class Standings:
    """What the standings screen shows, and what it may offer.

    ``rounds`` are the rounds whose pairings are known, each its two games (group 1's, group 2's);
    ``deck`` the cards the round in play still has to draw (``None``: no round in play);
    ``next_round`` the number of the round that may start now (``None``: none may);
    ``deciding`` the players of a shared win, one of whom goes on (variant 1), and the group.
    """

    variant: int
    players: tuple[str, ...]
    rounds: tuple[tuple[Match, Match], ...]
    lines: tuple[Line, ...]
    deck: int | None = None
    playing: int | None = None
    next_round: int | None = None
    deciding: tuple[str, ...] = ()
    deciding_group: int | None = None
    over: bool = False


#: The rounds each variant plays.
ROUNDS = {1: 2, 2: 3}


def points_text(points: float) -> str:
    """League points as players write them: 2, 1.5 (a shared win may be worth a half)."""
    return str(int(points)) if points == int(points) else f"{points:g}"


def standings(shell: Any) -> Standings | None:
    """The standings of the championship the open round belongs to, or the newest one (``None``: none)."""
    return None


def start_next(shell: Any) -> None:
    """Start the championship's next round (the service pairs the players)."""


def decide(shell: Any, player: str) -> None:
    """Keep the players' decision that ``player`` goes on after a shared win."""
