"""``companion castelli resolve`` (the area resolver) and ``companion board validate|layouts``.

The resolver lets players settle an argument at the table ("who gets the
grain here?") with the same code the engine uses; ``board validate`` checks a
board file before it goes into a record or the store.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.games.base import RecordError
from companion.games.castelli import tables


def _user_error(message: str) -> Exception:
    from companion.cli import UserError

    return UserError(message)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``castelli`` and ``board`` command groups."""
    castelli = subparsers.add_parser("castelli", help="Castelli tools (the area resolver)",
                                     description="Castelli tools.")
    sub = castelli.add_subparsers(dest="castelli_command", metavar="COMMAND",
                                  parser_class=type(castelli))
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
    castelli.set_defaults(handler=lambda args: _help(castelli))

    board = subparsers.add_parser("board", help="Castelli boards: validate a file, list layouts",
                                  description="Castelli board files (the inline-board format).")
    bsub = board.add_subparsers(dest="board_command", metavar="COMMAND", parser_class=type(board))
    val = bsub.add_parser("validate", help="check a board JSON file",
                          description="Validate a board file in the inline-board format of a "
                                      "record's setup.board. Exit 0 with a summary, or exit 2 naming "
                                      "the field.")
    val.add_argument("file", help="a JSON file holding one board")
    val.add_argument("--json", action="store_true", help="print the board's counts as JSON")
    val.set_defaults(handler=run_validate)
    lay = bsub.add_parser("layouts", help="list the layouts the companion ships (examples)")
    lay.set_defaults(handler=run_layouts)
    board.set_defaults(handler=lambda args: _help(board))


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def _parse_shield(text: str) -> tuple[str, int | str]:
    colour, sep, value = text.partition(":")
    if not sep or colour not in tables.COLORS:
        raise _user_error(f'--shield "{text}": write COLOUR:VALUE with a colour of '
                          f'{", ".join(tables.COLORS)}')
    if value == tables.CARD_SHIELD:
        return colour, value
    if not value.isdigit() or int(value) not in tables.SHIELD_VALUES:
        raise _user_error(f'--shield "{text}": the value must be 1-6 or "card"')
    return colour, int(value)


def run_resolve(args: argparse.Namespace) -> int:
    shields = [_parse_shield(s) for s in args.shield]
    players: dict[str, str] = {}
    for item in args.player:
        name, sep, colour = item.partition("=")
        if not sep or not name or colour not in tables.COLORS:
            raise _user_error(f'--player "{item}": write NAME=COLOUR with a colour of '
                              f'{", ".join(tables.COLORS)}')
        if colour in players:
            raise _user_error(f"--player: {colour} is already {players[colour]}'s colour")
        players[colour] = name
    if not players:
        players = {c: c for c in tables.COLORS}
    amount = args.amount
    if amount is None:
        if args.kind == "mine":
            raise _user_error("--silver (the silver in the mine) is required for the mine")
        amount = tables.DEFAULT_TENTS if args.kind == "market" else tables.DEFAULT_YIELD
    if amount < 0:
        raise _user_error("--yield must be 0 or more")
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
    shown = ", ".join(f"{c} {v}" for c, v in result.influence.items()) or "none"
    print(f"influence: {shown}")
    if result.awards:
        for player, n in result.awards.items():
            print(f"{player}: {n} {result.gain}")
    else:
        print("nobody gains anything")
    print(result.explanation)
    return 0


def run_validate(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise _user_error(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise _user_error(f"cannot read {path}: {error}") from None
    except json.JSONDecodeError as error:
        raise _user_error(f"{path} is not valid JSON (line {error.lineno}, column {error.colno}: "
                          f"{error.msg})") from None
    if isinstance(data, dict) and isinstance(data.get("comment"), str):
        data = {k: v for k, v in data.items() if k != "comment"}  # layout files may carry a note
    try:
        from companion.games.castelli.board import validate_board

        board = validate_board(data)
    except RecordError as error:
        where = f"{path}: {error.path}" if error.path else str(path)
        raise RecordError(error.message, where) from None
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
          f"{villages} villages, {towns} towns")
    return 0


def run_layouts(args: argparse.Namespace) -> int:
    from companion.games.castelli.board import layout_names, load_layout

    for name in layout_names():
        board = load_layout(name)
        print(f"{name}: {len(board.spaces)} tile spaces, {len(board.areas)} areas (example layout)")
    return 0
