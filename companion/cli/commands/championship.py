"""``companion championship new|status|next|decide|list|abandon``: four players, rounds of two 2-player
games at once.

Thin over :class:`~companion.service.championship.Championships` (``app.championships``),
as the touchscreen's standings screen is: the pairings, the decisions and the
standings are the service's. A round is played as any game (``companion run``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from companion.cli.commands.library import open_app, store_errors
from companion.cli.ids import store_id
from companion.cli.main import UserError, add_command_group
from companion.console.championship import format_status
from companion.console.display import shown_line
from companion.games.messages import msg
from companion.i18n import text
from companion.service.championship import ChampionshipStatus, RoundStatus
from companion.service.championship_rules import OPTIONS


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``championship`` command group."""
    sub = add_command_group(subparsers, "championship", help="championship.help.group",
                            description="championship.help.description")
    new = sub.add_parser("new", help="championship.help.new", description="championship.help.new_description")
    new.add_argument("--variant", type=int, choices=(1, 2), required=True, help="championship.help.variant")
    new.add_argument("players", nargs="+", metavar="PLAYER", help="championship.help.players")
    new.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                     help="championship.help.option")
    new.add_argument("--boards", nargs=2, metavar=("GROUP1", "GROUP2"), help="championship.help.boards")
    new.set_defaults(handler=run_new)
    status = sub.add_parser("status", help="championship.help.status",
                            description="championship.help.status_description")
    status.add_argument("championship", nargs="?", type=store_id, metavar="ID", help="championship.help.id")
    status.add_argument("--json", action="store_true", help="championship.help.json")
    status.set_defaults(handler=run_status)
    nxt = sub.add_parser("next", help="championship.help.next",
                         description="championship.help.next_description")
    nxt.add_argument("championship", nargs="?", type=store_id, metavar="ID", help="championship.help.id")
    nxt.set_defaults(handler=run_next)
    decide = sub.add_parser("decide", help="championship.help.decide",
                            description="championship.help.decide_description")
    decide.add_argument("player", metavar="PLAYER", help="championship.help.advances")
    decide.add_argument("--championship", type=store_id, metavar="ID", help="championship.help.id")
    decide.set_defaults(handler=run_decide)
    listing = sub.add_parser("list", help="championship.help.list", description="championship.help.list")
    listing.set_defaults(handler=run_list)
    abandon = sub.add_parser("abandon", help="championship.help.abandon",
                             description="championship.help.abandon_description")
    abandon.add_argument("championship", nargs="?", type=store_id, metavar="ID", help="championship.help.id")
    abandon.set_defaults(handler=run_abandon)


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    """``NAME=VALUE`` pairs as the championship's readings (``game.NAME=JSON``: the rounds' options)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise UserError(msg("championship.cli.option_form", text=pair,
                                names=", ".join([*OPTIONS, "game.NAME"])))
        if name.startswith("game."):
            try:
                options.setdefault("game", {})[name.removeprefix("game.")] = json.loads(value)
            except json.JSONDecodeError:
                raise UserError(msg("championship.cli.option_json", text=pair)) from None
        else:
            options[name] = value
    return options


@store_errors
def run_new(args: argparse.Namespace) -> int:
    with open_app(args) as app:
        options = _options(args.option)
        if args.boards:
            options["boards"] = list(args.boards)
        live = app.championships.new(args.variant, args.players, options)
        status = app.championships.status(live.row.championship)
    print(shown_line(text("championship.cli.created", championship=status.id, variant=status.variant,
                          rounds=status.rounds_total)))
    _print_round_started(status.rounds[-1], live.id)
    return 0


@store_errors
def run_next(args: argparse.Namespace) -> int:
    with open_app(args) as app:
        live = app.championships.next_round(args.championship)
        status = app.championships.status(live.row.championship)
    _print_round_started(status.rounds[-1], live.id)
    return 0


def _print_round_started(played: RoundStatus, session: int) -> None:
    groups = [text("championship.cli.pair", first=g.players[0], second=g.players[1]) for g in played.groups]
    print(shown_line(text("championship.cli.round_started", number=played.number, session=session,
                          first=groups[0], second=groups[1])))
    print(text("cli.new.play_it"))


@store_errors
def run_decide(args: argparse.Namespace) -> int:
    with open_app(args) as app:
        status = app.championships.decide(args.player, args.championship)
    decision = status.decisions[-1]
    print(shown_line(text("championship.cli.decided", player=decision.advances, number=decision.round,
                          group=decision.group)))
    if status.next_groups is not None and status.pending is None:
        print(text("championship.cli.next_hint"))
    return 0


@store_errors
def run_list(args: argparse.Namespace) -> int:
    with open_app(args, write=False) as app:
        found = [app.championships.status(row.id) for row in app.championships.list()]
    if not found:
        print(text("championship.cli.list_none"))
    for status in found:
        print(shown_line(list_line(status)))
    return 0


@store_errors
def run_abandon(args: argparse.Namespace) -> int:
    with open_app(args) as app:
        status = app.championships.abandon(args.championship)
    kept = sum(played.finished for played in status.rounds)
    print(shown_line(text("championship.cli.abandoned", championship=status.id, count=kept)))
    return 0


def list_line(status: ChampionshipStatus) -> str:
    """One championship in ``championship list``: its id, variant, players and where it stands."""
    if status.abandoned:
        state = text("championship.cli.state_abandoned")
    elif status.over:
        state = text("championship.cli.state_over",
                     champions=[s.player for s in status.standings if s.place == 1])
    elif status.current is not None:
        state = text("championship.cli.list_playing", number=status.current.number,
                     session=status.current.session_id)
    else:
        state = text("championship.cli.list_waiting", number=len(status.rounds) + 1)
    return text("championship.cli.list_row", championship=status.id, variant=status.variant,
                players=list(status.players), count=len(status.rounds), rounds=status.rounds_total,
                state=state)


@store_errors
def run_status(args: argparse.Namespace) -> int:
    with open_app(args, write=False) as app:
        status = app.championships.status(args.championship)
    if args.json:
        json.dump(status_json(status), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(format_status(status))
    return 0


def status_json(status: ChampionshipStatus) -> dict[str, Any]:
    """``championship status --json``: the standings and rounds as data (no sentences)."""
    return {"id": status.id, "variant": status.variant, "players": list(status.players),
            "options": dict(status.options), "over": status.over,
            "rounds": [{"round": r.number, "session": r.session_id, "deck": r.deck,
                        "groups": [{"players": list(g.players), "finished": g.finished,
                                    "scores": dict(g.scores), "winners": list(g.winners)}
                                   for g in r.groups]} for r in status.rounds],
            "decisions": [d.to_json() for d in status.decisions],
            "pending": None if status.pending is None else
            {"round": status.pending.round, "group": status.pending.group,
             "players": list(status.pending.players)},
            "next": None if status.next_groups is None else [list(g) for g in status.next_groups],
            "standings": [s.to_json() for s in status.standings]}
