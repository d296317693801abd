"""The game areas: one board widget per game, drawn by its own module, found here by name.

A board is a Kivy widget built as ``Board(table=table)``. It redraws itself
from ``table.session`` when the shell calls ``refresh()`` (after every table
event), and enters moves with ``table.propose(move, "touch")``, catching
:class:`~companion.games.base.IllegalMove` and changing nothing: the shell
shows every refusal (it listens for the table's ``refused`` events). The
shell owns the common bar above the board (undo, redo, history, whose turn).

A game without a board here is played with the shell's move picker (the
legal moves in the notation, and a notation field).

A game may also need a form filled in once before a game can start (the
2-player flag table of Campanile, San Gimignano's layout): :func:`setup_form`
finds it, and the new-game screen shows it in its place, then starts the game
(with the form's :class:`StartDetails` when it passes them).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

#: game name -> "module:Class" of its board widget.
GAME_BOARDS: dict[str, str] = {"campanile": "ui.games.campanile.board:CampanileBoard",
                               "castelli": "ui.games.castelli.board:CastelliBoard",
                               "san-gimignano": "ui.games.san_gimignano.board:SanGimignanoBoard"}
#: game name -> "module:function" of its setup form: ``function(app, game, players, on_confirmed, on_back)``
#: returns the form to fill in before the game can start, or ``None`` when none is needed.
GAME_SETUP_FORMS: dict[str, str] = {"campanile": "ui.games.campanile.flags:setup_form",
                                    "san-gimignano": "ui.games.san_gimignano.setup:setup_form"}
#: game name -> "module:function" of its line on game over: ``function(summary, player)`` returns what
#: the player's score is made of, or ``None`` (then the screen's own line is shown).
GAME_BREAKDOWNS: dict[str, str] = {"castelli": "ui.games.castelli.final:final_breakdown"}


@dataclass(frozen=True)
class StartDetails:
    """What a setup form that chooses the game's options and setup hands to ``on_confirmed``:
    the new-game screen starts the game with them (a form that only keeps a setting passes
    anything else, and the game starts as it would have)."""

    options: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] = field(default_factory=dict)


def board_class(game: str) -> type[Any] | None:
    """The board widget class of ``game``, or ``None`` when it has none (yet).

    A board whose module is missing or fails to import is logged and left
    out: the move picker still lets the players play.
    """
    found: type[Any] | None = _load(GAME_BOARDS.get(game), game)
    return found


def setup_form(app: Any, game: str, players: Sequence[str],
               on_confirmed: Callable[[Any], None], on_back: Callable[[], None]) -> Any | None:
    """The form ``game`` needs filled in before it can start for ``players``, or ``None``.

    ``on_confirmed`` is called once the form's values are kept (then the game can start);
    ``on_back`` when the players leave it (nothing kept).
    """
    maker = _load(GAME_SETUP_FORMS.get(game), game)
    return None if maker is None else maker(app, game, players, on_confirmed, on_back)


def score_breakdown(game: str, summary: dict[str, Any], player: str) -> str | None:
    """``game``'s own game-over line for ``player`` (:data:`GAME_BREAKDOWNS`), or ``None``."""
    maker = _load(GAME_BREAKDOWNS.get(game), game)
    return None if maker is None else maker(summary, player)


def _load(where: str | None, game: str) -> Any:
    """The object named by ``"module:name"``; ``None`` (logged) when its module cannot be imported."""
    if where is None:
        return None
    module_name, _, class_name = where.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            log.exception("%s of %s cannot be imported", where, game)
        return None
    except Exception:
        log.exception("%s of %s cannot be imported", where, game)
        return None
    return getattr(module, class_name, None)
