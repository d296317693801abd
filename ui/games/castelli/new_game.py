"""Castelli on the new-game screen: which board the game is played on (shipped layouts, then stored
ones), and whether the four players start one game or a Championship (variant 1 or 2).

A Championship is not one game: :func:`start_instead` starts it through the service (its first
round, with the groups the variant asks for) in place of the game the screen would start.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: What the players may start: one game (0), or a Championship of variant 1 or 2.
MODES: tuple[int, ...] = (0, 1, 2)
#: Each mode's words (codes written out, so the catalogue checks find them).
MODE_WORDS = {0: "ui.castelli.new.single", 1: "ui.castelli.new.knockout",
              2: "ui.castelli.new.league"}


def chosen_parts(chosen: Any) -> tuple[Any, int]:
    """The board and the mode the players chose so far (``chosen`` is ``(board, mode)``; a bare board
    name, or nothing, means one game)."""
    if isinstance(chosen, tuple) and len(chosen) == 2:
        return chosen[0], int(chosen[1])
    return chosen, 0


def board_choice(app: Any, chosen: Any, choose: Callable[[Any], None]) -> tuple[Any, dict[str, Any]] | None:
    """Two buttons: the board (each tap: the next one) and one game or a Championship (each tap: the
    next), and the setup they give (a Championship's rounds take their boards from the service)."""
    from kivy.uix.boxlayout import BoxLayout

    from companion.i18n import text
    from ui import theme
    from ui.widgets import Tap

    board, mode = chosen_parts(chosen)
    boards = [b.name for b in app.boards()]
    box = BoxLayout(orientation="vertical", spacing=theme.SPACING, size_hint_y=None)
    setup: dict[str, Any] = {}
    if boards and mode == 0:
        board = board if board in boards else boards[0]
        pick = Tap(text=text("ui.new.board", board=board), size_hint_y=None, height=theme.TOUCH)
        following = boards[(boards.index(board) + 1) % len(boards)]
        pick.bind(on_release=lambda *_: choose((following, mode)))
        box.add_widget(pick)
        setup = {"board": board}
    kind = Tap(text=text(MODE_WORDS[mode]), accent=mode != 0, size_hint_y=None, height=theme.TOUCH)
    kind.bind(on_release=lambda *_: choose((board, MODES[(MODES.index(mode) + 1) % len(MODES)])))
    box.add_widget(kind)
    box.height = theme.TOUCH * len(box.children) + theme.SPACING * (len(box.children) - 1)
    return box, setup


def start_instead(shell: Any, chosen: Any, players: list[str], details: dict[str, Any]) -> bool:
    """Start a Championship when the players chose one (``True``: done here, or refused in the banner);
    ``False`` for one game, which the new-game screen starts as usual."""
    _board, mode = chosen_parts(chosen)
    if mode == 0:
        return False
    from companion.i18n import text

    if len(players) != 4:
        shell.refuse(text("ui.castelli.new.needs_four"))
        return True
    from ui.games.castelli import championship

    championship.start_championship(shell, mode, players, details.get("colours"))
    return True
