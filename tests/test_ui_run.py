"""``companion run`` and the touchscreen: when it opens, and that it opens on the game in progress."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli.commands.run import touchscreen_missing
from companion.service.app import Companion

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("environ", "opens"), [
    ({"DISPLAY": ":0"}, True),
    ({"WAYLAND_DISPLAY": "wayland-0"}, True),
    ({"SDL_VIDEODRIVER": "kmsdrm"}, True),
    ({}, False),
    ({"DISPLAY": ":0", "SDL_VIDEODRIVER": "offscreen"}, False),
    ({"SDL_VIDEODRIVER": "dummy"}, False),
])
def test_the_touchscreen_opens_only_where_a_display_shows_it(environ: dict[str, str], opens: bool) -> None:
    why = touchscreen_missing(environ)
    assert (why is None) is opens
    if not opens:
        assert why is not None and why.code == "cli.run.no_display"
        assert str(why) == "no display is available for the touchscreen"


def test_the_app_opens_on_the_game_in_progress_and_closes(tmp_path: Path) -> None:
    """A real process: the app resumes the newest unfinished game, draws a frame, and ends cleanly."""
    with Companion.open(tmp_path / "store.db") as app:
        app.start("campanile", ["Albert", "Birgit", "Franziska"])
        newest = app.start("campanile", ["Anna", "Bela", "Csaba"]).id
    (tmp_path / "kivy").mkdir()
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_HOME=str(tmp_path / "kivy"))
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "ui_start.py"), "--child",
                          str(tmp_path / "store.db")], capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.splitlines()
    assert lines[0].startswith("first-frame ")
    assert lines[-1] == f"screen game game {newest}"
    # the first frame waits for the screen it shows, and for no other game's part or tool
    assert lines[1] == "built game"
    modules = set(lines[2].removeprefix("modules ").split())
    assert {"ui.screens.game", "ui.games.campanile.board"} <= modules
    never = {"ui.layout_check", "ui.snapshot", "qrcode", "segno", "coloraide", "companion.storage.doctor",
             "ui.screens.history", "ui.screens.settings"}
    assert not never & modules
    parts = ("ui.games.castelli", "ui.games.san_gimignano")  # only their parts' declarations
    engines = ("companion.games.castelli.", "companion.games.san_gimignano.")  # only their descriptors
    assert not [m for m in modules if m.startswith(tuple(f"{part}." for part in parts))]
    assert not [m for m in modules if m.startswith(engines) and not m.endswith(".descriptor")]
