"""Castelli on the OLED and the buttons: resources and silver, tiles left, the final-scoring preview.

A tile's reveal needs its faces (the touchscreen, a seat panel or the console): the buttons say so.
In a Championship round both groups play at once: one page per group says whose turn it is there and
what to do (the step of that group's own game), with the group's scores and the cards left in the
one deck; the championship's standings follow (:func:`standings_pages`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.games.base import Game
from companion.i18n import current_language, render_for, text
from companion.service.names import initials
from hardware.games import GamePart
from hardware.oled_pages import OLED_WORDS, SMALL_LINES, cell_lines, notice_page, paged
from hardware.oled_render import Line, Page, fit, wrap

if TYPE_CHECKING:
    from companion.service.championship import ChampionshipStatus
    from companion.service.table import Table


def status_pages(game: Game[Any, Any], state: Any, summary: Mapping[str, Any]) -> list[Page]:
    """The acting player's resources, silver and cards; the tiles left and the last evaluation
    (none for a Championship round: its groups' pages, :func:`group_pages`, say what matters)."""
    if getattr(state, "groups", None) is not None:
        return []
    acting = game.turn(state).acting
    left = len(state.board.spaces) - len(state.revealed)
    pages = []
    if acting is not None:
        resources = summary.get("resources", {}).get(acting, {})
        held = wrap(text("oled.castelli.resources", wood=resources.get("wood", 0),
                         grain=resources.get("grain", 0), stone=resources.get("stone", 0)))
        rows = [Line(fit(acting), inverted=True), *(Line(s) for s in held[:2]),
                Line(fit(text("oled.castelli.silver", silver=summary.get("silver", {}).get(acting, 0),
                              cards=summary.get("cards", {}).get(acting, 0))))]
        pages.append(Page(tuple(rows)))
    rows = [Line(fit(text("oled.castelli.tiles_left", count=left)), inverted=True)]
    evaluations = summary.get("evaluations") or []
    if evaluations:  # the area by what it is and where it lies, never by the record's name
        area = state.board.label(evaluations[-1]["area"])
        rows += [Line(s) for s in wrap(text("oled.castelli.last", area=area))[:3]]
    return [*pages, Page(tuple(rows))]


def group_pages(game: Game[Any, Any], round_state: Any) -> list[Page]:
    """A page per group of a Championship round, in place of the turn page: "Group 1: Anna" inverted,
    what to do now there (the box's words for the group's step), the group's scores and the cards
    left in the shared deck; ``[]`` for a game (its turn page as usual)."""
    if getattr(round_state, "groups", None) is None:
        return []
    pages = []
    deck = round_state.deck()
    for number, group in enumerate(round_state.groups, start=1):
        if group.finished:
            winners = [p for p in group.players if p in game.outcome(group).winners]
            rows = [Line(fit(text("oled.castelli.round.group_over", group=number)), inverted=True),
                    *(Line(s) for s in wrap(text("oled.castelli.round.won", players=winners))[:2])]
        else:
            now = game.what_now(group)
            acting = now.params.get("player") if now is not None else game.turn(group).acting
            rows = [Line(fit(text("oled.castelli.round.group", group=number, player=acting or "")),
                         inverted=True)]
            if now is not None:
                rows += [Line(s) for s in wrap(render_for(now, OLED_WORDS, current_language()))[:3]]
        short = initials(round_state.players)
        scores = "  ".join(f"{short[p]} {group.score[p]}" for p in group.players)
        rows.append(Line(fit(f"{scores}  {text('oled.castelli.round.deck', count=deck)}")))
        pages.append(Page(tuple(rows)))
    return pages


def valuation_pages(game: Game[Any, Any], state: Any) -> list[Page]:
    """The final scoring if the game ended now, then who would win each open area."""
    from companion.games.castelli.views import area_views, preview_final

    final = preview_final(state)
    short = initials(state.players)
    lines = cell_lines([f"{short[p]} +{sum(final.get(p, {}).values())}" for p in state.players])
    pages = [notice_page(text("oled.valuation.final"), "\n".join(lines))]
    title = Line(fit(text("oled.valuation.areas")), inverted=True)
    rows: list[Line] = []
    for area in area_views(state):  # who would win each open area if it were evaluated now
        leaders = [short.get(lead["player"] or "", lead["colour"]) for lead in area["leaders"]]
        said = wrap(text("oled.castelli.leads", area=state.board.label(area["area"]),
                         leaders=" ".join(leaders) or "-"))[:SMALL_LINES - 1]
        if len(rows) + len(said) > SMALL_LINES - 1:  # an area's lines stay on one page
            pages.append(Page((title, *rows)))
            rows = []
        rows += [Line(s) for s in said]
    if rows:
        pages.append(Page((title, *rows)))
    return pages


#: The standings pages last made, by what they were made from (they change only when a game ends, or
#: the language does), so a move does not replay the championship's other rounds.
_STANDINGS: dict[tuple[Any, ...], list[Page]] = {}


def standings_pages(table: Table) -> list[Page]:
    """The championship the open round belongs to: each player's place (or "-" while not settled),
    name and points (variant 2) or games won (variant 1), and the next round once it may start;
    ``[]`` for a game, or a round in no championship."""
    live = table.live
    if live is None or getattr(live.session.state, "groups", None) is None:
        return []
    championships = table.app.championships
    chosen = championships.of_game(live.id)
    if chosen is None:
        return []
    state = live.session.state
    key = (chosen, live.id, tuple(group.finished for group in state.groups), current_language())
    if key not in _STANDINGS:
        _STANDINGS.clear()
        _STANDINGS[key] = _standings_page(championships.status(chosen, live=live))
    return _STANDINGS[key]


def _standings_page(status: ChampionshipStatus) -> list[Page]:
    rows = [Line(fit(text("oled.castelli.round.standings")), inverted=True)]
    for line in status.standings:
        points = line.points if status.variant == 2 else line.won
        shown = str(int(points)) if points == int(points) else f"{points:g}"
        rows.append(Line(fit(text("oled.castelli.round.line", place="-" if line.place is None else line.place,
                                  player=line.player, points=shown))))
    if status.next_groups is not None and status.current is None and not status.over:
        rows.append(Line(fit(text("oled.castelli.round.next", number=len(status.rounds) + 1))))
    return paged(rows)


PART = GamePart(
    status_pages=status_pages,
    turn_pages=group_pages,
    table_pages=standings_pages,
    valuation_pages=valuation_pages,
    likely=("build", "reveal", "sell", "end"),
    needs_another_front_end={"reveal": "oled.needs.castelli_reveal"},
)
