"""``companion rematch`` and ``companion abandon``: what to do with a stored game.

Thin over :class:`~companion.app.Companion`, like the screens that offer the same.
"""

from __future__ import annotations

import argparse

from companion.commands.library import open_app, store_errors, title


def register(subparsers: argparse._SubParsersAction) -> None:
    rematch = subparsers.add_parser(
        "rematch", help="start a new game with the same players and options",
        description="Start a new game with the players, options and setup of a stored one "
                    "(default: the latest game); `companion run` then plays it.")
    rematch.add_argument("session", nargs="?", type=int, metavar="SESSION",
                         help="the session id (see `companion sessions`)")
    rematch.set_defaults(handler=run_rematch)
    abandon = subparsers.add_parser(
        "abandon", help="stop offering an unfinished game for resuming (it stays stored)",
        description="Abandon an unfinished game: it is kept, and can still be exported, but "
                    "`companion run` no longer resumes it.")
    abandon.add_argument("session", type=int, metavar="SESSION",
                         help="the session id (see `companion sessions`)")
    abandon.set_defaults(handler=run_abandon)


@store_errors
def run_rematch(args: argparse.Namespace) -> int:
    from companion.commands.library import _pick_session

    with open_app(args) as app:
        row = _pick_session(app.store, args.session)
        live = app.rematch(row.id)
    print(f"started session {live.id}: {title(live.row.game)}, {', '.join(live.row.players)} "
          f"(a rematch of session {row.id})")
    print("play it with: companion run --headless")
    return 0


@store_errors
def run_abandon(args: argparse.Namespace) -> int:
    from companion.commands.library import _pick_session

    with open_app(args) as app:
        app.abandon(_pick_session(app.store, args.session).id)
    print(f"session {args.session} is abandoned; it stays stored (`companion export {args.session}`)")
    return 0
