"""A damaged store on the appliance: say so, and repair it from the menus.

``companion run`` on the kiosk must not refuse to start over a damaged store
(the box would only reboot into the same refusal): it starts, the touchscreen
and the OLED say what is wrong, and a protected action (a long press; a
confirm step on the OLED) runs the same repair as ``companion doctor
--repair``. Until then the store is only read (damaged pages) or the damaged
games are left out (a damaged row); afterwards every good game is played on.

:func:`damage` says what is wrong, :func:`repair_at_table` repairs and opens
the store again under the same table.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import TYPE_CHECKING

from companion.games.messages import Message, msg
from companion.storage.store import StoreError

if TYPE_CHECKING:
    from companion.service.app import Companion
    from companion.service.table import Table

log = logging.getLogger(__name__)


def damage(app: Companion) -> Message | None:
    """What is wrong with the store, in the players' words (``None``: nothing known).

    Damaged pages come first (nothing can be saved); else the unfinished games
    that cannot be opened (found when the unfinished games were listed); else
    why a store that cannot be written cannot (the kiosk never sits read-only
    without saying so).
    """
    store = app.store
    if store.damage:
        return msg("appliance.damage.pages", first=store.damage[0])
    if app.damaged_sessions:
        return msg("appliance.damage.sessions", sessions=sorted(app.damaged_sessions),
                   count=len(app.damaged_sessions))
    if store.read_only:  # a store that cannot be written always says why, with the repair offered
        try:
            store.refuse_writing()
        except StoreError as error:
            return msg("appliance.damage.read_only", reason=error.args[0])
    return None


def repair_at_table(table: Table) -> Message:
    """Repair the table's store (``companion doctor --repair``) and open it again at the table.

    The open game is put down and the store closed first (the repair takes
    the writer's lock, which the app held); then the repaired store is opened,
    and the newest unfinished game with it. Returns what was done, in words;
    :class:`StoreError` when the repair could not run (the store reopened as
    it was, so the app goes on).
    """
    from companion.storage import doctor  # a thousand lines the touchscreen's start never needs

    app = table.app
    path = app.store.path
    table.close()
    app.store.close()
    failure: Exception | None = None
    try:
        report = doctor.repair(path)
    except (StoreError, OSError, sqlite3.Error) as error:
        failure = error
    app.reopen()
    if failure is not None:
        log.warning("the repair of %s failed: %s", path, failure)
        raise StoreError(msg("appliance.damage.repair_failed", reason=str(failure))) from None
    live = app.latest_unfinished()
    if live is not None:
        table.open(live)
    kept = sum(1 for health in report.checkup.sessions if health.is_good)
    return msg("appliance.damage.repaired", kept=kept, count=len(report.checkup.sessions),
               aside=report.aside.name)
