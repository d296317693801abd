"""``companion web``: the table's live page for phones (the ``web`` extra; see docs/web.md).

The server itself is the ``web/`` front end; this module only reads the command line
and starts it, importing it inside the handler (a box without the ``web`` extra still
runs every other command).
"""

from __future__ import annotations

import argparse
import sys

from companion.cli.main import UserError
from companion.games.messages import msg
from companion.storage.paths import DataDirError, data_dir, ensure_data_dir


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    web = subparsers.add_parser("web", help="cli.web.help", description="cli.web.description")
    web.add_argument("--listen", metavar="HOST:PORT", default=None, help="cli.web.listen.help")
    web.add_argument("--new-token", action="store_true", help="cli.web.new_token.help")
    web.set_defaults(handler=run_web)


def run_web(args: argparse.Namespace) -> int:
    try:
        from web.server import (  # the web extra: only for this command
            DEFAULT_LISTEN,
            ListenError,
            TokenFileError,
            serve,
        )
    except ImportError as error:
        raise UserError(msg("cli.web.not_installed", reason=str(error))) from None
    try:
        directory = ensure_data_dir(data_dir(args.data_dir))
    except (OSError, DataDirError) as error:
        raise UserError(error.args[0] if error.args else str(error)) from None
    try:
        return serve(directory, args.listen or DEFAULT_LISTEN, new_token=args.new_token, out=sys.stdout)
    except ListenError:
        raise UserError(msg("cli.web.listen", value=args.listen)) from None
    except TokenFileError as error:
        raise UserError(msg("cli.web.token", path=str(directory),
                            reason=error.strerror or str(error))) from None
    except OSError as error:
        raise UserError(msg("cli.web.cannot_listen", value=args.listen or DEFAULT_LISTEN,
                            reason=error.strerror or str(error))) from None
