"""One writer per store: an advisory lock on a file beside the database.

Two processes writing one store (the kiosk service, and someone on SSH
running ``companion run``) would each confirm moves the other then loses.
So every process that may write takes an exclusive ``flock`` on
``companion.sqlite3.lock`` first, without waiting: the second one is
refused, with the process id and command of the holder (written into the
lock file by whoever holds it). The kernel drops the lock when its holder
exits, however it ends (SIGKILL and power cuts included), so a stale lock
file never blocks anybody. Reading commands take no lock: SQLite's WAL lets
them read while the writer writes.

The lock file can be deleted by anyone who may write the directory, and a
``flock`` on a deleted file excludes nobody who opens the name afresh. So the
lock is also taken on the data directory itself (a ``flock`` on its
descriptor), which cannot be deleted while it holds the store: a restore or
repair is refused while any writer holds the store, lock file or not. (Never a
POSIX ``fcntl`` lock on the database file: closing any other descriptor of
that file would drop SQLite's own locks with it.) So one data directory has
one writer, whatever its stores are called.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
from pathlib import Path

from companion.games.messages import Message, msg


class LockHeld(Exception):
    """Another process holds the writer's lock; ``holder`` describes it ("process 123: companion run")."""

    def __init__(self, holder: str | Message) -> None:
        super().__init__(holder)
        self.holder = holder


def lock_path(database: Path) -> Path:
    """The lock file of the database at ``database``."""
    return database.with_name(database.name + ".lock")


def _this_process() -> str:
    command = " ".join(Path(sys.argv[0]).name if i == 0 else arg for i, arg in enumerate(sys.argv))
    return f"process {os.getpid()}: {command or 'python'}"


class WriterLock:
    """The exclusive right to write one store, held until :meth:`release` (or the process ends)."""

    def __init__(self, fd: int, path: Path, directory_fd: int | None = None) -> None:
        self._fd: int | None = fd
        self._directory_fd = directory_fd
        self.path = path

    @classmethod
    def acquire(cls, database: Path) -> WriterLock:
        """Take the lock of ``database`` now, or :class:`LockHeld`; :class:`OSError` if it cannot be made."""
        path = lock_path(database)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
        directory_fd: int | None = None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            directory_fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            fcntl.flock(directory_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            try:
                holder: str | Message = os.pread(fd, 4096, 0).decode("utf-8", "replace").strip()
                if directory_fd is not None:  # the file was free: a writer holds the folder without it
                    holder = msg("store.lock.folder", path=str(path.parent))
            finally:
                os.close(fd)
                if directory_fd is not None:
                    os.close(directory_fd)
            raise LockHeld(holder or msg("store.lock.starting")) from None
        except BaseException:
            os.close(fd)
            if directory_fd is not None:
                os.close(directory_fd)
            raise
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, (_this_process() + "\n").encode("utf-8", "replace"), 0)
        except OSError:
            pass  # the lock holds without its label; a refused writer then names no process
        return cls(fd, path, directory_fd)

    def release(self) -> None:
        """Give up the lock (the file stays; an unlocked file means nothing)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)  # closing the descriptor drops the flock
        if self._directory_fd is not None:
            os.close(self._directory_fd)
            self._directory_fd = None
