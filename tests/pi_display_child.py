"""Where the touchscreen draws what a tap must land on, as the real shell lays it out: a child
process (Kivy allows one window per process) run by the ``pi`` tests on this machine, offscreen at
the panel's 800×480.

``python -m tests.pi_display_child RECORD OUT``: the record's game opened in the shell (as
``companion snapshot`` opens it), its game screen written to ``OUT/screen.png``, and
``OUT/targets.json``: for the record's next move ``MOVE`` (the file ``RECORD.next``), the point
of the window (from its top left, in pixels) at the centre of the widget a player taps to make it —
a ringed tower's head for an influence, the build button for a build.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def _board(widget: Any) -> Any:
    """The Campanile board in the shell's widget tree (the widget with the towers' columns)."""
    if hasattr(widget, "columns") and hasattr(widget, "player_cells"):
        return widget
    for child in widget.children:
        found = _board(child)
        if found is not None:
            return found
    return None


def main(record_path: str, out_dir: str) -> int:
    from ui.snapshot import prepare_offscreen

    prepare_offscreen()
    import tempfile

    from kivy.base import EventLoop
    from kivy.core.window import Window

    from companion.service.app import Companion
    from companion.service.table import Table
    from ui.app import Shell

    record = json.loads(Path(record_path).read_text(encoding="utf-8"))
    move = json.loads(Path(record_path + ".next").read_text(encoding="utf-8"))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    EventLoop.ensure_window()
    with tempfile.TemporaryDirectory(prefix="companion-targets-") as folder:
        app = Companion.open(Path(folder) / "targets.db")
        table = Table(app)
        table.open(app.open_game(app.import_record(record)))
        shell = Shell(table)
        for child in list(Window.children):
            Window.remove_widget(child)
        Window.add_widget(shell.root)
        shell.go("game")
        for _ in range(6):
            EventLoop.idle()
        shell.root.export_to_png(str(out / "screen.png"))
        board = _board(shell.root)
        assert board is not None, "no Campanile board on the game screen"
        column = board.columns[move["tower"]]
        target = column.head if move["type"] == "influence" else column.builds[move["stories"]]
        assert target.live, f"{move}: what it is tapped on is not live"
        x, y = target.to_window(*target.center)
        (out / "targets.json").write_text(json.dumps({"x": x, "y": Window.height - y,
                                                      "width": Window.width, "height": Window.height}))
        shell.close()
        app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
