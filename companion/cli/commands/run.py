"""``companion run`` (resume the game in progress) and ``companion new`` (start one).

Without a display (or with ``--headless``) ``run`` is headless: the appliance
(OLED, buttons, seat panels) with the console of :mod:`companion.console.loop`
on standard input (a move as a JSON object, or the words ``undo``, ``redo``,
``status``; ``quit`` or ``exit`` ends it), one line per command: ``ok N: MOVE``,
``undone N: MOVE``, ``redone N: MOVE``, or ``refused: REASON``.

This module is the composition root: the one place that wires the front ends
(``ui`` for the touchscreen, ``hardware`` for the headless appliance) to the core.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TextIO

from companion.cli.commands.library import open_app, store_errors, title
from companion.cli.ids import store_id
from companion.cli.main import UserError, build_parser
from companion.console.display import shown_line
from companion.console.errors import InputError
from companion.console.loop import Started, with_hint
from companion.console.reading import decode_json
from companion.console.rescue import trouble_line
from companion.console.terminal import TerminalLines, is_terminal
from companion.games.fields import require_object
from companion.games.messages import Message, msg
from companion.i18n import choose_language, say, set_language
from companion.i18n import text as phrase
from companion.registry import descriptor, game_named, game_names, get_game
from companion.service import rescue
from companion.service.app import AppError, LiveGame, colour_word
from companion.service.config import ConfigError, defaults
from companion.service.config import read_config as read_file
from companion.service.damage import damage
from companion.service.records import read_json
from companion.service.settings import LANGUAGE
from companion.service.table import Table
from companion.storage.backup import daily_backup_quietly
from companion.storage.paths import DataDirError, database_path, ensure_data_dir
from companion.storage.store import damaged_message
from companion.system import logs

if TYPE_CHECKING:
    from companion.service.app import Companion
    from companion.service.config import Config

# This is the composition root: the one module that wires front ends (the touchscreen in ui/,
# the OLED, buttons and panels in hardware/) to the core. They are imported in the handler that
# starts them, never at module level: `companion new` and a machine without Kivy or the GPIO
# libraries must not pay for (or fail on) them (docs/architecture.md, "Layers").


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = subparsers.add_parser(
        "run", help="cli.run.help",
        description="cli.run.description")
    run.add_argument("--headless", action="store_true", help="cli.run.headless.help")
    run.add_argument("--config", metavar="FILE", help="cli.run.config.help")
    run.add_argument("--game", type=store_id, metavar="ID",
                     help="cli.run.game.help")
    run.set_defaults(handler=run_run)

    new = subparsers.add_parser(
        "new", help="cli.new.help",
        description="cli.new.description", epilog="help.new.keys")
    new.add_argument("game", metavar="GAME", help="cli.new.game.help")
    new.add_argument("players", nargs="+", metavar="PLAYER", help="cli.new.players.help")
    new.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                     help="cli.new.option.help")
    new.add_argument("--setup", action="append", default=[], metavar="KEY=VALUE",
                     help="help.new.setup")
    new.add_argument("--like", metavar="RECORD",
                     help="cli.new.like.help")
    new.set_defaults(handler=run_new)


# -- new -----------------------------------------------------------------------------

def parse_assignments(items: Iterable[str], what: str) -> dict[str, Any]:
    """``["a=1", "b=text"]`` -> ``{"a": 1, "b": "text"}`` (JSON values, else text)."""
    result: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise UserError(msg("cli.new.assignment", option=f"--{what}", item=repr(item)))
        try:
            value = decode_json(raw, what=f"--{what} {key.strip()}")
        except json.JSONDecodeError:
            value = raw
        except InputError as error:
            raise UserError(*error.args) from None
        result[key.strip()] = value
    return result


def create_session(app: Companion, args: argparse.Namespace) -> tuple[LiveGame, Any]:
    """Start a game from the parsed ``new`` arguments: the game opened, and the game left unfinished.

    The service writes the local settings (a stored board, the confirmed
    2-player flags) into the game; this only turns the arguments into a call.
    """
    game = get_game(game_named(args.game))
    options: dict[str, Any] = {}
    setup: dict[str, Any] = {}
    if args.like:
        record = read_json(args.like)
        if not isinstance(record, dict):
            raise UserError(msg("cli.new.like_not_record", file=args.like))
        for section, target in (("options", options), ("setup", setup)):
            target.update(require_object(record.get(section) or {}, f"{args.like}: {section}"))
    options.update(parse_assignments(args.option, "option"))
    setup.update(parse_assignments(args.setup, "setup"))
    earlier = app.unfinished()
    try:
        # colours the players did not give come by seat, as on the touchscreen and the OLED menu
        live = app.start(game.name, args.players, options=options, setup=setup, colours_by_seat=True)
    except AppError as error:
        raise UserError(*error.args) from None
    return _with_board_names(app, live), earlier[0] if earlier else None


def _with_board_names(app: Companion, live: LiveGame) -> LiveGame:
    """``live`` with each board the table stored (``board import --name home``) named in what was
    assumed: the game holds the board inline, and the words said only "board", its name blank."""
    part = app.part(live.session.game.name)
    boards, board_data = getattr(part, "boards", None), getattr(part, "board_data", None)
    if not live.assumed or not callable(boards) or not callable(board_data):
        return live
    stored = [board.name for board in boards() if not getattr(board, "shipped", True)]
    assumed = dict(live.assumed)
    for key, value in assumed.items():
        if isinstance(value, dict):
            assumed[key] = next((name for name in stored if board_data(name) == value), value)
    return replace(live, assumed=assumed)


def assumed_words(live: LiveGame) -> Message | None:
    """What the companion filled in that the players did not give, and how to give it instead
    ("assumed: colors Anna blue, Bela yellow; board example-4p — change with --setup KEY=VALUE").

    A value a person can type back is shown; a structured one (an inline board, a layout of
    segments) by its field name only.
    """
    if not live.assumed:
        return None
    game = live.session.game.name
    parts = [_assumed_part(game, key, value) for key, value in live.assumed.items()]
    return msg("cli.new.assumed", assumed="; ".join(parts))


def _assumed_part(game: str, key: str, value: object) -> str:
    note = descriptor(game).assumed_notes.get(key)
    if note is not None:  # the game says what it filled in and how to give one's own
        return say(note)
    # the key (and a value typed back as it is, a layout's name) marked as something to type
    if isinstance(value, str | int):
        return say(msg("cli.new.assumed.value", key=key, value=value))
    if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
        return say(msg("cli.new.assumed.colours", key=key,
                       colours=", ".join(f"{name} {colour_word(game, v)}" for name, v in value.items())))
    return say(msg("cli.new.assumed.key", key=key))


@store_errors
def run_new(args: argparse.Namespace) -> int:
    with open_app(args) as app:
        live, earlier = create_session(app, args)
    session_id, game = live.id, live.session.game
    print(shown_line(phrase("cli.new.started", session=session_id, game=game.title,
                          players=", ".join(args.players))))
    if earlier is not None:
        print(phrase("cli.new.earlier_unfinished", session=earlier.id, game=title(earlier.game)))
    assumed = assumed_words(live)
    if assumed is not None:
        print(shown_line(say(assumed)))
    for notice in live.notices:
        print(shown_line(say(notice)))
    print(phrase("cli.new.play_it"))
    return 0


# -- run -----------------------------------------------------------------------------

def read_config(path: str | None) -> Config:
    """The configuration in force (the defaults without a file); its warnings shown on standard error.

    A file that cannot be used at all, or a bad ``data_dir``, is an exit 2.
    """
    if path is None:
        return defaults()
    try:
        config = read_file(path)
    except ConfigError as error:
        raise UserError(*error.args) from None
    for problem in config.problems:
        print(f"companion: {phrase('cli.warning', reason=str(problem))}", file=sys.stderr)
    return config


def touchscreen_missing(environ: Mapping[str, str] | None = None) -> Message | None:
    """Why ``run`` without ``--headless`` reads the console instead of opening the touchscreen, or ``None``.

    The touchscreen needs the ``ui`` extra (Kivy) and a display: an X or
    Wayland session (``DISPLAY``, ``WAYLAND_DISPLAY``), or the video driver
    the kiosk's service names (``SDL_VIDEODRIVER=kmsdrm``); the ``offscreen``
    and ``dummy`` drivers draw nowhere a player can see. The check finds the
    package without importing Kivy, which is slow to start.
    """
    environ = os.environ if environ is None else environ
    if importlib.util.find_spec("kivy") is None:
        return msg("cli.run.no_kivy")
    driver = environ.get("SDL_VIDEODRIVER", "")
    if driver in ("offscreen", "dummy") or not (driver or environ.get("DISPLAY") or
                                                environ.get("WAYLAND_DISPLAY")):
        return msg("cli.run.no_display")
    return None


def run_touchscreen(app: Companion, live: LiveGame | None, config: Any = None) -> int:
    """The touchscreen app over ``app``, the game ``live`` open in it; returns when its window closes."""
    # Kivy reads its settings when it is imported: prepare() sets them first, so ui/ is imported
    # here, in order (and a headless box without the `ui` extra never imports it).
    from ui.kivy_setup import prepare

    rotation = int(config["screen.rotation"]) if config is not None else 0
    kiosk = prepare(rotation=rotation)  # before Kivy is imported
    from ui.app import ShellOptions, run_app

    # where "back up to the stick" writes
    options = ShellOptions(stick_mount=config["backup.stick"]) if config is not None else ShellOptions()
    table = Table(app)
    if live is not None:
        table.open(live)
    run_app(table, kiosk=kiosk, options=options)
    return 0


def open_total(args: argparse.Namespace, config_value: str | None) -> Companion:
    """The service over the data directory's store, opened as well as it opens, never refused on
    what the directory holds (:mod:`companion.service.rescue`): a data directory that cannot be
    created, a store that cannot be written or read, each becomes the app's
    :attr:`~companion.service.app.Companion.trouble`. Only a data directory named wrongly (the
    option, the variable, the configuration) is an exit 2: that is a person's to correct."""
    try:
        path = database_path(getattr(args, "data_dir", None), config_value=config_value, create=False)
    except DataDirError as error:
        raise UserError(error.args[0] if error.args else str(error)) from None
    args.database = path  # named at start (_name_the_data_directory)
    trouble: Message | None = None
    try:
        if not path.parent.exists():
            ensure_data_dir(path.parent)
            args.created_data_dir = path.parent  # named by @store_errors once the command worked
    except OSError as error:  # a card turned read-only before the folder was made
        trouble = rescue.reason_of(error)
    app = rescue.open_companion(path)
    app.trouble = app.trouble or trouble
    if app.store.damage:
        args.damaged_store = damaged_message(path, app.store.damage)  # reported by @store_errors
    _speak_the_tables_language(args, app)
    return app


