"""What the screens ask of a Campanile game: rankings, previews and the legal next taps.

The UI never re-implements a rule: it asks these functions, which ask the
engine (a candidate move is legal exactly when ``apply`` accepts it).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.base import IllegalMove
from companion.games.campanile.engine import Campanile
from companion.games.campanile.moves import Build, Influence, Relocate
from companion.games.campanile.state import CampanileState, FlagResult
from companion.games.campanile.valuation import ranking, value_towers

_ENGINE = Campanile()


@dataclass(frozen=True)
class TowerStanding:
    """One tower on the ranking screen: its place and the flag it would get now."""

    tower: str
    height: int
    rank: int
    intermezzo_flag: tuple[int, ...] | None
    finito_flag: tuple[int, ...]


def standings(state: CampanileState) -> list[TowerStanding]:
    """Towers highest first, with the flag each would carry at either valuation now."""
    rules = state.rules
    rows = []
    for rank, index in enumerate(ranking(state.heights), start=1):
        intermezzo = rules.intermezzo_flags[rank - 1] if rank <= len(rules.intermezzo_flags) else None
        rows.append(TowerStanding(rules.towers[index], state.heights[index], rank, intermezzo,
                                  rules.finito_flags[rank - 1]))
    return rows


def preview(state: CampanileState, phase: str | None = None) -> tuple[FlagResult, ...]:
    """Every award "if the valuation came now": the next one due unless ``phase`` is given."""
    if phase is None:
        phase = "intermezzo" if state.phase == "opening" else "finito"
    flags = state.rules.intermezzo_flags if phase == "intermezzo" else state.rules.finito_flags
    return value_towers(state.rules.towers, state.heights, state.stacks, flags)


def markers_left(state: CampanileState) -> dict[str, dict[int, int]]:
    """Each player's markers still in supply, value -> count."""
    return {player: state.markers_of(player) for player in state.players}


def _legal(state: CampanileState, move: object) -> bool:
    try:
        _ENGINE.apply(state, move)
    except IllegalMove:
        return False
    return True


def buildable_towers(state: CampanileState) -> list[str]:
    """Towers the player to move may raise now (all of them when it is a build's turn)."""
    player = _ENGINE.to_move(state)
    if player is None:
        return []
    return [t for t in state.rules.towers if _legal(state, Build(player, t, 1))]


def _building_player(state: CampanileState) -> str | None:
    """The player whose turn is in progress (has built, turn not ended), else ``None``.

    Not ``to_move``: without a tracked display that already names the next builder
    while the player who just built may still place a marker.
    """
    turn = state.turn
    if state.phase == "finished" or turn is None or turn.ended:
        return None
    return state.players[turn.player]


def marker_choices(state: CampanileState) -> tuple[int | None, list[str]]:
    """The marker value the player whose turn it is may place now and the towers it may go under."""
    player = _building_player(state)
    if player is None or state.turn is None:
        return None, []
    towers = [t for t in state.rules.towers if _legal(state, Influence(player, t))]
    return (state.turn.stories if towers else None), towers


def relocations(state: CampanileState) -> list[tuple[str, str]]:
    """The (from, to) pairs of the 2-player relocate rule open to the player whose turn it is."""
    player = _building_player(state)
    if player is None or not state.rules.two_player_move:
        return []
    towers = state.rules.towers
    return [(a, b) for a in towers for b in towers
            if a != b and _legal(state, Relocate(player, a, b))]
