"""What the OLED says: the pages of each game's status and of the other screens, as data.

Every word comes from the catalogues (``oled.*`` codes in
``companion/locale/*/hardware.po``) or is the engine's own message rendered
in the table's language; names come from the record. The first page answers
"whose turn, what now"; the next ones hold the standings (ui.md, "The OLED").
Nothing here draws (:mod:`hardware.oled_render` does) or changes the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import Game
from companion.games.messages import Message
from companion.i18n import current_language, join_list, say, text
from hardware.oled_render import COLUMNS, HEIGHT, LINE_HEIGHT, Line, Page, fit, wrap

#: The small lines a page holds under nothing else.
SMALL_LINES = HEIGHT // LINE_HEIGHT[False]


def initials(players: Sequence[str]) -> dict[str, str]:
    """Short names unique at the table: two letters, more where two players share them (Al, An)."""
    short: dict[str, str] = {}
    for player in players:
        length = 2
        while length < len(player) and any(
                other != player and other[:length].casefold() == player[:length].casefold()
                for other in players):
            length += 1
        short[player] = player[:length]
    return short


def word(game: Game, name: str) -> str:
    """A game word of the record (a tower style) in the table's language, as the notation says it.

    The notation's vocabularies are the engines'; a name they do not know
    (a custom tower) stays as the record has it.
    """
    try:
        from companion.games.campanile.notation import WORDS
        from companion.games.notation import word as translated
    except ImportError:  # the notation's words moved elsewhere: show the record's name
        return name
    if game.name != "campanile" or name not in WORDS:
        return name
    return translated(WORDS, name, current_language())


def _scores_lines(players: Sequence[str], scores: Mapping[str, int]) -> list[str]:
    short = initials(players)
    return cell_lines([f"{short[p]} {scores.get(p, 0)}" for p in players])


def cell_lines(cells: Sequence[str]) -> list[str]:
    """Short cells ("Al 12") side by side, as many to a line as fit."""
    lines: list[str] = []
    current = ""
    for cell in cells:
        candidate = f"{current}  {cell}" if current else cell
        if len(candidate) > COLUMNS:
            lines.append(current)
            candidate = cell
        current = candidate
    return [*lines, current]


def turn_lines(game: Game, state: Any) -> list[Line]:
    """Whose turn and what they may still do, the acting player inverted; who comes next."""
    turn = game.turn(state)
    acting = turn.acting
    lines: list[Line] = []
    if turn.player is None and turn.may:
        lines.append(Line(fit(text("oled.turn.table")), inverted=True))
    elif acting is not None:
        lines.append(Line(fit(acting), big=True, inverted=True))
        if acting == turn.player and turn.may:
            lines.append(Line(fit(text("oled.turn.may", moves=len(game.legal_moves(state))))))
    if turn.next is not None and turn.next != acting:
        lines.append(Line(fit(text("oled.turn.next", player=turn.next))))
    return lines


def status_pages(game: Game, state: Any) -> list[Page]:
    """The open game's status: the turn page first, then the game's own standings pages."""
    if game.is_finished(state):
        return [game_over_page(game, state)]
    summary = game.summary(state)
    first = turn_lines(game, state)
    scores = _scores_lines(summary["players"], summary.get("scores", {}))
    pages = [Page(tuple([*first, *(Line(s) for s in scores)][:5]))]
    builder = _GAME_PAGES.get(game.name)
    if builder is not None:
        pages += builder(game, state, summary)
    return pages


def _campanile_pages(game: Game, state: Any, summary: Mapping[str, Any]) -> list[Page]:
    from companion.games.campanile.views import standings

    rows = [Line(fit(text("oled.campanile.ranking")), inverted=True)]
    for row in standings(state):
        flag = "·".join(str(v) for v in (row.intermezzo_flag if summary.get("phase") == "opening"
                                         and row.intermezzo_flag else row.finito_flag))
        rows.append(Line(fit(f"{row.rank} {word(game, row.tower):<7}{row.height:>3} {flag}")))
    return _paged(rows)


def _castelli_pages(game: Game, state: Any, summary: Mapping[str, Any]) -> list[Page]:
    turn = game.turn(state)
    acting = turn.acting
    spaces = getattr(getattr(state, "board", None), "spaces", ())
    left = len(spaces) - len(getattr(state, "revealed", {}))
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
    if evaluations:
        rows += [Line(s) for s in wrap(text("oled.castelli.last", area=evaluations[-1].get("area", "")))[:3]]
    return [*pages, Page(tuple(rows))]


def _san_gimignano_pages(game: Game, state: Any, summary: Mapping[str, Any]) -> list[Page]:
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


_GAME_PAGES = {"campanile": _campanile_pages, "castelli": _castelli_pages,
               "san-gimignano": _san_gimignano_pages}


def _paged(rows: list[Line]) -> list[Page]:
    """Rows under the first one (a title) spread over as many pages as they need, the title on each."""
    title, body = rows[0], rows[1:]
    per_page = SMALL_LINES - 1
    return [Page((title, *body[i:i + per_page])) for i in range(0, max(len(body), 1), per_page)]


def _tiebreak(outcome: Any) -> str:
    """The tie-break in words: the engine's own message where the outcome has one, else by its name."""
    words = getattr(outcome, "tiebreak_words", None)
    if words is not None:
        return say(words())
    codes = {"highest chip": "oled.tiebreak.chip", "castles built": "oled.tiebreak.castles",
             "tokens on the board": "oled.tiebreak.tokens"}
    return text(codes[outcome.tiebreak]) if outcome.tiebreak in codes else outcome.tiebreak


