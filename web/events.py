"""Change notices: the store watched from one thread, each change told to every open ``/events``.

One poll every :data:`POLL_SECONDS` asks the store whether it changed (see
:mod:`web.store_reader`); a change raises the version and wakes every waiting
client at once. Nothing is queued per client: a client that wakes reads the
version now, so a phone that slept through ten moves gets one notice and
catches up with one fetch, and memory does not grow with slow clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from web.store_reader import StoreReader

#: How often the store is asked whether it changed: a notice goes out within this of a commit.
POLL_SECONDS = 0.2

log = logging.getLogger("companion.web")

T = TypeVar("T")


class StoreThread:
    """The one thread every store call runs on (a SQLite connection belongs to its thread)."""

    def __init__(self, reader: StoreReader) -> None:
        self.reader = reader
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="web-store")

    async def call(self, function: Callable[[StoreReader], T]) -> T:
        """Run ``function(reader)`` on the store's thread and await its result."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, function, self.reader)

    def close(self) -> None:
        self._executor.submit(self.reader.close).result()
        self._executor.shutdown(wait=True)


class Changes:
    """The store's version as the clients see it, and a way to wait for the next one."""

    def __init__(self) -> None:
        self.version = 0
        self._next = asyncio.Event()

    def announce(self, version: int) -> None:
        """The store changed: wake everybody waiting."""
        self.version = version
        woken, self._next = self._next, asyncio.Event()
        woken.set()

    async def wait(self, seen: int, timeout: float) -> int:
        """The version once it differs from ``seen``, or as it is after ``timeout`` seconds."""
        if self.version != seen:
            return self.version
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._next.wait(), timeout)
        return self.version


async def watch(store: StoreThread, changed: Callable[[int], Awaitable[None]], *,
                interval: float = POLL_SECONDS) -> None:
    """Poll the store until cancelled, awaiting ``changed(version)`` at each change. A failing
    poll is logged once per kind of failure and tried again: the page must outlive a store
    being repaired."""
    failing: str | None = None
    while True:
        try:
            if await store.call(lambda reader: reader.poll()):
                await changed(store.reader.version)
            failing = None
        except Exception as error:  # a store mid-restore, a full disk: say so once, keep watching
            kind = type(error).__name__
            if kind != failing:
                log.error("web: watching the store failed: %s: %s", kind, error)
                failing = kind
        await asyncio.sleep(interval)
