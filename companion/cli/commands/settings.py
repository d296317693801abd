"""``companion settings`` and ``companion players``: what players change, kept in the store.

Thin over :class:`~companion.service.app.Companion`: the same checks and messages as
the settings screen. Values are JSON when they parse as JSON, else text.
"""

from __future__ import annotations

import argparse
import json

from companion.cli.commands.library import open_app, speak_the_tables_language, store_errors
from companion.cli.main import UserError, add_command_group
from companion.games.messages import msg
from companion.i18n import text
from companion.i18n.suggest import did_you_mean
from companion.registry import game_named, get_game
from companion.service.app import Companion, Profile, colour_word


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    settings = subparsers.add_parser(
        "settings", help="cli.settings.help",
        description="cli.settings.description")
    settings.add_argument("key", nargs="?", metavar="KEY", help="help.settings.key")
    settings.add_argument("value", nargs="?", metavar="VALUE", help="help.settings.value")
    settings.set_defaults(handler=run_settings)

    players = add_command_group(subparsers, "players", help="cli.players.help",
                                description="cli.players.description")
    listing = players.add_parser("list", help="cli.players.list.help",
                                 description="help.players.list.description")
    listing.set_defaults(handler=run_players_list)
    add = players.add_parser("add", help="cli.players.add.help", description="help.players.add.description")
    add.add_argument("name", metavar="NAME", help="help.players.add.name")
    add.set_defaults(handler=run_players_add)
    remove = players.add_parser("remove", help="cli.players.remove.help",
                                description="help.players.remove.description")
    remove.add_argument("name", metavar="NAME", help="help.players.name")
    remove.set_defaults(handler=run_players_remove)
    colour = players.add_parser("colour", help="cli.players.colour.help",
                                description="help.players.colour.description")
    colour.add_argument("name", metavar="NAME", help="help.players.name")
    colour.add_argument("game", metavar="GAME", help="help.players.colour.game")
    colour.add_argument("colour", metavar="COLOUR", help="help.players.colour.colour")
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
            # the table's new language speaks at once (the data directory's announcement after it
            # was English on a table just set to Hungarian)
            speak_the_tables_language(args, app.store)
            print(f"{args.key} = {_shown(stored)}")
            return 0
        settings = app.settings()
    if args.key is None:
        for key, value in settings.items():
            print(f"{key} = {_shown(value)}")
        return 0
    if args.key not in settings:
        raise UserError(msg("cli.settings.unknown", key=args.key, keys=", ".join(settings)))
    print(f"{args.key} = {_shown(settings[args.key])}")
    return 0


@store_errors
def run_players_list(args: argparse.Namespace) -> int:
    with open_app(args, write=False) as app:
        profiles = app.profiles()
    if not profiles:
        print(text("cli.players.none"))
    for profile in profiles:  # each colour in the table's words, as the colour command answers it
        colours = ", ".join(f"{game} {colour_word(game, colour)}"
                            for game, colour in sorted(profile.colours.items()))
        print(profile.name + (f" ({colours})" if colours else ""))
    return 0


@store_errors
def run_players_add(args: argparse.Namespace) -> int:
    with open_app(args) as app:
        profile = app.add_profile(args.name)
    print(text("cli.players.added", name=profile.name))
    return 0


def _check_player(app: Companion, name: str) -> None:
    """A name that is no player's but is close to one's is refused with the names it is close to
    (``Ann``: did you mean `Anna`?); a name close to none is left to the service's own refusal."""
    known = [profile.name for profile in app.profiles()]
    if name in known:
        return
    suggestion = did_you_mean(name, known)
    if suggestion is not None:
        raise UserError(msg("help.player.unknown_close", name=name, suggestion=suggestion))


@store_errors
def run_players_remove(args: argparse.Namespace) -> int:
    with open_app(args) as app:
        _check_player(app, args.name)
        app.remove_profile(args.name)
    print(text("cli.players.removed", name=args.name))
    return 0


@store_errors
def run_players_colour(args: argparse.Namespace) -> int:
    colour = None if args.colour == "-" else args.colour
    with open_app(args) as app:
        _check_player(app, args.name)
        app.set_preferred_colour(args.name, args.game, colour)
        stored = _stored_colour(app.profiles(), args.name, args.game) if colour else None
    if stored is None:
        print(text("cli.players.colour_forgotten", name=args.name, game=args.game))
        return 0
    # what was stored (`piros` is kept as red), said in the table's words
    print(text("cli.players.colour_set", name=args.name, game=args.game, colour=colour_word(*stored)))
    return 0


def _stored_colour(profiles: list[Profile], name: str, game: str) -> tuple[str, str] | None:
    """The (game, colour) just stored for ``name``: the colour as the record spells it, under the
    game's own name (whatever case or language the colour was typed in)."""
    engine = get_game(game_named(game)).name
    for profile in profiles:
        if profile.name.casefold() == name.casefold() and engine in profile.colours:
            return engine, profile.colours[engine]
    return None
