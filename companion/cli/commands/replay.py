"""``companion replay FILE [--json]``: the contract of docs/records.md."""

from __future__ import annotations

import argparse
import json
import os
import sys

from companion.i18n import summary_json
from companion.service.records import final_state, load_record


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay", help="cli.replay.help",
        description="cli.replay.description")
    parser.add_argument("file", metavar="FILE", help="cli.replay.file.help")
    parser.add_argument("--json", action="store_true",
                        help="cli.replay.json.help")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if not args.json:  # the report is read at the table: its language, when it has one set
        _speak_the_tables_language(args)
    record = load_record(args.file)
    state = final_state(record)
    if args.json:
        json.dump(summary_json(record.game.summary(state)), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(record.game.report(state))
    return 0


def _speak_the_tables_language(args: argparse.Namespace) -> None:
    """The table's language setting speaks the report when neither ``--lang`` nor
    ``$COMPANION_LANG`` chose one (a record replays the same everywhere; only its words differ).
    ``--json`` is the same in every language and reads no store."""
    from companion.i18n import LANGUAGE_VARIABLE, set_language

    if getattr(args, "lang", None) or os.environ.get(LANGUAGE_VARIABLE):
        return
    from companion.cli.table_language import table_language

    table = table_language(getattr(args, "data_dir", None))
    if table is not None:
        set_language(table)
