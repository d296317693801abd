"""``companion run`` (resume the game in progress) and ``companion new`` (start one).

Until the touchscreen UI is wired in, ``run`` is headless: it reads one
command per line from standard input — a move as a JSON object, or the words
``undo``, ``redo``, ``status`` — posts each through the
:class:`~companion.command_queue.CommandQueue`, drains it with a plain loop,
and prints one line per command: ``ok N: MOVE``, ``undone N: MOVE``,
``redone N: MOVE``, or ``refused: REASON``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TextIO

from companion.cli import UserError
from companion.commands.library import open_store, store_errors, title
from companion.games.base import IllegalMove, RecordError
from companion.games.fields import require_object
from companion.games.registry import GAMES, get_game
from companion.records import read_json
from companion.settings import CAMPANILE_TWO_PLAYER_FLAGS, CASTELLI_BOARDS

if TYPE_CHECKING:
    from companion.session import Session
    from companion.store import Store

# The store, the session and the command queue are imported by the handlers
# that use them, so that other commands do not pay for them at start-up.


def register(subparsers: argparse._SubParsersAction) -> None:
    run = subparsers.add_parser(
        "run", help="resume the game in progress",
        description="Resume the most recent unfinished game. With --headless (and, for now, "
                    "whenever the touchscreen UI is not available) read one command per line from "
                    "standard input: a move as a JSON object, or undo, redo, status.")
    run.add_argument("--headless", action="store_true", help="no touchscreen: moves on standard input")
    run.add_argument("--config", metavar="FILE", help="the TOML configuration file")
    run.set_defaults(handler=run_run)

    new = subparsers.add_parser(
        "new", help="start a new game",
        description="Start a new game and store it; `companion run` then plays it. Values of "
                    "--option and --setup are JSON when they parse as JSON, else text.")
    new.add_argument("game", metavar="GAME", help=f"one of {', '.join(GAMES)}")
    new.add_argument("players", nargs="+", metavar="PLAYER", help="the players in seating order")
    new.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                     help="a rule option, e.g. two_player_move=true")
    new.add_argument("--setup", action="append", default=[], metavar="KEY=VALUE",
                     help="a setup field, e.g. 'towers=[\"red\",\"blue\",\"yellow\",\"brown\",\"grey\"]'")
    new.add_argument("--like", metavar="RECORD",
                     help="take the options and setup of this record file (--option/--setup override)")
    new.set_defaults(handler=run_new)


# -- new -----------------------------------------------------------------------------

def parse_assignments(items: Iterable[str], what: str) -> dict[str, Any]:
    """``["a=1", "b=text"]`` -> ``{"a": 1, "b": "text"}`` (JSON values, else text)."""
    result: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise UserError(f"--{what} {item!r}: write it as KEY=VALUE")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        result[key.strip()] = value
    return result


def create_session(store: Store, args: argparse.Namespace) -> tuple[int, Any]:
    """Store a new game from the parsed ``new`` arguments; returns its id and the game left unfinished.

    Local settings are written into the game here, once, so that its record
    never depends on them: a stored Castelli board goes inline, and a
    2-player Campanile game gets the flag table the players confirmed.
    """
    from companion.store import StoreError

    game = get_game(args.game)
    options: dict[str, Any] = {}
    setup: dict[str, Any] = {}
    if args.like:
        record = read_json(args.like)
        if not isinstance(record, dict):
            raise UserError(f"{args.like} is not a record (not a JSON object)")
        for section, target in (("options", options), ("setup", setup)):
            target.update(require_object(record.get(section) or {}, f"{args.like}: {section}"))
    options.update(parse_assignments(args.option, "option"))
    setup.update(parse_assignments(args.setup, "setup"))
    if game.name == "castelli" and isinstance(setup.get("board"), str):
        stored = store.get_setting(CASTELLI_BOARDS, {})
        if setup["board"] in stored:  # a local board goes inline: the record must not need it
            setup["board"] = stored[setup["board"]]
    if game.name == "campanile" and len(args.players) == 2 and "flags" not in options:
        flags = store.get_setting(CAMPANILE_TWO_PLAYER_FLAGS)
        if flags is None:
            raise UserError("a 2-player Campanile game needs the values of your 2-player flag "
                            "cards (the rulebook does not print them); enter them once with "
                            "`companion campanile flags --intermezzo ... --finito ...`")
        options["flags"] = flags
    try:
        earlier = store.unfinished_session()
    except StoreError:
        earlier = None  # an unreadable older game must not prevent a new one
    try:
        return store.new_session(game.name, args.players, options, setup), earlier
    except StoreError as error:
        raise UserError(str(error)) from None


@store_errors
def run_new(args: argparse.Namespace) -> int:
    with open_store(args) as store:
        session_id, earlier = create_session(store, args)
    game = get_game(args.game)
    print(f"started session {session_id}: {game.title}, {', '.join(args.players)}")
    if earlier is not None:
        print(f"(session {earlier.id}, {title(earlier.game)}, stays unfinished; "
              "`companion run` resumes the newest game)")
    print("play it with: companion run --headless")
    return 0


# -- run -----------------------------------------------------------------------------

def read_config(path: str | None) -> dict[str, Any]:
    """The TOML configuration (only ``data_dir`` is used here so far); ``{}`` without a file."""
    if path is None:
        return {}
    import tomllib

    try:
        with open(path, "rb") as handle:
            config = tomllib.load(handle)
    except FileNotFoundError:
        raise UserError(f"no such configuration file: {path}") from None
    except OSError as error:
        raise UserError(f"cannot read {path}: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise UserError(f"{path} is not valid TOML: {error}") from None
    data_dir = config.get("data_dir")
    if data_dir is not None and not isinstance(data_dir, str):
        raise UserError(f"{path}: data_dir must be a text (a directory), not {type(data_dir).__name__}")
    return config


def ui_available() -> bool:
    """Whether a touchscreen UI could be started (not yet: the UI is not wired in)."""
    return False


@store_errors
def run_run(args: argparse.Namespace) -> int:
    from companion.backup import daily_backup_quietly
    from companion.store import StoreError

    config = read_config(args.config)
    if not args.headless and not ui_available():
        reason = "no touchscreen UI is installed" if importlib.util.find_spec("ui") is None \
            else "the touchscreen UI is not wired into `companion run` yet"
        print(f"companion: {reason}; running headless (one move per line on standard input)",
              file=sys.stderr)
    with open_store(args, config.get("data_dir")) as store:
        try:
            row = store.unfinished_session()
            session = None if row is None else store.open_session(row.id)
        except StoreError as error:
            raise UserError(str(error)) from None
        for damaged, why in store.damaged_sessions.items():
            print(f"companion: session {damaged} is damaged and left as it is ({why}); "
                  "`companion doctor --repair` keeps its moves before the damage", file=sys.stderr)
        _say_problem(daily_backup_quietly(store))
        if row is None or session is None:
            print("no game in progress; start one by typing `new GAME PLAYER...` "
                  f"(games: {', '.join(GAMES)}; `help` lists every command)", flush=True)
        else:
            print(f"resuming session {row.id}: {session.game.title}, {', '.join(session.players)}, "
                  f"{len(session.log)} moves{_next_hint(session)}", flush=True)
        lines = _prompted(sys.stdin, sys.stdout) if sys.stdin.isatty() else sys.stdin
        headless_loop(session, lines, sys.stdout, start=_starter(store))
    return 0


def _say_problem(problem: str | None) -> None:
    if problem is not None:
        print(f"companion: {problem}", file=sys.stderr)


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


def _starter(store: Store) -> Callable[[list[str]], Session]:
    """What the console's ``new ...`` command calls: the ``companion new`` arguments, then the session."""
    from companion.cli import build_parser

    def start(words: list[str]) -> Session:
        try:
            args = build_parser().parse_args(["new", *words])
        except SystemExit:  # --help: argparse printed it
            raise UserError("write it as: new GAME PLAYER... [--option KEY=VALUE] [--setup KEY=VALUE]") \
                from None
        session_id, _ = create_session(store, args)
        return store.open_session(session_id)

    return start


