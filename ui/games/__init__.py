"""The game areas: one board widget per game, drawn by its own module, found here by name.

Each game's touchscreen part is declared once, as a :class:`UiPart` in its
package (``ui/games/<game>/__init__.py``), and listed in :data:`PACKAGES`
under its descriptor's name.

A board is a Kivy widget built as ``Board(table=table)``. It redraws itself
from ``table.session`` when the shell calls ``refresh()`` (after every table
event), and enters moves with ``table.propose(move, "touch")``, catching
:class:`~companion.games.base.IllegalMove` and changing nothing: the shell
shows every refusal (it listens for the table's ``refused`` events). The
shell owns the common bar above the board (undo, redo, history, whose turn).

A game without a board here is played with the shell's move picker (the
legal moves in the notation, and a notation field).

A game may also need a form filled in once before a game can start (a
flag table, a layout): :func:`setup_form`
finds it, and the new-game screen shows it in its place, then starts the game
(with the form's :class:`StartDetails` when it passes them). A game whose
settings are more than simple values brings its own rows for the settings
screen (:func:`settings_rows`).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ui.games.part import UiPart

log = logging.getLogger(__name__)


#: Game name (its descriptor's) -> the package under ``ui.games`` whose ``PART`` is its touchscreen part.
#: This layer's one list of games; a game not in it is played with the shell's move picker.
PACKAGES: dict[str, str] = {
    "campanile": f"{__name__}.campanile",
    "castelli": f"{__name__}.castelli",
    "san-gimignano": f"{__name__}.san_gimignano",
}


def _parts() -> dict[str, UiPart]:
    parts: dict[str, UiPart] = {}
    for name, package in PACKAGES.items():
        part: UiPart = getattr(importlib.import_module(package), "PART", UiPart())
        parts[name] = part
    return parts


_PARTS = _parts()
#: game name -> "module:Class" of its board widget.
GAME_BOARDS: dict[str, str] = {n: p.board for n, p in _PARTS.items() if p.board}
#: game name -> "module:function" of its setup form (:attr:`UiPart.setup_form`).
GAME_SETUP_FORMS: dict[str, str] = {n: p.setup_form for n, p in _PARTS.items() if p.setup_form}
#: game name -> "module:function" of its line on game over (:attr:`UiPart.breakdown`).
GAME_BREAKDOWNS: dict[str, str] = {n: p.breakdown for n, p in _PARTS.items() if p.breakdown}
#: game name -> "module:function" of its choice on the new-game screen (:attr:`UiPart.new_game_choice`).
#: screen name -> "module:Class" of the games' own screens (Castelli's resolver and board editor).
GAME_SCREENS: dict[str, str] = {name: where for p in _PARTS.values() for name, where in p.screens.items()}
GAME_NEW_GAME_CHOICES: dict[str, str] = {n: p.new_game_choice for n, p in _PARTS.items()
                                         if p.new_game_choice}
#: game name -> "module:function" starting what its choice asks instead (:attr:`UiPart.start_instead`).
GAME_STARTS_INSTEAD: dict[str, str] = {n: p.start_instead for n, p in _PARTS.items() if p.start_instead}
#: game name -> "module:function" naming the screen its game ends on (:attr:`UiPart.over_screen`).
GAME_OVER_SCREENS: dict[str, str] = {n: p.over_screen for n, p in _PARTS.items() if p.over_screen}
#: game name -> "module:function" of its own rows on the settings screen (:attr:`UiPart.settings_rows`).
GAME_SETTINGS_ROWS: dict[str, str] = {n: p.settings_rows for n, p in _PARTS.items() if p.settings_rows}


@dataclass(frozen=True)
class StartDetails:
    """What a setup form that chooses the game's options and setup hands to ``on_confirmed``:
    the new-game screen starts the game with them (a form that only keeps a setting passes
    anything else, and the game starts as it would have)."""

    options: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] = field(default_factory=dict)


def screen_game(screen: str) -> str | None:
    """The game whose part declares the shell's screen ``screen`` (a game's own tool), or ``None``
    for the shell's own screens: Home offers a game's tool only when no other game is in progress."""
    return next((name for name, part in _PARTS.items() if screen in part.screens), None)


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


def new_game_choice(app: Any, game: str, chosen: Any,
                    choose: Callable[[Any], None]) -> tuple[Any, dict[str, Any]] | None:
    """``game``'s own choice on the new-game screen (:data:`GAME_NEW_GAME_CHOICES`) as
    ``(widget, setup)``, or ``None`` when it has none (or nothing to choose now)."""
    maker = _load(GAME_NEW_GAME_CHOICES.get(game), game)
    if maker is None:
        return None
    found: tuple[Any, dict[str, Any]] | None = maker(app, chosen, choose)
    return found


def start_instead(shell: Any, game: str, chosen: Any, players: list[str], details: dict[str, Any]) -> bool:
    """Whether ``game``'s part started something else than one game for ``players`` (a Championship)
    from what its new-game choice ``chosen`` says (:data:`GAME_STARTS_INSTEAD`)."""
    starter = _load(GAME_STARTS_INSTEAD.get(game), game)
    return bool(starter is not None and starter(shell, chosen, players, details))


def over_screen(session: Any) -> str:
    """The shell's screen for the open game once it has ended: its part's (:data:`GAME_OVER_SCREENS`),
    else game over (``over``)."""
    chooser = _load(GAME_OVER_SCREENS.get(session.game.name), session.game.name)
    found = chooser(session) if chooser is not None else None
    return str(found or "over")


def settings_rows(screen: Any) -> list[Any]:
    """Every game's own rows for the settings ``screen`` (:data:`GAME_SETTINGS_ROWS`), in the order of
    :data:`PACKAGES`: the screen adds them once and refreshes them on every redraw, naming no game."""
    rows: list[Any] = []
    for game, where in GAME_SETTINGS_ROWS.items():
        maker = _load(where, game)
        if maker is not None:
            rows.append(maker(screen))
    return rows


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
