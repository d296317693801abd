"""A championship's rules, as pure functions: who plays whom in each round, the decisions, the standings.

A championship is four players who play rounds of two 2-player games at once
(one record per round, ``setup.groups``: ``docs/records.md``). This module
knows nothing of a store, an engine or a clock: it reads what each round's
groups gave (:class:`GroupResult`) and says what comes next. The service
(:mod:`companion.service.championship`) replays the rounds and stores what
this module decides; an export is checked against it on import, so the two
can never disagree about a championship.

Variant 1 is a knockout: round 1 pairs the first two players named and the
other two; round 2 pairs the winners (the final, group 1) and the losers (the
match for third, group 2), each in the order of their round-1 groups, and the
first of each pair starts. Variant 2 is a league of three rounds in which
everyone meets everyone (1-2/3-4, 1-3/2-4, 1-4/2-3, seats as named).

Where the rulebook is silent, the reading is an option (:data:`OPTIONS`, with
its default first; ``docs/rules.md`` says why each default was chosen).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.messages import Message, msg

#: The two variants: 1, a final after one round; 2, three rounds in which everyone meets everyone.
VARIANTS = (1, 2)
#: How many rounds each variant plays.
ROUNDS = {1: 2, 2: 3}
#: Variant 2's pairings, as indexes into the players in the order they were named.
LEAGUE_PAIRS: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2)))

#: The readings where the rulebook is silent: option name -> its values, the default first.
OPTIONS: dict[str, tuple[str, ...]] = {
    # variant 2: what a shared win is worth to each of the tied winners
    "shared_win": ("half", "one", "none"),
    # variant 1: who goes to the final after a shared win in round 1
    "advance": ("players", "second"),
    # both: how players level in the standings are told apart
    "tie_break": ("scores", "shared"),
}
#: What each value of ``shared_win`` gives each winner of a shared win (an outright win is 1).
SHARED_WIN_POINTS = {"half": 0.5, "one": 1.0, "none": 0.0}

Groups = tuple[tuple[str, str], tuple[str, str]]


class ChampionshipError(Exception):
    """A championship that cannot be as given (a bad option, a decision that does not fit); one message."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message


def default_options() -> dict[str, str]:
    """Every reading at its default."""
    return {name: values[0] for name, values in OPTIONS.items()}


def check_options(given: Mapping[str, Any] | None) -> dict[str, str]:
    """Every reading written out: the given ones checked, the others at their defaults.

    :class:`ChampionshipError` naming the option for an unknown name or value.
    """
    options = default_options()
    for name, value in (given or {}).items():
        if name not in OPTIONS:
            raise ChampionshipError(msg("championship.option.unknown", option=str(name),
                                        known=", ".join(OPTIONS)))
        if value not in OPTIONS[name]:
            raise ChampionshipError(msg("championship.option.value", option=name, value=str(value),
                                        values=", ".join(OPTIONS[name])))
        options[name] = value
    return options


@dataclass(frozen=True)
class GroupResult:
    """What one group's game of a round gave: its two players in seating order, whether it has
    ended, the players' scores (as they stand) and the winners (empty until it ends)."""

    players: tuple[str, str]
    finished: bool
    scores: Mapping[str, int]
    winners: tuple[str, ...]

    @property
    def shared(self) -> bool:
        """Both players won (the base game's tie-break left them level)."""
        return self.finished and len(self.winners) > 1

    @property
    def losers(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.winners) if self.finished else ()


@dataclass(frozen=True)
class Decision:
    """A decision the players made for the championship: who advances from a round's group after a
    shared win (variant 1, ``advance`` option ``players``)."""

    round: int
    group: int
    advances: str

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "group": self.group, "advances": self.advances}


