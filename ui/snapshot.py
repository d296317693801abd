"""Screens of a record rendered offscreen to PNG files, for ``companion snapshot`` and for review.

:func:`write_screens` replays the record into a throw-away store and shows
it in an offscreen window: the game screen at the end of the record
(``screen.png``), its history, game over when it is finished, and home and
settings, in the language asked for. A board adds its own views (a
valuation, an evaluation overlay…) through ``snapshot_extras``. Given a
``problems`` list, the layout check (:mod:`ui.layout_check`) runs on each screen
and each board view as it is written, and adds a line per problem to it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Collection, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.service.records import Record
from ui.shell_interface import ShellInterface

#: The screens written, by file name: the shell's screen name.
SCREENS = {"screen.png": "game", "history.png": "history", "game-over.png": "over",
           "home.png": "home", "settings.png": "settings", "resolver.png": "resolver", "editor.png": "editor"}


def prepare_offscreen() -> None:
    """Point Kivy at an offscreen 800×480 window (before Kivy is first imported in this process)."""
    from ui.kivy_setup import prepare

    prepare(offscreen=True)
    from kivy.config import Config

    from ui import theme

    Config.set("graphics", "width", str(theme.WINDOW[0]))
    Config.set("graphics", "height", str(theme.WINDOW[1]))


def write_screens(record: Mapping[str, Any], out_dir: str | Path, language: str,
                  problems: list[str] | None = None, only: Collection[str] | None = None) -> list[Path]:
    """Write the screens of ``record`` (a decoded ``companion-record/1``) into ``out_dir``.

    Returns the files written. The record is checked as an import checks it
    (:class:`~companion.games.base.RecordError` naming the field); nothing
    is stored anywhere but in a temporary directory. With ``problems``, each
    screen is checked as it is written (the layout check) and its problems'
    lines are added, named by the file. ``only`` names the files of :data:`SCREENS` to
    write (all by default; a board's own views are always written): the screens that do
    not show the record (home, settings, the tools) need checking once, not for every cut.
    """
    prepare_offscreen()
    from kivy.animation import Animation
    from kivy.base import EventLoop
    from kivy.core.window import Window

    from companion import i18n
    from companion.service.app import Companion
    from companion.service.table import Table
    from ui.app import Shell
    from ui.games import over_screen

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    EventLoop.ensure_window()
    spoken = i18n.current_language()
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="companion-snapshot-") as folder:
        app = Companion.open(Path(folder) / "snapshot.db")
        try:
            i18n.set_language(language)
            app.change_setting("language", language)
            table = Table(app)
            table.open(app.open_game(app.import_record(dict(record))))
            shell = Shell(table)
            shown = list(Window.children)
            for child in shown:
                Window.remove_widget(child)
            Window.add_widget(shell.root)
            finished = table.session is not None and table.session.game.is_finished(table.session.state)
            for name, screen in SCREENS.items():
                if (screen == "over" and not finished) or (only is not None and name not in only):
                    continue
                shell.go(over_screen(table.session) if screen == "over" else screen)  # what the end shows
                example = getattr(shell.screens.current_screen, "snapshot_example", None)
                if example is not None:  # a tool screen shows a worked example, not its empty start
                    example()
                for _ in range(6):
                    EventLoop.idle()
                Animation.stop_all(shell.banner)
                path = out / name
                shell.root.export_to_png(str(path))
                written.append(path)
                if problems is not None:
                    problems += _check(name)
            written += _board_screens(shell, out, problems)
            shell.close()
            Window.remove_widget(shell.root)
            for child in shown:
                Window.add_widget(child)
        finally:
            app.close()
            i18n.set_language(spoken)
    return written


def _check(name: str) -> list[str]:
    """The layout check's lines for what the window shows now, written as the file ``name``."""
    from ui.layout_check import check_window

    return [problem.line() for problem in check_window(name)]


def _board_screens(shell: ShellInterface, out: Path, problems: list[str] | None = None) -> list[Path]:
    """The board's own extra screens (a valuation, an evaluation overlay…).

    A board that has more to show than its screen offers
    ``snapshot_extras(out, settle) -> list[Path]``: it opens each view, calls
    ``settle()`` (a few frames, the banner's animation stopped) and writes
    the PNG files into ``out``. Each board writes one file after each
    ``settle()``, so with ``problems`` the check runs in ``settle()`` (on what
    is about to be written) and its findings are named by the files in order.
    """
    from kivy.animation import Animation
    from kivy.base import EventLoop

    found: list[list[Any]] = []

    def settle() -> None:
        for _ in range(6):
            EventLoop.idle()
        Animation.stop_all(shell.banner)
        if problems is not None:
            from ui.layout_check import check_window

            found.append(check_window(""))

    shell.go("game")
    board = getattr(shell.screens.get_screen("game"), "board", None)
    extras = getattr(board, "snapshot_extras", None)
    if extras is None:
        return []
    written: list[Path] = extras(out, settle)
    if problems is not None:
        for path, view in zip(written, found, strict=False):
            problems += [replace(problem, screen=path.name).line() for problem in view]
    return written


def write_for_snapshot(record: Record[Any, Any], state: object, out: Path,
                       problems: list[str] | None = None) -> list[Path]:
    """``companion snapshot``'s writer (``writer(record, state, out_dir)``): the screens of a parsed
    record, in the language the command speaks (checked, with ``problems``)."""
    from companion import i18n
    from companion.service.records import record_json

    del state  # the screens replay the record themselves
    data = record_json(record.game, record.players, record.initial, record.moves)
    return write_screens(data, out, i18n.current_language(), problems)
