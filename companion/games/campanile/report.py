"""The readable account of a Campanile game for ``companion replay`` without ``--json``.

Every word comes from the catalogues, in the current language (``str`` of a
message); names, tower names from the record and figures are shown as they are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.campanile.rules import win_reason
from companion.games.campanile.valuation import ranking
from companion.games.campanile.views import standings
from companion.games.campanile.words import tower as tower_word
from companion.games.messages import msg

if TYPE_CHECKING:
    from companion.games.campanile.state import CampanileState
    from companion.games.campanile.summary import CampanileSummary

PHASE_HEADINGS = {"intermezzo": msg("campanile.report.intermezzo"), "finito": msg("campanile.report.finito")}


def report(state: CampanileState, summary: CampanileSummary) -> str:
    title = msg("campanile.report.finished") if summary["finished"] else msg("campanile.report.in_progress")
    lines = [str(title), "", str(msg("campanile.report.towers"))]
    order = ranking(state.heights)
    # the flag each tower carries at the next valuation (the Finito's once over): the engine's
    # next_flag, as the touchscreen, the OLED and the phone show it (issue 35)
    flags = {row.tower: row.next_flag for row in standings(state)}
    for index, tower in enumerate(state.rules.towers):
        stack = ", ".join(f"{g.player} {'+'.join(map(str, g.markers))}" for g in state.stacks[index])
        following = flags[tower]
        flag = (msg("campanile.report.no_flag") if not following
                else msg("campanile.report.flag", flag="/".join(map(str, following))))
        row = msg("campanile.report.tower_row", height=state.heights[index], rank=order.index(index) + 1,
                  flag=str(flag), stack=stack or msg("campanile.report.no_markers"))
        lines.append(f"  {tower_word(tower)!s:<10} {row}")
    for valuation in state.valuations:
        lines += ["", str(PHASE_HEADINGS[valuation.phase])]
        lines += [f"  {flag.explanation}" for flag in valuation.flags]
    lines += ["", str(msg("campanile.report.scores"))]
    for player in state.players:
        chips = " ".join(map(str, summary["chips"][player])) or "-"
        row = msg("campanile.report.score_row", score=summary["scores"][player], chips=chips)
        mark = f"  {msg('campanile.report.winner')}" if player in summary["winners"] else ""
        lines.append(f"  {player:<24} {row}{mark}")
    if summary["finished"]:
        lines += ["", str(win_reason(state))]
    return "\n".join(lines)