def _speak_the_tables_language(args: argparse.Namespace, app: Companion) -> None:
    """The table's language setting, unless the option or the variable says one; a setting that
    does not read is English (the store's trouble is said in it)."""
    def stored() -> str | None:
        try:
            value = app.store.get_setting(LANGUAGE)
        except rescue.CONTENT_ERRORS:
            return None
        return value if isinstance(value, str) else None

    set_language(choose_language(getattr(args, "lang", None), os.environ, stored))


@store_errors
def run_run(args: argparse.Namespace) -> int:
    config = read_config(args.config)
    why_headless = None if args.headless else touchscreen_missing()
    if why_headless is not None:
        print(f"companion: {phrase('cli.run.headless_because', reason=why_headless)}", file=sys.stderr)

    logs.configure(config.log_level)
    # Whatever the store holds, the app starts (the touchscreen, the box under systemd, a person at
    # the console alike): it says what is wrong and offers the repair (companion.service.rescue).
    with open_total(args, config.data_dir) as app:
        app.club_outbox = bool(config["club.broker"])  # games finished from now on wait for the club
        _name_the_data_directory(args)
        try:
            live = rescue.first_game(app, args.game)
        except AppError as error:  # a game the person named that is not there to resume
            raise UserError(msg("cli.session.see_list", reason=error.args[0])) from None
        for damaged, why in app.damaged_sessions.items():
            print(f"companion: {phrase('cli.run.damaged_session', session=damaged, reason=why)}",
                  file=sys.stderr)
        trouble = damage(app)
        if app.trouble is not None:  # (damaged pages and games are said above and at the end)
            print(f"companion: {phrase('cli.warning', reason=app.trouble)}", file=sys.stderr)
        if not app.store.damage and app.trouble is None:  # a damaged copy must not push a good backup out
            _say_problem(daily_backup_quietly(app.store))
        if not args.headless and why_headless is None:
            return run_touchscreen(app, live, config)
        session = None if live is None else live.session
        if live is None or session is None:
            print(phrase("console.no_game", games=", ".join(game_names())), flush=True)
        else:
            print(shown_line(with_hint(msg("console.resuming", session=live.id, game=session.game.title,
                                            players=", ".join(session.players), count=len(session.log)),
                                        session)), flush=True)
        if trouble is not None:
            print(shown_line(str(trouble_line(app))), flush=True)
        _read_any_bytes(sys.stdin)
        # Headless, asked for or for want of a display: the OLED, the buttons, the seat panels,
        # and the console too unless standard input is /dev/null. Imported here, when they run:
        # the hardware adapters load gpiozero and luma, which other commands never need.
        from hardware.appliance import run_headless
        from hardware.backends import BackendError

        try:
            typed = TerminalLines() if is_terminal(sys.stdin, sys.stdout) else sys.stdin
            return run_headless(app, live, config, typed, sys.stdout, starter=starter)
        except BackendError as error:
            raise UserError(str(error)) from None


