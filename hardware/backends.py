"""Which device each piece of hardware uses: real, simulated (mock) or none.

Chosen the way gpiozero chooses its pin factory: each piece (``buttons``,
``oled``; the seat panels have their own module) is ``real``, ``mock`` or
``none`` in the configuration, or ``auto``: real on a Raspberry Pi (its GPIO
chip and I2C bus exist), simulated elsewhere. ``COMPANION_BUTTONS`` and
``COMPANION_OLED`` override the file, so a test or a person at a laptop can
switch a piece without editing it.

On Raspberry Pi OS Bookworm the real buttons use gpiozero's ``lgpio`` pin
factory: RPi.GPIO's edge detection fails on kernel 6.6 and on the Pi 5.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from companion.i18n import text

Backend = Literal["real", "mock", "none"]
CHOICES = ("auto", "real", "mock", "none")
#: The environment variable that overrides each piece's configured backend.
VARIABLES = {"buttons": "COMPANION_BUTTONS", "oled": "COMPANION_OLED"}


class BackendError(ValueError):
    """A backend name that is none of auto, real, mock or none (names where it came from)."""


def on_raspberry_pi(root: Path = Path("/")) -> bool:
    """Whether this machine has a GPIO chip and an I2C bus, as a Raspberry Pi with I2C enabled has."""
    dev = root / "dev"
    return (dev / "gpiochip0").exists() and any(dev.glob("i2c-*"))


def choose(piece: str, configured: str, environ: Mapping[str, str] | None = None,
           root: Path = Path("/")) -> Backend:
    """The backend of ``piece``: the environment's override, else the configuration; ``auto`` resolved."""
    environ = os.environ if environ is None else environ
    variable = VARIABLES[piece]
    if environ.get(variable):
        value, source = environ[variable], variable
    else:
        value, source = configured, f"{piece}.backend"
    value = value.strip().lower()
    if value not in CHOICES:
        raise BackendError(text("hardware.backend.unknown", source=source, choices=", ".join(CHOICES),
                                value=value[:20]))
    if value == "auto":
        return "real" if on_raspberry_pi(root) else "mock"
    return value  # type: ignore[return-value]


def pin_factory(backend: Backend) -> Any:
    """gpiozero's pin factory for ``backend``: lgpio on a real Pi, the mock factory otherwise.

    ``None`` for ``none`` (no buttons). The lgpio factory is what Bookworm needs;
    where lgpio is not installed gpiozero's own default search is used.
    """
    if backend == "none":
        return None
    if backend == "mock":
        from gpiozero.pins.mock import MockFactory  # gpiozero loads with the buttons, never before

        return MockFactory()
    try:
        from gpiozero.pins.lgpio import LGPIOFactory
    except ImportError:  # not on a Pi with lgpio: gpiozero picks what it can
        from gpiozero import Device

        return Device._default_pin_factory()
    return LGPIOFactory()
