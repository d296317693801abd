"""A damaged store on the appliance: say so, and repair, restore, start afresh or back up from the menus.

``companion run`` on the kiosk must not refuse to start over a damaged store
(the box would only reboot into the same refusal): it starts, the touchscreen
and the OLED say what is wrong, and a protected action (a long press; a
confirm step on the OLED) runs the same repair as ``companion doctor
--repair``. Until then the store is only read (damaged pages) or the damaged
games are left out (a damaged row); afterwards every good game is played on.

:func:`damage` says what is wrong and :func:`offers` what can be done about it:
:func:`repair_at_table` repairs and opens the store again under the same
table; :func:`restore_at_table` puts the newest backup on the stick in its
place; :func:`fresh_at_table` starts an empty store, the old file kept aside
under the name a repair gives it; :func:`backup_at_table` copies the store to
the stick (a card turned read-only may not last). Each reopens the store as
start-up does (:mod:`companion.service.rescue`): whatever it finds, the app
goes on, and says what it found.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from companion.games.messages import Message, msg
from companion.service import rescue
from companion.storage.lock import LockHeld, WriterLock
from companion.storage.stick import DEFAULT_MOUNT, StickError, backup_to_stick, next_name
from companion.storage.store import StoreError, fsync_path

if TYPE_CHECKING:
    from companion.service.app import Companion
    from companion.service.table import Table

log = logging.getLogger(__name__)


#: What the players can do about a store that needs attention, in the order the screens offer it.
Action = Literal["repair", "restore", "fresh", "backup"]
ACTIONS: tuple[Action, ...] = ("repair", "restore", "fresh", "backup")


def damage(app: Companion) -> Message | None:
    """What is wrong with the store, in the players' words (``None``: nothing known).

    Why the store could not be opened or shown comes first (start-up's
    :attr:`~companion.service.app.Companion.trouble`); then damaged pages
    (nothing can be saved); else the unfinished games that cannot be opened
    (found when the unfinished games were listed); else a row a listing could
    not read back and left out; else why a store that
    cannot be written cannot (the kiosk never sits read-only without saying so).
    """
    store = app.store
    if app.trouble is not None:
        return app.trouble
    if store.damage:
        return msg("appliance.damage.pages", first=store.damage[0])
    if app.damaged_sessions:
        return msg("appliance.damage.sessions", sessions=sorted(app.damaged_sessions),
                   count=len(app.damaged_sessions))
    if store.unreadable_rows:  # a row a listing left out (the other games are still offered)
        return next(iter(store.unreadable_rows.values()))
    if store.read_only:  # a store that cannot be written always says why, with the repair offered
        try:
            store.refuse_writing()
        except StoreError as error:
            return msg("appliance.damage.read_only", reason=error.args[0])
    return None


def offers(app: Companion) -> list[Action]:
    """What can be done about the store's trouble, as :data:`ACTIONS` orders them (none: no trouble).

    In a folder that cannot be written (a card turned read-only) only a backup
    to the stick can help, and only of a store that could be read; elsewhere
    the repair, the restore and the fresh store, and the backup when there is
    a store to copy.
    """
    if damage(app) is None:
        return []
    path = app.store.path
    writable = os.access(path.parent, os.W_OK)
    found: list[Action] = ["repair", "restore", "fresh"] if writable else []
    if path.is_file():  # (a file that does not read is copied as it is; no file, nothing to copy)
        found.append("backup")
    return found


def _start_again(table: Table, change: Callable[[Path], Message],
                 failed: str = "appliance.trouble.failed") -> Message:
    """Put the open game down, close the store, ``change`` the file, and open it again as start-up
    does; what ``change`` said, or :class:`StoreError` saying why it could not (the store reopened
    as it was, so the app goes on)."""
    app = table.app
    path = app.store.path
    table.close()
    app.store.close()
    failure: Exception | None = None
    done: Message | None = None
    try:
        done = change(path)
    except (StoreError, OSError, sqlite3.Error) as error:
        failure = error
    live = rescue.reopen(app)
    if live is not None:
        table.open(live)
    if failure is not None or done is None:
        log.warning("the change to %s failed: %s", path, failure)
        raise StoreError(msg(failed, reason=str(failure))) from None
    return done


def repair_at_table(table: Table) -> Message:
    """Repair the table's store (``companion doctor --repair``) and open it again at the table.

    The open game is put down and the store closed first (the repair takes
    the writer's lock, which the app held); then the repaired store is opened,
    and the newest unfinished game with it. Returns what was done, in words;
    :class:`StoreError` when the repair could not run (the store reopened as
    it was, so the app goes on).
    """
    from companion.storage import doctor  # a thousand lines the touchscreen's start never needs

    def repair(path: Path) -> Message:
        report = doctor.repair(path)
        kept = sum(1 for health in report.checkup.sessions if health.is_good)
        return msg("appliance.damage.repaired", kept=kept, count=len(report.checkup.sessions),
                   aside=report.aside.name)

    return _start_again(table, repair, "appliance.damage.repair_failed")


#: A backup's name on the stick (:func:`companion.storage.stick.next_name`): its number orders them.
_ON_STICK = re.compile(r"^companion-(\d{4,9})-\d{4}-\d{2}-\d{2}-\d{6}\.sqlite3$")


def newest_on_stick(mount: str | Path = DEFAULT_MOUNT) -> Path | None:
    """The newest backup on the stick (the highest number), or ``None`` (no stick, none on it)."""
    try:
        found = [(int(m.group(1)), entry) for entry in Path(mount).iterdir()
                 if (m := _ON_STICK.match(entry.name)) and entry.is_file()]
    except OSError:
        return None
    return max(found)[1] if found else None


def restore_at_table(table: Table, mount: str | Path = DEFAULT_MOUNT) -> Message:
    """Put the newest backup on the stick in place of the store (``companion doctor --restore``)."""
    from companion.storage import doctor

    backup = newest_on_stick(mount)
    if backup is None:
        raise StoreError(msg("appliance.restore.none", path=str(mount)))

    def restore(path: Path) -> Message:
        report = doctor.restore(path, backup)
        if report.aside is None:
            return msg("appliance.restore.done_new", name=backup.name)
        return msg("appliance.restore.done", name=backup.name, aside=report.aside.name)

    return _start_again(table, restore)


def _aside_name(path: Path) -> Path:
    """A new name for the store set aside, as a repair names its copy (``doctor`` lists it)."""
    from companion.storage import doctor

    number = 1 + len(doctor.copies_aside(path))
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    while True:
        aside = path.with_name(f"{path.name}.damaged-{number:04d}-{stamp}")
        if not os.path.lexists(aside):
            return aside
        number += 1


def set_aside(path: Path) -> Path | None:
    """Move the store file, then its ``-wal`` and ``-shm``, to a new name beside it; ``None`` when
    there was no store file. The folder's entries are synced before a new store is made: a
    ``-wal`` left behind by a crash between the renames is seen at start
    (:func:`companion.service.rescue.open_store`) and never taken into a new store."""
    aside = _aside_name(path)
    moved = False
    if os.path.lexists(path):
        os.rename(path, aside)
        moved = True
    for suffix in ("-wal", "-shm"):
        part = path.with_name(path.name + suffix)
        if os.path.lexists(part):
            os.rename(part, aside.with_name(aside.name + suffix))
            moved = True
    fsync_path(path.parent)
    return aside if moved else None


def fresh_at_table(table: Table) -> Message:
    """Start an empty store at the table, the old one kept aside beside it, untouched."""

    def fresh(path: Path) -> Message:
        try:  # no other companion may open the store while its files move
            lock = WriterLock.acquire(path)
        except LockHeld as held:
            raise StoreError(msg("store.in_use", path=str(path), holder=str(held.holder))) from None
        try:
            aside = set_aside(path)
        finally:
            lock.release()
        return msg("appliance.fresh.done", aside=aside.name if aside is not None else "-")

    return _start_again(table, fresh)


def backup_at_table(table: Table, mount: str | Path = DEFAULT_MOUNT) -> Message:
    """Copy the store to the stick now (a card turned read-only may fail for good next)."""
    app = table.app
    try:
        if app.standing_in:  # nothing of it reads: its files are copied as they are
            return copy_files_to_stick(app.store.path, Path(mount))
        return backup_to_stick(app.store, mount).message
    except StickError as error:
        raise StoreError(error.reason) from None


def copy_files_to_stick(path: Path, mount: Path) -> Message:
    """Copy the store file that does not read (and its ``-wal``) to the stick byte for byte, under
    the name a backup gets there: what a card about to fail still holds is kept. Each file is
    written under a temporary name, synced, then renamed; :class:`StickError` says why not."""
    if not path.is_file():
        raise StoreError(msg("appliance.backup.nothing"))
    try:
        if not mount.is_dir():
            raise StickError(msg("appliance.stick.none", path=str(mount)))
        os.listdir(mount)  # opening the folder mounts the stick (or fails without one)
        name = next_name(mount, datetime.now(UTC).astimezone().strftime("%Y-%m-%d-%H%M%S"))
        parts = [(path, mount / name)]
        wal = path.with_name(path.name + "-wal")
        if wal.is_file() and wal.stat().st_size:
            parts.append((wal, mount / f"{name}-wal"))
        for source, target in reversed(parts):  # the -wal first: the store's name last, complete
            partial = target.with_name(f".{target.name}.partial")
            try:
                shutil.copyfile(source, partial)
                fsync_path(partial)
                os.replace(partial, target)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    partial.unlink()
        fsync_path(mount)
    except OSError as error:
        raise StickError(msg("appliance.stick.failed", path=str(mount),
                             reason=error.strerror or str(error))) from None
    return msg("appliance.stick.safe", name=name)


def act(table: Table, action: Action, mount: str | Path = DEFAULT_MOUNT) -> Message:
    """Do ``action`` (one of :data:`ACTIONS`) at the table; what was done, or :class:`StoreError`."""
    if action == "repair":
        return repair_at_table(table)
    if action == "restore":
        return restore_at_table(table, mount)
    if action == "fresh":
        return fresh_at_table(table)
    return backup_at_table(table, mount)
