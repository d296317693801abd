"""What the OLED shows from moment to moment: status, notices, lists; redrawn only on change.

:class:`OledView` listens to the table's events and is ticked by the main
loop. It picks the page to show (a notice such as "saved" or a scrolling
refusal for a few seconds, else the navigator's list or preview, else the
status pages turned by a timer), draws it only when it differs from the page
on the panel, and hands the image to the :class:`~hardware.oled.OledDevice`
worker. After a minute without events it dims, after the ``oled.timeout``
setting it blanks (OLEDs burn in); any event wakes it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.i18n import current_language, text
from companion.service.damage import damage, offers
from companion.service.move_words import move_words
from companion.service.table import Table, TableEvent
from hardware.navigator import Navigator
from hardware.oled_pages import (
    SMALL_LINES,
    game_over_pages,
    notice_page,
    refused_pages,
    saved_page,
    start_page,
    status_pages,
    table_pages,
)
from hardware.oled_render import Line, Page, draw, fit, wrap

if TYPE_CHECKING:
    from companion.service.app import Companion

#: Seconds each status page stays before the next (when they do not fit one).
PAGE_SECONDS = 5.0
#: Seconds a notice ("saved") stays; each page of a refusal's reason stays REFUSAL_PAGE_SECONDS.
NOTICE_SECONDS = 2.0
REFUSAL_PAGE_SECONDS = 4.0
#: Seconds without an event before the panel dims.
DIM_SECONDS = 60.0
DIM_CONTRAST = 8


@dataclass
class Notice:
    """Pages shown for a while over the status, each for ``seconds``."""

    pages: list[Page]
    since: float
    seconds: float

    def page(self, now: float) -> Page | None:
        index = int((now - self.since) // self.seconds)
        return self.pages[index] if 0 <= index < len(self.pages) else None

    @property
    def until(self) -> float:
        return self.since + self.seconds * len(self.pages)


class OledView:
    """The OLED's content and power, driven by table events and the main loop's ticks."""

    def __init__(self, table: Table, navigator: Navigator, send: Callable[[Any], None],
                 power: Callable[[int | None, bool | None], None] = lambda contrast, visible: None, *,
                 brightness: int = 100, blank_seconds: float = 600.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.table = table
        self.navigator = navigator
        navigator.notify = self.notify_pages
        self._send = send
        self._power = power
        self._clock = clock
        self.brightness = brightness
        self.blank_seconds = blank_seconds
        self._notice: Notice | None = None
        self._status: list[Page] = []
        self._status_since = clock()
        self._last_event = clock()
        self._shown: Page | None = None
        self._power_state = "on"
        #: Frames drawn (not the ones merely considered): the redraw-on-change check counts these.
        self.drawn = 0
        self._stop_listening = table.listen(self._event)
        self._status_changed()
        power(self._contrast(), True)

    def close(self) -> None:
        self._stop_listening()

    # -- events -----------------------------------------------------------------
    def _event(self, table: Table, event: TableEvent) -> None:
        now = self._clock()
        if event.kind == "refused" and event.reason is not None:
            self._notice = Notice(refused_pages(event.reason), now, REFUSAL_PAGE_SECONDS)
        elif event.kind in ("move", "redo") and table.session is not None and table.session.log:
            session = table.session
            if not session.game.is_finished(session.state):
                move = session.game.move_to_json(session.log[-1])
                said = move_words(session.game, session.state, move, _language())  # cards by their names
                self._notice = Notice([saved_page(said)], now, NOTICE_SECONDS)
        self._status_changed()
        self.wake()

    def notify_pages(self, pages: list[Page]) -> None:
        """Show ``pages`` over the status for a while (the navigator's refusals and notices)."""
        self._notice = Notice(pages, self._clock(), REFUSAL_PAGE_SECONDS)
        self.wake()

    def dismiss(self) -> None:
        """Drop the notice on show: a key was pressed, its answer comes next."""
        self._notice = None

    def wake(self) -> None:
        """Any event: back to full brightness, the idle timer restarted."""
        self._last_event = self._clock()
        if self._power_state != "on":
            self._power_state = "on"
            self._power(self._contrast(), True)

    def _status_changed(self) -> None:
        session = self.table.session
        if session is None:
            self._status = [start_page()]
        elif session.game.is_finished(session.state):
            self._status = [*game_over_pages(session.game, session.state), *table_pages(self.table)]
        else:
            self._status = [*status_pages(session.game, session.state), *table_pages(self.table)]
        self._status_since = self._clock()

    # -- the main loop's tick ---------------------------------------------------------
    def page(self, now: float) -> Page:
        """The page to show at ``now``."""
        if self._notice is not None:  # a refusal or a notice first: it answers the last key
            shown = self._notice.page(now)
            if shown is not None:
                return shown
            self._notice = None
            self._status_since = now
        overlay = self.navigator.overlay()
        if overlay is not None:
            return overlay
        status = self._status
        if damage(self.table.app) is not None:  # a damaged store: said between the status pages
            status = [*trouble_pages(self.table.app), *status]
        index = int((now - self._status_since) // PAGE_SECONDS) % len(status)
        return status[index]

    def tick(self) -> None:
        """Draw the page if it changed; dim or blank after inactivity. Called every loop iteration."""
        now = self._clock()
        idle = now - self._last_event
        if self.blank_seconds and idle >= self.blank_seconds:
            if self._power_state != "blank":
                self._power_state = "blank"
                self._power(None, False)
            return
        if idle >= DIM_SECONDS and self._power_state == "on":
            self._power_state = "dim"
            self._power(DIM_CONTRAST, None)
        page = self.page(now)
        if page != self._shown:
            self._shown = page
            self.drawn += 1
            self._send(draw(page))

    def refresh(self) -> None:
        """Recompute the status (after a setting such as the language changed) and redraw."""
        self._status_changed()
        self._shown = None
        self.tick()

    def next_deadline(self) -> float:
        """Seconds until the page or the power may change by itself (how long the loop may sleep)."""
        now = self._clock()
        deadlines = [self._last_event + DIM_SECONDS - now]
        if self.blank_seconds:
            deadlines.append(self._last_event + self.blank_seconds - now)
        if self._notice is not None:
            deadlines.append(self._notice.seconds - (now - self._notice.since) % self._notice.seconds)
        if len(self._status) > 1:
            deadlines.append(PAGE_SECONDS - (now - self._status_since) % PAGE_SECONDS)
        return max(0.05, min(d for d in deadlines if d > 0) if any(d > 0 for d in deadlines) else 1.0)

    def _contrast(self) -> int:
        return round(255 * self.brightness / 100)


def _language() -> str:
    return current_language()


def trouble_pages(app: Companion) -> list[Page]:
    """What the OLED says of a store that needs attention: the title and what the menu offers, then
    (when it is more than damaged pages or games) what is wrong, in as many pages as it takes."""
    offered = offers(app)
    if offered and "repair" not in offered:  # a card turned read-only: only the backup can help
        hint = text("appliance.trouble.oled_hint_backup")
    elif app.trouble is not None and len(offered) > 1:  # not opened as it is: each way out
        hint = text("appliance.trouble.oled_hint")
    else:
        hint = text("appliance.damage.oled_hint")
    title = text("appliance.damage.oled_title")
    pages = [notice_page(title, hint)]
    if app.trouble is not None:
        lines = wrap(str(app.trouble))
        per_page = SMALL_LINES - 1
        pages += [Page((Line(fit(title), inverted=True), *(Line(s) for s in lines[i:i + per_page])))
                  for i in range(0, len(lines), per_page)]
    return pages
