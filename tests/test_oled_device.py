"""The OLED worker and view: newest frame wins, faults retried, redraw on change, dim and blank.

Real threads and luma's real ``dummy`` device; a failing device is a dummy
whose ``display`` raises ``OSError`` as a loose I2C wire does. Every wait is
on an event with a generous time-out; nothing asserts a duration.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

import pytest
from luma.core.device import dummy
from PIL import Image

from companion.service.app import Companion
from companion.service.table import Table
from hardware.navigator import Navigator
from hardware.oled import OledDevice, luma_arguments
from hardware.oled_view import DIM_SECONDS, OledView

WAIT = 30.0


def _frame(value: int) -> Image.Image:
    image = Image.new("1", (128, 64), 0)
    image.putpixel((value % 128, value // 128), 1)
    return image


class Flaky(dummy):
    """A dummy OLED that raises OSError on chosen frames (mid-frame, as the bus does)."""

    def __init__(self, fail_on: set[int], **kwargs: Any) -> None:
        super().__init__(width=128, height=64, mode="1", **kwargs)
        self.fail_on = fail_on
        self.calls = 0

    def display(self, image: Any) -> None:
        self.calls += 1
        if self.calls in self.fail_on:
            raise OSError(121, "Remote I/O error")
        super().display(image)


def test_a_frame_reaches_the_device() -> None:
    device = dummy(width=128, height=64, mode="1")
    oled = OledDevice(lambda: device)
    try:
        oled.send(_frame(5))
        assert oled.wait_sent(1, WAIT)
        assert device.image.convert("1").tobytes() == _frame(5).tobytes()
    finally:
        oled.close()


def test_a_newer_frame_replaces_one_not_yet_sent() -> None:
    entered, release = threading.Event(), threading.Event()
    shown: list[bytes] = []

    class Slow(dummy):
        def display(self, image: Any) -> None:
            entered.set()
            assert release.wait(WAIT)
            shown.append(image.tobytes())

    oled = OledDevice(lambda: Slow(width=128, height=64, mode="1"))
    try:
        oled.send(_frame(1))
        assert entered.wait(WAIT)  # the worker is busy with frame 1 (the bus is slow)
        for value in (2, 3, 4):
            oled.send(_frame(value))  # never blocks the main loop
        release.set()
        assert oled.wait_sent(2, WAIT)
        assert shown == [_frame(1).tobytes(), _frame(4).tobytes()]  # 2 and 3 were replaced
        assert oled.sent == 2
    finally:
        release.set()
        oled.close()


def test_an_error_mid_frame_is_logged_once_and_the_frame_sent_after_a_retry(
        caplog: pytest.LogCaptureFixture) -> None:
    built: list[Flaky] = []

    def factory() -> Flaky:
        device = Flaky({1, 2, 3} if not built else set())
        built.append(device)
        return device

    caplog.set_level(logging.WARNING, logger="hardware.oled")
    oled = OledDevice(factory, retry_seconds=0.01)
    try:
        oled.send(_frame(7))
        assert oled.wait_sent(1, WAIT)
        assert built[-1].image.convert("1").tobytes() == _frame(7).tobytes()
    finally:
        oled.close()
    assert len(built) == 2
    failures = [r for r in caplog.records if "not working" in r.getMessage()]
    assert len(failures) == 1 and "Remote I/O error" in failures[0].getMessage()
    assert any("is back" in r.getMessage() for r in caplog.records)


def test_a_missing_device_is_retried_until_it_comes(caplog: pytest.LogCaptureFixture) -> None:
    attempts = [0]

    def factory() -> dummy:
        attempts[0] += 1
        if attempts[0] < 4:
            raise OSError(2, "No such file or directory: '/dev/i2c-1'")
        return dummy(width=128, height=64, mode="1")

    caplog.set_level(logging.WARNING, logger="hardware.oled")
    oled = OledDevice(factory, retry_seconds=0.01)
    try:
        oled.send(_frame(9))
        assert oled.wait_sent(1, WAIT)
        assert oled.connected
    finally:
        oled.close()
    assert attempts[0] == 4
    assert sum("not working" in r.getMessage() for r in caplog.records) == 1


def test_the_configuration_becomes_luma_arguments() -> None:
    config = {"oled.driver": "sh1106", "oled.rotation": 2, "oled.interface": "i2c", "oled.bus": 1,
              "oled.address": 0x3D, "oled.spi_port": 0, "oled.spi_device": 0}
    assert luma_arguments(config) == ["--display", "sh1106", "--width", "128", "--height", "64",
                                      "--rotate", "2", "--interface", "i2c", "--i2c-port", "1",
                                      "--i2c-address", "0x3d"]
    from luma.core import cmdline

    parsed = cmdline.create_parser(description="t").parse_args(luma_arguments(config))
    assert (parsed.display, parsed.i2c_address, parsed.rotate) == ("sh1106", "0x3d", 2)
    spi = luma_arguments({**config, "oled.driver": "ssd1309", "oled.interface": "spi", "oled.spi_device": 1})
    assert spi[-4:] == ["--spi-port", "0", "--spi-device", "1"]


# -- the view: redraw on change, dim, blank, wake ---------------------------------------------

class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def table(tmp_path: Path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        yield Table(app)


def test_the_view_draws_only_when_the_page_changes_and_dims_then_blanks(table: Table) -> None:
    clock = Clock()
    sent: list[Any] = []
    power: list[tuple[int | None, bool | None]] = []
    view = OledView(table, Navigator(table), sent.append, lambda c, v: power.append((c, v)),
                    brightness=50, blank_seconds=600, clock=clock)
    view.tick()
    view.tick()
    assert len(sent) == 1 and view.drawn == 1  # nothing changed: no second frame
    table.start("campanile", ["Ada", "Bo", "Cy"])
    view.tick()
    assert len(sent) == 2
    assert power[0] == (128, True)  # 50 % brightness
    clock.now += DIM_SECONDS + 1
    view.tick()
    assert power[-1] == (8, None)  # dimmed
    clock.now += 600
    view.tick()
    assert power[-1] == (None, False)  # blanked: OLEDs burn in
    frames = len(sent)
    view.tick()
    assert len(sent) == frames  # nothing drawn while blank
    session = table.session
    assert session is not None
    table.propose(session.game.parse_move(session.game.legal_moves(session.state)[0]))
    assert power[-1] == (128, True)  # an event wakes it
    view.tick()
    assert "Saved" in view.page(clock.now).text()
    view.close()
