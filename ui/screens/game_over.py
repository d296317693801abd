"""Game over: the winner large, the tie-break when it decided, each player's breakdown, and the
BG Stats push link as a QR code (at least 200 px) that a player scans to log the play.

A game started before the Pi's clock was set (no network, no battery clock)
has an unsure date: its QR code waits until the players confirm the date with
a long press, and a line says why it is not shown yet.
"""

from __future__ import annotations

import calendar
import io
from datetime import date, datetime, timedelta
from typing import Any

from kivy.core.image import Image as CoreImage
from kivy.graphics.texture import Texture
from kivy.uix.image import Image

from companion.i18n import text
from companion.service.app import AppError
from companion.service.names import initials
from ui import theme
from ui.screens import ShellScreen, column, filler, row
from ui.screens.game import player_colours
from ui.widgets import Figure, LongTap, Tap, Words, badge

#: The QR code's side in px (the spec asks for 200 or more, to scan from across the table).
QR_SIZE = 232


def qr_texture(link: str) -> Texture:
    """``link`` as a QR code texture (dark modules on white, with the quiet zone)."""
    import segno

    code = segno.make(link, error="l", micro=False)
    buffer = io.BytesIO()
    code.save(buffer, kind="png", scale=4, border=4, dark="#000000", light="#ffffff")
    buffer.seek(0)
    texture: Texture = CoreImage(buffer, ext="png").texture
    texture.mag_filter = "nearest"
    return texture


def winner_words(outcome: Any) -> str:
    """The headline: who won (a shared win names everyone)."""
    if len(outcome.winners) == 1:
        return text("ui.over.winner", player=outcome.winners[0])
    return text("ui.over.shared_winners", players=list(outcome.winners))


def decided_words(outcome: Any) -> str:
    """How it was decided: most points, the tie-break, or a tie even after it."""
    if outcome.decided_by == "score":
        return text("ui.over.by_score")
    if outcome.decided_by == "shared":
        return text("ui.over.tied_after_tiebreak", tiebreak=outcome.tiebreak)
    return text("ui.over.by_tiebreak", tiebreak=outcome.tiebreak)


def breakdown(summary: dict[str, Any], player: str) -> str:
    """What a player's score is made of, from the engine's summary (Campanile: the chips)."""
    from ui.games import score_breakdown

    custom = score_breakdown(summary.get("game", ""), summary, player)
    if custom is not None:
        return custom
    chips = summary.get("chips", {}).get(player)
    if chips:
        return text("ui.over.chips", chips=" · ".join(str(c) for c in chips))
    return ""


