"""Logging for the appliance: to standard error (the journal under systemd), without floods.

A hardware fault tends to repeat: an unplugged OLED fails on every frame, a
panel's port on every retry. The journal must show the first failure and
then how often it went on, not thousands of identical lines that push
everything else out of the SD card's log. :class:`RepeatFilter` lets the
first record of a kind through and then at most one per interval, counting
the ones it held back.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from typing import TextIO

#: No timestamps: the journal adds its own.
FORMAT = "%(levelname)s %(name)s: %(message)s"


class RepeatFilter(logging.Filter):
    """At most one record per ``every`` seconds for each logger, level and message template."""

    def __init__(self, every: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.every = every
        self._clock = clock
        self._seen: dict[tuple[str, int, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, str(record.msg))
        now = self._clock()
        last = self._seen.get(key)
        if last is not None and now - last[0] < self.every:
            self._seen[key] = (last[0], last[1] + 1)
            return False
        held_back = last[1] if last is not None else 0
        self._seen[key] = (now, 0)
        if held_back:
            record.msg = f"{record.msg} (and {held_back} more like it since the last one)"
        return True


def configure(level: int, stream: TextIO | None = None, every: float = 60.0) -> logging.Handler:
    """Send the companion's log to ``stream`` (standard error) at ``level``, repeats held back."""
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.addFilter(RepeatFilter(every))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return handler
