"""``companion run`` (resume the game in progress) and ``companion new`` (start one).

Without a display (or with ``--headless``) ``run`` is headless: it reads one
command per line from standard input — a move as a JSON object, or the words
``undo``, ``redo``, ``status`` (``quit`` or ``exit`` ends it) — posts each through the
:class:`~companion.service.command_queue.CommandQueue`, drains it with a plain loop,
and prints one line per command: ``ok N: MOVE``, ``undone N: MOVE``,
``redone N: MOVE``, or ``refused: REASON``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, TextIO

from companion.cli.commands.library import open_app, store_errors, title
from companion.cli.main import UserError
from companion.console.display import shown, shown_line
from companion.console.reading import (
    MAX_DEPTH,
    InputError,
    clean_line,
    decode_json,
    split_words,
    with_player_names,
)
from companion.games.base import IllegalMove, RecordError, one_line
from companion.games.fields import require_object
from companion.games.messages import Message, msg
from companion.games.registry import GAMES, get_game
from companion.i18n import current_language, join_list
from companion.i18n import text as phrase
from companion.service.names import PlayerNameError
from companion.service.records import read_json
from companion.system import logs

if TYPE_CHECKING:
    from companion.service.app import Companion, LiveGame
    from companion.service.config import Config
    from companion.service.session import Session

# The store, the session and the command queue are imported by the handlers
# that use them, so that other commands do not pay for them at start-up.


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = subparsers.add_parser(
        "run", help="cli.run.help",
        description="cli.run.description")
    run.add_argument("--headless", action="store_true", help="cli.run.headless.help")
    run.add_argument("--config", metavar="FILE", help="cli.run.config.help")
    run.add_argument("--game", type=int, metavar="ID",
                     help="cli.run.game.help")
    run.set_defaults(handler=run_run)

    new = subparsers.add_parser(
        "new", help="cli.new.help",
        description="cli.new.description")
    new.add_argument("game", metavar="GAME", help="cli.new.game.help")
    new.add_argument("players", nargs="+", metavar="PLAYER", help="cli.new.players.help")
    new.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                     help="cli.new.option.help")
    new.add_argument("--setup", action="append", default=[], metavar="KEY=VALUE",
                     help="cli.new.setup.help")
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


def create_session(app: Companion, args: argparse.Namespace) -> tuple[Session, int, Any]:
    """Start a game from the parsed ``new`` arguments: its session, id, and the game left unfinished.

    The service writes the local settings (a stored board, the confirmed
    2-player flags) into the game; this only turns the arguments into a call.
    """
    from companion.service.app import AppError

    game = get_game(args.game)
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
        live = app.start(game.name, args.players, options=options, setup=setup)
    except AppError as error:
        raise UserError(*error.args) from None
    return live.session, live.id, earlier[0] if earlier else None


@store_errors
def run_new(args: argparse.Namespace) -> int:
    with open_app(args) as app:
        _, session_id, earlier = create_session(app, args)
    game = get_game(args.game)
    print(shown_line(phrase("cli.new.started", session=session_id, game=game.title,
                          players=", ".join(args.players))))
    if earlier is not None:
        print(phrase("cli.new.earlier_unfinished", session=earlier.id, game=title(earlier.game)))
    print(phrase("cli.new.play_it"))
    return 0


# -- run -----------------------------------------------------------------------------

def read_config(path: str | None) -> Config:
    """The configuration in force (the defaults without a file); its warnings shown on standard error.

    A file that cannot be used at all, or a bad ``data_dir``, is an exit 2.
    """
    from companion.service.config import ConfigError, defaults
    from companion.service.config import read_config as read_file

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
    from companion.service.table import Table
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


@store_errors
def run_run(args: argparse.Namespace) -> int:
    from companion.service.app import AppError
    from companion.storage.backup import daily_backup_quietly

    config = read_config(args.config)
    why_headless = None if args.headless else touchscreen_missing()
    if why_headless is not None:
        print(f"companion: {phrase('cli.run.headless_because', reason=why_headless)}", file=sys.stderr)

    logs.configure(config.log_level)
    from hardware.appliance import stdin_is_null

    # The appliance (the touchscreen, or the box under systemd) starts on a damaged store and offers
    # the repair; a person at the console is told to run `companion doctor --repair`.
    appliance = (not args.headless and why_headless is None) or stdin_is_null(sys.stdin)
    with open_app(args, config.data_dir, damaged_ok=appliance) as app:
        try:
            live = app.latest_unfinished() if args.game is None else app.resume(args.game)
        except AppError as error:
            raise UserError(msg("cli.session.see_list", reason=error.args[0]) if args.game is not None
                            else error.args[0]) from None
        for damaged, why in app.damaged_sessions.items():
            print(f"companion: {phrase('cli.run.damaged_session', session=damaged, reason=why)}",
                  file=sys.stderr)
        if not app.store.damage:  # a damaged copy must not push a good backup out
            _say_problem(daily_backup_quietly(app.store))
        if not args.headless and why_headless is None:
            return run_touchscreen(app, live, config)
        session = None if live is None else live.session
        if live is None or session is None:
            print(phrase("console.no_game", games=", ".join(GAMES)), flush=True)
        else:
            print(shown_line(_with_hint(msg("console.resuming", session=live.id, game=session.game.title,
                                            players=", ".join(session.players), count=len(session.log)),
                                        session)), flush=True)
        _read_any_bytes(sys.stdin)
        # Headless, asked for or for want of a display: the OLED, the buttons, the seat panels,
        # and the console too unless standard input is /dev/null.
        from hardware.appliance import run_headless

        return run_headless(app, live, config, sys.stdin, sys.stdout)


def _say_problem(problem: Message | None) -> None:
    if problem is not None:
        print(f"companion: {problem}", file=sys.stderr)


def _read_any_bytes(stream: TextIO) -> None:
    """Read ``stream`` so that bytes that are not UTF-8 reach the console as lone surrogates
    (refused there, one line) instead of ending it with Python's decoding error."""
    import io

    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="surrogateescape")


