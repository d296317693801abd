"""The readable account of a Campanile game for ``companion replay`` without ``--json``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.campanile.valuation import ranking

if TYPE_CHECKING:
    from companion.games.campanile.state import CampanileState


def report(state: CampanileState, summary: dict[str, Any]) -> str:
    lines = [f"Campanile — {'finished' if summary['finished'] else 'in progress'}", "", "Towers "
             "(nearest the display first):"]
    order = ranking(state.heights)
    for index, tower in enumerate(state.rules.towers):
        stack = ", ".join(f"{g.player} {'+'.join(map(str, g.markers))}" for g in state.stacks[index])
        lines.append(f"  {tower:<10} height {state.heights[index]:>2}  rank {order.index(index) + 1}"
                     f"  {stack or 'no markers'}")
    for valuation in state.valuations:
        lines += ["", f"{valuation.phase.capitalize()} valuation:"]
        lines += [f"  {flag.explanation}" for flag in valuation.flags]
    lines += ["", "Scores:"]
    for player in state.players:
        chips = " ".join(map(str, summary["chips"][player])) or "-"
        mark = "  winner" if player in summary["winners"] else ""
        lines.append(f"  {player:<24} {summary['scores'][player]:>3}  chips {chips}{mark}")
    return "\n".join(lines)
