"""Taps to enter a board in the editor: ``.venv/bin/python benchmarks/ui_board_editor.py [--update-docs]``.

Enters each shipped example layout (``example-2p`` and the Championship's second half with the
extra mine tile, ``example-2p-extra-mine``: 16 tile spaces each; ``example-4p``: 32) from the
editor's blank grid in an offscreen 800×480 Kivy window, by the taps a player makes
(``tests/board_editor_kit.py``: cell by cell, no copy, fill or mirror), checks that the board
saved is exactly the layout, and prints against the budgets:

- **taps to enter the board**, typing its name counted as one: budget ≤ 150 for 16 tile spaces and
  ≤ 300 for 32 ("minutes, not an hour": at 2 s a tap, 300 taps are 10 minutes);
- taps per tile space, the screen's redraw after a tap, and the touch with the frames after it
  (median / p99 / max), reported.

``--update-docs`` writes the figures into ``docs/performance.md`` between their own markers.
Exit 1 when a budget is over.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from companion.service.castelli import CastelliService

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import machine, report, spread, write_block  # noqa: E402

BEGIN, END = "<!-- ui-editor:begin -->", "<!-- ui-editor:end -->"
#: Taps budget by layout.
BUDGETS = {"example-2p": 150, "example-2p-extra-mine": 150, "example-4p": 300}
INTRO = """## The Castelli board editor

`.venv/bin/python benchmarks/ui_board_editor.py [--update-docs]` enters each shipped example
layout from the editor's blank grid in an offscreen 800×480 Kivy window, by synthetic touches:
the taps a player makes cell by cell (`tests/board_editor_kit.py`; no copy, fill or mirror, so a
board with no repetition costs this much), then checks that the board saved is exactly the
layout. Budget: ≤ 150 taps for 16 tile spaces, ≤ 300 for 32 (at 2 s a tap, 10 minutes). Reported:
the screen's redraw after a tap (the grid's cells and the panel's pads are built once and then
updated), and the touch with the three frames the test harness draws after it (Mesa's software
renderer on a shared machine: most of that is drawing)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update-docs", action="store_true",
                        help="write the figures into docs/performance.md")
    args = parser.parse_args(argv)

    from tests import ui_kit as kit  # prepares an offscreen Kivy first

    # isort: split
    from companion.games.castelli.board import board_to_json, load_layout
    from tests import board_editor_kit as plans
    from ui.games.castelli import board_model as model

    rows: list[tuple[str, str, str, bool | None]] = []
    with tempfile.TemporaryDirectory() as folder:
        for index, (layout, budget) in enumerate(BUDGETS.items()):
            shell = kit.open_shell(Path(folder) / f"store-{index}.db")
            try:
                shell.go("editor")
                kit.pump(4)  # laid out before the first touch
                screen = shell.screens.get_screen("editor")
                wanted = model.from_board(load_layout(layout))
                steps = plans.plan(wanted, f"entered {layout}")
                times: list[float] = []
                redraws: list[float] = []
                drawn = screen.redraw

                def timed_redraw(drawn=drawn, redraws=redraws) -> None:
                    began = time.perf_counter()
                    drawn()
                    redraws.append(time.perf_counter() - began)

                screen.redraw = timed_redraw
                plans.perform(screen, steps, kit, on_tap=times.append)
                saved = CastelliService.of(shell.table.app).board_data(f"entered {layout}")
                if saved != board_to_json(load_layout(layout)):
                    raise SystemExit(f"{layout}: the board entered is not the layout")
            finally:
                kit.close_shell(shell)
            spaces = len(wanted.board().spaces)
            count = plans.taps(steps)
            rows.append((f"{layout}: taps to enter it from a blank grid ({spaces} tile spaces)", str(count),
                         f"≤ {budget}", count <= budget))
            rows.append((f"{layout}: taps per tile space", f"{count / spaces:.2f}", "", None))
            rows.append((f"{layout}: a tap's redraw of grid and panel (median / p99 / max)",
                         spread([t * 1000 for t in redraws], 1), "", None))
            rows.append((f"{layout}: touch + 3 frames drawn, software GL (median / p99 / max)",
                         spread([t * 1000 for t in times], 1), "", None))
    over = report(rows, (72, 24, 8))
    print(f"machine: {machine()}")
    if args.update_docs:
        write_block((BEGIN, END), INTRO, ", offscreen window 800×480.", rows)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
