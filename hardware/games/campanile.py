"""Campanile on the OLED and the buttons: the tower ranking, "if the valuation came now", the refill card.

The refill card's style is chosen with the encoder (each style the engine
reads, then the valuation cards that may be turned over instead); a long
press of Valuation records the valuation card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.games.base import Game
from companion.i18n import current_language, text
from companion.service.names import initials
from hardware.games import GamePart
from hardware.oled_pages import SMALL_LINES, cell_lines, notice_page
from hardware.oled_render import Line, Page, fit

if TYPE_CHECKING:
    from companion.games.campanile.state import CampanileState


def word(name: str) -> str:
    """A tower style of the record in the table's language, as the notation says it; a style the
    notation does not know (a custom tower) stays as the record has it."""
    from companion.games.campanile.notation import WORDS
    from companion.games.notation import word as translated

    if name not in WORDS:
        return name
    return translated(WORDS, name, current_language())


def status_pages(game: Game[CampanileState, Any], state: CampanileState,
                 summary: Mapping[str, Any]) -> list[Page]:
    """The towers ranked under the valuation due next (its name in the title), each number under a
    column heading (place, tower, height, flag): the flag is the engine's
    :attr:`~companion.games.campanile.views.TowerStanding.next_flag`, "none" where that valuation
    gives the tower no flag (the Intermezzo's fifth)."""
    from companion.games.campanile.views import next_valuation, standings

    due = next_valuation(state)
    if due is None:
        return []
    rows = standings(state)
    towers = [word(row.tower) for row in rows]
    tower_heading, height_heading = text("oled.campanile.column.tower"), text("oled.campanile.column.height")
    wide = max(len(tower_heading), *(len(t) for t in towers)) + 1
    high = max(len(height_heading), *(len(str(row.height)) for row in rows))
    head = [Line(fit(text("oled.campanile.towers_at", valuation=text(f"oled.campanile.now.phase.{due}"))),
                 inverted=True),
            Line(fit(f"{'#':<2}{tower_heading:<{wide}}{height_heading:>{high}} "
                     f"{text('oled.campanile.column.flag')}"))]
    lines = [Line(fit(f"{row.rank:<2}{tower:<{wide}}{row.height:>{high}} {flag_words(row.next_flag)}"))
             for row, tower in zip(rows, towers, strict=True)]
    per_page = SMALL_LINES - len(head)
    return [Page((*head, *lines[i:i + per_page])) for i in range(0, len(lines), per_page)]


def flag_words(flag: tuple[int, ...] | None) -> str:
    """A flag's values as on the card (``6·4·2``), or "none" when the tower gets no flag."""
    return "·".join(str(v) for v in flag) if flag else text("oled.campanile.no_flag")


def valuation_pages(game: Game[CampanileState, Any], state: CampanileState) -> list[Page]:
    """What each player would score if the valuation came now, then how to record it."""
    from companion.games.campanile.views import next_valuation, preview

    phase = next_valuation(state) or "finito"
    totals: dict[str, int] = {}
    for result in preview(state):
        for award in result.awards:
            totals[award.player] = totals.get(award.player, 0) + award.points
    short = initials(state.players)
    lines = cell_lines([f"{short[p]} +{totals.get(p, 0)}" for p in state.players])
    return [notice_page(text(f"oled.valuation.{phase}"), "\n".join(lines)),
            notice_page(text(f"oled.valuation.{phase}"), text("oled.valuation.hold"))]


def observed_choices(game: Game[CampanileState, Any], state: CampanileState,
                     template: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The refill card: each tower style (read by the engine's own
    :meth:`~companion.games.base.Game.read_observed`), then the valuation cards that may be turned
    over instead."""
    if template.get("type") != "reveal":
        return []
    choices = []
    for style in state.rules.towers:
        filled = game.read_observed(state, template, [style])
        if filled is not None:
            choices.append(filled)
    return choices + valuation_moves(game, state)


def choice_label(game: Game[CampanileState, Any], state: CampanileState, move: Mapping[str, Any]) -> str:
    """A refill card by its style; a valuation card in the notation."""
    if move["type"] == "reveal":
        return word(move["card"])
    return game.describe(state, move, current_language())


def valuation_moves(game: Game[CampanileState, Any], state: CampanileState) -> list[dict[str, Any]]:
    """The valuation cards that may be turned over now."""
    return [t for t in game.legal_moves(state) if t["type"] == "valuation"]


PART = GamePart(
    status_pages=status_pages,
    valuation_pages=valuation_pages,
    likely=("influence", "take", "reveal", "relocate", "build", "valuation"),
    observed_choices=observed_choices,
    choice_label=choice_label,
    valuation_moves=valuation_moves,
)
