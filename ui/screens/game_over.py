"""Game over: the winner large, the tie-break when it decided, each player's breakdown, and the
BG Stats push link as a QR code (4 px a module, error correction M) that a player scans to log the play.

A game started before the Pi's clock was set (no network, no battery clock)
has an unsure date: its QR code waits until the players confirm the date with
a long press, and a line says why it is not shown yet.
"""

from __future__ import annotations

import calendar
import io
import itertools
from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta
from typing import Any

from kivy.core.image import Image as CoreImage
from kivy.core.text import Label as CoreLabel
from kivy.graphics.texture import Texture
from kivy.properties import ColorProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.utils import escape_markup

from companion.games.base import Outcome, Standing
from companion.i18n import say, text
from companion.service.app import AppError
from companion.service.bgstats import QR_BORDER, QR_MODULE_PX, qr_code
from companion.service.names import initials
from companion.service.session import AnySession
from ui import theme
from ui.screens import ShellScreen, load_rules, show
from ui.screens.game import player_colours
from ui.shell_interface import ShellInterface
from ui.widgets import Tap

#: The right column's least width in px (the date stepper's, and the QR code's when it is small).
QR_SIZE = 232
#: The most height the QR code has on the panel, in px: 480 less the padding, the line above it, the
#: line below and the spacing between them. A version 19 code at 4 px a module is exactly this.
QR_ROOM = 388


