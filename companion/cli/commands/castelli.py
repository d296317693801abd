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

from companion.cli.commands.library import open_app, store_errors
from companion.cli.main import UserError, add_command_group
from companion.games.base import RecordError
from companion.games.castelli import tables
from companion.games.castelli.board import validate_board
from companion.games.castelli.evaluation import resolve
from companion.games.castelli.words import amount as unit
from companion.games.castelli.words import who
from companion.games.messages import msg
from companion.i18n import render_json, say
from companion.service.castelli import CastelliService
from companion.service.castelli_board_entry import validity
from companion.service.names import name_problem
from companion.service.records import FORMAT, read_json


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``castelli`` and ``board`` command groups."""
    sub = add_command_group(subparsers, "castelli", help="castelli.help.castelli",
                            description="castelli.description.tools")
    res = sub.add_parser(
        "resolve", help="castelli.help.resolve",
        description="castelli.description.resolve")
    res.add_argument("--kind", required=True, choices=[k for k in tables.AREA_KINDS if k != "plain"],
                     help="castelli.help.kind")
    res.add_argument("--yield", dest="amount", type=int, metavar="N",
                     help="castelli.help.yield")
    res.add_argument("--tents", dest="amount", type=int, metavar="N", help="castelli.help.tents")
    res.add_argument("--silver", dest="amount", type=int, metavar="N", help="castelli.help.silver")
    res.add_argument("--shield", action="append", default=[], metavar="COLOUR:VALUE",
                     help="castelli.help.shield")
    res.add_argument("--player", action="append", default=[], metavar="NAME=COLOUR",
                     help="castelli.help.player")
    res.add_argument("--neutral", choices=tables.NEUTRAL_CHOICES, default="void",
                     help="castelli.help.neutral")
    res.add_argument("--json", action="store_true", help="castelli.help.resolve_json")
    res.set_defaults(handler=run_resolve)

    bsub = add_command_group(subparsers, "board", help="castelli.help.board",
                             description="castelli.description.board")
    val = bsub.add_parser("validate", help="castelli.help.validate",
                          description="castelli.description.validate")
    val.add_argument("file", metavar="FILE", help="castelli.help.board_file")
    val.add_argument("--json", action="store_true", help="castelli.help.validate_json")
    val.set_defaults(handler=run_validate)
    imp = bsub.add_parser("import", help="castelli.help.import",
                          description="castelli.description.import")
    imp.add_argument("file", metavar="FILE", help="castelli.help.board_file")
    imp.add_argument("--name", required=True, metavar="NAME", help="castelli.help.name")
    imp.set_defaults(handler=run_import)
    lay = bsub.add_parser("layouts", aliases=["list"], help="castelli.help.layouts",
                          description="castelli.help.layouts_description")
    lay.set_defaults(handler=run_layouts)
    from companion.cli.commands import castelli_board_entry as board_entry

    board_entry.register(bsub)


def _parse_shield(text: str) -> tuple[str, int | str]:
    colour, sep, value = text.partition(":")
    if not sep or colour not in tables.COLORS:
        raise UserError(say(msg("castelli.cli.shield_format", text=text, colours=", ".join(tables.COLORS))))
    if value == tables.CARD_SHIELD:
        return colour, value
    if not value.isdigit() or int(value) not in tables.SHIELD_VALUES:
        raise UserError(say(msg("castelli.cli.shield_value", text=text)))
    return colour, int(value)


def run_resolve(args: argparse.Namespace) -> int:
    shields = [_parse_shield(s) for s in args.shield]
    players: dict[str, str] = {}
    for item in args.player:
        name, sep, colour = item.partition("=")
        if not sep or not name or colour not in tables.COLORS:
            raise UserError(say(msg("castelli.cli.player_format", item=item,
                                    colours=", ".join(tables.COLORS))))
        problem = name_problem(name, "player")  # the one name rule: the name is printed back
        if problem is not None:
            raise UserError(say(problem))
        if colour in players:
            raise UserError(say(msg("castelli.cli.colour_taken", colour=colour, player=players[colour])))
        players[colour] = name
    if not players:
        players = {c: c for c in tables.COLORS}
    amount = args.amount
    if amount is None:
        if args.kind == "mine":
            raise UserError(say(msg("castelli.cli.mine_silver")))
        amount = tables.DEFAULT_TENTS if args.kind == "market" else tables.DEFAULT_YIELD
    if amount < 0:
        option = {"market": "--tents", "mine": "--silver"}.get(args.kind, "--yield")
        raise UserError(say(msg("castelli.cli.amount_negative", option=option)))

    result = resolve(args.kind, amount, shields, players, args.neutral)
    if args.json:
        data: dict[str, Any] = {
            "kind": result.kind, "gain": result.gain, "amount": result.amount,
            "influence": result.influence, "leaders": list(result.leaders),
            "evaluated": result.evaluated, "voided": result.voided,
            "awards": {p: {result.gain: n} for p, n in result.awards.items()},
            "explanation": render_json(result.explanation)}
        json.dump(data, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    by_strength = sorted(result.influence.items(), key=lambda item: -item[1])
    shown = [msg("castelli.who.points", who=who(c, players.get(c)), points=v) for c, v in by_strength]
    print(say(msg("castelli.cli.influence", shown=shown) if shown else msg("castelli.cli.no_influence")))
    if result.awards:
        for player, n in result.awards.items():
            print(say(msg("castelli.cli.award", player=player, amount=unit(result.gain, n))))
    else:
        print(say(msg("castelli.cli.nobody_gains")))
    print(say(result.explanation))
    return 0


def _read_board(file: str) -> tuple[dict[str, Any], Any]:
    """The board JSON of ``file`` (a layout's ``comment`` dropped) and its validated :class:`Board`."""

    data = read_json(file)
    _refuse_whole_record(file, data)
    if isinstance(data, dict) and isinstance(data.get("comment"), str):
        data = {k: v for k, v in data.items() if k != "comment"}  # layout files may carry a note
    try:
        return data, validate_board(data)
    except RecordError as error:
        where = f"{file}: {error.path}" if error.path else file
        raise RecordError(error.message, where) from None


def _refuse_whole_record(file: str, data: object) -> None:
    """A record given where a board is expected: say where its board is, not "unknown field"."""

    if not isinstance(data, dict) or not (data.get("format") == FORMAT or "moves" in data):
        return
    setup = data.get("setup")
    board = setup.get("board") if isinstance(setup, dict) else None
    if isinstance(board, str):
        raise UserError(say(msg("castelli.cli.record_layout", file=file, layout=board)))
    raise UserError(say(msg("castelli.cli.record_inline", file=file)))


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

    print(say(validity(board)))
    return 0



@store_errors
def run_import(args: argparse.Namespace) -> int:
    """Keep a validated board in the store, so that `companion new castelli --setup board=NAME` finds it."""

    data, board = _read_board(args.file)
    name = args.name.strip()
    problem = name_problem(name, "board")  # the one name rule, before the store is opened
    if problem is not None:
        raise UserError(say(problem))
    with open_app(args) as app:
        replaced = CastelliService.of(app).save_board(name, data)
    code = "castelli.cli.board_replaced" if replaced else "castelli.cli.board_stored"
    print(say(msg(code, name=name, spaces=len(board.spaces), areas=len(board.areas))))
    return 0


@store_errors
def run_layouts(args: argparse.Namespace) -> int:

    with open_app(args, write=False) as app:
        boards = CastelliService.of(app).boards()
    for board in boards:
        code = "castelli.cli.layout_shipped" if board.shipped else "castelli.cli.layout_stored"
        print(say(msg(code, name=board.name, spaces=board.spaces, areas=board.areas)))
    return 0
