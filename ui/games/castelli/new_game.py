"""Castelli on the new-game screen: which board the game is played on (shipped layouts, then stored
ones), or a Championship of the four players (variant 1 or 2), on one button.

A Championship is not one game: :func:`start_instead` starts it through the service (its first
round, with the groups the variant asks for) in place of the game the screen would start.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ui.shell_interface import ShellInterface

#: A Championship's words on the button (codes written out, so the catalogue checks find them).
MODE_WORDS = {1: "ui.castelli.new.knockout", 2: "ui.castelli.new.league"}


def chosen_parts(chosen: Any) -> tuple[Any, int]:
    """The board and the mode the players chose so far (``chosen`` is ``(board, mode)``; a bare board
    name, or nothing, means one game)."""
    if isinstance(chosen, tuple) and len(chosen) == 2:
        return chosen[0], int(chosen[1])
    return chosen, 0


def board_choice(app: Any, chosen: Any, choose: Callable[[Any], None]) -> tuple[Any, dict[str, Any]] | None:
    """One button, each tap the next choice: one game on each board the companion knows (shipped
    layouts, then stored ones), then a Championship of variant 1, then of variant 2; and the setup
    it gives (a Championship's rounds take their boards from the service). One row, as the board's
    button always was: the seats' column has no room for a second."""
    from companion.i18n import text
    from companion.service.castelli import CastelliService
    from ui import theme
    from ui.widgets import Tap

    board, mode = chosen_parts(chosen)
    boards = [b.name for b in CastelliService.of(app).boards()]
    # first the board the player count asks for (None: the core's default, which knows how many are
    # seated and whether the table stored its own board), then each board by name, then the championships
    options: list[tuple[Any, int]] = [(None, 0)] + [(name, 0) for name in boards] + [(board, 1), (board, 2)]
    if mode == 0 and board not in boards:
        board = None
    now = (board, mode)
    index = next((i for i, (b, m) in enumerate(options) if m == now[1] and (m or b == now[0])), 0)
    following = options[(index + 1) % len(options)]
    if now[1]:
        words = text(MODE_WORDS[now[1]])
    elif now[0] is None:
        words = text("ui.new.board_auto")
    else:
        words = text("ui.new.board", board=now[0])
    pick = Tap(text=words, accent=now[1] != 0, size_hint_y=None, height=theme.TOUCH)
    pick.bind(on_release=lambda *_: choose((following[0] if following[1] == 0 else now[0], following[1])))
    return pick, ({"board": now[0]} if now[1] == 0 and now[0] is not None else {})


def start_instead(shell: ShellInterface, chosen: Any, players: list[str], details: dict[str, Any]) -> bool:
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
