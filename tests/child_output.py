"""Reading a child process's output one way only, while it runs and after it ends.

Mixing ``proc.stdout.readline()`` with ``proc.communicate()`` loses lines:
``readline`` fills the text wrapper's buffer with everything the pipe held
(often several lines), and ``communicate`` — when it has more than one pipe
to watch — reads the file descriptor underneath that buffer, so the lines
already buffered are never returned. :class:`ChildOutput` reads each pipe in
a thread of its own, line by line, from the start to the end of the
process, and hands the lines out through a queue: there is only one reader.
"""

from __future__ import annotations

import queue
import subprocess
import threading
from collections.abc import Iterable
from typing import IO

#: How long to wait for a line or for the end of the output (generous: a
#: slow, loaded machine must not fail a test; nothing here measures speed).
PATIENCE = 60.0


class ChildEnded(Exception):
    """The child's standard output ended before the awaited line came."""


class ChildOutput:
    """Collects a child's standard output line by line, and its standard error whole.

    The child must be started with ``stdout=PIPE, stderr=PIPE, text=True``;
    after this is created, nothing else may read those pipes.
    """

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        if proc.stdout is None or proc.stderr is None:
            raise ValueError("start the child with stdout=PIPE and stderr=PIPE")
        self.proc = proc
        self.lines: list[str] = []
        self._pending: queue.Queue[str | None] = queue.Queue()
        self._errors: list[str] = []
        self._threads = [
            threading.Thread(target=self._read_lines, args=(proc.stdout,), daemon=True),
            threading.Thread(target=self._read_all, args=(proc.stderr, self._errors), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _read_lines(self, pipe: IO[str]) -> None:
        for line in pipe:
            self._pending.put(line.rstrip("\n"))
        self._pending.put(None)  # end of output

    @staticmethod
    def _read_all(pipe: IO[str], into: list[str]) -> None:
        into.append(pipe.read())

    def next_line(self, timeout: float = PATIENCE) -> str:
        """The next line the child printed; :class:`ChildEnded` at the end of its output."""
        try:
            line = self._pending.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no line from the child in {timeout:.0f} s") from None
        if line is None:
            self._pending.put(None)  # stay at the end for later calls
            self._threads[1].join(timeout)  # its standard error ends with it
            raise ChildEnded(self.stderr_so_far())
        self.lines.append(line)
        return line

    def wait_for(self, wanted: Iterable[str], timeout: float = PATIENCE) -> str:
        """Read lines until one of ``wanted`` comes; returns it."""
        wanted = set(wanted)
        while (line := self.next_line(timeout)) not in wanted:
            pass
        return line

    def finish(self, timeout: float = PATIENCE) -> list[str]:
        """After the child ended (or was killed): every line it printed, in order."""
        self.proc.wait(timeout=timeout)
        for thread in self._threads:
            thread.join(timeout=timeout)
            if thread.is_alive():
                raise TimeoutError("the child's output did not end")
        while True:
            try:
                self.next_line(timeout=0)
            except ChildEnded:
                return list(self.lines)
            except TimeoutError:  # pragma: no cover - the reader has ended, the queue holds the end mark
                raise AssertionError("the reader ended without its end mark") from None

    def stderr_so_far(self) -> str:
        """The child's standard error, once it has ended (empty before: it is read whole)."""
        return "".join(self._errors)
