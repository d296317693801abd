"""The backlight against a sysfs-shaped folder (the same files the kernel shows)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from hardware.backlight import Backlight, IdleDimmer


def _panel(tmp_path: Path, maximum: int = 255, name: str = "10-0045") -> Path:
    device = tmp_path / "backlight" / name
    device.mkdir(parents=True)
    (device / "max_brightness").write_text(f"{maximum}\n")
    (device / "brightness").write_text(f"{maximum}\n")
    return device


def test_levels_are_written_as_the_kernel_reads_them(tmp_path: Path) -> None:
    device = _panel(tmp_path)
    light = Backlight(tmp_path / "backlight")
    light.set_level(0.5)
    assert (device / "brightness").read_text() == "128\n" and light.level == pytest.approx(128 / 255)
    light.set_level(0.001)
    assert (device / "brightness").read_text() == "1\n"  # dim, never off by rounding
    light.set_level(-3)
    assert (device / "brightness").read_text() == "0\n"


def test_no_backlight_means_nothing_happens(tmp_path: Path) -> None:
    light = Backlight(tmp_path / "no-such-folder")
    assert not light.present
    light.set_level(0.3)
    assert light.level == 0.0


def test_a_write_that_fails_is_logged_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    device = _panel(tmp_path)
    light = Backlight(tmp_path / "backlight")
    (device / "brightness").unlink()
    (device / "brightness").mkdir()  # writing it now fails, as a read-only sysfs file would
    with caplog.at_level(logging.WARNING):
        for _ in range(5):
            light.set_level(0.5)
    assert len([r for r in caplog.records if "backlight" in r.getMessage()]) == 1


def test_idle_dims_then_switches_off_and_a_touch_wakes_it(tmp_path: Path) -> None:
    device = _panel(tmp_path, maximum=100)
    now = [0.0]
    dimmer = IdleDimmer(Backlight(tmp_path / "backlight"), dim_after=120, off_after=900,
                        dim_level=0.2, clock=lambda: now[0])

    def brightness() -> str:
        return (device / "brightness").read_text().strip()

    now[0] = 119
    dimmer.tick()
    assert (dimmer.state, brightness()) == ("bright", "100")
    now[0] = 120
    dimmer.tick()
    assert (dimmer.state, brightness()) == ("dim", "20")
    now[0] = 900
    dimmer.tick()
    assert (dimmer.state, brightness()) == ("off", "0")
    assert dimmer.activity() is True  # the tap only woke the screen
    assert (dimmer.state, brightness()) == ("bright", "100")
    assert dimmer.activity() is False
