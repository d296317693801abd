"""The store as the publisher sees it: read-only, watched for changes, reopened when replaced.

The same way the phone page watches it (web/store_reader.py): opened with ``read_only=True`` (no
writer's lock, no migration, nothing created), ``PRAGMA data_version`` polled for the app's
commits, and the file's identity (inode, size, time, SQLite header) compared at every poll so a
store replaced by a restore or a repair is opened anew. A store that cannot be read is no error
of the publisher: the table then publishes its status with no game, and tries again when the file
changes.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from pathlib import Path

from companion.service.app import Companion
from companion.storage.store import Store, StoreError

log = logging.getLogger(__name__)

#: What reading a damaged store can raise beyond :class:`StoreError`.
CONTENT_ERRORS: tuple[type[Exception], ...] = (StoreError, sqlite3.DatabaseError, UnicodeError,
                                              json.JSONDecodeError, ValueError)

Identity = tuple[int, int, int, int, bytes]


def _identity(path: Path) -> Identity | None:
    try:
        with open(path, "rb") as file:
            found = os.fstat(file.fileno())
            header = file.read(100)
    except OSError:
        return None
    return found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, header


class StoreWatch:
    """The read-only store at ``path``; :meth:`poll` says whether it changed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.app: Companion | None = None
        self._identity: Identity | None = None
        self._version: int | None = None
        self._opened = False

    def _open(self) -> None:
        self.close()
        self._identity = _identity(self.path)
        if self._identity is None:
            return
        try:
            store = Store.open(self.path, read_only=True)
        except CONTENT_ERRORS as error:
            log.warning("the store cannot be read: %s", error)
            return
        if store.damage:
            store.close()
            return
        self.app = Companion(store)
        self._version = int(store.pragma("data_version"))

    def close(self) -> None:
        if self.app is not None:
            self.app.close()
            self.app = None

    def poll(self) -> bool:
        """Whether the store changed since the last poll (the first poll opens it: a change)."""
        if not self._opened or _identity(self.path) != self._identity:
            self._opened = True
            self._open()
            return True
        if self.app is None:
            return False
        try:
            current = int(self.app.store.pragma("data_version"))
        except sqlite3.Error:
            self._open()
            return True
        if current == self._version:
            return False
        self._version = current
        return True
