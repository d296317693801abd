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

:class:`Console` holds what the loop knows between lines (the game in play, a
template waiting for observed fields, the queue); each of its methods does one
thing: read a line, run one command, say one answer.
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, TextIO

from companion.console.commands import (
    COMMANDS,
    QUIT_WORDS,
    RESCUE_WORDS,
    as_command,
    command_words,
    looks_like_a_command,
    unknown_command,
)
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
from companion.console.whose_turn import next_hint, now_for, prompt_for, with_hint
from companion.games.base import IllegalMove, RecordError, one_line
from companion.games.messages import Message, json_problem, msg
from companion.i18n import current_language
from companion.i18n import text as phrase
from companion.registry import descriptors
from companion.service.command_queue import CommandQueue
from companion.service.damage import Action
from companion.service.examples import example_sentence
from companion.service.names import PlayerNameError
from companion.storage.store import StoreError

if TYPE_CHECKING:
    from companion.console.rescue import TableRescue
    from companion.service.session import AnySession

__all__ = ["COMMANDS", "HELP", "QUIT_WORDS", "RESCUE_WORDS", "Console", "Refusal", "Started", "command_words",
           "completions_for", "headless_loop", "next_hint", "prompt_for", "stdin_is_null", "with_hint"]


@dataclass(frozen=True)
class Started:
    """A game the console's ``new`` started, and what the companion assumed for it (or ``None``)."""

    session: AnySession
    assumed: Message | None = None
    #: What the players should know about the game (a board made for another player count).
    notices: tuple[Message, ...] = ()


class Refusal(Exception):
    """A console command refused with a message (no game yet, ``new`` not offered here)."""


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


def points_scored(session: AnySession, before: object) -> Message | None:
    """The points a move gave each player, with their new totals ("points: Albert +7 (now 7), Birgit
    +5 (now 5)"), or ``None`` when no score changed."""
    game = session.game
    old = {line.player: line.score for line in game.outcome(before).standings}
    new = {line.player: line.score for line in game.outcome(session.state).standings}
    changed = [msg("console.scored.player", player=player, gained=f"{score - old.get(player, 0):+d}",
                   score=score) for player, score in new.items() if score != old.get(player, 0)]
    return msg("console.scored", changes=changed) if changed else None


#: The console's ``help``: the message code of its text (the commands and what they do).
HELP = "console.help"


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
    console = Console(session, out, start=start, also_status=also_status, rescue=rescue)
    if terminal is not None:
        terminal.prompt = lambda: prompt_for(console.session)
        terminal.completions = lambda: completions_for(console.session)
        lines = _answering(lines, terminal)
    console.run(lines)


