"""San Gimignano on the OLED and the buttons: towers built, who must build, the buildable groups.

A segment's edges need the touchscreen, a seat panel or the console: the buttons say so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.games.base import Game, StateT
from companion.i18n import say, text
from companion.service.names import initials
from hardware.games import GamePart
from hardware.oled_pages import cell_lines, notice_page, paged
from hardware.oled_render import Line, Page, fit, wrap

if TYPE_CHECKING:
    from companion.games.san_gimignano.state import State


def status_pages(game: Game[State, Any], state: State, summary: Mapping[str, Any]) -> list[Page]:
    """The towers each player built, who must build one now, the groups the acting player may build
    on by name (its guild and segments: the engine's ``group_name``, as the phone says them)."""
    from companion.games.san_gimignano.geometry import group_name

    players = summary["players"]
    short = initials(players)
    rows = [Line(fit(text("oled.san_gimignano.towers")), inverted=True)]
    rows += [Line(fit("  ".join(f"{short[p]} {summary['towers'].get(p, 0)}" for p in players)))]
    for player in summary.get("must_build") or []:
        rows.append(Line(fit(text("oled.san_gimignano.must_build", player=player)), inverted=True))
    acting = game.turn(state).acting
    if acting is not None:  # the groups by name (guild and segments), not a bare count
        found = summary.get("buildable", {}).get(acting, [])
        said = (text("oled.san_gimignano.build_on", player=acting,
                     groups="; ".join(say(group_name(group, state.segments)) for group in found))
                if found else text("oled.san_gimignano.build_none", player=acting))
        rows += [Line(words) for words in wrap(said)]
    return paged(rows)  # several groups: on as many pages as they need, under the title


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
