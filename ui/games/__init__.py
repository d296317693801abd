"""The game areas: one board widget per game, drawn by its own module, found here by name.

Each game's touchscreen part is declared once, as a :class:`UiPart` in its
package (``ui/games/<game>/__init__.py``), and named by the game's descriptor
(its ``touchscreen``): this layer keeps no list of games.

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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from companion.registry import descriptors, generation, load_named
from ui.games.part import Tool, UiPart

if TYPE_CHECKING:
    from kivy.uix.widget import Widget

    from companion.service.app import Companion
    from companion.service.session import AnySession
    from ui.shell_interface import ShellInterface



def parts() -> dict[str, UiPart]:
    """Each registered game's touchscreen part (its descriptor's ``touchscreen``), in menu order; a
    game without one, or whose part fails to import (logged), is played with the move picker."""
    return _parts(generation())


@cache
def _parts(generation: int) -> dict[str, UiPart]:
    found: dict[str, UiPart] = {}
    for game in descriptors():
        part = _load(game.touchscreen, game.name)
        if isinstance(part, UiPart):
            found[game.name] = part
    return found


def part(game: str) -> UiPart:
    """``game``'s touchscreen part; an empty one (every field ``None``) when it has none."""
    return parts().get(game, _NO_PART)


_NO_PART = UiPart()


def game_screens() -> dict[str, str]:
    """Screen name -> ``"module:Class"`` of every game's own screens (an area resolver, a board
    editor, a championship's standings), for the shell to build beside its own."""
    return {name: where for found in parts().values() for name, where in found.screens.items()}


def tools(place: str) -> list[tuple[str, Tool]]:
    """The tools the games offer at ``place`` (``"home"`` or ``"settings"``), each with its game's
    name, in menu order: Home and Settings show these and name no game themselves."""
    return [(game, tool) for game, found in parts().items() for tool in found.tools if tool.place == place]


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
    found: type[Any] | None = _load(part(game).board, game)
    return found


def setup_form(app: Companion, game: str, players: Sequence[str],
               on_confirmed: Callable[[object], None], on_back: Callable[[], None]) -> Widget | None:
    """The form ``game`` needs filled in before it can start for ``players``, or ``None``.

    ``on_confirmed`` is called once the form's values are kept (then the game can start);
    ``on_back`` when the players leave it (nothing kept).
    """
    maker = _load(part(game).setup_form, game)
    form: Widget | None = None if maker is None else maker(app, game, players, on_confirmed, on_back)
    return form


def score_breakdown(game: str, summary: dict[str, Any], player: str) -> str | None:
    """``game``'s own game-over line for ``player`` (:attr:`UiPart.breakdown`), or ``None``."""
    maker = _load(part(game).breakdown, game)
    line: str | None = None if maker is None else maker(summary, player)
    return line


def new_game_choice(app: Companion, game: str, chosen: object,
                    choose: Callable[[object], None]) -> tuple[Widget, dict[str, Any]] | None:
    """``game``'s own choice on the new-game screen (:attr:`UiPart.new_game_choice`) as
    ``(widget, setup)``, or ``None`` when it has none (or nothing to choose now)."""
    maker = _load(part(game).new_game_choice, game)
    if maker is None:
        return None
    found: tuple[Widget, dict[str, Any]] | None = maker(app, chosen, choose)
    return found


def start_instead(shell: ShellInterface, game: str, chosen: object, players: list[str],
                  details: dict[str, Any]) -> bool:
    """Whether ``game``'s part started something else than one game for ``players`` (a Championship)
    from what its new-game choice ``chosen`` says (:attr:`UiPart.start_instead`)."""
    starter = _load(part(game).start_instead, game)
    return bool(starter is not None and starter(shell, chosen, players, details))


def over_screen(session: AnySession | None) -> str:
    """The shell's screen for the open game once it has ended: its part's (:attr:`UiPart.over_screen`),
    else game over (``over``, also with no game open)."""
    if session is None:
        return "over"
    chooser = _load(part(session.game.name).over_screen, session.game.name)
    found = chooser(session) if chooser is not None else None
    return str(found or "over")


def settings_rows(screen: Widget) -> list[Widget]:
    """Every game's own rows for the settings ``screen`` (:attr:`UiPart.settings_rows`), in menu
    order: the screen adds them once and refreshes them on every redraw, naming no game."""
    rows: list[Widget] = []
    for game, found in parts().items():
        maker = _load(found.settings_rows, game)
        if maker is not None:
            rows.append(maker(screen))
    return rows


def _load(where: str | None, game: str) -> Any:
    """The object named by ``"module:name"`` (a function, a class); ``None`` (logged) when its module
    cannot be imported (:func:`companion.registry.load_named`)."""
    return load_named(where, game)
