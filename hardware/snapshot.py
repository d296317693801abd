"""``companion snapshot``'s OLED writer: the frames of a record's final state as PNG files.

The pages are drawn exactly as on the appliance and passed through luma's
``dummy`` device (the in-memory OLED), whose image is saved: ``oled.png``
for the first page, ``oled-2.png``… for the others.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hardware.oled import dummy_device_factory
from hardware.oled_pages import status_pages
from hardware.oled_render import draw


def write_oled(record: Any, state: Any, out: Path) -> list[Path]:
    """Write the OLED pages of ``state`` into ``out``; returns the files written."""
    device = dummy_device_factory()()
    written = []
    for number, page in enumerate(status_pages(record.game, state), start=1):
        device.display(draw(page))
        path = out / ("oled.png" if number == 1 else f"oled-{number}.png")
        device.image.convert("1").save(path)
        written.append(path)
    return written
