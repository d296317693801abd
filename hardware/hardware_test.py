"""``companion hardware test``: a test pattern on the OLED, then every button and encoder step named.

For whoever wires the box: each press, long press and encoder step is named
on standard output and on the OLED as it arrives, so a swapped wire shows at
once. It uses the same backends, pins and OLED settings as the appliance.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.i18n import text
from companion.service.config import ConfigValues
from hardware.backends import choose, pin_factory
from hardware.oled import OledDevice, dummy_device_factory, real_device_factory
from hardware.oled_pages import notice_page
from hardware.oled_render import HEIGHT, WIDTH, draw


def test_pattern() -> Any:
    """A frame around the edge and a checkerboard inside: dead pixels and a shifted image show."""
    from PIL import Image, ImageDraw

    image = Image.new("1", (WIDTH, HEIGHT), 0)
    canvas = ImageDraw.Draw(image)
    canvas.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=1)
    for y in range(2, HEIGHT - 2):
        for x in range(2 + y % 2, WIDTH - 2, 2):
            image.putpixel((x, y), 1)
    return image


class HardwareTest:
    """The backends of the configuration, their events named through ``say`` and on the OLED."""

    def __init__(self, config: ConfigValues, say: Callable[[str], None], *,
                 environ: Mapping[str, str] | None = None, factory: Any = None,
                 oled_factory: Callable[[], Any] | None = None) -> None:
        self.config = config
        self.say = say
        self.buttons = choose("buttons", config["buttons.backend"], environ)
        self.oled_backend = "none" if config["oled.driver"] == "none" else choose(
            "oled", config["oled.backend"], environ)
        if oled_factory is None and self.oled_backend != "none":
            oled_factory = (real_device_factory(config) if self.oled_backend == "real"
                            else dummy_device_factory(config["oled.rotation"]))
        self.oled = OledDevice(oled_factory) if oled_factory is not None else None
        self.factory = factory if factory is not None else pin_factory(self.buttons)
        self.controls: Any = None
        self.seen: list[str] = []

    def start(self) -> None:
        self.say(text("hardware.test.start"))
        self.say(text("hardware.test.backends", buttons=self.buttons, oled=self.oled_backend))
        if self.oled is not None:
            self.oled.send(test_pattern())
            self.say(text("hardware.test.pattern"))
        self.echo_panels()
        if self.factory is not None:
            from hardware.controls import Controls

            self.controls = Controls(self.config, self.arrived, self.factory)

    def echo_panels(self) -> None:
        """Each configured seat panel asked to echo (a silent or missing one is named, never raised)."""
        from hardware.panels import echo_from_config

        if not self.config["serial.panels"]:
            self.say(text("hardware.test.panels"))
            return
        for result in echo_from_config(self.config):
            self.say(str(result.message))

    def arrived(self, key: str) -> None:
        """A key from gpiozero's thread: named on standard output and on the OLED."""
        name = text(f"oled.button.{key}")
        self.seen.append(key)
        self.say(text("hardware.test.key", button=name))
        if self.oled is not None:
            self.oled.send(draw(notice_page(text("oled.test.title"), name)))

    def close(self) -> None:
        if self.controls is not None:
            self.controls.close()
        if self.oled is not None:
            self.oled.close()
