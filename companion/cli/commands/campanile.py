"""``companion campanile flags``: confirm the 2-player flag values from the cards, once.

The rulebook does not print the 2-player flag cards' values, and the
companion must never invent them. The players copy them from their cards
once; the table is kept as a setting and written into every 2-player game
(and so into its record). Nothing is pre-filled: both valuations must be
typed in full before anything is saved.
"""

from __future__ import annotations

import argparse

from companion.cli.commands.library import open_app, store_errors
from companion.cli.main import UserError, add_command_group
from companion.games.base import RecordError
from companion.games.messages import msg
from companion.i18n import text
from companion.service.campanile import CampanileService

EXAMPLE = "--intermezzo '4/2 3/1 2 1' --finito '6/4/2 5/3/1 4/2 3/1 2'"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    # Help texts are codes, put into words only when help is shown; descriptions are words already
    # (this module is registered only for its own command and for help, which show them anyway).
    sub = add_command_group(subparsers, "campanile", help="campanile.cli.help",
                            description=text("campanile.cli.description"))
    flags = sub.add_parser("flags", help="campanile.cli.flags.help",
                           description=text("campanile.cli.flags.description", example=EXAMPLE))
    flags.add_argument("--intermezzo", metavar="FLAGS", help="campanile.cli.flags.intermezzo_help")
    flags.add_argument("--finito", metavar="FLAGS", help="campanile.cli.flags.finito_help")
    flags.add_argument("--forget", action="store_true", help="campanile.cli.flags.forget_help")
    flags.set_defaults(handler=run_flags)


def parse_flag_table(text: str) -> list[list[int]]:
    """``'4/2 3/1 2 1'`` → ``[[4, 2], [3, 1], [2], [1]]``; :class:`UserError` for anything else."""
    table = []
    for flag in text.split():
        try:
            table.append([int(value) for value in flag.split("/")])
        except ValueError:
            raise UserError(msg("campanile.cli.flags.not_a_flag", flag=flag)) from None
    return table


def _format(table: list[list[int]]) -> str:
    return " ".join("/".join(str(v) for v in flag) for flag in table)


@store_errors
def run_flags(args: argparse.Namespace) -> int:
    changing = args.forget or args.intermezzo is not None or args.finito is not None
    with open_app(args, write=changing) as app:
        if args.forget:
            CampanileService.of(app).forget_flag_table()
            print(text("campanile.cli.flags.forgotten"))
            return 0
        if args.intermezzo is None and args.finito is None:
            table = CampanileService.of(app).flag_table()
            if table is None:
                print(text("campanile.cli.flags.none"))
                return 0
            _print_table(table)
            return 0
        if args.intermezzo is None or args.finito is None:
            raise UserError(msg("campanile.cli.flags.both"))
        table = {"intermezzo": parse_flag_table(args.intermezzo), "finito": parse_flag_table(args.finito)}
        try:
            table = CampanileService.of(app).confirm_flag_table(table)
        except RecordError as error:
            raise UserError(str(error)) from None
    print(text("campanile.cli.flags.confirmed"))
    _print_table(table)
    return 0


def _print_table(table: dict[str, list[list[int]]]) -> None:
    print(text("campanile.cli.flags.intermezzo_line", flags=_format(table["intermezzo"])))
    print(text("campanile.cli.flags.finito_line", flags=_format(table["finito"])))