@dataclass(frozen=True)
class Pending:
    """A decision the championship waits for before its next round: which of ``players`` advances
    from ``group`` of ``round``."""

    round: int
    group: int
    players: tuple[str, ...]


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings.

    ``place`` is ``None`` while the games that decide it are still to be played
    and shared by players the tie-break leaves level; ``points`` are variant 2's
    (a shared win as the ``shared_win`` reading says), in variant 1 the games won
    (a shared win counts for both); ``score`` the player's points over every
    finished game of the championship.
    """

    place: int | None
    player: str
    played: int
    won: int
    points: float
    score: int

    def to_json(self) -> dict[str, Any]:
        return {"place": self.place, "player": self.player, "played": self.played, "won": self.won,
                "points": self.points, "score": self.score}


def first_round(variant: int, players: Sequence[str]) -> Groups:
    """Round 1's groups: the first two named and the other two (both variants)."""
    return (players[0], players[1]), (players[2], players[3])


def league_round(players: Sequence[str], number: int) -> Groups:
    """Variant 2's round ``number`` (1-3)."""
    (a, b), (c, d) = LEAGUE_PAIRS[number - 1]
    return (players[a], players[b]), (players[c], players[d])


def advancing(result: GroupResult, round_number: int, group: int, options: Mapping[str, str],
              decisions: Sequence[Decision]) -> str | None:
    """Who goes on to the final from a variant-1 group, or ``None`` until that is known (the game
    unfinished, or the players still to say after a shared win)."""
    if not result.finished:
        return None
    if not result.shared:
        return result.winners[0]
    if options.get("advance") == "second":
        return result.players[1]
    for decision in decisions:
        if (decision.round, decision.group) == (round_number, group):
            return decision.advances
    return None


def pending_decision(variant: int, rounds: Sequence[Sequence[GroupResult]], options: Mapping[str, str],
                     decisions: Sequence[Decision]) -> Pending | None:
    """The decision the championship waits for now, if any (variant 1's round 1 after a shared win)."""
    if variant != 1 or not rounds:
        return None
    for index, result in enumerate(rounds[0], start=1):
        if result.shared and advancing(result, 1, index, options, decisions) is None:
            return Pending(1, index, result.winners)
    return None


def next_groups(variant: int, players: Sequence[str], rounds: Sequence[Sequence[GroupResult]],
                options: Mapping[str, str], decisions: Sequence[Decision]) -> Groups | None:
    """The next round's groups, each pair in seating order, or ``None`` when no round can start now
    (the last one unfinished, a decision awaited, the championship over)."""
    if not rounds:
        return first_round(variant, players)
    if len(rounds) >= ROUNDS[variant] or not all(result.finished for result in rounds[-1]):
        return None
    if variant == 2:
        return league_round(players, len(rounds) + 1)
    going: list[str] = []
    for index, result in enumerate(rounds[0], start=1):
        who = advancing(result, 1, index, options, decisions)
        if who is None:
            return None
        going.append(who)
    staying = [next(p for p in result.players if p != who)
               for result, who in zip(rounds[0], going, strict=True)]
    return (going[0], going[1]), (staying[0], staying[1])


def check_decision(variant: int, rounds: Sequence[Sequence[GroupResult]], options: Mapping[str, str],
                   decisions: Sequence[Decision], player: str) -> Decision:
    """The decision that ``player`` advances, for the decision awaited now; :class:`ChampionshipError`
    when none is awaited or ``player`` is not one of those it is between."""
    pending = pending_decision(variant, rounds, options, decisions)
    if pending is None:
        raise ChampionshipError(msg("championship.decide.none"))
    if player not in pending.players:
        raise ChampionshipError(msg("championship.decide.not_between", player=player,
                                    players=list(pending.players)))
    return Decision(pending.round, pending.group, player)


def _points(result: GroupResult, player: str, options: Mapping[str, str], variant: int) -> float:
    """What a game gives ``player``: a point for a win; a shared win as the reading says (variant 2)."""
    if player not in result.winners:
        return 0.0
    if result.shared and variant == 2:
        return SHARED_WIN_POINTS[options.get("shared_win", "half")]
    return 1.0


