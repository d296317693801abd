"""The GPIO buttons and the rotary encoder, through gpiozero: each event becomes a posted key.

gpiozero calls ``when_*`` callbacks in its own threads. They do nothing but
post the key's name to the command queue (``post(key)``); the main loop
hands it to :meth:`hardware.navigator.Navigator.key`. A short press is
reported when the button is released before ``buttons.hold_time``; holding it
longer is the long press (Undo: redo; Valuation: record the valuation card;
Menu: leave the hardware test; Next without an encoder: confirm).

Pins are BCM numbers from the configuration (a pin set to ``None`` there is
not wired); buttons are active low with internal pull-ups.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.service.config import ConfigValues

log = logging.getLogger(__name__)

#: Each button: (its configuration key, the key of a short press, the key of a long press).
BUTTONS = (
    ("buttons.undo", "undo", "redo"),
    ("buttons.valuation", "valuation", "valuation_hold"),
    ("buttons.menu", "menu", "menu_hold"),
    ("buttons.confirm", "next", "confirm"),
)


class Controls:
    """The wired buttons and encoder; ``post(key)`` is called from gpiozero's threads."""

    def __init__(self, config: ConfigValues, post: Callable[[str], None], pin_factory: Any) -> None:
        from gpiozero import Button, RotaryEncoder

        self._post = post
        self.devices: dict[str, Any] = {}
        try:
            self._build(config, pin_factory, Button, RotaryEncoder)
        except Exception:
            self.close()  # a pin that failed: release the ones already taken before the next attempt
            raise

    def _build(self, config: ConfigValues, pin_factory: Any, Button: Any, RotaryEncoder: Any) -> None:
        hold = float(config["buttons.hold_time"])
        for config_key, short, long in BUTTONS:
            pin = config[config_key]
            if pin is None:
                continue
            button = Button(pin, pull_up=True, hold_time=hold, pin_factory=pin_factory)
            self._wire(button, short, long)
            self.devices[short] = button
        if config["encoder.enabled"]:
            encoder = RotaryEncoder(config["encoder.a"], config["encoder.b"], max_steps=0,
                                    pin_factory=pin_factory)
            encoder.when_rotated_clockwise = lambda: self._post("next")
            encoder.when_rotated_counter_clockwise = lambda: self._post("previous")
            self.devices["encoder"] = encoder
            if config["encoder.push"] is not None:
                push = Button(config["encoder.push"], pull_up=True, hold_time=hold, pin_factory=pin_factory)
                push.when_pressed = lambda: self._post("confirm")
                self.devices["push"] = push

    def _wire(self, button: Any, short: str, long: str) -> None:
        held = [False]

        def pressed() -> None:
            held[0] = False

        def on_held() -> None:
            held[0] = True
            self._post(long)

        def released() -> None:
            if not held[0]:
                self._post(short)

        button.when_pressed = pressed
        button.when_held = on_held
        button.when_released = released

    def close(self) -> None:
        for device in self.devices.values():
            try:
                device.close()
            except Exception:  # closing must not stop the others
                log.exception("closing %s failed", device)
