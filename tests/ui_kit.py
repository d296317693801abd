"""The harness of the touchscreen tests: one offscreen Kivy window per process, synthetic touches.

Import this module before anything imports Kivy: it points Kivy at a
temporary home (no settings or logs of the machine's user), the offscreen
SDL driver and an 800×480 window. Every UI test module of a pytest process
shares the one window; :func:`open_shell` puts a fresh shell on it and
:func:`close_shell` takes it off again.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

if "kivy.core.window" in sys.modules and tuple(sys.modules["kivy.core.window"].Window.size) != (800, 480):
    # made already, unprepared (Kivy's 800×600): a board's size would depend on which tests ran before
    raise RuntimeError("Kivy's window was made before tests.ui_kit prepared it: a test module imported a "
                       "module that makes it; import tests.ui_kit first there")

_KIVY_HOME = tempfile.mkdtemp(prefix="kivy-home-")
atexit.register(shutil.rmtree, _KIVY_HOME, True)
os.environ["KIVY_HOME"] = _KIVY_HOME  # this process's own, also under xdist beside another worker
os.environ.setdefault("KIVY_NO_FILELOG", "1")

from ui.kivy_setup import prepare  # noqa: E402  (imports no Kivy)

prepare(offscreen=True)

from kivy.config import Config  # noqa: E402  (the environment above must come first)

Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")
Config.set("kivy", "exit_on_escape", "0")

from kivy.base import EventLoop  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.widget import Widget  # noqa: E402

from companion.service.app import Companion  # noqa: E402
from companion.service.table import Table  # noqa: E402

EventLoop.ensure_window()

#: How long a test waits for something to happen on screen before failing (generous: 2 cores, 8 helpers).
PATIENCE = 30.0


def pump(frames: int = 3) -> None:
    """Let Kivy run ``frames`` frames (clock events, layout, drawing)."""
    for _ in range(frames):
        EventLoop.idle()


def wait_for(condition: Callable[[], Any], what: str, patience: float = PATIENCE) -> Any:
    """Run frames until ``condition()`` is true; fail naming ``what`` after ``patience`` seconds."""
    deadline = time.monotonic() + patience
    while True:
        pump(1)
        found = condition()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {patience} s for {what}")
        time.sleep(0.01)


def open_shell(store_path: Path, options: Any = None, app: Companion | None = None) -> Any:
    """A shell over a new :class:`Table` on the store at ``store_path``, shown in the window;
    ``options`` (a :class:`ui.app.ShellOptions`) is what the configuration would tell its screens;
    ``app``: the service to use (as ``companion run`` opens it), not one opened here."""
    from ui.app import Shell, wire_commands, wire_window

    table = Table(app if app is not None else Companion.open(store_path))
    shell = Shell(table, options)
    for child in list(Window.children):
        Window.remove_widget(child)
    Window.add_widget(shell.root)
    _current["shell"] = shell
    if not _current.get("wired"):
        wire_window(_Forward())  # type: ignore[arg-type]
        _current["wired"] = True
    wire_commands(table)
    _current["table"] = table
    pump(4)
    return shell


_current: dict[str, Any] = {}


class _Forward:
    """The window is wired once per process; it forwards to whichever shell is open now."""

    def touched(self) -> None:
        _current["shell"].touched()

    def lifted(self) -> None:
        _current["shell"].lifted()

    def command(self, name: str) -> bool:
        return bool(_current["shell"].command(name))

    def collect_when_idle(self, dt: float = 0.0) -> None:
        _current["shell"].collect_when_idle(dt)


def picker_shell(tmp_path: Path, monkeypatch: Any) -> Iterator[Any]:
    """A shell in English that plays every game with the generic move picker (the boards have
    tests of their own); a test module makes it its fixture: ``shell = pytest.fixture(kit.picker_shell,
    name="shell")``."""
    from companion import i18n
    from ui.screens import game

    monkeypatch.setattr(game, "board_class", lambda name: None)  # every game on the move picker
    i18n.set_language("en")
    opened = open_shell(tmp_path / "store.db")
    yield opened
    close_shell(opened)
    i18n.set_language("en")


def close_shell(shell: Any) -> None:
    shell.close()
    Window.remove_widget(shell.root)
    shell.table.app.close()
    pump(1)


def example_board(store_path: Path, record: dict[str, Any]) -> Iterator[Any]:
    """The board of ``record``'s game in a shell of its own, at the start of the record (its players,
    options and setup), in English; for a module-scoped fixture that plays the record on from there
    (:func:`moves_up_to`). The shell is closed when the generator is."""
    from companion import i18n

    i18n.set_language("en")
    shell = open_shell(store_path)
    shell.table.start(record["game"], record["players"], options=record.get("options") or {},
                      setup=record.get("setup") or {})
    game = shell.screens.get_screen("game")
    wait_for(lambda: shell.screens.current == "game" and game.board is not None, "the game's board")
    pump(3)  # a board may make its overlays in the frame after it is shown
    yield game.board
    getattr(game.board, "close_overlay", lambda: None)()
    close_shell(shell)


def moves_up_to(board: Any, record: dict[str, Any], count: int) -> None:
    """The record's moves entered at the table (as the console enters them) until ``count`` are in
    the log: the board follows the table."""
    table = board.table
    for move in record["moves"][len(table.session.log):count]:
        table.propose(table.session.game.parse_move(move), "console")
    pump(2)


def walk(root: Widget | None = None) -> Iterator[Widget]:
    """Every widget under ``root`` (the whole window by default)."""
    for top in [root] if root is not None else list(Window.children):
        yield from top.walk(restrict=True)


def find(text: str, kind: type | None = None, root: Widget | None = None, exact: bool = True) -> Widget:
    """The one visible widget showing ``text`` (optionally of ``kind``); fails listing what is there.
    A no-break space (a figure held to its word) reads as the space a player sees."""
    pump(2)  # the layout of what was just drawn

    def read(shown: str) -> str:
        return shown.replace("\u00a0", " ")

    found = [w for w in walk(root) if hasattr(w, "text") and isinstance(w.text, str)
             and (read(w.text) == read(text) if exact else read(text) in read(w.text))
             and (kind is None or isinstance(w, kind))
             and w.get_root_window() is not None]
    if len(found) != 1:
        shown = sorted({w.text for w in walk(root) if getattr(w, "text", "")})
        raise AssertionError(f"{len(found)} widgets show {text!r}; shown: {shown}")
    return found[0]


def texts(root: Widget | None = None) -> list[str]:
    """Every text on the screen."""
    return [w.text for w in walk(root) if isinstance(getattr(w, "text", None), str) and w.text]


def settled(widget: Widget) -> tuple[float, float]:
    """Where ``widget``'s centre is on the window once the layout has stopped moving it.

    A screen drawn anew (a language switch, a redraw) lays out over a few
    frames: labels wrap once their text is rendered, rows grow, a scrolled list
    shifts. How many frames that takes depends on what Kivy has cached from
    earlier tests in the process, so a finger aimed after a fixed number of
    frames could land on the row above (the tests run on two worker processes,
    in an order that varies). Frames run until the centre is the same in two in a row.
    """
    last: list[tuple[float, float]] = []

    def still() -> bool:
        now = tuple(widget.to_window(*widget.center))
        same = bool(last) and last[-1] == now
        last.append(now)  # type: ignore[arg-type]
        return same

    wait_for(still, f"{widget} to stop moving")
    return last[-1]


def into_view(widget: Widget) -> tuple[float, float]:
    """Scroll the lists holding ``widget`` until it is on the screen (as a finger would).

    Returns where its centre then is on the window, laid out (:func:`settled`).
    """
    from kivy.uix.scrollview import ScrollView

    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        # a recycled list's rows exist only while on screen (its class is checked by name: Kivy's
        # factory imports it as kivy.uix.recycleview.__init__, a second copy of the module)
        recycled = any(cls.__name__ == "RecycleView" for cls in type(parent).__mro__)
        if isinstance(parent, ScrollView) and not recycled:
            settled(widget)  # scroll to where it will stay, not to where it is in mid-layout
            parent.scroll_to(widget, padding=8, animate=False)
            pump(2)
        parent = parent.parent
    return settled(widget)


def tap(widget: Widget) -> None:
    """A finger on the middle of ``widget`` and off again."""
    x, y = into_view(widget)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    pump(1)
    touch.touch_up()
    pump(2)


def hold(widget: Widget, until: Callable[[], Any], what: str) -> None:
    """A finger held on ``widget`` until ``until()`` (the long press has acted), then lifted."""
    x, y = into_view(widget)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    try:
        wait_for(until, what)
    finally:
        touch.touch_up()
        pump(2)


def screenshot(path: Path) -> Path:
    """The whole window as a PNG at ``path`` (after the refusal banner's flash)."""
    from kivy.animation import Animation

    pump(3)
    wait_for(lambda: not Animation._instances, "the animations to end")
    path.parent.mkdir(parents=True, exist_ok=True)
    Window.children[0].export_to_png(str(path))
    return path


def widgets_made_by(action: Callable[[], Any], root: Widget | None = None, frames: int = 4) -> list[Widget]:
    """The widgets under ``root`` (the whole window by default) that ``action`` created.

    A screen used with Kivy's grain updates the widgets it has when the table
    changes — properties change, texts change — rather than throwing its tree
    away and building it again. This is how a test sees the difference: every
    widget on the screen before ``action`` is held (so no id is reused), and
    after ``action`` and ``frames`` frames the widgets that were not there
    before are returned. A move on a screen built once returns few or none; a
    screen that rebuilds returns all of them.
    """
    before = list(walk(root))
    seen = {id(widget) for widget in before}
    action()
    pump(frames)
    made = [widget for widget in walk(root) if id(widget) not in seen]
    del before
    return made
