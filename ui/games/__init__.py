"""The game areas: one board widget per game, drawn by its own module, found here by name.

A board is a Kivy widget built as ``Board(table=table)``. It redraws itself
from ``table.session`` when the shell calls ``refresh()`` (after every table
event), and enters moves with ``table.propose(move, "touch")``, catching
:class:`~companion.games.base.IllegalMove` and changing nothing: the shell
shows every refusal (it listens for the table's ``refused`` events). The
shell owns the common bar above the board (undo, redo, history, whose turn).

A game without a board here is played with the shell's move picker (the
legal moves in the notation, and a notation field).
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

log = logging.getLogger(__name__)

#: game name -> "module:Class" of its board widget.
GAME_BOARDS: dict[str, str] = {"campanile": "ui.games.campanile:CampanileBoard"}


def board_class(game: str) -> type[Any] | None:
    """The board widget class of ``game``, or ``None`` when it has none (yet).

    A board whose module is missing or fails to import is logged and left
    out: the move picker still lets the players play.
    """
    where = GAME_BOARDS.get(game)
    if where is None:
        return None
    module_name, _, class_name = where.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            log.exception("the board of %s cannot be imported", game)
        return None
    except Exception:
        log.exception("the board of %s cannot be imported", game)
        return None
    found: type[Any] | None = getattr(module, class_name, None)
    return found
