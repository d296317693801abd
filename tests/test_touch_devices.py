"""The kiosk's touch devices, read from a sysfs-shaped folder with the capabilities real devices
report: qemu's virtio tablet (read in the emulated box), the official display's FT5406 (multi-touch),
a single-touch resistive HDMI panel, a keyboard, a mouse and the power button."""

from __future__ import annotations

from pathlib import Path

import pytest

from ui.kivy_setup import TOUCH_INPUT, kiosk_input, touch_inputs
from ui.touch_devices import bitmap, touch_devices

#: name -> (abs, key) as /sys/class/input/eventN/device/capabilities/ writes them (64-bit words)
DEVICES = {
    # qemu's virtio-tablet-pci, as `cat /proc/bus/input/devices` showed it in the emulated box
    "QEMU Virtio Tablet": ("3", "30000 1f0000 0 0 0 0"),
    # the official 7" display (edt-ft5x06): ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X and _Y,
    # ABS_MT_TRACKING_ID; BTN_TOUCH
    "generic ft5x06 (79)": ("260800000000003", "400 0 0 0 0 0"),
    # a single-touch resistive panel: ABS_X, ABS_Y, ABS_PRESSURE and BTN_TOUCH
    "ADS7846 Touchscreen": ("1000003", "400 0 0 0 0 0"),
    "AT Translated Set 2 keyboard": ("0", "402000000 3803078f800d001 feffffdfffefffff fffffffffffffffe"),
    "Logitech USB Optical Mouse": ("0", "70000 0 0 0 0"),
    "gpio-keys": ("0", "10000000000000 0"),
}


def sysfs(folder: Path, devices: dict[str, tuple[str, str]]) -> Path:
    for number, (name, (absolute, keys)) in enumerate(devices.items()):
        device = folder / f"event{number}" / "device"
        (device / "capabilities").mkdir(parents=True)
        (device / "name").write_text(name + "\n")
        (device / "capabilities" / "abs").write_text(absolute + "\n")
        (device / "capabilities" / "key").write_text(keys + "\n")
    (folder / "mice").mkdir()  # not an event device: never read
    return folder


def test_a_bitmap_reads_its_words_most_significant_first() -> None:
    assert bitmap("1 0") == 1 << 64
    assert bitmap("30000 1f0000 0 0 0 0") >> 0x110 & 1  # BTN_LEFT of the tablet
    assert bitmap("") == 0 and bitmap("0") == 0


def test_the_panels_are_taken_single_touch_and_multi_touch_and_nothing_else(tmp_path: Path) -> None:
    found = touch_devices(sysfs(tmp_path, DEVICES))
    assert [device.name for device in found] == list(DEVICES)[:3]
    assert [device.multitouch for device in found] == [False, True, False]
    assert [device.node for device in found] == [f"/dev/input/event{number}" for number in range(3)]


def test_kivy_gets_one_provider_per_touch_device_and_the_defaults_are_gone(tmp_path: Path) -> None:
    from kivy.config import ConfigParser

    config = ConfigParser(name="touch-devices-test")
    config.add_section("input")
    config.set("input", "mouse", "mouse")  # Kivy's defaults on Linux: a mouse and a probe of every device
    config.set("input", "%(name)s", "probesysfs")
    kiosk_input(config, sysfs(tmp_path, DEVICES))
    # each read upright: Linux counts Y from the top, Kivy from the bottom (hidinput's invert_y=0)
    assert config.items("input") == [(f"touch_event{number}", f"hidinput,/dev/input/event{number},invert_y=0")
                                     for number in range(3)]


@pytest.mark.parametrize("left", ["Logitech USB Optical Mouse", "AT Translated Set 2 keyboard", "gpio-keys"])
def test_without_a_touch_device_kivy_s_multi_touch_probe_is_left(tmp_path: Path, left: str) -> None:
    assert touch_inputs(sysfs(tmp_path, {left: DEVICES[left]})) == [TOUCH_INPUT]


def test_an_absolute_position_without_a_button_is_no_touch(tmp_path: Path) -> None:
    """A joystick's or an accelerometer's axes are absolute too; without a touch or left button
    nothing says where a finger is down."""
    assert touch_devices(sysfs(tmp_path, {"Accelerometer": ("7", "0")})) == []
