"""Toy Tally's rules: players in turn add 1 or 2 to their tally, or roll a die (4 or more adds 1).

The first to reach the target (``setup.target``, 5 by default) ends the
game; the highest tally wins. Each player has a colour (``setup.colors``),
so that the service's colour rules are exercised; a roll's pips are observed
at the table, so that a template with an open field is too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from companion.games.base import Game, IllegalMove, Outcome, RecordError, Turn, rank_players, turn_from
from companion.games.messages import Message


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    colours: tuple[tuple[str, str], ...]
    target: int
    tallies: tuple[int, ...]
    seat: int


@dataclass(frozen=True)
class Move:
    type: str
    player: str
    points: int | None = None
    pips: int | None = None


class ToyTally(Game[State, Move]):
    """The toy's engine: pure, immutable states, moves as record JSON."""

    name: ClassVar[str] = "toy-tally"
    title: ClassVar[str] = "Toy Tally"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 3

    def start(self, players: Sequence[str], options: Mapping[str, Any], setup: Mapping[str, Any]) -> State:
        if options:
            raise RecordError(Message("toy.field.unknown"), "options")
        colours = setup.get("colors")
        if not isinstance(colours, dict) or set(colours) != set(players):
            raise RecordError('"colors" is missing', "setup")
        target = setup.get("target", 5)
        if not isinstance(target, int) or not 2 <= target <= 20:
            raise RecordError(Message("toy.field.points"), "setup.target")
        return State(tuple(players), tuple((p, colours[p]) for p in players), target,
                     tuple(0 for _ in players), 0)

    def parse_move(self, data: Any) -> Move:
        if not isinstance(data, dict) or data.get("type") not in ("add", "roll"):
            raise RecordError(Message("toy.field.unknown"), "type")
        player = data.get("player")
        if not isinstance(player, str):
            raise RecordError(Message("toy.field.unknown"), "player")
        if data["type"] == "add":
            if data.get("points") not in (1, 2) or set(data) != {"type", "player", "points"}:
                raise RecordError(Message("toy.field.points"), "points")
            return Move("add", player, points=data["points"])
        if data.get("pips") not in range(1, 7) or set(data) != {"type", "player", "pips"}:
            raise RecordError(Message("toy.field.pips"), "pips")
        return Move("roll", player, pips=data["pips"])

    def move_to_json(self, move: Move) -> dict[str, Any]:
        extra = {"points": move.points} if move.type == "add" else {"pips": move.pips}
        return {"type": move.type, "player": move.player, **extra}

    def apply(self, state: State, move: Move) -> State:
        if self.is_finished(state):
            raise IllegalMove(Message("toy.finished"))
        if move.player != state.players[state.seat]:
            raise IllegalMove(Message("toy.not_your_turn", {"player": state.players[state.seat]}))
        gained = move.points if move.type == "add" else int((move.pips or 0) >= 4)
        tallies = list(state.tallies)
        tallies[state.seat] += gained or 0
        return replace(state, tallies=tuple(tallies), seat=(state.seat + 1) % len(state.players))

    def _scores(self, state: State) -> dict[str, int]:
        return dict(zip(state.players, state.tallies, strict=True))

    def summary(self, state: State) -> dict[str, Any]:
        outcome = self.outcome(state)
        return {"game": self.name, "players": list(state.players), "scores": self._scores(state),
                "finished": self.is_finished(state), "winners": list(outcome.winners),
                "to_move": self.to_move(state), "turn": self.turn(state).to_json()}

    def options_json(self, state: State) -> dict[str, Any]:
        return {}

    def setup_json(self, state: State) -> dict[str, Any]:
        return {"colors": dict(state.colours), "target": state.target}

    def report(self, state: State) -> str:
        return ", ".join(f"{p} {t}" for p, t in zip(state.players, state.tallies, strict=True))

    def is_finished(self, state: State) -> bool:
        return max(state.tallies) >= state.target

    def to_move(self, state: State) -> str | None:
        return None if self.is_finished(state) else state.players[state.seat]

    def legal_moves(self, state: State) -> list[dict[str, Any]]:
        if self.is_finished(state):
            return []
        player = state.players[state.seat]
        return [{"type": "add", "player": player, "points": 1},
                {"type": "add", "player": player, "points": 2}, {"type": "roll", "player": player}]

    def describe(self, state: State, move: Mapping[str, Any], lang: str = "en") -> str:
        if move["type"] == "add":
            return f"{move['player']}: +{move['points']}"
        roll = "dob" if lang == "hu" else "roll"
        pips = f" {move['pips']}" if "pips" in move else ""
        return f"{move['player']}: {roll}{pips}"

    def read_observed(self, state: State, template: Mapping[str, Any],
                      said: list[str]) -> dict[str, Any] | None:
        if template.get("type") != "roll" or len(said) != 1 or said[0] not in "123456" or len(said[0]) != 1:
            return None
        return {**template, "pips": int(said[0])}

    def turn(self, state: State) -> Turn:
        if self.is_finished(state):
            return Turn(None, (), None)
        player = state.players[state.seat]
        following = state.players[(state.seat + 1) % len(state.players)]
        return turn_from(self.legal_moves(state), player, following)

    def outcome(self, state: State) -> Outcome:
        scores = self._scores(state)
        return rank_players(state.players, scores, lambda p: 0, "none", self.is_finished(state))
