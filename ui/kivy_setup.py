"""What Kivy must be told before it is first imported (it reads the environment at import).

- ``KIVY_NO_ARGS``: the command line is the companion's, not Kivy's.
- the providers named (SDL2 for the window, text, images and clipboard), so
  Kivy does not probe the others at start-up (the clipboard probe alone runs
  ``xclip`` and ``xsel`` as processes); images also through Pillow.
- ``offscreen``: draw into memory (tests, snapshots, benchmarks).

Imports no Kivy itself.
"""

from __future__ import annotations

import os
import tempfile

PROVIDERS = {"KIVY_WINDOW": "sdl2", "KIVY_TEXT": "sdl2", "KIVY_IMAGE": "sdl2,pil", "KIVY_CLIPBOARD": "sdl2"}


def prepare(offscreen: bool = False) -> None:
    """Set Kivy's environment (values already set by the user win, but for ``KIVY_NO_ARGS``)."""
    os.environ["KIVY_NO_ARGS"] = "1"
    for name, value in PROVIDERS.items():
        os.environ.setdefault(name, value)
    if offscreen:
        os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
        os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
