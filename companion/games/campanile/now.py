"""What is to be done now in a Campanile game, as one message code (:meth:`Game.what_now`).

A turn is a build, then the marker of the build's value (or, under the 2-player
rule, a marker moved), then with a tracked display the card taken and the
refill turned over by the table, unless a valuation card came up in its place.
The codes say which of these is due and the figure the player needs (the
marker's value); the front ends word them for the touchscreen and the OLED.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import kinds_for
from companion.games.campanile.state import CampanileState
from companion.games.messages import Alternatives, Message

#: The valuation cards in words, by the record's phase.
PHASE_WORDS = {"intermezzo": Message("campanile.now.phase.intermezzo"),
               "finito": Message("campanile.now.phase.finito")}


def what_now(state: CampanileState, templates: Sequence[Mapping[str, Any]],
             acting: str | None) -> Message | None:
    """The step due now: the acting player's (marker, card, build), else the table's (the refill)."""
    if state.phase == "finished":
        return None
    kinds = kinds_for(templates, acting) if acting is not None else ()
    if kinds:
        return _players_step(state, kinds, acting or "")
    if "reveal" in kinds_for(templates, None):
        phases = [t["phase"] for t in templates if t["type"] == "valuation"]
        return Message("campanile.now.refill",
                       {"cards": Alternatives(PHASE_WORDS[p] for p in phases if p in PHASE_WORDS)})
    return None


def _players_step(state: CampanileState, kinds: tuple[str, ...], player: str) -> Message:
    """The acting player's step: the marker (with its value), the card, or the build."""
    value = state.turn.stories if state.turn is not None else 0
    if "influence" in kinds or "relocate" in kinds:
        figures = {"player": player, "value": value}
        if "relocate" not in kinds:
            if "take" in kinds:
                return Message("campanile.now.marker_then_card", figures)
            return Message("campanile.now.marker", figures)
        if "influence" in kinds:
            return Message("campanile.now.marker_or_move", figures)
        return Message("campanile.now.move_marker", figures)
    if "take" in kinds:
        return Message("campanile.now.card", {"player": player})
    return Message("campanile.now.build", {"player": player})
