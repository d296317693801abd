"""``companion config check FILE`` and ``companion config example``: the TOML configuration.

For the person editing the file: ``check`` prints every problem, one line
each naming the file and the key, and exits 2 if there is any (the appliance
itself starts anyway, with the default for each bad hardware key).
"""

from __future__ import annotations

import argparse
import sys

from companion.cli import EXIT_USAGE, add_command_group


def register(subparsers: argparse._SubParsersAction) -> None:
    sub = add_command_group(subparsers, "config", help="check the TOML configuration file",
                            description="The configuration file: how the box is wired (see "
                                        "docs/config.md).")
    check = sub.add_parser("check", help="report every problem in a configuration file (exit 2 if any)",
                           description="Check a configuration file: each unknown key, wrong type or bad "
                                       "value is one line naming the file and the key; exit 2 if there "
                                       "is any, 0 when the file is fine.")
    check.add_argument("file", metavar="FILE", help="the TOML configuration file")
    check.set_defaults(handler=run_check)
    example = sub.add_parser("example", help="print a configuration file with every key and its default",
                             description="Print the example configuration (companion.example.toml): "
                                         "every key with its default and what it is for.")
    example.set_defaults(handler=run_example)


def run_check(args: argparse.Namespace) -> int:
    from companion.config import check_file

    problems = check_file(args.file)
    if not problems:
        print(f"{args.file}: ok")
        return 0
    for problem in problems:
        print(f"companion: {problem}", file=sys.stderr)
    return EXIT_USAGE


def run_example(args: argparse.Namespace) -> int:
    from companion.config import example_toml

    sys.stdout.write(example_toml())
    return 0
