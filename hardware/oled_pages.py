"""What the OLED says: the pages of each game's status and of the other screens, as data.

Every word comes from the catalogues (``oled.*`` codes in
``companion/locale/*/hardware.po``) or is the engine's own message rendered
in the table's language; names come from the record. The first page answers
"whose turn, what now"; the next ones hold the standings (ui.md, "The OLED").
Nothing here draws (:mod:`hardware.oled_render` does) or changes the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.games.base import Game, Outcome, StateT, next_up
from companion.games.messages import Message
from companion.i18n import current_language, join_list, render_for, say, text
from companion.service.names import initials
from hardware import games
from hardware.oled_render import COLUMNS, HEIGHT, LINE_HEIGHT, WIDTH, Line, Page, fit, wrap

if TYPE_CHECKING:
    from companion.service.table import Table

#: The small lines a page holds under nothing else.
SMALL_LINES = HEIGHT // LINE_HEIGHT[False]
#: Characters of the big font (9 px wide) on one line.
BIG_COLUMNS = WIDTH // 9
#: Where the OLED's words for an engine's step live: ``oled.`` + its code (``oled.<game>.now.build``).
OLED_WORDS = "oled."


def scores_lines(players: Sequence[str], scores: Mapping[str, int]) -> list[str]:
    """Each player's initials (the same as the touchscreen's and the console's) and score."""
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


def turn_lines(game: Game[StateT, Any], state: StateT) -> list[Line]:
    """Who acts (big and inverted; "The table acts" when the table does), what to do now in the box's
    own terms (the encoder and the buttons: the engine's step, :meth:`~companion.games.base.Game.what_now`,
    in the ``oled.<game>.now.*`` words), and who is next when that helps (the touchscreen's rule,
    :func:`~companion.games.base.next_up`)."""
    now = game.what_now(state)
    if now is None:  # a game that says nothing now: at least whose turn it is
        acting = game.turn(state).acting
        return [Line(fit(acting, BIG_COLUMNS), big=True, inverted=True)] if acting is not None else []
    subject = now.params.get("player")
    lines = [Line(fit(subject, BIG_COLUMNS), big=True, inverted=True) if subject is not None
             else Line(fit(text("oled.turn.table")), inverted=True)]
    lines += [Line(words) for words in wrap(render_for(now, OLED_WORDS, current_language()))]
    following = next_up(game.turn(state), game.legal_moves(state), subject)
    if following is not None:
        lines.append(Line(fit(text("oled.turn.next", player=following))))
    return lines


def status_pages(game: Game[StateT, Any], state: StateT) -> list[Page]:
    """The open game's status: the turn page first (the scores under it, or on a page of their own
    when the step takes the room), then the game's own standings pages (its
    :class:`~hardware.games.GamePart`'s, none for a game without one). A game whose part has
    ``turn_pages`` (several turns at once) shows those in place of the turn page."""
    if game.is_finished(state):
        return game_over_pages(game, state)
    summary = game.summary(state)
    part = games.part(game.name)
    own = part.turn_pages(game, state) if part.turn_pages is not None else []
    if own:  # a game with several turns at once (two games of one round): a page each, scores on them
        return own + (part.status_pages(game, state, summary) if part.status_pages is not None else [])
    first = turn_lines(game, state)
    scores = [Line(s) for s in scores_lines(summary["players"], summary.get("scores", {}))]
    if page_height([*first, *scores]) <= HEIGHT:
        pages = [Page(tuple([*first, *scores]))]
    else:
        pages = [Page(tuple(first)), Page((Line(fit(text("oled.scores")), inverted=True), *scores))]
    builder = part.status_pages
    if builder is not None:
        pages += builder(game, state, summary)
    return pages


def table_pages(table: Table) -> list[Page]:
    """The open game's pages from the table's service (a championship's standings), after
    its status; none for a game whose part has none."""
    session = table.session
    if session is None:
        return []
    builder = games.part(session.game.name).table_pages
    return builder(table) if builder is not None else []


def page_height(lines: Sequence[Line]) -> int:
    """How many pixel rows ``lines`` take on the frame."""
    return sum(LINE_HEIGHT[line.big] for line in lines)


def paged(rows: list[Line]) -> list[Page]:
    """Rows under the first one (a title) spread over as many pages as they need, the title on each."""
    title, body = rows[0], rows[1:]
    per_page = SMALL_LINES - 1
    return [Page((title, *body[i:i + per_page])) for i in range(0, max(len(body), 1), per_page)]


def _tiebreak(outcome: Outcome) -> str:
    """The tie-break in words: the game's own (:meth:`Outcome.tiebreak_words`)."""
    return say(outcome.tiebreak_words())


def game_over_pages(game: Game[StateT, Any], state: StateT) -> list[Page]:
    """Game over: one page, or one per group for a game played in groups at once (a Championship
    round: :attr:`Outcome.groups`), each naming its group, its own winners, why, and its own scores,
    so no group's scores or tie are read as the other's."""
    return outcome_pages(game.outcome(state))


def outcome_pages(outcome: Outcome) -> list[Page]:
    """The pages of :func:`game_over_pages` for an ``outcome``."""
    if outcome.groups:
        return [page for number, group in enumerate(outcome.groups, start=1)
                for page in _over_page(group, text("oled.over.group", group=number))]
    return _over_page(outcome, text("oled.over.title"))


def _over_page(outcome: Outcome, title: str) -> list[Page]:
    """The winners large, why they won (the tie-break if it decided), the scores; the scores on a
    page of their own under the same title when the reason takes their room (no word is cut)."""
    winners = join_list(list(outcome.winners), current_language())
    if outcome.decided_by == "score":
        why = text("oled.over.score")
    elif outcome.decided_by == "shared":
        why = text("oled.over.shared", tiebreak=_tiebreak(outcome))
    else:
        why = text("oled.over.tiebreak", tiebreak=_tiebreak(outcome))
    players = [s.player for s in outcome.standings]
    scores = [Line(s) for s in scores_lines(players, {s.player: s.score for s in outcome.standings})]
    # large when the names fit the big font's line, else small and wrapped: a name is never cut
    named = ([Line(winners, big=True)] if len(winners) <= BIG_COLUMNS
             else [Line(w) for w in wrap(winners)[:2]])
    head = [Line(fit(title), inverted=True), *named]
    said = [Line(w) for w in wrap(why)]
    if page_height([*head, *said, *scores]) <= HEIGHT:
        return [Page((*head, *said, *scores))]
    room = (HEIGHT - page_height(head)) // LINE_HEIGHT[False]
    return [Page((*head, *said[:room])), Page((head[0], *scores[:SMALL_LINES - 1]))]


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
