"""``companion castelli resolve`` (the area resolver) and ``companion board validate|layouts``.

The resolver lets players settle an argument at the table ("who gets the
grain here?") with the same code the engine uses; ``board validate`` checks a
board file before it goes into a record or the store.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.cli import UserError, add_command_group
from companion.commands.library import store_errors
from companion.games.base import RecordError
from companion.games.castelli import tables


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``castelli`` and ``board`` command groups."""
    sub = add_command_group(subparsers, "castelli", help="Castelli tools (the area resolver)",
                            description="Castelli tools.")
    res = sub.add_parser(
        "resolve", help="who gains what in an area, with the tie explained",
        description="Evaluate one area: give its kind, its yield (or tents, or the mine's "
                    "silver) and the shields pointing into it. Colours no --player plays are "
                    "neutral; without any --player every colour is played by a player of its name.")
    res.add_argument("--kind", required=True, choices=[k for k in tables.AREA_KINDS if k != "plain"])
    res.add_argument("--yield", dest="amount", type=int, metavar="N",
                     help=f"resource symbols (forest/field/rock, default {tables.DEFAULT_YIELD}), "
                          f"tents (market, default {tables.DEFAULT_TENTS}) or silver (mine, required)")
    res.add_argument("--tents", dest="amount", type=int, metavar="N", help="same as --yield for a market")
    res.add_argument("--silver", dest="amount", type=int, metavar="N", help="same as --yield for the mine")
    res.add_argument("--shield", action="append", default=[], metavar="COLOUR:VALUE",
                     help='a shield pointing into the area, value 1-6 or "card" (repeatable)')
    res.add_argument("--player", action="append", default=[], metavar="NAME=COLOUR",
                     help="who plays which colour (repeatable)")
    res.add_argument("--neutral", choices=tables.NEUTRAL_CHOICES, default="void",
                     help="a neutral colour among the leaders: void the area (default) or split")
    res.add_argument("--json", action="store_true", help="print the result as one JSON object")
    res.set_defaults(handler=run_resolve)

    bsub = add_command_group(subparsers, "board", help="Castelli boards: validate, import, list",
                             description="Castelli board files (the inline-board format).")
    val = bsub.add_parser("validate", help="check a board JSON file",
                          description="Validate a board file in the inline-board format of a "
                                      "record's setup.board. Exit 0 with a summary, or exit 2 naming "
                                      "the field.")
    val.add_argument("file", help="a JSON file holding one board")
    val.add_argument("--json", action="store_true", help="print the board's counts as JSON")
    val.set_defaults(handler=run_validate)
    imp = bsub.add_parser("import", help="validate a board file and keep it for new games",
                          description="Validate a board file and keep it in this companion's store "
                                      "under a name; new games on it carry the board inline, so "
                                      "their records replay anywhere.")
    imp.add_argument("file", help="a JSON file holding one board")
    imp.add_argument("--name", required=True, help="the name to start games with")
    imp.set_defaults(handler=run_import)
    lay = bsub.add_parser("layouts", help="list the shipped example layouts and the boards stored here")
    lay.set_defaults(handler=run_layouts)


def _parse_shield(text: str) -> tuple[str, int | str]:
    colour, sep, value = text.partition(":")
    if not sep or colour not in tables.COLORS:
        raise UserError(f'--shield "{text}": write COLOUR:VALUE with a colour of '
                          f'{", ".join(tables.COLORS)}')
    if value == tables.CARD_SHIELD:
        return colour, value
    if not value.isdigit() or int(value) not in tables.SHIELD_VALUES:
        raise UserError(f'--shield "{text}": the value must be 1-6 or "card"')
    return colour, int(value)


