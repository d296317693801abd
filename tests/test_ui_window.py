"""``companion run`` in a real window: what a laptop shows is what the offscreen tests see.

The suite draws every screen offscreen (``tests/ui_kit.py``); nothing there
opens the window a person sees. This test does, once: it starts an X server
of its own (Xvfb, on a free display it picks itself: ``-displayfd``), runs
``companion run`` on it as a developer would, clicks a Campanile turn with
the pointer (``xdotool``), and compares the window's 800×480 touchscreen part
with ``ui.snapshot.write_screens`` of a record of the same moves, and the
OLED frame beside it with the box's own rendering of the same state.

Where Xvfb or xdotool is missing the test skips (Debian: ``apt-get install
xvfb xdotool``; ``.ci/run`` installs them, so CI always runs it). It waits on
events only — Xvfb saying its display number, the app's log line after its
first frame, the window mapped, the store's move count, the screen showing
the expected picture — each with a generous patience, never on a time.

The window is drawn without multisampling (``KCFG_GRAPHICS_MULTISAMPLES=0``,
as the suite's windows): a snapshot draws into a frame buffer, which Kivy
never multisamples, so with Kivy's default of 2 the edges of every rounded
outline differ (2.3 % of the pixels by more than 16 levels, measured). The
fonts are the same ones through the same provider: with that one setting the
two pictures differ in a handful of pixels.
"""

from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy (the aim and the snapshot are drawn offscreen)

# isort: split
from PIL import Image, ImageChops, ImageGrab

from companion.service.app import Companion
from companion.storage.paths import DB_FILENAME
from companion.storage.store import Store
from hardware.oled_pages import status_pages
from hardware.oled_render import HEIGHT, WIDTH, draw
from ui.kivy_setup import OLED_PANEL_WIDTH
from ui.oled_panel import SCALE, frame_pixels
from ui.snapshot import write_screens
from ui.theme import SPACING, WINDOW

pytestmark = pytest.mark.skipif(
    shutil.which("Xvfb") is None or shutil.which("xdotool") is None,
    reason="Xvfb and xdotool are not installed (apt-get install xvfb xdotool)")

PLAYERS = ["Albert", "Birgit", "Franziska"]
#: How long to wait for any one thing (an X server, the app's start, a move stored); never measured.
PATIENCE = 90.0
#: The comparison: at most this share of the pixels may differ by more than :data:`LEVELS` in a channel.
SHARE, LEVELS = 0.01, 16


def waited(condition: Callable[[], Any], what: str, patience: float = PATIENCE) -> Any:
    """Poll ``condition()`` until it is true; fail naming ``what`` after ``patience`` seconds."""
    deadline = time.monotonic() + patience
    while not (found := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {patience} s for {what}")
        time.sleep(0.05)
    return found


@pytest.fixture
def display(tmp_path: Path) -> Iterator[str]:
    """An X server of this test's own (Xvfb), on the display number it chose: ``":N"``."""
    read, write = os.pipe()
    with open(tmp_path / "xvfb.log", "wb") as said_there:
        server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x720x24",
                                   "-nolisten", "tcp"], pass_fds=(write,), stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=said_there)
    os.close(write)
    said = b""
    try:
        deadline = time.monotonic() + PATIENCE
        while not said.endswith(b"\n"):  # Xvfb writes its display number once it takes clients
            ready, _, _ = select.select([read], [], [], max(0.0, deadline - time.monotonic()))
            chunk = os.read(read, 16) if ready else b""
            if not chunk:
                log = (tmp_path / "xvfb.log").read_text(errors="replace")[-2000:]
                raise AssertionError(f"Xvfb said no display number: {log}")
            said += chunk
        yield f":{said.decode().strip()}"
    finally:
        os.close(read)
        server.terminate()
        server.wait(timeout=PATIENCE)


def xdotool(display: str, *args: str) -> str:
    done = subprocess.run(["xdotool", *args], env=dict(os.environ, DISPLAY=display), capture_output=True,
                          text=True, timeout=PATIENCE, check=True)
    return done.stdout


def grab(display: str, box: tuple[int, int, int, int]) -> Image.Image:
    """The X screen's pixels inside ``box`` (left, top, right, bottom)."""
    return ImageGrab.grab(bbox=box, xdisplay=display).convert("RGB")


def differing(seen: Image.Image, expected: Image.Image) -> float:
    """The share of pixels that differ by more than :data:`LEVELS` in any channel."""
    red, green, blue = ImageChops.difference(seen, expected.convert("RGB")).split()
    most = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    over = most.point(lambda level: 255 if level > LEVELS else 0).histogram()[255]
    return over / (seen.width * seen.height)


def stored_moves(data: Path, session: int) -> list[dict[str, Any]]:
    """The moves of game ``session`` the running app has stored (read as ``companion export`` reads
    beside it)."""
    with Store.open(data / DB_FILENAME, read_only=True) as store:
        return store.stored_moves(session)[0]


def aims(record: dict[str, Any], turn: list[tuple[dict[str, Any], str, str]], where: Path) -> list[
        tuple[int, int]]:
    """Where each click of ``turn`` goes on the 800×480 screen, from its top left: the tower's ``+N``
    build (``"build2"``…) or its head (the marker), as the offscreen shell lays out the same game
    with the moves before it."""
    shell = kit.open_shell(where)
    found = []
    try:
        shell.table.open(shell.table.app.open_game(shell.table.app.import_record(record)))
        for move, tower, part in turn:
            column = shell.screens.get_screen("game").board.columns[tower]
            widget = column.head if part == "head" else column.builds[int(part.removeprefix("build"))]
            x, y = kit.settled(widget)
            found.append((round(x), round(WINDOW[1] - y)))
            shell.table.propose(shell.table.session.game.parse_move(move), "touch")
    finally:
        kit.close_shell(shell)
    return found