def _prompted(stream: TextIO, out: TextIO) -> Iterator[str]:
    """Lines of ``stream`` with a prompt before each, for a person at a terminal."""
    while True:
        out.write("> ")
        out.flush()
        line = stream.readline()
        if not line:
            out.write("\n")
            return
        yield line


def _starter(app: Companion) -> Callable[[list[str]], Session]:
    """What the console's ``new ...`` command calls: the ``companion new`` arguments, then the session."""
    from companion.cli.main import build_parser

    def start(words: list[str]) -> Session:
        try:
            args = build_parser("new").parse_args(["new", *words])
        except SystemExit:  # --help: argparse printed it
            raise UserError(msg("console.new.usage")) from None
        session, _, _ = create_session(app, args)
        return session

    return start


def _next_hint(session: Session) -> Message | None:
    """Where the game stands: "Bob: influence? — next: Cid" while Bob may still act in his turn."""
    if session.game.is_finished(session.state):
        return msg("console.hint.over")
    turn = session.game.turn(session.state)
    if turn.may:
        acting = turn.player if turn.player is not None else msg("console.hint.the_table")
        may = join_list(list(turn.may), current_language(), "common.list.or")
        if turn.next:
            return msg("console.hint.may_next", acting=acting, may=may, next=turn.next)
        return msg("console.hint.may", acting=acting, may=may)
    return msg("console.hint.next", next=turn.next) if turn.next else None


def _with_hint(line: Message, session: Session) -> str:
    """``line`` and, after it, where the game stands (the catalogue joins the two)."""
    hint = _next_hint(session)
    return phrase("console.with_hint", line=line, hint=hint) if hint is not None else str(line)


def _faults(session: Session) -> str:
    """After a stored change: what failed to keep up with it (the change itself is stored)."""
    if not session.last_faults:
        return ""
    failed = "; ".join(phrase("console.fault", listener=fault.listener, reason=str(fault))
                       for fault in session.last_faults)
    return phrase("console.faults", failed=failed)


def _describe(session: Session, move: Any) -> str:
    return json.dumps(session.game.move_to_json(move), ensure_ascii=False, separators=(", ", ": "))


#: Words that end the console, whatever their case.
QUIT_WORDS = ("quit", "exit")

#: The console's ``help``: the message code of its text (the commands and what they do).
HELP = "console.help"


