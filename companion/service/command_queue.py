"""The one door through which other threads reach the session.

gpiozero runs button callbacks in its own threads and the serial reader has
its own; the session is single-threaded. They post commands here, and the
main loop (Kivy's Clock, or the headless loop) drains the queue, so every
change to the game happens on one thread, in order.

Two things make that pleasant for the posters and the loop:

- :meth:`CommandQueue.submit` hands the poster a
  :class:`concurrent.futures.Future` holding the command's result or its
  exception (a seat panel tells its player "refused: ..." on its own display);
  ``future.add_done_callback`` turns it into a callback, run on the draining
  thread.
- The wake-up hook, called after every post from the posting thread, lets
  the loop drain at once instead of polling: with Kivy,
  ``CommandQueue(wake=lambda: Clock.schedule_once(lambda dt: queue.drain()))``
  (``schedule_once`` may be called from any thread).
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

log = logging.getLogger(__name__)

Command = Callable[[], Any]
ErrorHandler = Callable[[Exception], None]
WakeHook = Callable[[], None]


class CommandQueue:
    """A thread-safe queue of commands run on the main loop by :meth:`drain`."""

    def __init__(self, on_error: ErrorHandler | None = None, wake: WakeHook | None = None) -> None:
        self._queue: queue.SimpleQueue[Command] = queue.SimpleQueue()
        self._on_error = on_error
        self._wake = wake

    def set_wake(self, wake: WakeHook | None) -> None:
        """Install (or remove) the hook called after every post; it must be safe from any thread."""
        self._wake = wake

    def post(self, command: Command) -> None:
        """Queue ``command``; safe from any thread, never blocks. Its failure goes to ``on_error``."""
        self._queue.put(command)
        self._wake_loop()

    def submit(self, command: Callable[[], Any]) -> Future[Any]:
        """Queue ``command`` and return a future of its result (or its exception); from any thread.

        The failure of a submitted command goes to its future only, not to
        ``on_error``: the poster asked to hear about it. Never wait on the
        future from the draining thread itself (it would wait for itself).
        """
        future: Future[Any] = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return  # cancelled by the poster before it ran
            try:
                result = command()
            except Exception as error:
                future.set_exception(error)
            else:
                future.set_result(result)

        self._queue.put(run)
        self._wake_loop()
        return future

    def _wake_loop(self) -> None:
        wake = self._wake
        if wake is None:
            return
        try:
            wake()
        except Exception:  # the command is queued; the loop's next drain still runs it
            log.exception("the command queue's wake-up hook failed")

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
