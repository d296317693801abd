"""Castelli on the new-game screen: which board the game is played on (shipped layouts, then stored ones)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def board_choice(app: Any, chosen: Any, choose: Callable[[Any], None]) -> tuple[Any, dict[str, Any]] | None:
    """A button naming the board (each tap: the next one) and the setup it gives, or ``None``
    when the companion knows no board."""
    from companion.i18n import text
    from ui import theme
    from ui.widgets import Tap

    boards = [b.name for b in app.boards()]
    if not boards:
        return None
    board = chosen if chosen in boards else boards[0]
    pick = Tap(text=text("ui.new.board", board=board), size_hint_y=None, height=theme.TOUCH)
    following = boards[(boards.index(board) + 1) % len(boards)]
    pick.bind(on_release=lambda *_: choose(following))
    return pick, {"board": board}
