"""The store is damaged: what is wrong, and the repair behind a long press.

Shown at start instead of home when the store has damaged pages (nothing can
be saved) or unfinished games that cannot be opened. "Hold to repair" runs
``companion doctor --repair`` on the table's store and opens it again
(:func:`companion.service.damage.repair_at_table`); "Not now" goes home, where the
games that can be read are still there.
"""

from __future__ import annotations

from kivy.properties import BooleanProperty, StringProperty

from companion.i18n import text
from companion.service import damage
from companion.storage.store import StoreError
from ui import widgets  # noqa: F401  (the classes the rules name)
from ui.screens import ShellScreen, load_rules, show


class DamagedScreen(ShellScreen):
    """The damage in words, the protected repair, and the way home. Layout: ``damaged.kv``."""

    #: What is wrong with the store, in words.
    found = StringProperty("")
    #: Whether there is anything to repair (the long press is dimmed otherwise).
    damaged = BooleanProperty(False)
    #: What the last repair said; shown, with the way back to the games, until the screen is left.
    repaired = StringProperty("")

    def on_leave(self, *args: object) -> None:
        self.repaired = ""

    def refresh(self) -> None:
        found = damage.damage(self.shell.table.app)
        self.damaged = found is not None
        self.found = str(found) if found is not None else text("appliance.damage.none")
        show(self.ids.damage_view, not self.repaired)
        show(self.ids.repaired_view, bool(self.repaired))

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


load_rules(__file__)