def oled_frames(record: dict[str, Any], where: Path) -> list[bytes]:
    """The box's status pages of the record's last state as the panel shows them (scaled twice)."""
    with Companion.open(where) as app:
        session = app.open_game(app.import_record(record)).session
        return [frame_pixels(draw(page)).tobytes() for page in status_pages(session.game, session.state)]


def app_environment(display: str, kivy_home: Path) -> dict[str, str]:
    """``companion run``'s environment: the X display, English, Kivy's own settings but two.

    Nothing of this process's offscreen Kivy (the video driver, its ``KCFG_`` values) is passed on.
    """
    environ = {name: value for name, value in os.environ.items() if not name.startswith("KCFG_")
               and name not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY", "COMPANION_KIOSK")}
    environ.update(DISPLAY=display, KIVY_HOME=str(kivy_home), COMPANION_LANG="en",
                   KCFG_GRAPHICS_MULTISAMPLES="0",  # as a snapshot draws (the module's docstring)
                   KCFG_GRAPHICS_MAXFPS="60")  # the app's own pace, not the tests' unthrottled frames
    return environ


def test_companion_run_opens_the_panels_window_and_plays_a_turn_by_the_pointer(display: str,
                                                                             tmp_path: Path) -> None:
    data, kivy_home = tmp_path / "data", tmp_path / "kivy"
    data.mkdir()
    kivy_home.mkdir()
    with Companion.open(data / DB_FILENAME) as app:
        session = app.start("campanile", PLAYERS).id
        record = app.export_record(session)
    # Albert's turn: build 2 on the yellow tower, then his marker under the brown one
    turn = [({"type": "build", "player": "Albert", "tower": "yellow", "stories": 2}, "yellow", "build2"),
            ({"type": "influence", "player": "Albert", "tower": "brown"}, "brown", "head")]
    moves = [move for move, _, _ in turn]
    played = {**record, "moves": moves}

    log = tmp_path / "app.log"
    with open(log, "wb") as written:
        running = subprocess.Popen([sys.executable, "-m", "companion", "--data-dir", str(data), "run"],
                                   env=app_environment(display, kivy_home), stdin=subprocess.DEVNULL,
                                   stdout=written, stderr=subprocess.STDOUT)
    try:
        # while the app starts: where the clicks go, and what the screen and the OLED must show after them
        clicks = aims(record, turn, tmp_path / "aim.db")
        written_screens = write_screens(played, tmp_path / "snapshot", "en")
        picture = Image.open(next(p for p in written_screens if p.name == "screen.png"))
        assert picture.size == WINDOW
        frames = oled_frames(played, tmp_path / "pages.db")

        said = "the touchscreen is running in a 1072×480 window"
        waited(lambda: said in log.read_text(errors="replace") or running.poll() is not None,
               "the app's first frame")
        assert said in log.read_text(errors="replace"), log.read_text(errors="replace")[-3000:]
        # by the process (SDL writes the title as UTF-8, which xdotool's --name does not read)
        window = xdotool(display, "search", "--sync", "--onlyvisible", "--pid", str(running.pid)).split()[0]
        geometry = dict(line.split("=") for line in xdotool(display, "getwindowgeometry", "--shell",
                                                            window).split())
        left, top = int(geometry["X"]), int(geometry["Y"])
        assert (int(geometry["WIDTH"]), int(geometry["HEIGHT"])) == (WINDOW[0] + OLED_PANEL_WIDTH, WINDOW[1])

        for count, (x, y) in enumerate(clicks, start=1):
            xdotool(display, "mousemove", str(left + x), str(top + y), "click", "1")
            waited(lambda n=count: len(stored_moves(data, session)) >= n, f"move {count} stored")
        assert stored_moves(data, session) == moves  # each click landed on the widget it aimed at

        screen_box = (left, top, left + WINDOW[0], top + WINDOW[1])
        last: list[float] = []

        def alike() -> bool:  # the screen shows the state once its next frames are drawn
            seen = grab(display, screen_box)
            last.append(differing(seen, picture))
            seen.save(tmp_path / "window.png")
            return last[-1] <= SHARE

        try:
            waited(alike, "the window to show the snapshot's picture")
        except AssertionError:
            raise AssertionError(f"{last[-1]:.2%} of the window's pixels differ from the snapshot by more "
                                 f"than {LEVELS} levels (at most {SHARE:.0%}); see {tmp_path}") from None

        # beside it, the box's OLED frame of this state, scaled twice (its pages turn by themselves)
        panel_left = left + WINDOW[0] + SPACING
        panel_box = (panel_left, top + SPACING, panel_left + WIDTH * SCALE, top + SPACING + HEIGHT * SCALE)
        waited(lambda: grab(display, panel_box).tobytes() in frames, "the OLED frame beside the screen")
    finally:
        if running.poll() is None:
            running.send_signal(signal.SIGTERM)  # as systemd stops it
        running.wait(timeout=PATIENCE)
    output = log.read_text(errors="replace")
    assert running.returncode == 0, output[-3000:]
    assert "unexpected error" not in output
