"""``companion rematch`` and ``companion abandon``: what to do with a stored game.

Thin over :class:`~companion.service.app.Companion`, like the screens that offer the same.
"""

from __future__ import annotations

import argparse

from companion.cli.commands.library import _pick_session, open_app, store_errors, title
from companion.cli.ids import store_id
from companion.cli.main import UserError
from companion.games.messages import msg
from companion.i18n import text
from companion.service.app import Companion
from companion.storage.rows import SessionRow


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rematch = subparsers.add_parser(
        "rematch", help="cli.rematch.help",
        description="cli.rematch.description")
    rematch.add_argument("session", nargs="?", type=store_id, metavar="SESSION",
                         help="cli.rematch.session.help")
    rematch.set_defaults(handler=run_rematch)
    abandon = subparsers.add_parser(
        "abandon", help="cli.abandon.help",
        description="cli.abandon.description")
    abandon.add_argument("session", type=store_id, metavar="SESSION",
                         help="cli.abandon.session.help")
    abandon.set_defaults(handler=run_abandon)


@store_errors
def run_rematch(args: argparse.Namespace) -> int:

    with open_app(args) as app:
        row, said = _to_rematch(app, args.session)
        live = app.rematch(row.id)
    print(text(said, session=live.id, game=title(live.row.game), players=", ".join(live.row.players),
               old=row.id))
    print(text("cli.new.play_it"))
    return 0


def _to_rematch(app: Companion, session: int | None) -> tuple[SessionRow, str]:
    """The game ``rematch`` means and the code of the line that says which: the one named; else the
    last game played to its end (a game just abandoned is never meant); else, when none was, the
    newest game still offered for resuming."""
    if session is not None:
        return _pick_session(app.store, session), "cli.rematch.started"
    finished = app.store.latest_session(finished=True)
    if finished is not None:
        return finished, "cli.rematch.started_last"
    going = app.unfinished()
    if going:
        return going[0], "cli.rematch.started_newest"
    if app.store.latest_session() is None:
        raise UserError(msg("cli.sessions.none_yet"))
    raise UserError(msg("cli.rematch.none_finished"))


@store_errors
def run_abandon(args: argparse.Namespace) -> int:

    with open_app(args) as app:
        app.abandon(_pick_session(app.store, args.session).id)
    print(text("cli.abandon.done", session=args.session))
    return 0