class Console:
    """The console between two lines: the game in play, what it is waiting for, the command queue.

    :meth:`run` reads lines until the input ends or ``quit``; :meth:`take` reads one line and posts
    what it means to the queue; the other methods are the commands, each run from the queue.
    """

    def __init__(self, session: AnySession | None, out: TextIO, *,
                 start: Callable[[list[str]], Started] | None = None,
                 also_status: Callable[[], str | None] | None = None,
                 rescue: TableRescue | None = None) -> None:
        self.session = session
        self.out = out
        self.start = start
        self.also_status = also_status
        self.rescue = rescue
        self.queue = CommandQueue(on_error=self.refused)
        self.input = ConsoleInput()
        self.words: dict[str, Callable[[], None]] = {
            "undo": self.undo, "redo": self.redo, "status": self.status, "help": self.help,
            **{action: partial(self.rescuing, action) for action in RESCUE_WORDS}}

    # -- reading lines ---------------------------------------------------------------

    def run(self, lines: Iterable[str]) -> None:
        """Answer each line in turn until the input ends or a quit word."""
        for line in lines:
            if not self.take(line):
                break
            self.queue.drain()

    def take(self, line: str) -> bool:
        """Read one line and post what it means; ``False`` when it ends the console."""
        try:
            text = clean_line(line)
        except InputError as error:
            self.say(phrase("console.refused", reason=one_line(str(error))))
            return True
        if not text or text.startswith("#"):
            return True
        text = as_command(text)
        command = text.casefold()
        if command in QUIT_WORDS:
            return False
        if command in self.words:
            self.queue.post(self.words[command])
        elif text.split()[0].casefold() == "new":
            self.take_new(text)
        elif self.session is None and not text.startswith(("{", "[")):
            # a command nobody has, or a move, a number or `moves` with no game to read it in yet
            self.say(phrase("console.refused", reason=unknown_command(text) if looks_like_a_command(text)
                            else msg("console.no_game.short")))
        else:
            self.take_move(text)
        return True

    def take_new(self, text: str) -> None:
        """``new GAME PLAYER...``: its words, split as a shell would, posted to start the game."""
        try:
            self.queue.post(partial(self.new_game, split_words(text)[1:]))
        except InputError as error:
            self.say(phrase("console.refused", reason=one_line(str(error))))

    def take_move(self, text: str) -> None:
        """A move: a number from ``moves``, the notation, observed fields, or the record's JSON."""
        session = self.session
        assert session is not None or text.startswith(("{", "["))
        reading = None if session is None else self.input.read(session.game, session.state, text)
        if reading is None:
            move = self.json_move(text)
            if move is not None:
                self.queue.post(partial(self.propose, move))
            return
        if reading.unreadable and looks_like_a_command(text) and not _names_a_player(session, text):
            self.say(phrase("console.refused", reason=unknown_command(text)))
            return
        for said in reading.say:
            self.say(said)
        if reading.move is not None:
            self.queue.post(partial(self.propose, reading.move))

    def json_move(self, text: str) -> Any | None:
        """The move a JSON line means for the game in play, or None once its refusal is said."""
        try:
            data = decode_json(text)
            if isinstance(data, int | float) and not isinstance(data, bool):
                self.say(phrase("console.list.no_such_number", number=text))  # -1, 2.5: meant from the list
                return None
            if not isinstance(data, dict):
                raise RecordError(msg("console.move.not_object"))
            session = self.playing()
            return session.game.parse_move(with_player_names(data, session.players))
        except json.JSONDecodeError as error:
            self.say(phrase("console.refused.not_json", reason=json_problem(error), column=error.colno))
        except (RecordError, Refusal, PlayerNameError) as error:
            reason = one_line(str(error))
            self.say(phrase("console.refused", reason=reason) if self.session is None
                     else phrase("console.refused.move", number=len(self.session.log) + 1, reason=reason))
        except InputError as error:
            self.say(phrase("console.refused", reason=one_line(str(error))))
        except RecursionError:
            self.say(phrase("console.refused", reason=msg("console.input.too_deep", depth=MAX_DEPTH)))
        return None

    # -- saying ------------------------------------------------------------------------

    def say(self, text: str) -> None:
        """One answer, escaped and cut as every line the console prints."""
        self.out.write(shown(text) + "\n")
        self.out.flush()

    def refused(self, error: Exception) -> None:
        """A command the queue ran failed: its reason in one line (the queue's ``on_error``)."""
        if isinstance(error, BrokenPipeError):
            raise error  # nobody reads the answers any more: main() ends quietly
        if isinstance(error, StoreError | OSError | sqlite3.Error):
            self.say(phrase("console.refused.not_saved", reason=one_line(str(error))))
        else:
            self.say(phrase("console.refused", reason=one_line(str(error))))

    def playing(self) -> AnySession:
        """The game in play; without one, the command is refused."""
        if self.session is None:
            raise Refusal(msg("console.no_game.short"))
        return self.session

    def after_change(self, session: AnySession, before: object) -> None:
        """What a move (entered or redone) caused beyond itself, and the end of the game if it came.

        The game's own effects say it where it has words for them (an area evaluated: who gained
        what, and why); where it has none, the points the move gave are said all the same (a
        valuation card that scores the towers, as the final one's report does), from the engine's
        standings."""
        effects = session.game.effects(before, session.state)
        for effect in effects:
            self.say(phrase("console.effect", effect=effect))
        if session.game.is_finished(session.state):
            self.say(session.game.report(session.state))
        elif not effects:
            scored = points_scored(session, before)
            if scored is not None:
                self.say(str(scored))

    # -- the commands, run from the queue ----------------------------------------------

    def propose(self, move: object) -> None:
        """Enter ``move``: confirmed with what it caused, or refused naming its number and player."""
        session = self.playing()
        before = session.state
        try:
            session.propose(move)
        except IllegalMove as refusal:
            who = session.game.actor(move)
            number = len(session.log) + 1
            self.say(phrase("console.refused.move_by", number=number, player=who, reason=str(refusal)) if who
                     else phrase("console.refused.move", number=number, reason=str(refusal)))
            return
        self.say(phrase("console.ok", number=len(session.log), move=describe(session, move, before),
                        faults=faults(session)))
        self.after_change(session, before)

    def undo(self) -> None:
        """Take the last move back."""
        session = self.playing()
        move = session.undo()
        self.say(phrase("console.undone", number=len(session.log) + 1,
                        move=describe(session, move, session.state), faults=faults(session)))

    def redo(self) -> None:
        """Enter again the move last taken back, with what it causes as when it was entered."""
        session = self.playing()
        before = session.state
        move = session.redo()
        self.say(phrase("console.redone", number=len(session.log), move=describe(session, move, before),
                        faults=faults(session)))
        self.after_change(session, before)

    def help(self) -> None:
        """The commands and what they do."""
        self.say(phrase(HELP))

    def status(self) -> None:
        """The game's report, the count of moves and whose turn it is (said once), the championship's
        standings when the game is a round of one, and the store's trouble if any."""
        trouble = self.rescue.trouble() if self.rescue is not None else None
        if self.session is None and trouble is not None:
            self.say(str(trouble))
            return
        session = self.playing()
        self.say(self.report_without_next(session))
        self.say(with_hint(msg("console.status", count=len(session.log)), session))
        example = example_sentence(session, "console")  # an example board: said at every status
        if example is not None:
            self.say(str(example))
        extra = self.championship_lines()
        if extra:
            self.say(extra)
        if trouble is not None:
            self.say(str(trouble))

    @staticmethod
    def report_without_next(session: AnySession) -> str:
        """The game's report, less its last line when that only says who is next: the line that
        follows says it with what they are to do (one answer to whose turn it is)."""
        report = session.game.report(session.state).rstrip()
        now = now_for(session)
        lines = report.splitlines()
        if now is not None and now.subject is not None and len(lines) > 1 and \
                lines[-1].strip() == phrase("console.hint.next", next=now.subject):
            return "\n".join(lines[:-1])
        return report

    def championship_lines(self) -> str | None:
        """What ``status`` adds for a championship's round (its standings), if anything."""
        try:
            return self.also_status() if self.also_status is not None else None
        except Exception as error:  # the game is said; its championship's row may not read
            self.say(phrase("console.status.championship_unreadable", reason=one_line(str(error))))
            return None

    def rescuing(self, action: Action) -> None:
        """``repair``, ``restore``, ``fresh`` or ``backup``: run at the table, answered in one line."""
        if self.rescue is None:
            raise Refusal(msg("console.trouble.not_offered"))
        self.say(self.rescue.act(action))
        self.session = self.rescue.session

    def new_game(self, words: list[str]) -> None:
        """Start a game from the ``companion new`` words; say what was assumed and whose turn it is."""
        if self.start is None:
            raise Refusal(msg("console.new.not_here"))
        started = self.start(words)
        session = self.session = started.session
        if started.assumed is not None:
            self.say(phrase("console.assumed", assumed=started.assumed))
        for notice in started.notices:
            self.say(phrase("console.assumed", assumed=notice))
        self.say(with_hint(msg("console.started", game=session.game.title,
                               players=", ".join(session.players)), session))


def _names_a_player(session: AnySession | None, word: str) -> bool:
    """Whether ``word`` is the start of a player's name ("Alb"): a move begun, not a command mistyped."""
    typed = word.casefold()
    return session is not None and any(player.casefold().startswith(typed) for player in session.players)


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
