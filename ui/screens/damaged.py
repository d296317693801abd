"""The store is damaged: what is wrong, and the repair behind a long press.

Shown at start instead of home when the store has damaged pages (nothing can
be saved) or unfinished games that cannot be opened. "Hold to repair" runs
``companion doctor --repair`` on the table's store and opens it again
(:func:`companion.service.damage.repair_at_table`); "Not now" goes home, where the
games that can be read are still there.
"""

from __future__ import annotations

from companion.i18n import text
from companion.service import damage
from companion.storage.store import StoreError
from ui import theme
from ui.screens import ShellScreen, column, filler, row
from ui.widgets import Figure, LongTap, Tap, Words


class DamagedScreen(ShellScreen):
    """The damage in words, the protected repair, and the way home."""

    #: What the last repair said; shown here, with the way back to the games, until the screen is left.
    repaired: str = ""

    def on_leave(self, *args: object) -> None:
        self.repaired = ""

    def redraw(self) -> None:
        self.clear_widgets()
        body = column(padding=theme.SPACING * 2)
        if self.repaired:
            body.add_widget(Figure(text=text("appliance.damage.repaired_title"), color=theme.ACCENT,
                                   size_hint_y=None, height=theme.TOUCH))
            body.add_widget(Words(text=self.repaired))
            body.add_widget(filler())
            go_on = Tap(text=text("appliance.damage.play_on"), accent=True, size_hint_y=None,
                        height=theme.TOUCH * 1.5)
            go_on.bind(on_release=lambda *_: self.shell.show_start())
            body.add_widget(go_on)
            self.add_widget(body)
            return
        body.add_widget(Figure(text=text("appliance.damage.title"), color=theme.REFUSED,
                               size_hint_y=None, height=theme.TOUCH))
        found = damage.damage(self.shell.table.app)
        body.add_widget(Words(text=str(found) if found is not None else text("appliance.damage.none")))
        body.add_widget(Words(text=text("appliance.damage.what_repair_does")))
        body.add_widget(filler())
        buttons = row(height=theme.TOUCH * 1.5)
        self.repair_button = LongTap(text=text("appliance.damage.repair_hold"), accent=True,
                                     disabled=found is None)
        self.repair_button.bind(on_long_press=lambda *_: self.repair())
        buttons.add_widget(self.repair_button)
        later = Tap(text=text("appliance.damage.not_now"), size_hint_x=None, width=theme.TOUCH * 5)
        later.bind(on_release=lambda *_: self.shell.go("home"))
        buttons.add_widget(later)
        body.add_widget(buttons)
        self.add_widget(body)

    def repair(self) -> None:
        """Repair and reopen the store; then the game (or home), the outcome in words under it."""
        try:
            done = damage.repair_at_table(self.shell.table)
        except StoreError as error:
            self.shell.refuse(str(error))
            self.redraw()
            return
        self.repaired = str(done)
        self.shell.banner.hide()  # an earlier "the store is damaged" is answered
        self.shell.go("damaged")  # reopening the game went to its screen: what was kept is said first