def _next_hint(session: Session) -> str:
    if session.game.is_finished(session.state):
        return "; the game is over"
    player = session.game.to_move(session.state)
    return f"; next: {player}" if player else ""


def _describe(session: Session, move: Any) -> str:
    return json.dumps(session.game.move_to_json(move), ensure_ascii=False, separators=(", ", ": "))


HELP = """commands, one per line:
  {"type": ..., ...}      a move, as in a game record (see docs/records.md)
  undo / redo             take back the last move / put it back
  status                  the game so far
  new GAME PLAYER...      start a new game (options as for `companion new`)
  help                    this list"""


def headless_loop(session: Session | None, lines: Iterable[str], out: TextIO,
                  start: Callable[[list[str]], Session] | None = None) -> None:
    """Run commands from ``lines`` through a command queue until the input ends.

    ``start`` creates a new stored game for the ``new`` command (none: ``new`` is refused).
    """
    import shlex
    import sqlite3

    from companion.command_queue import CommandQueue
    from companion.store import StoreError

    current: dict[str, Any] = {"session": session}

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    def refused(error: Exception) -> None:
        if isinstance(error, StoreError | OSError | sqlite3.Error):
            say(f"refused: the move could not be saved: {error}")
        else:
            say(f"refused: {error}")

    queue = CommandQueue(on_error=refused)

    def playing() -> Session:
        if current["session"] is None:
            raise UserError("no game in progress; start one with `new GAME PLAYER...`")
        return current["session"]

    def propose(move: Any) -> Callable[[], None]:
        def command() -> None:
            game_session = playing()
            try:
                game_session.propose(move)
            except IllegalMove as refusal:
                who = game_session.game.actor(move)
                say(f"refused: move {len(game_session.log) + 1}{f' ({who})' if who else ''}: {refusal}")
                return
            say(f"ok {len(game_session.log)}: {_describe(game_session, move)}")
            if game_session.game.is_finished(game_session.state):
                say(game_session.game.report(game_session.state))
        return command

    def undo() -> None:
        game_session = playing()
        move = game_session.undo()
        say(f"undone {len(game_session.log) + 1}: {_describe(game_session, move)}")

    def redo() -> None:
        game_session = playing()
        move = game_session.redo()
        say(f"redone {len(game_session.log)}: {_describe(game_session, move)}")

    def status() -> None:
        game_session = playing()
        say(game_session.game.report(game_session.state))
        say(f"{len(game_session.log)} moves{_next_hint(game_session)}")

    def new_game(words: list[str]) -> Callable[[], None]:
        def command() -> None:
            if start is None:
                raise UserError("starting a game is not possible here")
            game_session = start(words)
            current["session"] = game_session
            say(f"started {game_session.game.title}: {', '.join(game_session.players)}"
                f"{_next_hint(game_session)}")
        return command

    words: dict[str, Callable[[], None]] = {"undo": undo, "redo": redo, "status": status,
                                            "help": lambda: say(HELP)}
    for line in lines:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if text.lower() in words:
            queue.post(words[text.lower()])
        elif text.split()[0].lower() == "new":
            try:
                queue.post(new_game(shlex.split(text)[1:]))
            except ValueError as error:
                say(f"refused: {error}")
                continue
        else:
            try:
                data = json.loads(text)
                if not isinstance(data, dict):
                    raise RecordError("a move must be a JSON object (or undo, redo, status)")
                move = playing().game.parse_move(data)
            except json.JSONDecodeError as error:
                say(f"refused: not a JSON move nor a command ({error.msg}, column {error.colno}); "
                    "type help")
                continue
            except (RecordError, UserError) as error:
                prefix = "" if current["session"] is None else f"move {len(playing().log) + 1}: "
                say(f"refused: {prefix}{error}")
                continue
            queue.post(propose(move))
        queue.drain()
