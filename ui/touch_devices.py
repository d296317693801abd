"""Which of Linux's input devices a finger lands on: the kiosk reads those, and nothing else.

Kivy's own probe (``probesysfs``) keeps either the devices that report multi-touch positions or,
with ``select_all``, every device — the keyboard and the mouse included. The official 7" display
is multi-touch, but many HDMI touch panels report a single touch, as an absolute pointer: X and Y
positions (``ABS_X``, ``ABS_Y``) and a touch or left button; so does qemu's tablet, the emulated
box's touch. The kiosk takes both kinds, read by Kivy's ``hidinput``, one provider for each
device (two providers of one device would double every tap), and leaves out what reports no
absolute position (a keyboard, a mouse, the power button).

The devices are read from sysfs (``/sys/class/input/event*/device/capabilities``) as Kivy's probe
reads them: each capability is a bitmap written as hexadecimal words of the kernel's ``long``, the
most significant first. Read once, when the app starts (as Kivy's probe does): a panel plugged in
later is taken at the next start.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from pathlib import Path

#: Where Linux lists its input devices.
SYSFS_INPUT = Path("/sys/class/input")
#: From linux/input-event-codes.h.
ABS_X, ABS_Y, ABS_MT_POSITION_X = 0x00, 0x01, 0x35
BTN_LEFT, BTN_TOUCH = 0x110, 0x14A
_LONG_BITS = ctypes.sizeof(ctypes.c_long) * 8


def bitmap(text: str, long_bits: int = _LONG_BITS) -> int:
    """A sysfs capability bitmap (``"30000 1f0000 0 0 0 0"``: words of the kernel's ``long``, the most
    significant first) as one number."""
    value = 0
    for word in text.split():
        value = (value << long_bits) | int(word, 16)
    return value


@dataclass(frozen=True)
class InputDevice:
    """One of ``/sys/class/input/event*``: its ``/dev/input`` node, name and capabilities."""

    node: str
    name: str
    absolute: int
    keys: int

    def has_absolute(self, code: int) -> bool:
        return bool(self.absolute >> code & 1)

    def has_key(self, code: int) -> bool:
        return bool(self.keys >> code & 1)

    @property
    def multitouch(self) -> bool:
        return self.has_absolute(ABS_MT_POSITION_X)

    @property
    def touched(self) -> bool:
        """Reports where it is touched: multi-touch positions, or an absolute X and Y with a touch
        or left button (a single-touch panel, an absolute pointer); not a mouse's relative moves."""
        if self.multitouch:
            return True
        pointed = self.has_absolute(ABS_X) and self.has_absolute(ABS_Y)
        return pointed and (self.has_key(BTN_TOUCH) or self.has_key(BTN_LEFT))


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""


def input_devices(sysfs: Path = SYSFS_INPUT) -> list[InputDevice]:
    """The event devices Linux lists, in the order of their numbers."""
    found = []
    for event in sysfs.glob("event*"):
        if not event.name.removeprefix("event").isdigit():
            continue
        capabilities = event / "device" / "capabilities"
        found.append(InputDevice(node=f"/dev/input/{event.name}", name=_read(event / "device" / "name"),
                                 absolute=bitmap(_read(capabilities / "abs")),
                                 keys=bitmap(_read(capabilities / "key"))))
    return sorted(found, key=lambda device: int(device.node.rsplit("event", 1)[1]))


def touch_devices(sysfs: Path = SYSFS_INPUT) -> list[InputDevice]:
    """The devices a finger lands on (:attr:`InputDevice.touched`)."""
    return [device for device in input_devices(sysfs) if device.touched]
