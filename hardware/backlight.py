"""The touchscreen's backlight: dimmed after inactivity, woken by a touch or a button.

Linux exposes a panel's backlight as ``/sys/class/backlight/<name>/brightness``
(0 … ``max_brightness``); the official Raspberry Pi touch displays and most
DSI panels have one. The installer's udev rule lets the companion's group
write it. A machine without a backlight (a laptop, an HDMI screen) simply
has no device here, and :class:`Backlight` does nothing.

:class:`IdleDimmer` is driven by the app's main loop: :meth:`IdleDimmer.activity`
on every touch or button, :meth:`IdleDimmer.tick` on every turn of the loop;
the times come from the monotonic clock, so a clock set at boot does not
blank the screen mid-game.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

SYSFS = Path("/sys/class/backlight")


class Backlight:
    """The first backlight under ``root``, or none; writes that fail are logged once, never raised."""

    def __init__(self, root: Path = SYSFS) -> None:
        devices = sorted(root.iterdir()) if root.is_dir() else []
        self.device: Path | None = devices[0] if devices else None
        self.maximum = self._read("max_brightness") if self.device is not None else 0
        self._failed = False

    @property
    def present(self) -> bool:
        return self.device is not None and self.maximum > 0

    def _read(self, name: str) -> int:
        assert self.device is not None
        try:
            return int((self.device / name).read_text().strip())
        except (OSError, ValueError):
            return 0

    @property
    def level(self) -> float:
        """The brightness now, 0.0 (off) … 1.0 (full)."""
        return self._read("brightness") / self.maximum if self.present else 0.0

    def set_level(self, fraction: float) -> None:
        """Set the brightness to ``fraction`` of the maximum (at least 1 step unless 0)."""
        if not self.present:
            return
        assert self.device is not None
        fraction = min(1.0, max(0.0, fraction))
        steps = round(fraction * self.maximum)
        if fraction > 0 and steps == 0:
            steps = 1
        try:
            (self.device / "brightness").write_text(f"{steps}\n")
        except OSError as error:
            if not self._failed:
                log.warning("the backlight cannot be set (%s); the screen stays as it is", error)
            self._failed = True
        else:
            self._failed = False


class IdleDimmer:
    """Full brightness while people play; dimmed after ``dim_after`` idle seconds, off after ``off_after``."""

    def __init__(self, backlight: Backlight, *, dim_after: float = 120.0, off_after: float = 900.0,
                 bright_level: float = 1.0, dim_level: float = 0.2,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.backlight = backlight
        self.dim_after = dim_after
        self.off_after = off_after
        self.bright_level = bright_level
        self.dim_level = dim_level
        self._clock = clock
        self._last_activity = clock()
        self.state = "bright"
        backlight.set_level(bright_level)

    def activity(self) -> bool:
        """A touch or a button: wake the screen. True when it was dimmed or off (the tap only woke it)."""
        self._last_activity = self._clock()
        woke = self.state != "bright"
        if woke:
            self.state = "bright"
            self.backlight.set_level(self.bright_level)
        return woke

    def tick(self) -> None:
        """Called by the main loop: dim or switch off when the table has been idle long enough."""
        idle = self._clock() - self._last_activity
        wanted = "off" if idle >= self.off_after else "dim" if idle >= self.dim_after else "bright"
        if wanted != self.state and wanted != "bright":
            self.state = wanted
            self.backlight.set_level(0.0 if wanted == "off" else self.dim_level)