def standings(variant: int, players: Sequence[str], rounds: Sequence[Sequence[GroupResult]],
              options: Mapping[str, str], decisions: Sequence[Decision]) -> list[Standing]:
    """Every player's line after the games finished so far, best first.

    Variant 2 ranks by points, variant 1 by the round-2 games (the final's
    players first); the tie-break option (``tie_break``) separates the rest.
    """
    played = dict.fromkeys(players, 0)
    won = dict.fromkeys(players, 0)
    points = dict.fromkeys(players, 0.0)
    score = dict.fromkeys(players, 0)
    for results in rounds:
        for result in results:
            if not result.finished:
                continue
            for player in result.players:
                played[player] += 1
                won[player] += player in result.winners
                points[player] += _points(result, player, options, variant)
                score[player] += int(result.scores.get(player, 0))
    key = _knockout_key(players, rounds) if variant == 1 else {p: (-points[p],) for p in players}
    tie_break = options.get("tie_break", "scores")
    full = {p: (*key[p], -score[p]) if tie_break == "scores" else key[p] for p in players}
    order = sorted(players, key=lambda p: (full[p], players.index(p)))
    known = _places_known(variant, rounds)
    lines = []
    for player in order:
        place = 1 + sum(1 for other in players if full[other] < full[player])
        lines.append(Standing(place if known(player) else None, player, played[player], won[player],
                              points[player], score[player]))
    return lines


def _knockout_key(players: Sequence[str],
                  rounds: Sequence[Sequence[GroupResult]]) -> dict[str, tuple[int, ...]]:
    """Variant 1's order: the final's players (round 2, group 1) before the others, the winners of each
    round-2 game before its losers; before round 2, the round-1 winners first."""
    key: dict[str, tuple[int, ...]] = {p: (1, 1) for p in players}
    if len(rounds) >= 1:
        for result in rounds[0]:
            for player in result.winners:
                key[player] = (0, 1)
    if len(rounds) >= 2:
        for group, result in enumerate(rounds[1]):
            for player in result.players:
                key[player] = (group, 1 if result.finished and player not in result.winners else 0)
    return key


def _places_known(variant: int, rounds: Sequence[Sequence[GroupResult]]) -> Callable[[str], bool]:
    """Whether a player's place is settled: every game of the championship played (variant 2), or the
    player's round-2 game finished (variant 1)."""
    if variant == 2:
        done = len(rounds) == ROUNDS[2] and all(r.finished for results in rounds for r in results)
        return lambda player: done
    final = {p: r.finished for r in (rounds[1] if len(rounds) >= 2 else ()) for p in r.players}
    return lambda player: final.get(player, False)


def is_over(variant: int, rounds: Sequence[Sequence[GroupResult]]) -> bool:
    """Every round of the variant played to its end."""
    return len(rounds) == ROUNDS[variant] and all(r.finished for results in rounds for r in results)


def group_results(groups: Sequence[Sequence[str]],
                  summary: Mapping[str, Any]) -> tuple[GroupResult, GroupResult]:
    """A round's two groups as its summary gives them (``docs/records.md``: ``groups``, each with the
    base game's ``finished``, ``scores`` and ``winners``); a summary without ``groups`` is read as one
    game whose end ends both."""
    parts = summary.get("groups")
    found = []
    for index, pair in enumerate(groups[:2]):
        part = parts[index] if isinstance(parts, list) and index < len(parts) else summary
        finished = bool(part.get("finished"))
        scores = part.get("scores") or summary.get("scores") or {}
        winners = part.get("winners") or [] if finished else []
        found.append(GroupResult((pair[0], pair[1]), finished,
                                 {p: int(scores.get(p, 0)) for p in pair},
                                 tuple(p for p in pair if p in winners)))
    return found[0], found[1]
