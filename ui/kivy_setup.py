"""What Kivy must be told before it is first imported (it reads the environment at import).

- ``KIVY_NO_ARGS``: the command line is the companion's, not Kivy's.
- the providers named (SDL2 for the window, text, images and clipboard), so
  Kivy does not probe the others at start-up (the clipboard probe alone runs
  ``xclip`` and ``xsel`` as processes); images also through Pillow.
- ``offscreen``: draw into memory (tests, snapshots, benchmarks).
- the kiosk (the unit's ``SDL_VIDEODRIVER=kmsdrm``, or ``COMPANION_KIOSK=1``):
  full screen, no mouse cursor, the configured rotation — as Kivy's
  ``KCFG_<section>_<key>`` variables, which it reads when its window is
  made — and exactly one input provider for the touchscreen
  (:func:`kiosk_input`, applied before the app runs: Kivy's defaults add a
  mouse and a probe of every device, and two providers of one panel double
  every tap).

Imports no Kivy itself.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping, MutableMapping
from typing import Any

PROVIDERS = {"KIVY_WINDOW": "sdl2", "KIVY_TEXT": "sdl2", "KIVY_IMAGE": "sdl2,pil", "KIVY_CLIPBOARD": "sdl2"}

#: The one input provider of the kiosk: Linux's input events of the devices that report
#: multi-touch positions (the touchscreen; not a keyboard, not a mouse), read by Kivy's hidinput.
TOUCH_INPUT = ("touchscreen", "probesysfs,provider=hidinput")


def kiosk_wanted(environ: Mapping[str, str]) -> bool:
    """Whether the app runs as the kiosk: on KMS/DRM (as the unit starts it), or ``COMPANION_KIOSK=1``."""
    flag = environ.get("COMPANION_KIOSK", "")
    if flag:
        return flag not in ("0", "no", "false")
    return environ.get("SDL_VIDEODRIVER", "") == "kmsdrm"


def kiosk_graphics(rotation: int) -> dict[str, str]:
    """The environment that makes Kivy's window the kiosk's: full screen, no cursor, ``rotation`` degrees."""
    return {"KCFG_GRAPHICS_FULLSCREEN": "auto", "KCFG_GRAPHICS_SHOW_CURSOR": "0",
            "KCFG_GRAPHICS_ROTATION": str(rotation)}


def kiosk_input(config: Any) -> None:
    """Leave exactly one input provider in Kivy's ``config`` (its ``[input]`` section): the touchscreen's."""
    for name in list(config.options("input")):
        config.remove_option("input", name)
    config.set("input", *TOUCH_INPUT)


def prepare(offscreen: bool = False, *, rotation: int = 0,
            environ: MutableMapping[str, str] | None = None) -> bool:
    """Set Kivy's environment (values already set by the user win, but for ``KIVY_NO_ARGS``).

    Returns whether the app runs as the kiosk (then the caller applies
    :func:`kiosk_input` to Kivy's ``Config`` before the app runs).
    """
    environ = os.environ if environ is None else environ
    environ["KIVY_NO_ARGS"] = "1"
    for name, value in PROVIDERS.items():
        environ.setdefault(name, value)
    if offscreen:
        environ.setdefault("SDL_VIDEODRIVER", "offscreen")
        environ.setdefault("KIVY_NO_CONSOLELOG", "1")
        environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
    kiosk = kiosk_wanted(environ)
    if kiosk:
        for name, value in kiosk_graphics(rotation).items():
            environ.setdefault(name, value)
    return kiosk
