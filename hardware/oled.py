"""The OLED device: built from the configuration, fed by a worker thread, retried when it fails.

Sending a frame over a 400 kHz I2C bus takes about 23 ms, too long for the
main loop, which must keep draining the command queue. So the main loop only
puts the newest frame into a one-frame mailbox (:meth:`OledDevice.send`) and
a worker thread transfers it; a frame not yet sent is replaced by a newer one,
never queued behind it. Brightness and power (dim, blank, wake) go the same
way, so nothing on the main loop ever waits for the bus.

A missing OLED, or one that raises ``OSError`` mid-frame (a loose I2C wire),
is logged once, dropped, and built again every few seconds; the newest frame
is sent when it comes back. Nothing else notices: the move that caused the
frame is already stored.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.service.config import ConfigValues

log = logging.getLogger(__name__)

DeviceFactory = Callable[[], Any]
#: Seconds between two attempts to build a missing or failed device.
RETRY_SECONDS = 5.0


def luma_arguments(config: ConfigValues) -> list[str]:
    """The ``luma.core.cmdline`` arguments for the configured OLED (driver, interface, rotation)."""
    args = ["--display", str(config["oled.driver"]), "--width", "128", "--height", "64",
            "--rotate", str(config["oled.rotation"]), "--interface", str(config["oled.interface"])]
    if config["oled.interface"] == "i2c":
        args += ["--i2c-port", str(config["oled.bus"]), "--i2c-address", hex(config["oled.address"])]
    else:
        args += ["--spi-port", str(config["oled.spi_port"]), "--spi-device", str(config["oled.spi_device"])]
    return args


def real_device_factory(config: ConfigValues) -> DeviceFactory:
    """A function building the real OLED through ``luma.core.cmdline`` (raises when it is absent)."""
    def build() -> Any:
        from luma.core import cmdline

        parser = cmdline.create_parser(description="companion OLED")
        args = parser.parse_args(luma_arguments(config))
        return cmdline.create_device(args)
    return build


def dummy_device_factory(rotation: int = 0) -> DeviceFactory:
    """luma's in-memory ``dummy`` device (the simulated OLED, the snapshots and the tests)."""
    def build() -> Any:
        from luma.core.device import dummy

        return dummy(width=128, height=64, rotate=rotation, mode="1")
    return build


class OledDevice:
    """The worker thread between the main loop and the display: newest frame wins, faults retried."""

    def __init__(self, factory: DeviceFactory, retry_seconds: float = RETRY_SECONDS) -> None:
        self._factory = factory
        self._retry = retry_seconds
        self._lock = threading.Condition()
        self._frame: Any = None
        self._contrast: int | None = None
        self._visible: bool | None = None
        self._stopping = False
        self._device: Any = None
        self._failing = False
        #: Frames transferred so far (the tests wait on it); the last one sent.
        self.sent = 0
        self.last_sent: Any = None
        self._thread = threading.Thread(target=self._run, name="oled", daemon=True)
        self._thread.start()

    # -- from the main loop (never blocks) ----------------------------------------
    def send(self, image: Any) -> None:
        """Show ``image`` next; a frame still waiting is dropped for it."""
        with self._lock:
            self._frame = image
            self._lock.notify_all()

    def set_contrast(self, level: int) -> None:
        """The display's contrast, 0–255 (brightness and dimming)."""
        with self._lock:
            self._contrast = max(0, min(255, level))
            self._lock.notify_all()

    def set_visible(self, visible: bool) -> None:
        """Blank (``False``) or wake (``True``) the panel; its memory keeps the frame."""
        with self._lock:
            self._visible = visible
            self._lock.notify_all()

    def close(self, timeout: float = 5.0) -> None:
        """Stop the worker (the last frame stays on the panel)."""
        with self._lock:
            self._stopping = True
            self._lock.notify_all()
        self._thread.join(timeout)

    def wait_sent(self, count: int, timeout: float = 10.0) -> bool:
        """Wait until at least ``count`` frames were transferred; whether they were."""
        with self._lock:
            return self._lock.wait_for(lambda: self.sent >= count, timeout)

    def wait_shown(self, image: Any, timeout: float = 10.0) -> bool:
        """Wait until ``image`` (its pixels) is the last frame transferred; whether it was.

        Frames in between may have been replaced: only the newest is ever owed.
        """
        wanted = image.tobytes()
        with self._lock:
            return self._lock.wait_for(
                lambda: self.last_sent is not None and self.last_sent.tobytes() == wanted, timeout)

    @property
    def connected(self) -> bool:
        """Whether a device is working now."""
        return self._device is not None

    # -- the worker ------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._stopping or self._pending())
                if self._stopping:
                    return
                frame, contrast, visible = self._frame, self._contrast, self._visible
                self._frame = self._contrast = self._visible = None
            if self._device is None and not self._connect():
                with self._lock:  # keep what was asked for the next attempt, newest first
                    self._frame = self._frame if self._frame is not None else frame
                    self._contrast = self._contrast if self._contrast is not None else contrast
                    self._visible = self._visible if self._visible is not None else visible
                    self._lock.wait_for(lambda: self._stopping, timeout=self._retry)
                continue
            try:
                if contrast is not None:
                    self._device.contrast(contrast)
                if visible is not None:
                    (self._device.show if visible else self._device.hide)()
                if frame is not None:
                    self._device.display(frame)
            except OSError as error:
                self._lost(str(error))
                with self._lock:
                    self._frame = self._frame if self._frame is not None else frame
                continue
            if frame is not None:
                with self._lock:
                    self.sent += 1
                    self.last_sent = frame
                    self._lock.notify_all()

    def _pending(self) -> bool:
        return self._frame is not None or self._contrast is not None or self._visible is not None

    def _connect(self) -> bool:
        try:
            self._device = self._factory()
        except Exception as error:  # luma raises its own DeviceNotFoundError, OSError, ...
            self._lost(str(error))
            return False
        if self._failing:
            log.warning("the OLED is back")
        self._failing = False
        return True

    def _lost(self, error: str) -> None:
        """Forget the device; log the first failure of a series only."""
        self._device = None
        if not self._failing:
            log.warning("the OLED is not working (%s); retrying every %g s", error, self._retry)
        self._failing = True
