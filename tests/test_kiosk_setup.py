"""The kiosk's Kivy settings: full screen, no cursor, the rotation, exactly one touch input provider.

No real KMS/DRM here: what is tested is what Kivy is told (its environment
and its ``Config``); whether the Pi's panel then comes up full screen and
rotated is unverified (docs/appliance.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ui.kivy_setup import OLED_PANEL_WIDTH, TOUCH_INPUT, kiosk_input, kiosk_wanted, panel_beside, prepare

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("environ", "kiosk"), [
    ({"SDL_VIDEODRIVER": "kmsdrm"}, True),
    ({}, False),
    ({"SDL_VIDEODRIVER": "x11", "DISPLAY": ":0"}, False),
    ({"COMPANION_KIOSK": "1"}, True),
    ({"SDL_VIDEODRIVER": "kmsdrm", "COMPANION_KIOSK": "0"}, False),
])
def test_the_kiosk_is_the_units_video_driver_or_asked_for(environ: dict[str, str], kiosk: bool) -> None:
    assert kiosk_wanted(environ) is kiosk


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_the_kiosk_window_is_full_screen_without_cursor_and_rotated(rotation: int) -> None:
    environ = {"SDL_VIDEODRIVER": "kmsdrm"}
    assert prepare(rotation=rotation, environ=environ) is True
    assert environ["KCFG_GRAPHICS_FULLSCREEN"] == "auto"
    assert environ["KCFG_GRAPHICS_SHOW_CURSOR"] == "0"
    assert environ["KCFG_GRAPHICS_ROTATION"] == str(rotation)


def test_a_laptop_window_is_the_panels_800_by_480_with_the_oled_beside_it() -> None:
    """Told before Kivy makes its window: set later, in its Config, it came too late (800×600)."""
    environ = {"DISPLAY": ":0"}
    assert prepare(rotation=90, environ=environ) is False
    assert {name: value for name, value in environ.items() if name.startswith("KCFG_")} == {
        "KCFG_GRAPHICS_WIDTH": str(800 + OLED_PANEL_WIDTH), "KCFG_GRAPHICS_HEIGHT": "480",
        "KCFG_GRAPHICS_RESIZABLE": "0"}
    assert OLED_PANEL_WIDTH == 128 * 2 + 2 * 8  # the 128-pixel OLED scaled twice, 8 px either side
    assert panel_beside(environ) and panel_beside({"WAYLAND_DISPLAY": "wayland-0"})


@pytest.mark.parametrize("environ", [
    {"SDL_VIDEODRIVER": "offscreen"}, {"SDL_VIDEODRIVER": "dummy"}, {"SDL_VIDEODRIVER": "kmsdrm"},
    {"DISPLAY": ":0", "COMPANION_KIOSK": "1"}])
def test_no_oled_panel_offscreen_nor_on_the_kiosk(environ: dict[str, str]) -> None:
    """Tests and snapshots draw the touchscreen alone; the kiosk has the real OLED (and is full screen)."""
    assert not panel_beside(environ)
    prepare(environ=environ)
    assert "KCFG_GRAPHICS_WIDTH" not in environ


def test_a_size_given_by_the_user_wins() -> None:
    environ = {"DISPLAY": ":0", "KCFG_GRAPHICS_WIDTH": "1280"}
    prepare(environ=environ)
    assert environ["KCFG_GRAPHICS_WIDTH"] == "1280" and environ["KCFG_GRAPHICS_HEIGHT"] == "480"


def test_exactly_one_input_provider_is_left_the_touchscreens() -> None:
    from kivy.config import ConfigParser

    config = ConfigParser(name="kiosk-test")
    config.add_section("input")
    config.set("input", "mouse", "mouse")  # Kivy's defaults on Linux: a mouse and a probe of every device
    config.set("input", "%(name)s", "probesysfs")
    kiosk_input(config)
    assert config.items("input") == [TOUCH_INPUT]


def test_kivy_reads_the_kiosk_settings_at_import(tmp_path: Path) -> None:
    """A real process: Kivy's own Config holds what prepare set, once Kivy is imported after it."""
    script = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from ui.kivy_setup import prepare, kiosk_input\n"
        "assert prepare(rotation=270)\n"
        "from kivy.config import Config\n"
        "from pathlib import Path\n"
        f"kiosk_input(Config, Path({str(tmp_path / 'no-input')!r}))  # this machine's devices aside\n"
        "print(json.dumps({'graphics': {k: Config.get('graphics', k) for k in "
        "('fullscreen', 'show_cursor', 'rotation')}, 'input': Config.items('input')}))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("KCFG_")}
    env.update(COMPANION_KIOSK="1", SDL_VIDEODRIVER="offscreen", KIVY_HOME=str(tmp_path),
               KIVY_NO_CONSOLELOG="1")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["graphics"] == {"fullscreen": "auto", "show_cursor": "0", "rotation": "270"}
    assert seen["input"] == [list(TOUCH_INPUT)]


def test_what_is_written_to_stderr_after_kivy_is_imported_is_seen(tmp_path: Path) -> None:
    """Kivy's own log mode took sys.stderr for its log: with the console log off (the snapshot's
    setting) `companion snapshot` failed with exit 1 and not a word. A real process: a line written
    to stderr after Kivy's import reaches the process's stderr."""
    script = (
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from ui.kivy_setup import prepare\n"
        "prepare(offscreen=True)\n"
        "import kivy.logger\n"
        "print('a refusal the user must see', file=sys.stderr)\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KCFG_", "KIVY_"))}
    env.update(KIVY_HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "a refusal the user must see" in done.stderr
