"""``companion config check FILE`` and ``companion config example``: the TOML configuration.

For the person editing the file: ``check`` prints every problem, one line
each naming the file and the key, and exits 2 if there is any (the appliance
itself starts anyway, with the default for each bad hardware key).
"""

from __future__ import annotations

import argparse
import sys

from companion.cli.main import EXIT_USAGE, add_command_group
from companion.i18n import text


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = add_command_group(subparsers, "config", help="cli.config.help",
                            description="cli.config.description")
    check = sub.add_parser("check", help="cli.config.check.help",
                           description="cli.config.check.description")
    check.add_argument("file", metavar="FILE", help="cli.config.check.file.help")
    check.set_defaults(handler=run_check)
    example = sub.add_parser("example", help="cli.config.example.help",
                             description="cli.config.example.description")
    example.set_defaults(handler=run_example)


def run_check(args: argparse.Namespace) -> int:
    from companion.service.config import check_file

    problems = check_file(args.file)
    if not problems:
        print(text("cli.config.ok", file=args.file))
        return 0
    for problem in problems:
        print(f"companion: {problem}", file=sys.stderr)
    return EXIT_USAGE


def run_example(args: argparse.Namespace) -> int:
    from companion.service.config import example_toml

    sys.stdout.write(example_toml())
    return 0
