"""The text console's loop: one command per line, through the command queue, one answer each.

It is the core's, not a front end's: ``companion run`` at a terminal and the
headless appliance (:mod:`hardware.appliance`, its console beside the OLED and
the buttons) both run it. A line is a move (JSON, the notation or a number
from ``moves``), or ``undo``, ``redo``, ``status``, ``help``, ``new ...``
(``quit`` or ``exit`` ends it); every command goes through a
:class:`~companion.service.command_queue.CommandQueue`, so buttons and panels
posting from other threads meet the console's moves in one order.

Starting a game from ``new`` words is the caller's: the words are the
``companion new`` arguments, which the command line parses, so the caller
hands in ``start`` (the CLI's :func:`companion.cli.commands.run.starter`).
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, TextIO

from companion.console.display import shown
from companion.console.errors import InputError
from companion.console.interpret import ConsoleInput
from companion.console.reading import (
    MAX_DEPTH,
    clean_line,
    decode_json,
    split_words,
    with_player_names,
)
from companion.console.terminal import TerminalLines
from companion.games.base import IllegalMove, RecordError, one_line
from companion.games.messages import Message, json_problem, msg
from companion.i18n import LANGUAGES, current_language, join_list, render
from companion.i18n import text as phrase
from companion.registry import descriptors
from companion.service.command_queue import CommandQueue
from companion.service.damage import ACTIONS, Action
from companion.service.examples import example_sentence
from companion.service.names import PlayerNameError
from companion.storage.store import StoreError

if TYPE_CHECKING:
    from companion.console.rescue import TableRescue
    from companion.service.session import AnySession


@dataclass(frozen=True)
class Started:
    """A game the console's ``new`` started, and what the companion assumed for it (or ``None``)."""

    session: AnySession
    assumed: Message | None = None
    #: What the players should know about the game (a board made for another player count).
    notices: tuple[Message, ...] = ()


class Refusal(Exception):
    """A console command refused with a message (no game yet, ``new`` not offered here)."""


def next_hint(session: AnySession) -> Message | None:
    """Where the game stands: "Bob: influence? — next: Cid" while Bob may still act in his turn."""
    if session.game.is_finished(session.state):
        return msg("console.hint.over")
    turn = session.game.turn(session.state)
    if turn.may:
        acting = turn.player if turn.player is not None else msg("console.hint.the_table")
        language = current_language()
        may = join_list([render(session.game.may_word(kind), language) for kind in turn.may], language,
                        "common.list.or")
        if turn.next:
            return msg("console.hint.may_next", acting=acting, may=may, next=turn.next)
        return msg("console.hint.may", acting=acting, may=may)
    if turn.next:
        return msg("console.hint.next", next=turn.next)
    # No turn of the game's own: several games at once on one table (two groups of players),
    # each with its step; the game says them in one line.
    return session.game.what_now(session.state) if turn.player is None else None


def with_hint(line: Message, session: AnySession) -> str:
    """``line`` and, after it, where the game stands (the catalogue joins the two)."""
    hint = next_hint(session)
    return phrase("console.with_hint", line=line, hint=hint) if hint is not None else str(line)


def faults(session: AnySession) -> str:
    """After a stored change: what failed to keep up with it (the change itself is stored)."""
    if not session.last_faults:
        return ""
    failed = "; ".join(phrase("console.fault", listener=fault.listener, reason=str(fault))
                       for fault in session.last_faults)
    return phrase("console.faults", failed=failed)


def describe(session: AnySession, move: object, before: object) -> str:
    """A move in the game's notation in the session's language (``Albert: marker 2 under brown``),
    as players type it, described in the state ``before`` it (where its numbers are read); the
    record's JSON stays for ``--json`` and the records."""
    return session.game.describe(before, session.game.move_to_json(move), current_language())


#: The words that act on a store that needs attention (:mod:`companion.console.rescue`).
RESCUE_WORDS: tuple[Action, ...] = ACTIONS

#: Words that end the console, whatever their case (and each language's word for ``quit``).
QUIT_WORDS = ("quit", "exit")

#: The console's commands; each has its word in every language (``console.command.<name>``).
COMMANDS = ("moves", "undo", "redo", "status", "help", "quit", "new", *RESCUE_WORDS)