class GameOverScreen(ShellScreen):
    """The end of the open game."""

    def redraw(self) -> None:
        self.clear_widgets()
        table = self.shell.table
        live = table.live
        if live is None or not live.session.game.is_finished(live.session.state):
            return
        session = live.session
        game, state = session.game, session.state
        outcome = game.outcome(state)
        summary = game.summary(state)
        tags = initials(session.players)
        colours = player_colours(self.shell, session)
        whole = row(size_hint_y=1, height=0, padding=theme.SPACING)
        left = column(padding=0, spacing=4)
        left.add_widget(Figure(text=winner_words(outcome), color=theme.ACCENT, halign="left", valign="middle",
                               text_size=(530, None)))
        left.add_widget(Words(text=decided_words(outcome)))
        for standing in outcome.standings:
            line = row()
            line.add_widget(Words(text=text("ui.over.rank", rank=standing.rank), size_hint_x=None, width=40))
            line.add_widget(badge(tags[standing.player], colours.get(standing.player)))
            details = [breakdown(summary, standing.player)]
            if outcome.decided_by not in (None, "score"):
                details.append(text("ui.over.tiebreak_figure", tiebreak=outcome.tiebreak,
                                    value=standing.tiebreak))
            shown = "\n".join([standing.player, "; ".join(d for d in details if d)]).strip()
            line.add_widget(Words(text=shown, line_height=0.95))
            line.add_widget(Figure(text=str(standing.score), size_hint_x=None, width=70))
            left.add_widget(line)
        left.add_widget(filler())
        buttons = row()
        for label, action in (("ui.over.rematch", lambda: self.shell.attempt(table.rematch)),
                              ("ui.bar.history", lambda: self.shell.go("history")),
                              ("ui.bar.home", lambda: self.shell.go("home"))):
            button = Tap(text=text(label), accent=label == "ui.over.rematch")
            button.bind(on_release=lambda _b, act=action: act())
            buttons.add_widget(button)
        left.add_widget(buttons)
        whole.add_widget(left)
        right = column(padding=0, size_hint_x=None, width=QR_SIZE + theme.SPACING)
        self.qr = None
        stored = table.app.store.session(live.id)
        started = stored.started.astimezone().strftime("%Y-%m-%d %H:%M")
        if stored.date_unsure:
            self._ask_for_the_date(right, started)
            whole.add_widget(right)
            self.add_widget(whole)
            return
        right.add_widget(Words(text=text("ui.over.played_on", date=started), halign="center"))
        try:
            link = table.app.bgstats_link(live.id)
        except AppError as error:
            right.add_widget(Words(text=str(error)))
        else:
            self.qr = Image(texture=qr_texture(link), size_hint=(None, None), size=(QR_SIZE, QR_SIZE),
                            fit_mode="contain")
            right.add_widget(self.qr)
            right.add_widget(Words(text=text("ui.over.scan"), halign="center"))
        right.add_widget(filler())
        whole.add_widget(right)
        self.add_widget(whole)

    def _ask_for_the_date(self, right: Any, started: str) -> None:
        """The clock was not set when the game began: the date the Pi thought, to confirm by a long press,
        or another one set first with the date stepper (day, month, year; − and +, no keyboard)."""
        self._date_stepper(right, started)
        confirm = LongTap(text=text("ui.over.confirm_date_hold"), accent=True)
        confirm.bind(on_long_press=lambda *_: self.confirm_date())
        right.add_widget(confirm)
        right.add_widget(Words(text=text("ui.over.qr_after_date"), halign="center"))
        right.add_widget(filler())

    #: The date the stepper shows, and the game it is for (a new game starts from its own date).
    chosen: date | None = None
    chosen_for: int | None = None

    def _started(self) -> datetime:
        """When the open game started, on the local clock (what the players set the date against)."""
        table = self.shell.table
        assert table.live is not None
        return table.app.store.session(table.live.id).started.astimezone()

    def _date_stepper(self, right: Any, started: str) -> None:
        """The question with the date it asks about (the one the Pi believed, then the one set), and
        a row of − and + for each of the day, the month and the year."""
        table = self.shell.table
        if table.live is None:
            return
        if self.chosen_for != table.live.id or self.chosen is None:
            self.chosen, self.chosen_for = self._started().date(), table.live.id
        asked = f"{date_words(self.chosen)} {started[-5:]}"  # the time of day stays as it was
        right.add_widget(Words(text=text("ui.over.date_unsure", date=asked), halign="center"))
        #: The stepper's buttons by part: (−, +).
        self.steppers: dict[str, tuple[Tap, Tap]] = {}
        chosen = self.chosen
        for part, shown in (("day", chosen.day), ("month", chosen.month), ("year", chosen.year)):
            line = row(spacing=theme.SPACING)
            line.add_widget(Words(text=text(f"appliance.date.{part}"), size_hint_x=None, width=64))
            less = Tap(text="−", size_hint_x=None, width=theme.TOUCH)
            less.bind(on_release=lambda _b, p=part: self.step_date(p, -1))
            more = Tap(text="+", size_hint_x=None, width=theme.TOUCH)
            more.bind(on_release=lambda _b, p=part: self.step_date(p, +1))
            line.add_widget(less)
            line.add_widget(Words(text=str(shown), bold=True, halign="center", size_hint_x=None, width=56))
            line.add_widget(more)
            right.add_widget(line)
            self.steppers[part] = (less, more)

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
