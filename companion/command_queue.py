"""The one door through which other threads reach the session.

gpiozero runs button callbacks in its own threads and the serial reader has
its own; the session is single-threaded. They post commands here, and the
main loop (Kivy's Clock, or the headless loop) drains the queue, so every
change to the game happens on one thread, in order.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

Command = Callable[[], Any]
ErrorHandler = Callable[[Exception], None]


class CommandQueue:
    """A thread-safe queue of commands run on the main loop by :meth:`drain`."""

    def __init__(self, on_error: ErrorHandler | None = None) -> None:
        self._queue: queue.SimpleQueue[Command] = queue.SimpleQueue()
        self._on_error = on_error

    def post(self, command: Command) -> None:
        """Queue ``command``; safe from any thread, never blocks."""
        self._queue.put(command)

    def drain(self, limit: int = 100, timeout: float = 0.0) -> int:
        """Run queued commands on this thread, at most ``limit``; returns how many ran.

        With ``timeout`` > 0, wait that long for the first command (a loop
        with nothing else to do sleeps here instead of spinning). A command
        that raises is reported to ``on_error`` (a refused move is shown to the
        players) and does not stop the others.
        """
        ran = 0
        while ran < limit:
            try:
                if ran == 0 and timeout > 0:
                    command = self._queue.get(timeout=timeout)
                else:
                    command = self._queue.get_nowait()
            except queue.Empty:
                break
            ran += 1
            try:
                command()
            except Exception as error:
                if self._on_error is None:
                    log.warning("command failed: %s", error)
                else:
                    self._on_error(error)
        return ran