def game_over_page(game: Game, state: Any) -> Page:
    """The winners large, why they won (the tie-break if it decided), the scores."""
    outcome = game.outcome(state)
    winners = join_list(list(outcome.winners), current_language())
    if outcome.decided_by == "score":
        why = text("oled.over.score")
    elif outcome.decided_by == "shared":
        why = text("oled.over.shared", tiebreak=_tiebreak(outcome))
    else:
        why = text("oled.over.tiebreak", tiebreak=_tiebreak(outcome))
    players = [s.player for s in outcome.standings]
    scores = {s.player: s.score for s in outcome.standings}
    lines = [Line(fit(text("oled.over.title")), inverted=True), Line(fit(winners, 14), big=True),
             *(Line(w) for w in wrap(why)[:1]), *(Line(s) for s in _scores_lines(players, scores))]
    return Page(tuple(lines[:5]))


def start_page() -> Page:
    """No game open: what the box is and how to start one."""
    return Page.of(Line(fit(text("oled.start.title")), inverted=True), "",
                   *wrap(text("oled.start.hint")))


def saved_page(description: str) -> Page:
    """A move was stored: "Saved" and the move in the notation."""
    return Page.of(Line(fit(text("oled.saved")), inverted=True), *wrap(description)[:4])


def notice_page(title: str, body: str = "") -> Page:
    """A short notice (undone, redone, nothing to undo): a title and a few words."""
    return Page.of(Line(fit(title), inverted=True), *wrap(body)[:4])


def refused_pages(reason: Message | str) -> list[Page]:
    """A refusal's reason, in the table's language, over as many pages as it needs (it scrolls)."""
    words = say(reason) if isinstance(reason, Message) else str(reason)
    title = Line(fit(text("oled.refused")), inverted=True)
    lines = wrap(words)
    per_page = SMALL_LINES - 1
    return [Page((title, *(Line(s) for s in lines[i:i + per_page])))
            for i in range(0, max(len(lines), 1), per_page)]


def choice_page(title: str, options: Sequence[str], index: int) -> Page:
    """A list to scroll through: the title with the position, the chosen option inverted, its neighbours."""
    head = Line(fit(f"{title} {index + 1}/{len(options)}"), inverted=False)
    window = SMALL_LINES - 1
    first = max(0, min(index - 1, len(options) - window))
    shown = [Line(fit(options[i]), inverted=i == index) for i in range(first, min(first + window,
                                                                                    len(options)))]
    return Page((head, *shown))
