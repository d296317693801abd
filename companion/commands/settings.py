"""``companion settings`` and ``companion players``: what players change, kept in the store.

Thin over :class:`~companion.app.Companion`: the same checks and messages as
the settings screen. Values are JSON when they parse as JSON, else text.
"""

from __future__ import annotations

import argparse
import json

from companion.cli import UserError, add_command_group
from companion.commands.library import open_app, store_errors


def register(subparsers: argparse._SubParsersAction) -> None:
    settings = subparsers.add_parser(
        "settings", help="show or change a setting (language, table name, BGG ids ...)",
        description="Without arguments, list every setting with its value; with KEY, show one; "
                    "with KEY VALUE, change it (VALUE is JSON when it parses as JSON, else text). "
                    "See docs/config.md.")
    settings.add_argument("key", nargs="?", metavar="KEY")
    settings.add_argument("value", nargs="?", metavar="VALUE")
    settings.set_defaults(handler=run_settings)

    players = add_command_group(subparsers, "players", help="player profiles and their colours",
                                description="Player profiles: a name, and the colour each player "
                                            "prefers per game.")
    listing = players.add_parser("list", help="every profile, the most recently seated first")
    listing.set_defaults(handler=run_players_list)
    add = players.add_parser("add", help="add a profile")
    add.add_argument("name", metavar="NAME")
    add.set_defaults(handler=run_players_add)
    remove = players.add_parser("remove", help="forget a profile (its games keep the name)")
    remove.add_argument("name", metavar="NAME")
    remove.set_defaults(handler=run_players_remove)
    colour = players.add_parser("colour", help="the colour a player prefers at a game ('-' forgets it)")
    colour.add_argument("name", metavar="NAME")
    colour.add_argument("game", metavar="GAME")
    colour.add_argument("colour", metavar="COLOUR")
    colour.set_defaults(handler=run_players_colour)


def _value(text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _shown(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


@store_errors
def run_settings(args: argparse.Namespace) -> int:
    with open_app(args, write=args.key is not None and args.value is not None) as app:
        if args.key is not None and args.value is not None:
            stored = app.change_setting(args.key, _value(args.value))
            print(f"{args.key} = {_shown(stored)}")
            return 0
        settings = app.settings()
    if args.key is None:
        for key, value in settings.items():
            print(f"{key} = {_shown(value)}")
        return 0
    if args.key not in settings:
        raise UserError(f'there is no setting "{args.key}"; the settings are {", ".join(settings)}')
    print(f"{args.key} = {_shown(settings[args.key])}")
    return 0


@store_errors
def run_players_list(args: argparse.Namespace) -> int:
    with open_app(args, write=False) as app:
        profiles = app.profiles()
    if not profiles:
        print("no player profiles yet")
    for profile in profiles:
        colours = ", ".join(f"{game} {colour}" for game, colour in sorted(profile.colours.items()))
        print(profile.name + (f" ({colours})" if colours else ""))
    return 0


@store_errors
def run_players_add(args: argparse.Namespace) -> int:
    with open_app(args) as app:
        profile = app.add_profile(args.name)
    print(f'added player "{profile.name}"')
    return 0


@store_errors
def run_players_remove(args: argparse.Namespace) -> int:
    with open_app(args) as app:
        app.remove_profile(args.name)
    print(f'removed player "{args.name}"; the games they played keep the name')
    return 0


@store_errors
def run_players_colour(args: argparse.Namespace) -> int:
    colour = None if args.colour == "-" else args.colour
    with open_app(args) as app:
        app.set_preferred_colour(args.name, args.game, colour)
    print(f"{args.name} plays {args.game} with {colour}" if colour
          else f"{args.name} has no preferred colour at {args.game}")
    return 0
