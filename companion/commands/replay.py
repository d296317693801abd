"""``companion replay FILE [--json]``: the contract of shared/spec/records.md."""

from __future__ import annotations

import argparse
import json
import sys

from companion.records import final_state, load_record


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "replay", help="replay a game record and show the result",
        description="Replay a game record. Exit 0 when every move is legal; "
                    "exit 2 naming the first illegal move or the bad field.")
    parser.add_argument("file", help="a companion-record/1 JSON file")
    parser.add_argument("--json", action="store_true",
                        help="print the summary as one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    record = load_record(args.file)
    state = final_state(record)
    if args.json:
        json.dump(record.game.summary(state), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(record.game.report(state))
    return 0
