"""What the screens ask of a Campanile game: rankings, previews and the legal next taps.

The UI never re-implements a rule: the targets of the next tap are read off
the engine's ``legal_moves``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.campanile.legal import legal_moves
from companion.games.campanile.state import CampanileState, FlagResult
from companion.games.campanile.valuation import ranking, value_towers


@dataclass(frozen=True)
class TowerStanding:
    """One tower on the ranking screen: its place and the flag it would get now."""

    tower: str
    height: int
    rank: int
    intermezzo_flag: tuple[int, ...] | None
    finito_flag: tuple[int, ...]
    #: The flag the next valuation due (:func:`next_valuation`) would give this tower now (``None``
    #: when it gives this rank none: the Intermezzo flags fewer towers); once the game is over, the
    #: Finito's. Every front end shows this one, so none works out which valuation comes next.
    next_flag: tuple[int, ...] | None = None


def next_valuation(state: CampanileState) -> str | None:
    """The valuation due next: ``intermezzo`` before it, then ``finito``; ``None`` once finished."""
    if state.phase == "opening":
        return "intermezzo"
    return "finito" if state.phase != "finished" else None


def standings(state: CampanileState) -> list[TowerStanding]:
    """Towers highest first, with the flag each would carry at either valuation now and at the next."""
    rules = state.rules
    due = next_valuation(state)
    rows = []
    for rank, index in enumerate(ranking(state.heights), start=1):
        intermezzo = rules.intermezzo_flags[rank - 1] if rank <= len(rules.intermezzo_flags) else None
        finito = rules.finito_flags[rank - 1]
        following = intermezzo if due == "intermezzo" else finito
        rows.append(TowerStanding(rules.towers[index], state.heights[index], rank, intermezzo, finito,
                                  following))
    return rows


def preview(state: CampanileState, phase: str | None = None) -> tuple[FlagResult, ...]:
    """Every award "if the valuation came now": the next one due unless ``phase`` is given."""
    if phase is None:
        phase = next_valuation(state) or "finito"
    flags = state.rules.intermezzo_flags if phase == "intermezzo" else state.rules.finito_flags
    return value_towers(state.rules.towers, state.heights, state.stacks, flags)


def markers_left(state: CampanileState) -> dict[str, dict[int, int]]:
    """Each player's markers still in supply, value -> count."""
    return {player: state.markers_of(player) for player in state.players}


@dataclass(frozen=True)
class Targets:
    """What the Campanile screens may offer now, from the engine's legal moves.

    ``valuations`` lists the phases whose card may be turned over now; for each,
    :func:`preview` shows what it would give.
    """

    builder: str | None
    build_towers: tuple[str, ...]
    marker_value: int | None
    marker_towers: tuple[str, ...]
    relocations: tuple[tuple[str, str], ...]
    cards: tuple[str, ...]
    refill: bool
    valuations: tuple[str, ...]


def targets(state: CampanileState) -> Targets:
    """Every target of the next tap, read off ``legal_moves`` (no rule is checked twice)."""
    listed = legal_moves(state)

    def of(kind: str) -> list[dict[str, Any]]:
        return [m for m in listed if m["type"] == kind]

    builds = of("build")
    markers = of("influence")
    return Targets(
        builder=builds[0]["player"] if builds else None,
        build_towers=tuple(dict.fromkeys(m["tower"] for m in builds)),
        marker_value=state.turn.stories if markers and state.turn is not None else None,
        marker_towers=tuple(m["tower"] for m in markers),
        relocations=tuple((m["from"], m["to"]) for m in of("relocate")),
        cards=tuple(m["card"] for m in of("take")),
        refill=bool(of("reveal")),
        valuations=tuple(m["phase"] for m in of("valuation")),
    )


def buildable_towers(state: CampanileState) -> list[str]:
    """Towers the next builder may raise now (all of them when a build may come)."""
    return list(targets(state).build_towers)


def marker_choices(state: CampanileState) -> tuple[int | None, list[str]]:
    """The marker value the player whose turn it is may place now and the towers it may go under."""
    found = targets(state)
    return found.marker_value, list(found.marker_towers)


def relocations(state: CampanileState) -> list[tuple[str, str]]:
    """The (from, to) pairs of the 2-player relocate rule open to the player whose turn it is."""
    return list(targets(state).relocations)
