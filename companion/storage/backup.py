"""Automatic daily backups into the data directory's ``backups/`` folder.

SD cards die. Once per day of play the app copies the store (SQLite's
online backup API, :meth:`Store.copy_to`, consistent while the game goes
on) to ``backups/companion-NNNN-YYYY-MM-DD.sqlite3`` and keeps the last N,
N being the setting :data:`BACKUPS_KEPT` (default :data:`DEFAULT_KEPT`; 0
turns them off). The key and the default are the store's own; the service's
settings table (:mod:`companion.service.settings`) takes both from here. `companion backup DIR` writes the
same kind of file anywhere (a USB stick), and `companion doctor --restore
FILE` puts one back.

NNNN counts the backups up (one more than the highest there): which one is
the oldest, and goes first, never depends on the wall clock, which on a Pi
without a battery clock can be wrong at boot. The date only decides whether
today's is done. (Files named before the number was added count as older
than every numbered one.)

A backup that fails never stops a game: :func:`daily_backup_quietly` turns
the failure into one line for the caller to show.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from companion.games.messages import Message, msg
from companion.storage.store import Store, StoreError

#: The setting that says how many daily backups ``backups/`` keeps (a whole number; 0 turns them off).
BACKUPS_KEPT = "backups.kept"
#: How many are kept when the setting is not set.
DEFAULT_KEPT = 7
FOLDER = "backups"
_DAILY = re.compile(r"^companion-(?:(?P<number>\d+)-)?(?P<date>\d{4}-\d{2}-\d{2})\.sqlite3$")


def backups_kept(store: Store) -> int:
    """How many daily backups to keep (the setting, else :data:`DEFAULT_KEPT`)."""
    value = store.get_setting(BACKUPS_KEPT, DEFAULT_KEPT)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise StoreError(msg("store.backups_kept", key=BACKUPS_KEPT, value=repr(value)))
    return value


def daily_backup(store: Store) -> Path | None:
    """Today's backup of ``store``, unless there is one already; older ones beyond the number kept go.

    "Today" is the local date of the store's clock. Returns the new file, or
    ``None`` when nothing was written (done today already, or turned off).
    """
    kept = backups_kept(store)
    if kept == 0:
        return None
    folder = store.path.parent / FOLDER
    folder.mkdir(exist_ok=True)
    today = f"{store.now().astimezone():%Y-%m-%d}"
    found = [(path, _DAILY.match(path.name)) for path in folder.iterdir()]
    daily = sorted((int(match["number"] or 0), match["date"], path) for path, match in found if match)
    written = None
    if all(date != today for _, date, _ in daily):
        number = daily[-1][0] + 1 if daily else 1
        written = store.copy_to(folder / f"companion-{number:04d}-{today}.sqlite3")
        daily.append((number, today, written))
    for _, _, old in daily[:-kept]:
        old.unlink()
    return written


def daily_backup_quietly(store: Store) -> Message | None:
    """:func:`daily_backup`, its failure as one line to show (``None`` when all went well)."""
    try:
        daily_backup(store)
    except (OSError, sqlite3.Error, StoreError) as error:
        return msg("store.backup.failed", reason=str(error))
    return None
