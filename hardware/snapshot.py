"""``companion snapshot``'s OLED writer: the frames of a record's final state as PNG files.

The pages are drawn exactly as on the appliance and passed through luma's
``dummy`` device (the in-memory OLED), whose image is saved: ``oled.png``
for the first page, ``oled-2.png``… for the others. With ``problems`` (``--check``)
each page's words are checked as the touchscreen's are
(:func:`companion.i18n.leaks.leaks`: no message code, placeholder, parameter name
or internal id); a line per leak is added to it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.i18n import current_language, text
from companion.i18n.leaks import leaks
from companion.service.records import Record
from hardware.oled import dummy_device_factory
from hardware.oled_pages import status_pages
from hardware.oled_render import Page, draw


def write_oled(record: Record[Any, Any], state: object, out: Path,
               problems: list[str] | None = None) -> list[Path]:
    """Write the OLED pages of ``state`` into ``out``; returns the files written. With
    ``problems``, a line is added to it for each leak found in a page's words."""
    device = dummy_device_factory()()
    written = []
    for number, page in enumerate(status_pages(record.game, state), start=1):
        device.display(draw(page))
        path = out / ("oled.png" if number == 1 else f"oled-{number}.png")
        device.image.convert("1").save(path)
        written.append(path)
        if problems is not None:
            problems += page_leaks(page, text("hardware.check.oled", page=number))
    return written


def page_leaks(page: Page, screen: str) -> list[str]:
    """The report's lines for what ``page``'s words leak (see :func:`companion.i18n.leaks.leaks`)."""
    language = current_language()
    return [text("hardware.check.line", screen=screen, text=line.text,
                 problem=text(leak.kind, fragment=leak.fragment))
            for line in page.lines for leak in leaks(line.text, language)]
