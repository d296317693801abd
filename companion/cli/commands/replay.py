"""``companion replay FILE [--json]``: the contract of docs/records.md."""

from __future__ import annotations

import argparse
import json
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
    record = load_record(args.file)
    state = final_state(record)
    if args.json:
        json.dump(summary_json(record.game.summary(state)), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(record.game.report(state))
    return 0
