"""A bare Kivy window holding a real Table and the Campanile board, driven by synthetic touches.

Kivy allows one window per process, so the tests run this module as a child
process (``python -m tests.ui_campanile_kit OUT_DIR [SCENARIO ...]``): it
opens one offscreen 800×480 window (``SDL_VIDEODRIVER=offscreen``, a
temporary ``KIVY_HOME``), runs each scenario in turn on a fresh store, table
and board, and writes ``OUT_DIR/report.json``: per scenario ``ok``, the
traceback of a failed check, and the facts it found (for the parent test to
check again) — plus the screenshots, ``OUT_DIR/NAME.png``, to look at.

Touches go through the window like a finger's (``UnitTestTouch``): a tap
lands on whatever widget is at that point, so a covered or misplaced button
fails the scenario. The kit plays the part of the shell: it calls the board's
``refresh`` on every table event, and records the refusals the table announces.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: Seconds to wait for something the loop should do (a long press, a frame); generous, never measured.
WAIT = 30.0
#: The window's size: the 7" panel's. The shell's bar takes the top; the board gets the rest.
WINDOW = (800, 480)
SHELL_BAR = 64
#: The game screen's turn strip under the bar (one line of 20 px): the Campanile board gets what is left.
TURN_STRIP = 28


def prepare_environment() -> None:
    """Offscreen, no argument parsing by Kivy, a throwaway Kivy home, quiet logs."""
    os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
    os.environ["KIVY_NO_ARGS"] = "1"
    os.environ["KIVY_NO_CONSOLELOG"] = "1"
    os.environ["KIVY_NO_FILELOG"] = "1"
    os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
    from kivy.config import Config

    Config.set("graphics", "width", str(WINDOW[0]))
    Config.set("graphics", "height", str(WINDOW[1]))
    Config.set("input", "mouse", "")  # only our touches


class Harness:
    """One window; a scenario opens a table and a board in it with :meth:`game`."""

    def __init__(self, out: Path) -> None:
        from kivy.core.window import Window

        self.window = Window
        self.out = out
        self.board: Any = None
        self.table: Any = None
        self.refusals: list[Any] = []
        self.shots: list[str] = []
        self.pump(3)

    # -- the loop ---------------------------------------------------------------------------
    def pump(self, frames: int = 2) -> None:
        from kivy.base import EventLoop

        for _ in range(frames):
            EventLoop.idle()

    def wait_for(self, condition: Callable[[], bool], what: str) -> None:
        """Run the loop until ``condition()`` holds; fail after :data:`WAIT` seconds (a hang, not speed)."""
        give_up = time.monotonic() + WAIT
        while not condition():
            if time.monotonic() > give_up:
                raise AssertionError(f"waited {WAIT} s for {what}")
            self.pump(1)
            time.sleep(0.01)

    # -- a game on the board -------------------------------------------------------------------
    @contextmanager
    def game(self, players: list[str], **details: Any) -> Iterator[Any]:
        """A fresh store on a temporary file, a table with this game open and the board in the window."""
        from companion.service.app import Companion
        from companion.service.table import Table
        from ui.games.campanile.board import CampanileBoard

        with tempfile.TemporaryDirectory() as folder, Companion.open(Path(folder) / "c.sqlite3") as app:
            before = details.pop("before", None)
            if before is not None:
                before(app)
            self.table = Table(app)
            self.table.start("campanile", players, **details)
            self.refusals = []
            self.board = CampanileBoard(table=self.table, size_hint=(None, None),
                                        size=(WINDOW[0], WINDOW[1] - SHELL_BAR - TURN_STRIP), pos=(0, 0))
            self.table.listen(self._shell)
            self.window.add_widget(self.board)
            self.pump(3)
            try:
                yield self.board
            finally:
                if self.board.valuation_view is not None:
                    self.board.close_valuation()
                self.window.remove_widget(self.board)
                self.table.close()
                self.pump(1)

    def _shell(self, _table: Any, event: Any) -> None:
        """What the shell does on a table event: remember a refusal, redraw the board."""
        if event.kind == "refused":
            self.refusals.append(event)
        self.board.refresh()

    @property
    def session(self) -> Any:
        return self.table.session

    # -- fingers ---------------------------------------------------------------------------------
    def _centre(self, widget: Any) -> tuple[float, float]:
        x, y = widget.to_window(*widget.center)
        assert 0 <= x < WINDOW[0] and 0 <= y < WINDOW[1], f"{widget} is off the screen at {(x, y)}"
        return x, y

    def tap(self, widget: Any) -> None:
        """A finger down and up on ``widget``'s centre, through the window, then the next frames."""
        from kivy.tests.common import UnitTestTouch

        touch = UnitTestTouch(*self._centre(widget))
        touch.touch_down()
        touch.touch_up()
        self.pump(2)

    def hold(self, widget: Any) -> None:
        """A long press on ``widget``: down, the loop runs until the button says it was held, up."""
        from kivy.tests.common import UnitTestTouch

        held: list[bool] = []
        widget.bind(on_long_press=lambda *_: held.append(True))
        touch = UnitTestTouch(*self._centre(widget))
        touch.touch_down()
        self.wait_for(lambda: bool(held), "a long press to register")
        touch.touch_up()
        self.pump(2)

    # -- looking --------------------------------------------------------------------------------
    def screenshot(self, name: str) -> str:
        """The window as ``OUT/NAME.png`` (to be looked at)."""
        self.pump(3)
        path = self.out / f"{name}.png"
        written = self.window.screenshot(str(self.out / f"{name}-.png"))  # Kivy adds a counter
        Path(written).replace(path)
        self.shots.append(str(path))
        return str(path)


SCENARIOS: dict[str, Callable[[Harness], dict[str, Any]]] = {}


def scenario(function: Callable[[Harness], dict[str, Any]]) -> Callable[[Harness], dict[str, Any]]:
    SCENARIOS[function.__name__] = function
    return function


def run(out: Path, names: list[str]) -> dict[str, Any]:
    prepare_environment()
    import tests.ui_campanile_scenarios  # noqa: F401  (registers the scenarios)
    from companion.i18n import set_language

    harness = Harness(out)
    report: dict[str, Any] = {}
    for name in names or list(SCENARIOS):
        set_language("en")
        try:
            facts = SCENARIOS[name](harness)
            report[name] = {"ok": True, "facts": facts}
        except Exception:
            report[name] = {"ok": False, "error": traceback.format_exc()}
    return report


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    report = run(out, argv[1:])
    (out / "report.json").write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    # Run as the module ``tests.ui_campanile_kit`` (not ``__main__``), the one the scenarios register in.
    from tests.ui_campanile_kit import main as kit_main

    sys.exit(kit_main(sys.argv[1:]))
