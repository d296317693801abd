"""Castelli as the core sees it: its pieces' colours kept in the setup, stored boards, its console words."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from companion.games.descriptor import ExampleSetup, GameDescriptor, NewGame, TableSettings
from companion.games.messages import Message, msg

#: The record's ``game`` value.
NAME = "castelli"
#: The setting that keeps the boards entered on this companion: ``{name: board JSON}``. A game
#: started on one gets the board inline, so that its record never needs this setting.
BOARDS = f"{NAME}.boards"
#: The setting that keeps the boards being entered (``companion board enter NAME``) until they are
#: finished: ``{name: {"rows", "columns", "answers"}}`` (:mod:`companion.service.castelli_board_entry`).
BOARD_DRAFTS = f"{NAME}.board_drafts"


#: The shipped example layouts for a player count: two board parts for two players, all four for
#: three or four (the rulebook's setup).
LAYOUT_FOR_PLAYERS = {2: "example-2p", 3: "example-4p", 4: "example-4p"}
#: A Championship round's boards when the table has none of its own: the two parts with the mine for
#: group 1, the other two with the extra mine tile for group 2.
ROUND_LAYOUTS = ("example-2p", "example-2p-extra-mine")
#: The keys of a game's setup, those it must hold first (the companion fills them in when the
#: players give none), each with what it holds (``new --help``).
SETUP_REQUIRED = ("colors", "board")
SETUP_KEYS = {"colors": msg("castelli.setup_key.colors"), "board": msg("castelli.setup_key.board"),
              "mine": msg("castelli.setup_key.mine")}
#: The rule options, each with what it chooses (``new --help``); all may be left out.
OPTION_KEYS = {"modules": msg("castelli.option_key.modules"), "neutral": msg("castelli.option_key.neutral"),
               "silver_tie": msg("castelli.option_key.silver_tie")}


def default_board(players: int, stored: Sequence[str]) -> str:
    """The board a new game of ``players`` gets when nobody named one: the table's own board when
    exactly one is stored (the players entered their real board), else the example layout for the
    player count."""
    if len(stored) == 1:
        return stored[0]
    return LAYOUT_FOR_PLAYERS.get(players, LAYOUT_FOR_PLAYERS[4])


def defaults(new: NewGame, table: TableSettings) -> tuple[dict[str, Any], dict[str, Any]]:
    """A game without a board gets :func:`default_board`; a board named from this table's stored
    ones goes inline into the setup. A Championship round (``groups`` in the setup) gets
    :data:`ROUND_LAYOUTS` (with a stored board: that one for each group) unless ``boards`` names them."""
    options, setup = dict(new.options), dict(new.setup)
    if "groups" in setup:  # a Championship round: a 2-player board for each group
        stored = table.setting(BOARDS, {}) or {}
        boards = setup.get("boards") or (list(ROUND_LAYOUTS) if not stored
                                         else [default_board(2, sorted(stored))] * 2)
        setup["boards"] = [stored.get(b, b) if isinstance(b, str) else b for b in boards]
        return options, setup
    if "board" not in setup:
        setup["board"] = default_board(len(new.players), sorted(table.setting(BOARDS, {}) or {}))
    if isinstance(setup.get("board"), str):
        stored = table.setting(BOARDS, {}) or {}
        if setup["board"] in stored:
            setup["board"] = stored[setup["board"]]
    return options, setup


def notices(new: NewGame) -> list[Message]:
    """A shipped layout made for another player count: two board parts are a 2-player game's,
    all four a 3- or 4-player game's (the rulebook's setup). The game may still be played.
    Then, on any shipped layout, that it is an example and how to enter the table's own."""
    found: list[Message] = []
    board = new.setup.get("board")
    if board in LAYOUT_FOR_PLAYERS.values() and LAYOUT_FOR_PLAYERS.get(len(new.players)) != board:
        found.append(msg("castelli.notice.layout", board=board, players=len(new.players),
                         suggested=LAYOUT_FOR_PLAYERS.get(len(new.players), LAYOUT_FOR_PLAYERS[4])))
    on_example = example(new.setup, new.options, new.players)
    if on_example is not None:
        found.append(on_example.said["console"])
    return found


def example(setup: Mapping[str, Any], options: Mapping[str, Any],
            players: Sequence[str]) -> ExampleSetup | None:
    """The shipped layout a game is on (every one is an example: the rulebook does not publish the
    board), by name as a new game is given it or inline as its record keeps it; a Championship
    round's first such board. ``None`` on a board the table entered."""
    boards = setup.get("boards") if "groups" in setup else [setup.get("board")]
    for board in boards if isinstance(boards, list) else ():
        name = shipped_layout(board)
        if name is not None:
            return ExampleSetup("board", name, {
                "console": msg("castelli.example.console", board=name),
                "touchscreen": msg("castelli.example.touchscreen", board=name),
                "touchscreen.tag": msg("castelli.example.tag"),
                "touchscreen.new": msg("castelli.example.new", board=name),
                "oled": msg("castelli.example.oled", board=name),
                "web": msg("castelli.example.web", board=name)})
    return None


def shipped_layout(board: object) -> str | None:
    """The name of the shipped layout ``board`` is (its name, or its inline JSON with every default
    written out or not), else ``None``."""
    from companion.games.castelli.board import layout_names

    if isinstance(board, str):
        return board if board in layout_names() else None
    if not isinstance(board, Mapping):
        return None
    try:
        return _layout_of(json.dumps(board, sort_keys=True))
    except TypeError:  # not JSON: no layout of ours
        return None


@lru_cache(maxsize=64)
def _layout_of(board: str) -> str | None:
    """:func:`shipped_layout` of a board's JSON text (a record's board is read again at every look)."""
    from companion.games.base import RecordError
    from companion.games.castelli.board import board_to_json, layout_names, load_layout, validate_board

    try:
        written = board_to_json(validate_board(json.loads(board)))
    except RecordError:
        return None
    return next((name for name in layout_names() if board_to_json(load_layout(name)) == written), None)


DESCRIPTOR = GameDescriptor(
    name=NAME,
    engine="companion.games.castelli.game:Castelli",
    piece_colours=("blue", "yellow", "red", "green"),
    colours_in_setup=True,
    observed_hints={"reveal": "console.observed.castelli_reveal"},
    setting_keys=(BOARDS, BOARD_DRAFTS),
    defaults=defaults,
    setup_keys=SETUP_KEYS,
    option_keys=OPTION_KEYS,
    notices=notices,
    example=example,
    order=20,
    capabilities=frozenset({"championship"}),
    catalogues="companion.games.castelli",
    service="companion.service.castelli:CastelliService",
    commands="companion.cli.commands.castelli",
    command_names=("castelli", "board"),
    oled="hardware.games.castelli:PART",
    touchscreen="ui.games.castelli:PART",
    web="web.pages.games.castelli:PART",
)
