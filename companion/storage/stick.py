"""A backup of the store onto the USB stick labelled ``COMPANION``, from the menus.

The installer adds a systemd automount for the stick (``systemd/media-COMPANION.*``):
opening its folder mounts it, and it is unmounted a few seconds after the last
use. :func:`backup_to_stick` writes the same kind of file as ``companion backup
DIR`` (SQLite's online backup API, consistent while a game is played), syncs the
file and the folder's entry, and answers with the words the players read: that
the stick is safe to remove, or why nothing was written (no stick, a
write-protected one, a full one).

The file names carry a sequence number (one more than the highest already on
the stick) before the date, so that "the newest backup" is the highest number,
whatever the Pi's clock said when it was written (a Pi without network may
not know the date; see :mod:`companion.system.clock`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.games.messages import Message, msg
from companion.i18n import decimal
from companion.storage.store import Store, StoreError, fsync_path

#: Where the automount puts the stick (``systemd/media-COMPANION.automount``); ``backup.stick`` in the config.
DEFAULT_MOUNT = "/media/COMPANION"
#: A backup's number has at most nine digits: a longer one (a file planted on the stick, say
#: ``companion-`` and 219 nines) is not one of ours and must not make every later name too long.
_NUMBERED = re.compile(r"^companion-(\d{4,9})-\d{4}-\d{2}-\d{2}-\d{6}\.sqlite3$")
#: Room kept free beyond the copy itself (the directory entry, FAT's rounding up to clusters).
_MARGIN = 64 * 1024

FreeSpace = Callable[[Path], int]


class StickError(Exception):
    """Nothing was written to the stick; ``reason`` says why, in the players' words."""

    def __init__(self, reason: Message) -> None:
        super().__init__(reason)
        self.reason = reason

    def __str__(self) -> str:
        return str(self.reason)


@dataclass(frozen=True)
class StickBackup:
    """A backup written and synced: the file, and the words that say the stick may be pulled."""

    path: Path

    @property
    def message(self) -> Message:
        return msg("appliance.stick.safe", name=self.path.name)


def free_bytes(folder: Path) -> int:
    """The bytes an unprivileged writer may still use on the file system of ``folder``."""
    return shutil.disk_usage(folder).free


def next_name(folder: Path, stamp: str) -> str:
    """``companion-NNNN-STAMP.sqlite3``, NNNN one more than the highest number in ``folder``."""
    numbers = [int(found.group(1)) for found in (_NUMBERED.match(p.name) for p in folder.iterdir()) if found]
    return f"companion-{min(max(numbers, default=0) + 1, 999_999_999):04d}-{stamp}.sqlite3"


def _needed(store: Store) -> int:
    """About the size of the copy: the store file and whatever its WAL holds."""
    size = 0
    for part in (store.path, store.path.with_name(store.path.name + "-wal")):
        with contextlib.suppress(FileNotFoundError):
            size += part.stat().st_size
    return size + _MARGIN


def _reason(error: OSError | sqlite3.Error, mount: Path) -> Message:
    """What a failed write means for the players: full, write-protected, gone, or the system's words."""
    number = getattr(error, "errno", None)
    name = getattr(error, "sqlite_errorname", "")
    if number == errno.ENOSPC or name == "SQLITE_FULL":
        return msg("appliance.stick.full", path=str(mount))
    if number in (errno.EROFS, errno.EACCES, errno.EPERM) or name in ("SQLITE_READONLY", "SQLITE_PERM"):
        return msg("appliance.stick.read_only", path=str(mount))
    if number in (errno.ENODEV, errno.ENOENT, errno.EIO, errno.ENXIO):
        return msg("appliance.stick.none", path=str(mount))
    reason = getattr(error, "strerror", None) or str(error)
    return msg("appliance.stick.failed", path=str(mount), reason=reason)


def backup_to_stick(store: Store, mount: str | Path = DEFAULT_MOUNT, *,
                    free: FreeSpace = free_bytes) -> StickBackup:
    """Copy ``store`` onto the stick mounted at ``mount``, synced; :class:`StickError` says why not.

    The checks come before anything is written: the folder must be there (the
    automount mounts the stick when it is opened; without a stick that fails),
    writable, and have room for the copy. A write that fails anyway (the stick
    pulled halfway, a full one) leaves no partial file under the final name.
    """
    mount = Path(mount)
    try:
        if not mount.is_dir():
            raise StickError(msg("appliance.stick.none", path=str(mount)))
        os.listdir(mount)  # opening the folder mounts the stick (or fails without one)
        if not os.access(mount, os.W_OK):
            raise StickError(msg("appliance.stick.read_only", path=str(mount)))
        needed, room = _needed(store), free(mount)
        if room < needed:
            raise StickError(msg("appliance.stick.full_before", path=str(mount), needed=_megabytes(needed),
                                 free=_megabytes(room)))
        stamp = f"{store.now().astimezone():%Y-%m-%d-%H%M%S}"
        target = mount / next_name(mount, stamp)
        store.copy_to(target)  # in a private folder, synced, read back, renamed
        fsync_path(target)
        fsync_path(mount)  # the new name itself is on the stick
    except (OSError, sqlite3.Error) as error:
        raise StickError(_reason(error, mount)) from None
    except StoreError as error:
        raise StickError(msg("appliance.stick.failed", path=str(mount), reason=str(error))) from None
    return StickBackup(target)


def _megabytes(size: int) -> str:
    return decimal(size / 1_000_000)
