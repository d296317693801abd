"""The Castelli board played by synthetic touches in an offscreen Kivy window (a child process).

Kivy allows one window per process, so ``tests/test_ui_castelli.py`` runs
``python -m tests.ui_castelli_kit OUT_DIR [SCENARIO ...]``: one offscreen
800×480 window, each scenario on a fresh store, table and board, and
``OUT_DIR/report.json`` with per scenario ``ok``, the traceback of a failed
check, and the facts found (the parent checks them again against the engine
and the example's expected summary), plus screenshots ``OUT_DIR/NAME.png``.

The harness is the Campanile kit's (:class:`tests.ui_campanile_kit.Harness`:
touches through the window like a finger's, so a covered button fails),
with a Castelli game in :meth:`CastelliHarness.game`. Moves are entered as a
player would: a reveal by its space on the board and the pad's colour and
value buttons, a build through the area's detail, a card or a sale through
its picker, the end by holding End.
"""

from __future__ import annotations

import json
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.ui_campanile_kit import SHELL_BAR, WINDOW, Harness, prepare_environment

EXAMPLE = Path(__file__).parent / "data" / "examples" / "castelli.json"


class CastelliHarness(Harness):
    """The Campanile kit's window and fingers, with the Castelli board in :meth:`game`."""

    @contextmanager
    def game(self, players: list[str], **details: Any) -> Iterator[Any]:  # type: ignore[override]
        from companion.service.app import Companion
        from companion.service.table import Table
        from ui.games.castelli.board import CastelliBoard

        with tempfile.TemporaryDirectory() as folder, Companion.open(Path(folder) / "c.sqlite3") as app:
            self.table = Table(app)
            self.table.start("castelli", players, **details)
            self.refusals = []
            self.board = CastelliBoard(table=self.table, size_hint=(None, None),
                                       size=(WINDOW[0], WINDOW[1] - SHELL_BAR), pos=(0, 0))
            self.table.listen(self._shell)
            self.window.add_widget(self.board)
            self.pump(3)
            try:
                yield self.board
            finally:
                self.board.close_overlay()
                self.window.remove_widget(self.board)
                self.table.close()
                self.pump(1)

    def tap_at(self, point: tuple[float, float]) -> None:
        from kivy.tests.common import UnitTestTouch

        x, y = point
        assert 0 <= x < WINDOW[0] and 0 <= y < WINDOW[1], f"{point} is off the screen"
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        self.pump(2)

    def tap_place(self, name: str) -> None:
        """A finger on a space or an area of the drawn board (brought into view by its pan buttons)."""
        from tests.castelli_pan_kit import pan_into_view

        pan_into_view(self.board, name, self.tap)
        self.tap_at(self.board.view.centre_of(name))


SCENARIOS: dict[str, Callable[[CastelliHarness], dict[str, Any]]] = {}


Scenario = Callable[[CastelliHarness], dict[str, Any]]


def scenario(function: Scenario) -> Scenario:
    SCENARIOS[function.__name__] = function
    return function


def run(out: Path, names: list[str]) -> dict[str, Any]:
    prepare_environment()
    import tests.ui_castelli_scenarios  # noqa: F401  (registers the scenarios)
    from companion.i18n import set_language

    harness = CastelliHarness(out)
    report: dict[str, Any] = {}
    for name in names or list(SCENARIOS):
        set_language("en")
        try:
            report[name] = {"ok": True, "facts": SCENARIOS[name](harness)}
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
    # Run as the module ``tests.ui_castelli_kit`` (not ``__main__``), the one the scenarios register in.
    from tests.ui_castelli_kit import main as kit_main

    sys.exit(kit_main(sys.argv[1:]))
