"""The panel's side of the tests: a pseudo-terminal a test speaks through, and a main loop to pump.

A :class:`PtyPanel` is a real pseudo-terminal pair (``os.openpty``): the
companion opens the slave's name (or a symbolic link to it, as udev's
``/dev/serial/by-id`` links are) exactly as it opens ``/dev/ttyACM0``, and the
test reads what it wrote from the master, on one reader thread, and writes
the panel's lines there. :func:`pump` is the main loop: it drains the
table's command queue on the test's own thread (the store's connection
belongs to it) until a condition holds, with a generous time-out.
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

from companion.service.table import Table
from hardware.panel_protocol import LineSplitter

#: Seconds to wait for anything; generous, never a measurement.
WAIT = 30.0


def pump(table: Table, condition: Callable[[], bool], timeout: float = WAIT,
         shown: Callable[[], object] | None = None) -> None:
    """Run the main loop (drain the table's commands) until ``condition()`` holds.

    ``shown`` gives what to print when it never does (the panel's screen, say).
    """
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            seen = "" if shown is None else f"; last seen: {shown()!r}"
            raise AssertionError(f"the condition did not come true in time{seen}")
        table.commands.drain(timeout=0.01)


class PtyPanel:
    """A pseudo-terminal the companion opens as a panel's port; the test is the panel."""

    def __init__(self, link: Path | None = None) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.device = os.ttyname(self.slave)
        self.link = link
        if link is not None:
            link.unlink(missing_ok=True)
            link.symlink_to(self.device)
        self.name = str(link) if link is not None else self.device
        self.lines: list[str] = []
        self._splitter = LineSplitter()
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._read, name=f"test panel {self.device}", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while not self._closed.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            for item in self._splitter.feed(data):
                if isinstance(item, bytes):
                    self.lines.append(item.decode("utf-8"))

    def say(self, line: str | bytes) -> None:
        """Send ``line`` (a line end is added) as the panel."""
        data = line.encode("utf-8") if isinstance(line, str) else line
        os.write(self.master, data + b"\n")

    def got(self, keyword: str) -> list[str]:
        """The rest of every line with ``keyword`` the companion wrote, oldest first."""
        return [line.partition(" ")[2] for line in list(self.lines) if line.partition(" ")[0] == keyword]

    def unplug(self) -> None:
        """Pull the plug: the pseudo-terminal and its link go away."""
        self._closed.set()
        self._thread.join(WAIT)
        if self.link is not None:
            self.link.unlink(missing_ok=True)
        os.close(self.master)
        os.close(self.slave)
