"""``companion web``: the table's live page for phones (the ``web`` extra; see docs/web.md).

The server itself is the ``web/`` front end; this module only reads the command line
and starts it, importing it inside the handler (a box without the ``web`` extra still
runs every other command). The URL is the first line printed (scripts read it); after it,
for a person at a terminal (or with ``--qr``), the QR code a phone scans, and a line
saying when the address reaches this computer alone and how to serve the table's network.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable
from typing import TextIO

from companion.cli.main import UserError
from companion.games.messages import msg
from companion.i18n import text
from companion.service.web_link import WILDCARD_LISTEN, only_this_computer, port_of
from companion.storage.paths import DataDirError, data_dir, ensure_data_dir


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    web = subparsers.add_parser("web", help="cli.web.help", description="cli.web.description")
    web.add_argument("--listen", metavar="HOST:PORT", default=None, help="cli.web.listen.help")
    web.add_argument("--new-token", action="store_true", help="cli.web.new_token.help")
    web.add_argument("--qr", action="store_true", help="cli.web.qr.help")
    web.set_defaults(handler=run_web)


def announcer(out: TextIO, *, draw: bool) -> Callable[[str], None]:
    """What is printed after the URL: its QR code in half blocks when ``draw``, then, when the
    address reaches this computer alone, the line saying so and how to serve the table's network."""

    def announce(url: str) -> None:
        lines: list[str] = []
        if draw:
            from companion.service.qr_text import qr_text  # segno: only when a code is drawn

            lines += qr_text(url)
        if only_this_computer(url):
            lines.append(text("cli.web.only_here", listen=f"{WILDCARD_LISTEN}:{port_of(url)}"))
        if lines:
            print("\n".join(lines), file=out, flush=True)

    return announce


def _speak_the_tables_language(args: argparse.Namespace) -> None:
    """The table's language for the lines after the URL, when a store is there to say it (the page's
    process never writes the store; a missing or unreadable one leaves the language as it is)."""
    from companion.cli.commands.library import open_store

    with contextlib.suppress(UserError), open_store(args, write=False):
        pass


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
    _speak_the_tables_language(args)
    draw = args.qr or sys.stdout.isatty()
    try:
        return serve(directory, args.listen or DEFAULT_LISTEN, new_token=args.new_token, out=sys.stdout,
                     announce=announcer(sys.stdout, draw=draw))
    except ListenError:
        raise UserError(msg("cli.web.listen", value=args.listen)) from None
    except TokenFileError as error:
        raise UserError(msg("cli.web.token", path=str(directory),
                            reason=error.strerror or str(error))) from None
    except OSError as error:
        raise UserError(msg("cli.web.cannot_listen", value=args.listen or DEFAULT_LISTEN,
                            reason=error.strerror or str(error))) from None
