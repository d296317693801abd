"""``companion moves FILE [--json]``: what may be entered now, at the end of a record.

The list comes from the engine's ``legal_moves`` (records.md, "`companion
moves`"); like ``replay`` it reads only the record, never the store.
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.i18n import current_language, text
from companion.service.records import final_state, load_record


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "moves", help="cli.moves.help",
        description="cli.moves.description")
    parser.add_argument("file", metavar="FILE", help="cli.moves.file.help")
    parser.add_argument("--json", action="store_true",
                        help="cli.moves.json.help")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    record = load_record(args.file)
    state = final_state(record)
    templates = record.game.legal_moves(state)
    if args.json:
        json.dump(templates, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    if not templates:
        print(text("cli.moves.game_over") if record.game.is_finished(state)
              else text("cli.moves.none_now"))
    language = current_language()  # the notation's words in the language chosen by --lang
    for number, template in enumerate(templates, 1):
        print(f"{number:>3}. {record.game.describe(state, template, language)}")
    return 0