def headless_loop(session: Session | None, lines: Iterable[str], out: TextIO,
                  start: Callable[[list[str]], Session] | None = None) -> None:
    """Run commands from ``lines`` through a command queue until the input ends.

    ``start`` creates a new stored game for the ``new`` command (none: ``new`` is refused).
    """
    import sqlite3

    from companion.console.interpret import ConsoleInput
    from companion.service.command_queue import CommandQueue
    from companion.storage.store import StoreError

    current: dict[str, Session | None] = {"session": session}

    def say(text: str) -> None:
        out.write(shown(text) + "\n")
        out.flush()

    def refused(error: Exception) -> None:
        if isinstance(error, BrokenPipeError):
            raise error  # nobody reads the answers any more: main() ends quietly
        if isinstance(error, StoreError | OSError | sqlite3.Error):
            say(phrase("console.refused.not_saved", reason=one_line(str(error))))
        else:
            say(phrase("console.refused", reason=one_line(str(error))))

    queue = CommandQueue(on_error=refused)
    console = ConsoleInput()

    def playing() -> Session:
        live = current["session"]
        if live is None:
            raise UserError(msg("console.no_game.short"))
        return live

    def propose(move: Any) -> Callable[[], None]:
        def command() -> None:
            game_session = playing()
            try:
                game_session.propose(move)
            except IllegalMove as refusal:
                who = game_session.game.actor(move)
                number = len(game_session.log) + 1
                say(phrase("console.refused.move_by", number=number, player=who, reason=str(refusal)) if who
                    else phrase("console.refused.move", number=number, reason=str(refusal)))
                return
            say(phrase("console.ok", number=len(game_session.log), move=_describe(game_session, move),
                     faults=_faults(game_session)))
            if game_session.game.is_finished(game_session.state):
                say(game_session.game.report(game_session.state))
        return command

    def undo() -> None:
        game_session = playing()
        move = game_session.undo()
        say(phrase("console.undone", number=len(game_session.log) + 1, move=_describe(game_session, move),
                 faults=_faults(game_session)))

    def redo() -> None:
        game_session = playing()
        move = game_session.redo()
        say(phrase("console.redone", number=len(game_session.log), move=_describe(game_session, move),
                 faults=_faults(game_session)))

    def status() -> None:
        game_session = playing()
        say(game_session.game.report(game_session.state))
        say(_with_hint(msg("console.status", count=len(game_session.log)), game_session))

    def new_game(words: list[str]) -> Callable[[], None]:
        def command() -> None:
            if start is None:
                raise UserError(msg("console.new.not_here"))
            game_session = start(words)
            current["session"] = game_session
            say(_with_hint(msg("console.started", game=game_session.game.title,
                               players=", ".join(game_session.players)), game_session))
        return command

    words: dict[str, Callable[[], None]] = {"undo": undo, "redo": redo, "status": status,
                                            "help": lambda: say(phrase(HELP))}
    for line in lines:
        try:
            text = clean_line(line)
        except InputError as error:
            say(phrase("console.refused", reason=one_line(str(error))))
            continue
        if not text or text.startswith("#"):
            continue
        command = text.casefold()
        if command in QUIT_WORDS:
            break
        if command in words:
            queue.post(words[command])
        elif text.split()[0].casefold() == "new":
            try:
                queue.post(new_game(split_words(text)[1:]))
            except InputError as error:
                say(phrase("console.refused", reason=one_line(str(error))))
                continue
        elif current["session"] is None and not text.startswith(("{", "[")):
            # a move in the notation, a number or `moves`: there is no game to read it in yet
            say(phrase("console.refused", reason=msg("console.no_game.short")))
            continue
        else:
            reading = None if current["session"] is None else console.read(
                current["session"].game, current["session"].state, text)
            if reading is not None:
                for said in reading.say:
                    say(said)
                if reading.move is not None:
                    queue.post(propose(reading.move))
                queue.drain()
                continue
            try:
                data = decode_json(text)
                if not isinstance(data, dict):
                    raise RecordError(msg("console.move.not_object"))
                game_session = playing()
                move = game_session.game.parse_move(with_player_names(data, game_session.players))
            except json.JSONDecodeError as error:
                say(phrase("console.refused.not_json", reason=error.msg, column=error.colno))
                continue
            except (RecordError, UserError, PlayerNameError) as error:
                reason = one_line(str(error))
                say(phrase("console.refused", reason=reason) if current["session"] is None
                    else phrase("console.refused.move", number=len(playing().log) + 1, reason=reason))
                continue
            except InputError as error:
                say(phrase("console.refused", reason=one_line(str(error))))
                continue
            except RecursionError:
                say(phrase("console.refused", reason=msg("console.input.too_deep", depth=MAX_DEPTH)))
                continue
            queue.post(propose(move))
        queue.drain()