def qr_texture(link: str) -> Texture:
    """``link`` as a QR code texture at its size on the panel: dark modules on white, each
    ``QR_MODULE_PX`` px square, with the quiet zone (the widget takes the texture's size, so a longer
    link makes a larger code, never denser modules). Only a code too large for :data:`QR_ROOM` even
    as the shortest link (five players with long names) gets fewer px a module rather than being cut."""
    code = qr_code(link)
    modules = code.symbol_size(scale=1, border=QR_BORDER)[0]
    scale = max(1, min(QR_MODULE_PX, QR_ROOM // modules))
    buffer = io.BytesIO()
    code.save(buffer, kind="png", scale=scale, border=QR_BORDER, dark="#000000", light="#ffffff")
    buffer.seek(0)
    texture: Texture = CoreImage(buffer, ext="png").texture
    texture.mag_filter = "nearest"
    return texture


def winner_words(outcome: Outcome) -> str:
    """The headline: who won (a shared win names everyone)."""
    if len(outcome.winners) == 1:
        return text("ui.over.winner", player=outcome.winners[0])
    return text("ui.over.shared_winners", players=list(outcome.winners))


def decided_words(outcome: Outcome) -> str:
    """How it was decided: most points, the tie-break, or a tie even after it; the tie-break in the
    game's own words (:meth:`Outcome.tiebreak_words`), never its key."""
    if outcome.decided_by == "score":
        return text("ui.over.by_score")
    tiebreak = say(outcome.tiebreak_words())
    if outcome.decided_by == "shared":
        return text("ui.over.tied_after_tiebreak", tiebreak=tiebreak)
    return text("ui.over.by_tiebreak", tiebreak=tiebreak)


#: Between a figure and the word beside it ("castles built: 2"): Kivy wraps only at a plain space,
#: so a figure is never parted from what it counts.
KEEP = "\u00a0"
#: Between the parts: the dot stays with the part before it, and a line may break after it.
BETWEEN = f"{KEEP}· "


def with_its_figure(part: str) -> str:
    """A part of a breakdown whose figures stay with each other and with the word before them
    ("silver 2", "chips 5 4 3 1"); a long label may still wrap between its own words."""
    words = part.split(" ")
    joined = words[0]
    for before, word in itertools.pairwise(words):
        figure = any(ch.isdigit() for ch in before + word)
        joined += (KEEP if figure else " ") + word
    return joined


def kept_together(parts: Sequence[str]) -> str:
    """The parts of a breakdown, a line break only between them or within a long label's words,
    never between a figure and what it counts."""
    return BETWEEN.join(with_its_figure(part) for part in parts if part)


def breakdown_parts(summary: Mapping[str, Any], player: str) -> list[str]:
    """What a player's score is made of, from the engine's summary (a game's own line, its parts
    ``·``-separated, else the chips)."""
    from ui.games import score_breakdown

    custom = score_breakdown(summary.get("game", ""), dict(summary), player)
    if custom is not None:
        return custom.split(" · ")
    chips = summary.get("chips", {}).get(player)
    if chips:
        return [text("ui.over.chips", chips=" ".join(str(c) for c in chips))]
    return []


def standing_words(outcome: Outcome, summary: Mapping[str, Any], standing: Standing) -> str:
    """A player's name in bold, then what the score is made of and the tie-break's figure where it
    placed the player (:meth:`Outcome.placed_by_tiebreak`), in the game's words: one paragraph (its
    first line holds the name and what fits after it), so five players' rows leave the winner room."""
    parts = breakdown_parts(summary, standing.player)
    if standing.player in outcome.placed_by_tiebreak():
        parts.append(text("ui.over.tiebreak_figure", tiebreak=say(outcome.tiebreak_words()),
                          value=standing.tiebreak))
    name = f"[b]{escape_markup(standing.player)}[/b]"
    details = escape_markup(kept_together(parts))
    return f"{name}{KEEP} {details}" if details else name


class FinalStanding(BoxLayout):
    """A player's line on game over (layout: ``game_over.kv``)."""

    rank = StringProperty("")
    initials = StringProperty("")
    swatch = ColorProperty(theme.NO_COLOUR)
    #: The player's name, and under it what the score is made of (and the tie-break figure).
    words = StringProperty("")
    score = StringProperty("")


class DateStepRow(BoxLayout):
    """One part of the date stepper (``part``: day, month or year) with its − and + (``game_over.kv``)."""

    screen = ObjectProperty(None, allownone=True)
    part = StringProperty("")
    label = StringProperty("")
    value = StringProperty("")


class GameOverScreen(ShellScreen):
    """The end of the open game. Layout: ``game_over.kv``.

    Built once; a redraw sets the properties below, the standing rows (one per player, only the
    difference made when another game ends) and which parts of the right column are shown: the date
    and the QR code, or the date stepper while the date is unsure.
    """

    winner = StringProperty("")
    decided = StringProperty("")
    #: "Played on …" with the date, and the question asked while the date is unsure.
    played_on = StringProperty("")
    date_question = StringProperty("")
    #: Why there is no QR code (the link could not be made).
    problem = StringProperty("")
    #: The BG Stats link as a QR code, and its side in px (the texture's: QR_MODULE_PX a module).
    qr_texture = ObjectProperty(None, allownone=True)
    qr_size = NumericProperty(QR_SIZE)
    #: The right column's width: the QR code's, never less than :data:`QR_SIZE` (the date stepper's).
    qr_column = NumericProperty(QR_SIZE)

    def __init__(self, shell: ShellInterface, **kwargs: object) -> None:
        super().__init__(shell, **kwargs)
        #: The QR code's image while it is shown, else ``None``.
        self.qr: Image | None = None
        #: The link the QR code was made for (the same link is not encoded again).
        self.qr_link: str | None = None
        #: The date the stepper shows, and the game it is for (a new game starts from its own date).
        self.chosen: date | None = None
        self.chosen_for: int | None = None
        self.standing_rows: list[FinalStanding] = []
        # held: the rule's ids are weak references, and these are taken out while they mean nothing
        self.parts: dict[str, Any] = {name: proxy.__self__ for name, proxy in self.ids.items()}
        #: The stepper's buttons by part: (−, +).
        self.steppers: dict[str, tuple[Tap, Tap]] = {
            part: (self.parts[part].ids.less, self.parts[part].ids.more) for part in ("day", "month", "year")}

    def refresh(self) -> None:
        table = self.shell.table
        live = table.live
        finished = live is not None and live.session.game.is_finished(live.session.state)
        show(self.parts["whole"], finished)
        if live is None or not finished:
            return
        session = live.session
        outcome = session.game.outcome(session.state)
        self.winner = winner_words(outcome)
        self.decided = decided_words(outcome)
        self._standings(session, outcome)
        stored = table.app.store.session(live.id)
        started = stored.started.astimezone().strftime("%Y-%m-%d %H:%M")
        if stored.date_unsure:
            self.qr = None
            self._date_stepper(started)
            self._show_right(unsure=True, link=False)
            return
        self.played_on = text("ui.over.played_on", date=started)
        try:
            link = table.app.bgstats_scan_link(live.id)
        except AppError as error:
            self.problem = str(error)
            self.qr = None
            self._show_right(unsure=False, link=False)
            return
        if link != self.qr_link:
            self.qr_texture, self.qr_link = qr_texture(link), link
            self.qr_size = self.qr_texture.width
            self.qr_column = max(QR_SIZE, self.qr_size)
        self.qr = self.parts["qr"]
        self._show_right(unsure=False, link=True)

    def headline_size(self, words: str, width: float) -> float:
        """The winner's font size: the largest from FONT_WINNER down to FONT_LARGE at which ``words``
        fit on one line of ``width`` px (FONT_LARGE when none does: then they wrap between words)."""
        return headline_size(words, width)

    def _standings(self, session: AnySession, outcome: Outcome) -> None:
        """One row per player in the ranking's order (rows of an earlier game reused)."""
        box = self.parts["standings"]
        while len(self.standing_rows) < len(outcome.standings):
            self.standing_rows.append(FinalStanding())
            box.add_widget(self.standing_rows[-1])
        while len(self.standing_rows) > len(outcome.standings):
            box.remove_widget(self.standing_rows.pop())
        summary = session.game.summary(session.state)
        tags = initials(session.players)
        colours = player_colours(self.shell, session)
        for line, standing in zip(self.standing_rows, outcome.standings, strict=True):
            line.rank = text("ui.over.rank", rank=standing.rank)
            line.initials = tags[standing.player]
            line.swatch = theme.piece_colour(colours.get(standing.player))
            line.words = standing_words(outcome, summary, standing)
            line.score = str(standing.score)

    def _show_right(self, unsure: bool, link: bool) -> None:
        """The right column's parts that mean something now."""
        for name in ("date_question", "day", "month", "year", "confirm", "qr_after_date"):
            show(self.parts[name], unsure)
        show(self.parts["played_on"], not unsure)
        show(self.parts["problem"], not unsure and not link)
        show(self.parts["qr"], link)
        show(self.parts["scan"], link)

    def _started(self) -> datetime:
        """When the open game started, on the local clock (what the players set the date against)."""
        table = self.shell.table
        assert table.live is not None
        return table.app.store.session(table.live.id).started.astimezone()

    def _date_stepper(self, started: str) -> None:
        """The clock was not set when the game began: the question with the date it asks about (the one
        the Pi believed, then the one set), and − and + for each of the day, the month and the year (no
        keyboard), over the long press that confirms it."""
        table = self.shell.table
        if table.live is None:
            return
        if self.chosen_for != table.live.id or self.chosen is None:
            self.chosen, self.chosen_for = self._started().date(), table.live.id
        chosen = self.chosen
        asked = f"{date_words(chosen)} {started[-5:]}"  # the time of day stays as it was
        self.date_question = text("ui.over.date_unsure", date=asked)
        for part, shown in (("day", chosen.day), ("month", chosen.month), ("year", chosen.year)):
            self.parts[part].label = text(f"appliance.date.{part}")
            self.parts[part].value = str(shown)

    def step_date(self, part: str, by: int) -> None:
        """One step of the date stepper (a day, a month or a year); the month's last day stays in it."""
        if self.chosen is None:
            return
        self.chosen = stepped(self.chosen, part, by)
        self.redraw()

    def confirm_date(self) -> None:
        """The players say the date shown is right: kept in the store, and the QR code for BG Stats appears.

        A date set with the stepper replaces the day the game started on; the time of day is kept.
        """
        table = self.shell.table
        if table.live is None:
            return
        started = self._started()
        if self.chosen is None or self.chosen == started.date():
            done = self.shell.succeeds(table.app.confirm_date, table.live.id)
        else:
            moved = datetime.combine(self.chosen, started.timetz())
            done = self.shell.succeeds(table.app.confirm_date, table.live.id, moved)
        if done:
            self.chosen = None
            self.redraw()


def headline_size(words: str, width: float) -> float:
    """The largest size from :data:`~ui.theme.FONT_WINNER` down to :data:`~ui.theme.FONT_LARGE`
    (by 2 px) at which ``words`` in bold fit on one line of ``width`` px; FONT_LARGE when none does."""
    size = theme.FONT_WINNER
    while size > theme.FONT_LARGE and _one_line(words, size) > width:
        size -= 2
    return size


def _one_line(words: str, size: float) -> float:
    label = CoreLabel(text=words, font_size=size, bold=True)
    label.refresh()
    return float(label.texture.size[0]) if label.texture is not None else 0.0


def date_words(day: date) -> str:
    """A date as the players' language writes it (2024-05-01; 2024. 05. 01.)."""
    return text("appliance.date.chosen", year=f"{day.year:04d}", month=f"{day.month:02d}",
                day=f"{day.day:02d}")


#: The years the stepper reaches (from the Unix epoch a Pi without any saved clock wakes up in).
YEARS = (1970, 2099)


def stepped(day: date, part: str, by: int) -> date:
    """``day`` moved by ``by`` days, months or years; a month's end is kept within the month it lands
    in (31 March − 1 month = 28 or 29 February), and the year stays within :data:`YEARS`."""
    if part == "day":
        moved = day + timedelta(days=by)
        return moved if YEARS[0] <= moved.year <= YEARS[1] else day
    months = day.year * 12 + day.month - 1 + (by if part == "month" else by * 12)
    year, month = divmod(months, 12)
    if not YEARS[0] <= year <= YEARS[1]:
        return day
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


load_rules(__file__)
