"""San Gimignano on the OLED and the buttons: towers built, who must build, the buildable groups.

A segment's edges need the touchscreen, a seat panel or the console: the buttons say so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import Game, StateT
from companion.i18n import text
from companion.service.names import initials
from hardware.games import GamePart
from hardware.oled_pages import SMALL_LINES, cell_lines, notice_page
from hardware.oled_render import Line, Page, fit


def status_pages(game: Game[StateT, Any], state: StateT, summary: Mapping[str, Any]) -> list[Page]:
    """The towers each player built, who must build one now, the acting player's buildable groups."""
    players = summary["players"]
    short = initials(players)
    rows = [Line(fit(text("oled.san_gimignano.towers")), inverted=True)]
    rows += [Line(fit("  ".join(f"{short[p]} {summary['towers'].get(p, 0)}" for p in players)))]
    for player in summary.get("must_build") or []:
        rows.append(Line(fit(text("oled.san_gimignano.must_build", player=player)), inverted=True))
    acting = game.turn(state).acting
    if acting is not None:
        groups = len(summary.get("buildable", {}).get(acting, []))
        rows.append(Line(fit(text("oled.san_gimignano.buildable", player=acting, count=groups))))
    return [Page(tuple(rows[:SMALL_LINES]))]


def valuation_pages(game: Game[StateT, Any], state: StateT) -> list[Page]:
    """How many groups each player could build a tower on now."""
    summary: Mapping[str, Any] = game.summary(state)  # this game's summary, read by its own keys
    short = initials(summary["players"])
    buildable = summary.get("buildable", {})
    lines = cell_lines([f"{short[p]} {len(buildable.get(p, []))}" for p in summary["players"]])
    return [notice_page(text("oled.valuation.buildable"), "\n".join(lines))]


PART = GamePart(
    status_pages=status_pages,
    valuation_pages=valuation_pages,
    needs_another_front_end={"segment": "oled.needs.segment"},
)
