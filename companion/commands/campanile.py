"""``companion campanile flags``: confirm the 2-player flag values from the cards, once.

The rulebook does not print the 2-player flag cards' values, and the
companion must never invent them. The players copy them from their cards
once; the table is kept as a setting and written into every 2-player game
(and so into its record). Nothing is pre-filled: both valuations must be
typed in full before anything is saved.
"""

from __future__ import annotations

import argparse

from companion.cli import UserError, add_command_group
from companion.commands.library import open_app, store_errors
from companion.games.base import RecordError

EXAMPLE = "--intermezzo '4/2 3/1 2 1' --finito '6/4/2 5/3/1 4/2 3/1 2'"


def register(subparsers: argparse._SubParsersAction) -> None:
    sub = add_command_group(subparsers, "campanile", help="Campanile settings (2-player flag cards)",
                            description="Campanile settings.")
    flags = sub.add_parser(
        "flags", help="show or confirm the values of your 2-player flag cards",
        description="Show the confirmed 2-player flag table, or confirm it by typing the values "
                    "from your 2-player flag cards: one flag per tower from the highest, values "
                    "best first, separated by '/' (the 3-5 player cards would be "
                    f"{EXAMPLE}). Both valuations must be given.")
    flags.add_argument("--intermezzo", metavar="FLAGS", help="the 4 Intermezzo flags, e.g. '4/2 3/1 2 1'")
    flags.add_argument("--finito", metavar="FLAGS", help="the 5 Finito flags")
    flags.add_argument("--forget", action="store_true", help="delete the confirmed table")
    flags.set_defaults(handler=run_flags)


def parse_flag_table(text: str) -> list[list[int]]:
    """``'4/2 3/1 2 1'`` → ``[[4, 2], [3, 1], [2], [1]]``; :class:`UserError` for anything else."""
    table = []
    for flag in text.split():
        try:
            table.append([int(value) for value in flag.split("/")])
        except ValueError:
            raise UserError(f"{flag!r} is not a flag: write its values best first, "
                            "separated by '/', e.g. 4/2") from None
    return table


def _format(table: list[list[int]]) -> str:
    return " ".join("/".join(str(v) for v in flag) for flag in table)


@store_errors
def run_flags(args: argparse.Namespace) -> int:
    changing = args.forget or args.intermezzo is not None or args.finito is not None
    with open_app(args, write=changing) as app:
        if args.forget:
            app.forget_flag_table()
            print("the 2-player flag table is forgotten; it will be asked for again")
            return 0
        if args.intermezzo is None and args.finito is None:
            table = app.flag_table()
            if table is None:
                print("no 2-player flag table confirmed yet: copy the values from your 2-player "
                      "flag cards with --intermezzo and --finito (see --help)")
                return 0
            print(f"intermezzo: {_format(table['intermezzo'])}")
            print(f"finito:     {_format(table['finito'])}")
            return 0
        if args.intermezzo is None or args.finito is None:
            raise UserError("give both --intermezzo and --finito: every value must come from your cards")
        table = {"intermezzo": parse_flag_table(args.intermezzo), "finito": parse_flag_table(args.finito)}
        try:
            table = app.confirm_flag_table(table)
        except RecordError as error:
            raise UserError(f"{error.path}: {error.message}") from None
    print("confirmed; every new 2-player Campanile game will use:")
    print(f"intermezzo: {_format(table['intermezzo'])}")
    print(f"finito:     {_format(table['finito'])}")
    return 0