@cache
def command_words() -> dict[str, str]:
    """Every word that names a command, in any language and case -> the command (``visszavon`` ->
    ``undo``): a table types its own language's words or the English ones, as the notation allows."""
    words = {word: "quit" for word in QUIT_WORDS}
    for language in LANGUAGES:
        for command in COMMANDS:
            words[render(Message(f"console.command.{command}"), language).casefold()] = command
    return words


def _as_command(text: str) -> str:
    """``text`` with its first word in English when it is a command's word in another language."""
    first, _, rest = text.partition(" ")
    command = command_words().get(first.casefold())
    return text if command is None else f"{command} {rest}".strip()

#: The console's ``help``: the message code of its text (the commands and what they do).
HELP = "console.help"


def prompt_for(session: AnySession | None) -> str:
    """The terminal's prompt: who acts now ("Albert> "), or a bare one without a game in play."""
    if session is None or session.game.is_finished(session.state):
        return phrase("console.prompt.none")
    turn = session.game.turn(session.state)
    if turn.player is None and turn.next is None and not turn.may:
        return phrase("console.prompt.none")  # nobody's turn is the game's: several act at once
    acting = turn.acting
    return phrase("console.prompt", player=acting if acting is not None else msg("console.hint.the_table"))


def completions_for(session: AnySession | None) -> list[str]:
    """What Tab completes at a terminal: the commands, and every move that may be entered now as
    the notation writes it in the table's language."""
    words = sorted({word for word in command_words() if word.isalpha()})
    if session is None:
        return [*words, *(f"new {game.name} " for game in descriptors())]
    language = current_language()
    return [*(session.game.describe(session.state, template, language)
              for template in session.game.move_templates(session.state)), *words]