def run_resolve(args: argparse.Namespace) -> int:
    shields = [_parse_shield(s) for s in args.shield]
    players: dict[str, str] = {}
    for item in args.player:
        name, sep, colour = item.partition("=")
        if not sep or not name or colour not in tables.COLORS:
            raise UserError(f'--player "{item}": write NAME=COLOUR with a colour of '
                              f'{", ".join(tables.COLORS)}')
        if colour in players:
            raise UserError(f"--player: {colour} is already {players[colour]}'s colour")
        players[colour] = name
    if not players:
        players = {c: c for c in tables.COLORS}
    amount = args.amount
    if amount is None:
        if args.kind == "mine":
            raise UserError("--silver (the silver in the mine) is required for the mine")
        amount = tables.DEFAULT_TENTS if args.kind == "market" else tables.DEFAULT_YIELD
    if amount < 0:
        option = {"market": "--tents", "mine": "--silver"}.get(args.kind, "--yield")
        raise UserError(f"{option} must be 0 or more")
    from companion.games.castelli.evaluation import resolve

    result = resolve(args.kind, amount, shields, players, args.neutral)
    if args.json:
        data: dict[str, Any] = {
            "kind": result.kind, "gain": result.gain, "amount": result.amount,
            "influence": result.influence, "leaders": list(result.leaders),
            "evaluated": result.evaluated, "voided": result.voided,
            "awards": {p: {result.gain: n} for p, n in result.awards.items()},
            "explanation": result.explanation}
        json.dump(data, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    by_strength = sorted(result.influence.items(), key=lambda item: -item[1])
    shown = ", ".join(f"{players.get(c, 'neutral')} ({c}) {v}" for c, v in by_strength) or "none"
    print(f"influence: {shown}")
    if result.awards:
        for player, n in result.awards.items():
            print(f"{player}: {n} {'card' if result.gain == 'cards' and n == 1 else result.gain}")
    else:
        print("nobody gains anything")
    print(result.explanation)
    return 0


def _read_board(file: str) -> tuple[dict[str, Any], Any]:
    """The board JSON of ``file`` (a layout's ``comment`` dropped) and its validated :class:`Board`."""
    from companion.games.castelli.board import validate_board
    from companion.records import read_json

    data = read_json(file)
    _refuse_whole_record(file, data)
    if isinstance(data, dict) and isinstance(data.get("comment"), str):
        data = {k: v for k, v in data.items() if k != "comment"}  # layout files may carry a note
    try:
        return data, validate_board(data)
    except RecordError as error:
        where = f"{file}: {error.path}" if error.path else file
        raise RecordError(error.message, where) from None


#: What the board commands say about a file that is not a board, in one place for the catalogues.
BOARD_MESSAGES = {
    "record_inline": "{file} is a whole game record; its board is under setup.board "
                     "(put that object in a file of its own to check or import it)",
    "record_layout": '{file} is a whole game record; its board, under setup.board, is the layout '
                     '"{layout}" that the companion ships (see `companion board layouts`)',
}


def _refuse_whole_record(file: str, data: Any) -> None:
    """A record given where a board is expected: say where its board is, not "unknown field"."""
    from companion.records import FORMAT

    if not isinstance(data, dict) or not (data.get("format") == FORMAT or "moves" in data):
        return
    setup = data.get("setup")
    board = setup.get("board") if isinstance(setup, dict) else None
    if isinstance(board, str):
        raise UserError(BOARD_MESSAGES["record_layout"].format(file=file, layout=board))
    raise UserError(BOARD_MESSAGES["record_inline"].format(file=file))


def run_validate(args: argparse.Namespace) -> int:
    _, board = _read_board(args.file)
    kinds = {k: sum(1 for a in board.areas.values() if a.kind == k) for k in tables.AREA_KINDS}
    villages = sum(1 for k in board.settlements.values() if k == "village")
    towns = len(board.settlements) - villages
    if args.json:
        json.dump({"ok": True, "spaces": len(board.spaces), "areas": kinds,
                   "villages": villages, "towns": towns}, sys.stdout)
        sys.stdout.write("\n")
        return 0
    counted = ", ".join(f"{n} {k}" for k, n in kinds.items() if n)
    print(f"ok: {len(board.spaces)} tile spaces, {len(board.areas)} areas ({counted}), "
          f"{villages} village{'' if villages == 1 else 's'}, {towns} town{'' if towns == 1 else 's'}")
    return 0


@store_errors
def run_import(args: argparse.Namespace) -> int:
    """Keep a validated board in the store, so that `companion new castelli --setup board=NAME` finds it."""
    from companion.commands.library import open_app

    data, board = _read_board(args.file)
    name = args.name.strip()
    if not name:
        raise UserError("--name must not be empty")
    with open_app(args) as app:
        replaced = app.save_board(name, data)
    print(f'{"replaced" if replaced else "stored"} board "{name}": {len(board.spaces)} tile spaces, '
          f"{len(board.areas)} areas; start a game on it with "
          f"`companion new castelli PLAYER... --setup board={name} --setup colors=...`")
    return 0


@store_errors
def run_layouts(args: argparse.Namespace) -> int:
    from companion.commands.library import open_app

    with open_app(args, write=False) as app:
        boards = app.boards()
    for board in boards:
        print(f"{board.name}: {board.spaces} tile spaces, {board.areas} areas "
              f"({'example layout' if board.shipped else 'stored here'})")
    return 0
