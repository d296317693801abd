"""Telling systemd that the companion is up and still alive (``sd_notify``).

The unit is ``Type=notify`` with ``WatchdogSec=``: systemd starts the next
unit only after ``READY=1``, and restarts the companion when its pings stop.
The pings must prove that the app still *works*, so they are sent from the
app's own main loop — Kivy's ``Clock`` in the touchscreen app, the headless
loop otherwise — by calling :meth:`Watchdog.tick` on every turn of it. A
background thread that pinged on its own would go on pinging while the
screen is frozen, and the appliance would never be restarted.

Outside systemd (no ``NOTIFY_SOCKET``) every call does nothing, so the same
code runs on a laptop. The socket itself is ``sdnotify``'s.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from typing import Protocol

#: Ping at this fraction of the watchdog interval, as ``sd_watchdog_enabled(3)`` recommends (half).
PING_FRACTION = 0.5


class Notifier(Protocol):
    def notify(self, state: str) -> None: ...


def _systemd_notifier() -> Notifier:
    from sdnotify import SystemdNotifier

    notifier: Notifier = SystemdNotifier()  # sdnotify has no types: its object is this protocol
    return notifier


class Watchdog:
    """``READY=1`` once, ``WATCHDOG=1`` from the main loop's ticks, ``STATUS=`` and ``STOPPING=1``.

    ``environ`` is read once: ``NOTIFY_SOCKET`` says whether systemd
    listens, ``WATCHDOG_USEC`` how often it wants a ping, and
    ``WATCHDOG_PID`` (when set) which process it wants it from — a child the
    companion starts must not ping in its parent's name.
    """

    def __init__(self, environ: Mapping[str, str] | None = None,
                 notifier: Callable[[], Notifier] = _systemd_notifier,
                 clock: Callable[[], float] = time.monotonic) -> None:
        environ = os.environ if environ is None else environ
        self._clock = clock
        self.enabled = bool(environ.get("NOTIFY_SOCKET"))
        self.interval = _ping_interval(environ) if self.enabled else None
        self._notifier = notifier() if self.enabled else None
        self._ready = False
        self._last_ping: float | None = None

    def _send(self, state: str) -> None:
        if self._notifier is not None:
            self._notifier.notify(state)

    def ready(self, status: str | None = None) -> None:
        """Say that start-up is done (once; later calls only update the status)."""
        if not self._ready:
            self._ready = True
            self._send("READY=1" + (f"\nSTATUS={status}" if status else ""))
            self._last_ping = self._clock()
        elif status:
            self.status(status)

    def tick(self) -> None:
        """Called on every turn of the main loop: pings when half the watchdog interval has passed."""
        if self.interval is None or not self._ready:
            return
        now = self._clock()
        if self._last_ping is None or now - self._last_ping >= self.interval:
            self._last_ping = now
            self._send("WATCHDOG=1")

    def status(self, text: str) -> None:
        """A one-line status that ``systemctl status`` shows."""
        self._send("STATUS=" + " ".join(text.split()))

    def stopping(self) -> None:
        """Say that the companion is shutting down on purpose (no restart is wanted for that)."""
        self._send("STOPPING=1")


def _ping_interval(environ: Mapping[str, str]) -> float | None:
    """Seconds between pings, or ``None`` when systemd wants none from this process."""
    usec = environ.get("WATCHDOG_USEC", "")
    pid = environ.get("WATCHDOG_PID", "")
    if pid and pid != str(os.getpid()):
        return None
    try:
        microseconds = int(usec)
    except ValueError:
        return None
    return microseconds / 1_000_000 * PING_FRACTION if microseconds > 0 else None
