"""``companion moves FILE [--json]``: what may be entered now, at the end of a record.

The list comes from the engine's ``legal_moves`` (records.md, "`companion
moves`"); like ``replay`` it reads only the record, never the store.
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.i18n import current_language
from companion.records import final_state, load_record


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "moves", help="list the moves that may be entered after a game record",
        description="Replay a game record and list the legal moves at its end: a numbered list, "
                    "or with --json a JSON list of move templates (observed fields, such as a "
                    "Castelli tile's shields, left out). Exit 2 when the record is not valid.")
    parser.add_argument("file", help="a companion-record/1 JSON file")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON list of move templates")
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
        print("no move may be entered: the game is over" if record.game.is_finished(state)
              else "no move may be entered now")
    language = current_language()  # the notation's words in the language chosen by --lang
    for number, template in enumerate(templates, 1):
        print(f"{number:>3}. {record.game.describe(state, template, language)}")
    return 0
