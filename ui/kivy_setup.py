"""What Kivy must be told before it is first imported (it reads the environment at import).

- ``KIVY_NO_ARGS``: the command line is the companion's, not Kivy's.
- the providers named (SDL2 for the window, text, images and clipboard), so
  Kivy does not probe the others at start-up (the clipboard probe alone runs
  ``xclip`` and ``xsel`` as processes); images also through Pillow.
- ``offscreen``: draw into memory (tests, snapshots, benchmarks).
- a laptop's window (an X or Wayland session): the 7" panel's 800×480 with
  the OLED panel beside it (:func:`laptop_graphics`), fixed in size, so that
  what a developer sees is what the panel and the tests show. Kivy makes its
  window when ``kivy.core.window`` is first imported (``ui.app`` does), so the
  size is told here, not later in its ``Config``: set then, it came too late
  and the window opened at Kivy's default 800×600, the OLED panel pushed out
  of it.
- the kiosk (the unit's ``SDL_VIDEODRIVER=kmsdrm``, or ``COMPANION_KIOSK=1``):
  full screen, no mouse cursor, the configured rotation — as Kivy's
  ``KCFG_<section>_<key>`` variables, which it reads when its window is
  made — and exactly one input provider for each device a finger lands on
  (:func:`kiosk_input`, applied before the app runs: Kivy's defaults add a
  mouse and a probe of every device, and two providers of one panel double
  every tap): multi-touch panels and single-touch ones (absolute pointers,
  :mod:`ui.touch_devices`).

Imports no Kivy itself.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping, MutableMapping
from pathlib import Path
from typing import Any

from hardware.oled_render import WIDTH as OLED_WIDTH
from ui.theme import SPACING, WINDOW
from ui.touch_devices import SYSFS_INPUT, touch_devices

PROVIDERS = {"KIVY_WINDOW": "sdl2", "KIVY_TEXT": "sdl2", "KIVY_IMAGE": "sdl2,pil", "KIVY_CLIPBOARD": "sdl2"}

#: Linux's touch devices count Y from the top; Kivy counts from the bottom, which its hidinput
#: does with ``invert_y=0`` (its default, 1, turns a tap at the top into one at the bottom: seen in
#: the emulated box, where the tap on a tower landed on the players' row).
HIDINPUT_UPRIGHT = "invert_y=0"
#: The kiosk's input provider when no device a finger lands on is found at start: Kivy's probe of
#: the devices that report multi-touch positions, read by its hidinput.
TOUCH_INPUT = ("touchscreen", f"probesysfs,provider=hidinput,param={HIDINPUT_UPRIGHT}")
#: The OLED's frame on a laptop's screen is scaled this many times (pixels kept square and sharp).
OLED_SCALE = 2
#: The OLED panel's width beside the touchscreen's 800 px on a laptop.
OLED_PANEL_WIDTH = OLED_WIDTH * OLED_SCALE + 2 * SPACING
#: Video drivers that draw nowhere a person looks beside the window (memory) or are the kiosk's panel.
_NO_PANEL_DRIVERS = ("kmsdrm", "offscreen", "dummy")


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


def panel_beside(environ: Mapping[str, str]) -> bool:
    """Whether the window is a laptop's (an X or Wayland session), with the OLED panel beside it.

    Not the kiosk's (it has the real OLED), and not an offscreen or dummy
    window (tests, snapshots: the touchscreen alone).
    """
    return not kiosk_wanted(environ) and environ.get("SDL_VIDEODRIVER", "") not in _NO_PANEL_DRIVERS


def laptop_graphics() -> dict[str, str]:
    """The environment that makes Kivy's window a laptop's: the panel's 800×480 and the OLED panel
    at its right, not resizable (the screens are laid out for exactly that size)."""
    return {"KCFG_GRAPHICS_WIDTH": str(WINDOW[0] + OLED_PANEL_WIDTH),
            "KCFG_GRAPHICS_HEIGHT": str(WINDOW[1]), "KCFG_GRAPHICS_RESIZABLE": "0"}


def touch_inputs(sysfs: Path = SYSFS_INPUT) -> list[tuple[str, str]]:
    """Kivy's ``[input]`` entries of the kiosk: one ``hidinput`` provider for each device a finger
    lands on (multi-touch or single-touch); Kivy's multi-touch probe when none is found."""
    found = [(f"touch_{Path(device.node).name}", f"hidinput,{device.node},{HIDINPUT_UPRIGHT}")
             for device in touch_devices(sysfs)]
    return found or [TOUCH_INPUT]


def kiosk_input(config: Any, sysfs: Path = SYSFS_INPUT) -> None:
    """Leave in Kivy's ``config`` (its ``[input]`` section) only the touch devices' providers."""
    for name in list(config.options("input")):
        config.remove_option("input", name)
    for name, provider in touch_inputs(sysfs):
        config.set("input", name, provider)


def prepare(offscreen: bool = False, *, rotation: int = 0,
            environ: MutableMapping[str, str] | None = None) -> bool:
    """Set Kivy's environment (values already set by the user win, but for ``KIVY_NO_ARGS``).

    Returns whether the app runs as the kiosk (then the caller applies
    :func:`kiosk_input` to Kivy's ``Config`` before the app runs).
    """
    environ = os.environ if environ is None else environ
    environ["KIVY_NO_ARGS"] = "1"
    # Kivy's own mode puts a stream of its log in place of sys.stderr: with the console log off (the
    # snapshot, tests) a traceback or a refusal written there was never seen (`companion snapshot`
    # exited 1 saying nothing). Mixed: Kivy's messages go through its logger, stderr stays stderr.
    environ.setdefault("KIVY_LOG_MODE", "MIXED")
    for name, value in PROVIDERS.items():
        environ.setdefault(name, value)
    if offscreen:
        environ.setdefault("SDL_VIDEODRIVER", "offscreen")
        environ.setdefault("KIVY_NO_CONSOLELOG", "1")
        environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
    kiosk = kiosk_wanted(environ)
    graphics = kiosk_graphics(rotation) if kiosk else laptop_graphics() if panel_beside(environ) else {}
    for name, value in graphics.items():
        environ.setdefault(name, value)
    return kiosk