def _name_the_data_directory(args: argparse.Namespace) -> None:
    """Say at start where the games are kept: a directory made just now always (before, only at
    quit), one found already to a person at a terminal (a piped script or the appliance's journal
    is not told it on every start)."""
    created = getattr(args, "created_data_dir", None)
    if created:
        print(f"companion: {phrase('cli.data_dir.created', path=str(created))}", file=sys.stderr, flush=True)
        args.created_data_dir = None  # said now: not again at quit
    elif is_terminal(sys.stdin, sys.stdout):
        print(f"companion: {phrase('cli.run.data_dir', path=str(args.database.parent))}", file=sys.stderr,
              flush=True)


def _say_problem(problem: Message | None) -> None:
    if problem is not None:
        print(f"companion: {problem}", file=sys.stderr)


def _read_any_bytes(stream: TextIO) -> None:
    """Read ``stream`` so that bytes that are not UTF-8 reach the console as lone surrogates
    (refused there, one line) instead of ending it with Python's decoding error."""
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="surrogateescape")


def starter(app: Companion) -> Callable[[list[str]], Started]:
    """What the console's ``new ...`` command calls: the ``companion new`` arguments, then the
    session and what the companion assumed for it."""
    def start(words: list[str]) -> Started:
        try:
            args = build_parser("new").parse_args(["new", *words])
        except SystemExit:  # --help: argparse printed it
            raise UserError(msg("console.new.usage")) from None
        live, _ = create_session(app, args)
        return Started(live.session, assumed_words(live), live.notices)

    return start
