"""The state of a Campanile game: plain frozen data, shared between successive states.

Towers are kept in the setup's row order (nearest the general display first).
Each tower's stack is a tuple of groups, the group closest to the base first;
a group is one player's markers in placement order.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from companion.games.messages import Message

Phase = Literal["opening", "after-intermezzo", "finished"]


@dataclass(frozen=True)
class Group:
    """One player's markers under one tower, in the order they were placed."""

    player: str
    markers: tuple[int, ...]

    @property
    def influence(self) -> int:
        return sum(self.markers)


@dataclass(frozen=True)
class Award:
    player: str
    points: int


class Explanation(tuple[Message, ...]):
    """Why a flag went as it did: its sentences, each a message (data, the same in every language).

    ``str()`` gives the sentences in words, in the front end's current language,
    so a screen may show ``str(result.explanation)`` as it is.
    """

    __slots__ = ()

    def __str__(self) -> str:
        return " ".join(str(sentence) for sentence in self)


@dataclass(frozen=True)
class FlagResult:
    """One flagged tower at a valuation: what it was worth and who got what, and why.

    ``explanation`` is the why, sentence by sentence, as messages; ``str()`` of
    it is the words in the current language.
    """

    tower: str
    rank: int
    flag: tuple[int, ...]
    influence: tuple[tuple[str, int], ...]
    awards: tuple[Award, ...]
    explanation: Explanation


@dataclass(frozen=True)
class ValuationResult:
    phase: str
    flags: tuple[FlagResult, ...]


@dataclass(frozen=True)
class Turn:
    """What the player whose turn it is has done so far this turn."""

    player: int
    stories: int
    marker_placed: bool = False
    card_taken: bool = False
    #: A valuation card was turned over: the turn is over, only a display refill may follow.
    ended: bool = False


@dataclass(frozen=True)
class Rules:
    """The options and setup of one game; the same object in every state of that game."""

    players: tuple[str, ...]
    towers: tuple[str, ...]
    intermezzo_flags: tuple[tuple[int, ...], ...]
    finito_flags: tuple[tuple[int, ...], ...]
    two_player_move: bool
    custom_flags: bool
    tracks_display: bool
    initial_display: tuple[str, ...]

    def tower_index(self, name: str) -> int:
        return self.towers.index(name)


@dataclass(frozen=True)
class CampanileState:
    rules: Rules
    heights: tuple[int, ...]
    stacks: tuple[tuple[Group, ...], ...]
    #: per player (seating order): markers left, as a tuple indexed by value - 1.
    markers_left: tuple[tuple[int, int, int], ...]
    chips: tuple[tuple[int, ...], ...]
    #: chips still in the supply by value (empty when custom flags are used).
    chip_supply: tuple[tuple[int, int], ...]
    display: tuple[str, ...]
    turn: Turn | None = None
    phase: Phase = "opening"
    valuations: tuple[ValuationResult, ...] = field(default=())

    @property
    def players(self) -> tuple[str, ...]:
        return self.rules.players

    def player_index(self, name: str) -> int:
        return self.rules.players.index(name)

    def markers_of(self, player: str) -> dict[int, int]:
        """Markers ``player`` still has in supply, value -> count."""
        left = self.markers_left[self.player_index(player)]
        return {value: left[value - 1] for value in (3, 2, 1)}

    def with_(self, **changes: object) -> CampanileState:
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def scores(self) -> dict[str, int]:
        return {p: sum(c) for p, c in zip(self.rules.players, self.chips, strict=True)}
