"""The store needs attention: what is wrong, and what can be done, each behind a long press.

Shown at start instead of home when the store could not be opened or read as
it is (:mod:`companion.service.rescue`), has damaged pages (nothing can be
saved), or unfinished games that cannot be opened. What can be done is what
:func:`companion.service.damage.offers` says: "Hold to repair" runs ``companion
doctor --repair`` on the table's store and opens it again; "Hold to restore"
puts the newest backup on the stick in its place; "Hold to start a fresh
store" sets the old file aside, untouched; "Back up to the stick" copies a
store that can still be read (a card turned read-only). "Not now" goes home,
where the games that can be read are still there.
"""

from __future__ import annotations

from kivy.properties import BooleanProperty, StringProperty

from companion.i18n import text
from companion.service import damage
from companion.storage.store import StoreError
from ui import widgets  # noqa: F401  (the classes the rules name)
from ui.screens import ShellScreen, load_rules, show

#: The heading over what each action did.
_DONE_TITLES = {"repair": "appliance.damage.repaired_title", "restore": "appliance.trouble.done_restore",
                "fresh": "appliance.trouble.done_fresh", "backup": "appliance.stick.oled_done"}


class DamagedScreen(ShellScreen):
    """The damage in words, the protected repair, and the way home. Layout: ``damaged.kv``."""

    #: What is wrong with the store, in words.
    found = StringProperty("")
    #: Whether there is anything to repair (the long press is dimmed otherwise).
    damaged = BooleanProperty(False)
    #: Which of the actions are offered now (:func:`companion.service.damage.offers`).
    can_repair = BooleanProperty(False)
    can_restore = BooleanProperty(False)
    can_fresh = BooleanProperty(False)
    can_backup = BooleanProperty(False)
    #: The heading over what was done (the code of its words): repaired, restored, a fresh store.
    done_title = StringProperty("appliance.damage.repaired_title")
    #: What the last backup to the stick said (the damage stays; the screen too).
    said = StringProperty("")
    #: What the last repair said; shown, with the way back to the games, until the screen is left.
    repaired = StringProperty("")

    def on_leave(self, *args: object) -> None:
        self.repaired = ""
        self.said = ""

    def refresh(self) -> None:
        app = self.shell.table.app
        found = damage.damage(app)
        offered = damage.offers(app)
        self.damaged = "repair" in offered
        self.can_repair, self.can_restore = "repair" in offered, "restore" in offered
        self.can_fresh, self.can_backup = "fresh" in offered, "backup" in offered
        self.found = str(found) if found is not None else text("appliance.damage.none")
        show(self.ids.damage_view, not self.repaired)
        show(self.ids.repaired_view, bool(self.repaired))
        show(self.ids.repair_button, self.can_repair or not offered)
        show(self.ids.what_repair_does, self.can_repair or not offered)
        show(self.ids.other_actions, self.can_restore or self.can_fresh or self.can_backup)
        show(self.ids.restore_button, self.can_restore)
        show(self.ids.fresh_button, self.can_fresh)
        show(self.ids.backup_button, self.can_backup)
        show(self.ids.what_else, self.can_restore or self.can_fresh)
        show(self.ids.said_words, bool(self.said))

    def repair(self) -> None:
        """Repair and reopen the store; then the game (or home), the outcome in words under it."""
        self.act("repair")

    def act(self, action: damage.Action) -> None:
        """Do ``action`` and reopen the store; then the game (or home), the outcome in words under it."""
        try:
            done = damage.act(self.shell.table, action, self.shell.options.stick_mount)
        except StoreError as error:
            self.shell.refuse(str(error))
            self.redraw()
            return
        if action == "backup":  # nothing changed at the table: the copy is said, the damage stays
            self.said = str(done)
            self.shell.banner.hide()  # an earlier "no stick" is answered now
            self.redraw()
            return
        self.done_title = _DONE_TITLES[action]
        self.repaired = str(done)
        self.shell.banner.hide()  # an earlier "the store is damaged" is answered
        self.shell.go("damaged")  # reopening the game went to its screen: what was kept is said first


load_rules(__file__)
