"""The state of a Castelli game: frozen data, shared between successive states.

A state is never changed after it is built: its fields cannot be assigned and
its per-player tables are typed read-only (``Mapping``). A move builds the
next state with :meth:`State.with_`, giving it a new table only where
something changed and sharing everything else (the board, the options, the
colours, untouched tables), so a move costs a few small dictionaries, not a
deep copy - and a screen, a preview or an undo may keep any older state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from companion.games.castelli import tables
from companion.games.castelli.board import Board
from companion.games.messages import Message

Shields = tuple[tuple[str, "int | str"], ...]
Resources = tuple[int, int, int]


@dataclass(frozen=True)
class Options:
    """The record's rule options."""

    modules: frozenset[str] = frozenset()
    neutral: str = "void"
    silver_tie: str = "shared"

    @property
    def battle(self) -> bool:
        return "battle" in self.modules

    @property
    def dilemma(self) -> bool:
        return "dilemma" in self.modules


@dataclass(frozen=True)
class Evaluation:
    """One evaluated area, as the summary lists it, plus the resolver's explanation (a message)."""

    area: str
    kind: str
    influence: Mapping[str, int]
    awards: Mapping[str, Mapping[str, int]]
    explanation: Message

    def to_json(self) -> dict[str, Any]:
        return {"area": self.area, "kind": self.kind, "influence": dict(self.influence),
                "awards": {p: dict(a) for p, a in self.awards.items()}}


@dataclass(frozen=True)
class Unevaluated:
    """An area whose turn came but that gave nothing (nobody with points, a neutral colour leads)."""

    area: str
    kind: str
    explanation: Message


@dataclass(frozen=True)
class Pending:
    """What a directly following Steward or Guard can take back.

    ``kind`` "reveal": ``base`` is the state after the reveal's card draws and
    silver, before its frame gifts and evaluations; ``player`` revealed ``space``.
    ``kind`` "top": ``base`` is the state before a build on top of ``owner``'s castle.
    """

    kind: str
    base: State
    player: str
    space: str = ""
    owner: str = ""


@dataclass(frozen=True)
class Shortfall:
    """A card gain outside an area's evaluation that the deck could not pay in full.

    ``source`` is ``"icon"`` (the card icons of a revealed tile) or ``"frame"`` (a frame gift);
    ``explanation`` says it in words (an evaluation's own shortfall is in its explanation).
    """

    player: str
    source: str
    gained: int
    due: int
    explanation: Message


@dataclass(frozen=True)
class Sharing:
    """What a Championship group shares with the other group of its round (``None`` in a base game).

    The deck is one for both groups: ``cards`` is how many the other group holds, so that
    :meth:`State.deck` counts all four hands. The spare villages and towns are one supply by
    default (``settlements``: how many stand on the other board; ``supply``: the box's pieces
    this group may use, both boards' included).
    """

    cards: int
    settlements: Mapping[str, int]
    supply: Mapping[str, int]


@dataclass(frozen=True)
class State:
    """Everything a Castelli game has after some moves; frozen (see the module's docstring)."""

    board: Board
    players: tuple[str, ...]
    colors: Mapping[str, str]  # player -> colour
    options: Options
    mine_start: int
    mine: int
    resources: Mapping[str, Resources]
    silver: Mapping[str, int]
    cards: Mapping[str, int]
    score: Mapping[str, int]
    castles_built: Mapping[str, int]
    castles: Mapping[str, tuple[tuple[str, ...], ...]]  # area -> stacks (bottom .. top owner)
    settlements: Mapping[str, str]
    revealed: Mapping[str, Shields]
    done: frozenset[str]  # areas whose evaluation happened (or was found empty / void)
    evaluations: tuple[Evaluation, ...] = ()
    notes: tuple[Unevaluated, ...] = ()  # why areas gave nothing (void, nobody), for the report
    current: int | None = None  # index of the player whose turn it is
    revealed_this_turn: bool = False
    card_played: bool = False
    silver_swap_used: bool = False
    pending: Pending | None = None
    holds_own_tile: Mapping[str, bool] = field(default_factory=dict)
    finished: bool = False
    final: Mapping[str, Mapping[str, int]] | None = None
    #: Card icons and frame gifts the deck could not pay in full (the last-cards reading).
    shortfalls: tuple[Shortfall, ...] = ()
    #: In a Championship round, what this group shares with the other one.
    sharing: Sharing | None = None

    def with_(self, **changes: object) -> State:
        """This state with ``changes`` to some fields, as a new frozen state.

        What :func:`dataclasses.replace` does, without running ``__init__``
        again: a move builds several intermediate states, and replace's 25
        frozen assignments each time made a move several times slower. An
        unknown field name is a :class:`TypeError`, as with replace.
        """
        unknown = changes.keys() - _FIELD_NAMES
        if unknown:
            raise TypeError(f"State has no field {', '.join(sorted(unknown))}")
        new = object.__new__(State)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    # Derived facts -------------------------------------------------------
    @property
    def players_by_colour(self) -> dict[str, str]:
        return {colour: player for player, colour in self.colors.items()}

    def deck(self) -> int:
        """Cards left to draw: played and sold cards go back under the deck (in a Championship
        round the other group's hands count too: the deck is one)."""
        held = sum(self.cards.values())
        if self.sharing is not None:
            held += self.sharing.cards
        return tables.deck_size(self.options.modules) - held

    def face_down(self) -> list[str]:
        return [s for s in self.board.spaces if s not in self.revealed]

    def all_revealed(self) -> bool:
        return len(self.revealed) == len(self.board.spaces)

    def shields_into(self, area: str) -> list[tuple[str, int | str]]:
        """The revealed shields pointing into ``area``."""
        out = []
        for space, side in self.board.borders[area]:
            shields = self.revealed.get(space)
            if shields is not None:
                out.append(shields[side])
        return out

    def points_in(self, area: str, player: str) -> int:
        """A player's shield points in an area (revealed shields; card-covered count 0)."""
        colour = self.colors[player]
        return sum(v for c, v in self.shields_into(area) if c == colour and isinstance(v, int))

    def next_index(self) -> int:
        """The seat of the player who reveals next."""
        if self.current is None:
            return 0
        if not self.revealed_this_turn:
            return self.current
        return (self.current + 1) % len(self.players)

    def castles_left(self, player: str) -> int:
        return tables.CASTLES_PER_PLAYER - self.castles_built[player]

    def settlements_left(self, kind: str) -> int:
        """Villages or towns still in the box (in a round: those this group may still use)."""
        here = sum(1 for k in self.settlements.values() if k == kind)
        if self.sharing is not None:
            return self.sharing.supply[kind] - here - self.sharing.settlements.get(kind, 0)
        return tables.SETTLEMENT_SUPPLY[kind] - here


#: The names :meth:`State.with_` accepts.
_FIELD_NAMES = frozenset(f.name for f in fields(State))
