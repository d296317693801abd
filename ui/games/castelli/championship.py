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

from companion.games.castelli.game import Castelli
from companion.service.championship_rules import Standing
from companion.service.session import AnySession
from ui.shell_interface import ShellInterface


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
    lines: tuple[Standing, ...]
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


def championship_id(shell: ShellInterface) -> int | None:
    """The championship to show: the one the open round belongs to, else the most recent one not
    abandoned (``None``: there is none)."""
    championships = shell.table.app.championships
    live = shell.table.live
    found = championships.of_game(live.id) if live is not None else None
    if found is None:
        row = championships.latest()
        found = row.id if row is not None else None
    return None if found is None else int(found)


def standings(shell: ShellInterface) -> Standings | None:
    """The standings of the championship the open round belongs to, or the newest one (``None``: none)."""
    chosen = championship_id(shell)
    if chosen is None:
        return round_alone(shell.table.session)
    status = shell.table.app.championships.status(chosen, live=shell.table.live)
    return standings_of_status(status)


def round_alone(session: AnySession | None) -> Standings | None:
    """A round that belongs to no championship (an imported record): its two games on their own
    (``variant`` 0), or ``None`` when the open game is no round."""
    if session is None or not getattr(session.game, "is_round", lambda _s: False)(session.state):
        return None
    game = session.game
    state = session.state
    games = []
    for number in (1, 2):
        group = Castelli.group_state(state, number)
        winners = tuple(game.outcome(group).winners) if group.finished else ()
        games.append(Match((group.players[0], group.players[1]), dict(group.score), winners, group.finished))
    return Standings(variant=0, players=tuple(session.players), rounds=((games[0], games[1]),), lines=(),
                     deck=None if state.finished else state.deck(), playing=None if state.finished else 1)


def _match(result: Any) -> Match:
    return Match(tuple(result.players), dict(result.scores), tuple(result.winners), bool(result.finished))


def standings_of_status(status: Any) -> Standings:
    """The service's :class:`~companion.service.championship.ChampionshipStatus` as the screen's
    :class:`Standings`: the rounds played or being played, the next round's pairings once known."""
    rounds = [(_match(r.groups[0]), _match(r.groups[1])) for r in status.rounds]
    if status.next_groups is not None and len(rounds) < status.rounds_total:
        first, second = status.next_groups
        rounds.append((Match(tuple(first), started=False), Match(tuple(second), started=False)))
    current = status.current
    can_next = status.next_groups is not None and current is None and not status.over
    return Standings(
        variant=int(status.variant), players=tuple(status.players), rounds=tuple(rounds),
        lines=tuple(status.standings),
        deck=None if current is None else current.deck,
        playing=None if current is None else current.number,
        next_round=len(status.rounds) + 1 if can_next else None,
        deciding=tuple(status.pending.players) if status.pending is not None else (),
        deciding_group=status.pending.group if status.pending is not None else None,
        over=bool(status.over))


def start_championship(shell: ShellInterface, variant: int, players: list[str], colours: Any = None) -> None:
    """Start a Championship of ``variant`` for the four ``players`` in the order named, and open its
    first round (each keeps the colour the new-game screen kept as their preference; refusals shown)."""
    live = shell.attempt(shell.table.app.championships.new, variant, players)
    if live is not None:
        shell.table.open(live)


def start_next(shell: ShellInterface) -> None:
    """Start the championship's next round (the service pairs the players) and open it."""
    chosen = championship_id(shell)
    live = shell.attempt(shell.table.app.championships.next_round, chosen)
    if live is not None:
        shell.table.open(live)


def decide(shell: ShellInterface, player: str) -> None:
    """Keep the players' decision that ``player`` goes on after a shared win."""
    shell.attempt(shell.table.app.championships.decide, player, championship_id(shell))
