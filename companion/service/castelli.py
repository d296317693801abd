"""Castelli's part of the service: the boards the players may start a game on (shipped, or entered here).

A game started on a stored board gets it inline (the game's descriptor,
:mod:`companion.games.castelli.descriptor`), so that its record never needs this table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.castelli.descriptor import BOARDS, NAME
from companion.games.messages import msg
from companion.service.errors import AppError
from companion.service.names import name_problem
from companion.service.parts import GameService


@dataclass(frozen=True)
class Board:
    """A Castelli board the players may start a game on."""

    name: str
    shipped: bool
    spaces: int
    areas: int


class CastelliService(GameService):
    """Castelli's part of the service: the boards (``CastelliService.of(app)``); a championship's
    rounds are started on them too."""

    game = NAME

    def boards(self) -> list[Board]:
        """The layouts the companion ships, then the boards stored here (by name)."""
        from companion.games.castelli.board import layout_names, load_layout

        shipped = [Board(name, True, len(b.spaces), len(b.areas))
                   for name, b in ((n, load_layout(n)) for n in layout_names())]
        stored = self.store.get_setting(BOARDS, {})
        return shipped + [Board(name, False, len(data.get("spaces", {})), len(data.get("areas", {})))
                          for name, data in sorted(stored.items())]

    def save_board(self, name: str, data: Mapping[str, Any]) -> bool:
        """Validate a board and keep it under ``name``; returns whether it replaced one.

        :class:`RecordError` naming the field of a bad board; :class:`AppError`
        for an empty name, one the name rule refuses (:mod:`companion.games.naming`) or the name of
        a shipped layout.
        """
        from companion.games.castelli.board import layout_names, validate_board

        name = name.strip() if isinstance(name, str) else name
        problem = name_problem(name, "board")  # the one name rule: a bidi override would reach every screen
        if problem is not None:
            raise AppError(problem)
        assert isinstance(name, str)
        if name in layout_names():
            raise AppError(msg("app.board.shipped_name", name=name))
        validate_board(dict(data))
        boards = dict(self.store.get_setting(BOARDS, {}))
        replaced = name in boards
        boards[name] = dict(data)
        self.store.set_setting(BOARDS, boards)
        return replaced

    def board_data(self, name: str) -> dict[str, Any]:
        """The inline JSON of a board by name (a shipped layout, or one stored here), to edit or copy.

        :class:`AppError` for a name the companion does not know.
        """
        from companion.games.castelli.board import board_to_json, layout_names, load_layout

        stored = self.store.get_setting(BOARDS, {})
        if name in stored:
            return dict(stored[name])
        if name in layout_names():
            return board_to_json(load_layout(name))
        raise AppError(msg("app.board.unknown", name=name))

    def forget_board(self, name: str) -> None:
        boards = dict(self.store.get_setting(BOARDS, {}))
        if name not in boards:
            raise AppError(msg("app.board.unknown", name=name))
        del boards[name]
        self.store.set_setting(BOARDS, boards)