def headless_loop(session: AnySession | None, lines: Iterable[str], out: TextIO,
                  start: Callable[[list[str]], Started] | None = None,
                  terminal: TerminalLines | None = None,
                  also_status: Callable[[], str | None] | None = None,
                  rescue: TableRescue | None = None) -> None:
    """Run commands from ``lines`` through a command queue until the input ends.

    ``start`` creates a new stored game for the ``new`` command (none: ``new`` is refused).
    ``terminal``: a person types at a terminal (``lines`` reads from it); it gets a prompt naming
    who acts and completion of what may be typed, each after the previous line was answered.
    ``also_status``: what ``status`` says after the game's own lines, if anything (the standings
    of the championship whose round is played: :func:`companion.console.championship.round_standings`).
    ``rescue``: what ``repair``, ``restore``, ``fresh`` and ``backup`` do, and what ``status`` says
    of a store that needs attention (none: those words are refused).
    """
    current: dict[str, AnySession | None] = {"session": session}
    if terminal is not None:
        terminal.prompt = lambda: prompt_for(current["session"])
        terminal.completions = lambda: completions_for(current["session"])
        lines = _answering(lines, terminal)

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

    def playing() -> AnySession:
        open_now = current["session"]
        if open_now is None:
            raise Refusal(msg("console.no_game.short"))
        return open_now

    def propose(move: object) -> Callable[[], None]:
        def command() -> None:
            game_session = playing()
            before = game_session.state
            try:
                game_session.propose(move)
            except IllegalMove as refusal:
                who = game_session.game.actor(move)
                number = len(game_session.log) + 1
                say(phrase("console.refused.move_by", number=number, player=who, reason=str(refusal)) if who
                    else phrase("console.refused.move", number=number, reason=str(refusal)))
                return
            say(phrase("console.ok", number=len(game_session.log), move=describe(game_session, move, before),
                     faults=faults(game_session)))
            for effect in game_session.game.effects(before, game_session.state):
                say(phrase("console.effect", effect=effect))
            if game_session.game.is_finished(game_session.state):
                say(game_session.game.report(game_session.state))
        return command

    def undo() -> None:
        game_session = playing()
        move = game_session.undo()
        say(phrase("console.undone", number=len(game_session.log) + 1,
                   move=describe(game_session, move, game_session.state),
                 faults=faults(game_session)))

    def redo() -> None:
        game_session = playing()
        before = game_session.state
        move = game_session.redo()
        say(phrase("console.redone", number=len(game_session.log), move=describe(game_session, move, before),
                 faults=faults(game_session)))
        if game_session.game.is_finished(game_session.state):
            say(game_session.game.report(game_session.state))  # the same end as when it was entered

    def status() -> None:
        trouble = rescue.trouble() if rescue is not None else None
        if current["session"] is None and trouble is not None:
            say(str(trouble))
            return
        game_session = playing()
        report = game_session.game.report(game_session.state)
        say(report)
        count = msg("console.status", count=len(game_session.log))
        hint = next_hint(game_session)
        # the report's own last line may already say who is next: say it once
        said_already = hint is not None and hint.code == "console.hint.next" and \
            report.rstrip().splitlines()[-1].strip() == phrase("console.hint.next", next=hint.params["next"])
        say(str(count) if said_already else with_hint(count, game_session))
        example = example_sentence(game_session, "console")  # an example board: said at every status
        if example is not None:
            say(str(example))
        try:
            extra = also_status() if also_status is not None else None
        except Exception as error:  # the game is said; its championship's row may not read
            say(phrase("console.status.championship_unreadable", reason=one_line(str(error))))
            extra = None
        if extra:
            say(extra)
        if trouble is not None:
            say(str(trouble))

    def rescuing(action: Action) -> Callable[[], None]:
        def command() -> None:
            if rescue is None:
                raise Refusal(msg("console.trouble.not_offered"))
            say(rescue.act(action))
            current["session"] = rescue.session
        return command

    def new_game(words: list[str]) -> Callable[[], None]:
        def command() -> None:
            if start is None:
                raise Refusal(msg("console.new.not_here"))
            started = start(words)
            game_session = current["session"] = started.session
            if started.assumed is not None:
                say(phrase("console.assumed", assumed=started.assumed))
            for notice in started.notices:
                say(phrase("console.assumed", assumed=notice))
            say(with_hint(msg("console.started", game=game_session.game.title,
                               players=", ".join(game_session.players)), game_session))
        return command

    def json_move(text: str) -> Any | None:
        """The move a JSON line means for the game in play, or None once its refusal is said."""
        try:
            data = decode_json(text)
            if isinstance(data, int | float) and not isinstance(data, bool):
                say(phrase("console.list.no_such_number", number=text))  # -1, 2.5: meant from the list
                return None
            if not isinstance(data, dict):
                raise RecordError(msg("console.move.not_object"))
            game_session = playing()
            return game_session.game.parse_move(with_player_names(data, game_session.players))
        except json.JSONDecodeError as error:
            say(phrase("console.refused.not_json", reason=json_problem(error), column=error.colno))
        except (RecordError, Refusal, PlayerNameError) as error:
            reason = one_line(str(error))
            say(phrase("console.refused", reason=reason) if current["session"] is None
                else phrase("console.refused.move", number=len(playing().log) + 1, reason=reason))
        except InputError as error:
            say(phrase("console.refused", reason=one_line(str(error))))
        except RecursionError:
            say(phrase("console.refused", reason=msg("console.input.too_deep", depth=MAX_DEPTH)))
        return None

    words: dict[str, Callable[[], None]] = {"undo": undo, "redo": redo, "status": status,
                                            "help": lambda: say(phrase(HELP)),
                                            **{action: rescuing(action) for action in RESCUE_WORDS}}
    for line in lines:
        try:
            text = clean_line(line)
        except InputError as error:
            say(phrase("console.refused", reason=one_line(str(error))))
            continue
        if not text or text.startswith("#"):
            continue
        text = _as_command(text)
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
            move = json_move(text)
            if move is None:
                continue
            queue.post(propose(move))
        queue.drain()


def _answering(lines: Iterable[str], terminal: TerminalLines) -> Iterator[str]:
    """``lines``, telling ``terminal`` when each was answered (when the loop asks for the next)."""
    for line in lines:
        yield line
        terminal.answered()


def stdin_is_null(stream: Any) -> bool:
    """Whether ``stream`` is ``/dev/null`` (systemd's default standard input) or a closed descriptor:
    then there is nobody at a console, and the appliance runs without one.

    A stream without a descriptor (a test's ``StringIO``) is a console.
    """
    try:
        descriptor = stream.fileno()
    except (io.UnsupportedOperation, AttributeError):
        return False
    except (OSError, ValueError):
        return True
    try:
        mine = os.fstat(descriptor)
        null = os.stat(os.devnull)
    except OSError:
        return True
    return stat.S_ISCHR(mine.st_mode) and mine.st_rdev == null.st_rdev
