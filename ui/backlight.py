"""The touchscreen's backlight in the app: dimmed when nobody touches the table, woken by a touch.

:class:`~hardware.backlight.IdleDimmer` does the dimming; this wires it into
Kivy: every touch is activity, Kivy's clock runs its tick (the main loop, as
the watchdog), and the ``backlight.timeout`` setting (seconds to off, 0:
never) is read again on each tick, so a change in the settings holds at once.

A touch on a dark screen only wakes it: the players cannot see what they
would tap, so that touch (its down, moves and up) reaches no widget.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hardware.backlight import SYSFS, Backlight, IdleDimmer

#: Seconds without a touch before the screen dims (never more than half the time to off).
DIM_AFTER = 120.0
#: How often Kivy's clock looks at the idle time (seconds).
TICK_SECONDS = 1.0
SETTING = "backlight.timeout"


def idle_times(timeout: int) -> tuple[float, float]:
    """(dim after, off after) in seconds for the ``backlight.timeout`` setting (0: never either)."""
    if timeout <= 0:
        return math.inf, math.inf
    return min(DIM_AFTER, timeout / 2), float(timeout)


class TouchLight:
    """The backlight driven by touches and Kivy's clock; :meth:`wire` connects it to the window."""

    def __init__(self, settings: Callable[[], dict[str, Any]], root: Path = SYSFS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._settings = settings
        self.dimmer = IdleDimmer(Backlight(root), clock=clock)
        self._swallowed: set[Any] = set()
        self.refresh()

    def refresh(self) -> None:
        """Take the ``backlight.timeout`` setting as it is now."""
        self.dimmer.dim_after, self.dimmer.off_after = idle_times(int(self._settings()[SETTING]))

    def tick(self, _dt: float = 0.0) -> None:
        self.refresh()
        self.dimmer.tick()

    def touch_down(self, _window: object, touch: Any) -> bool:
        """Activity; True (the touch stops here) when it only woke the screen (a screen without a
        backlight here, as a laptop's, was never dark: its touches always act)."""
        if self.dimmer.activity() and self.dimmer.backlight.present:
            self._swallowed.add(touch.uid)
            return True
        return False

    def touch_move(self, _window: object, touch: Any) -> bool:
        return touch.uid in self._swallowed

    def touch_up(self, _window: object, touch: Any) -> bool:
        if touch.uid in self._swallowed:
            self._swallowed.discard(touch.uid)
            return True
        return False

    def wire(self) -> None:
        """Listen to the window's touches (ahead of its widgets) and tick on Kivy's clock."""
        from kivy.clock import Clock
        from kivy.core.window import Window

        Window.bind(on_touch_down=self.touch_down, on_touch_move=self.touch_move, on_touch_up=self.touch_up)
        Clock.schedule_interval(self.tick, TICK_SECONDS)

    def unwire(self) -> None:
        from kivy.clock import Clock
        from kivy.core.window import Window

        Window.unbind(on_touch_down=self.touch_down, on_touch_move=self.touch_move, on_touch_up=self.touch_up)
        Clock.unschedule(self.tick)
