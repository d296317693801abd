"""``companion board enter NAME``: a Castelli board entered a question at a time, from standard input.

Each question is printed, one line is read as its answer (so it works at a plain terminal and
with answers piped in), and after each answer the board so far is drawn as text. The answers
are kept in the store as they come (:mod:`companion.service.castelli_board_entry`): stopping (``quit``,
the end of the input, Ctrl-C) loses nothing, and the same command goes on where it stopped.
The finished board is checked as ``board validate`` checks a file and stored as ``board import``
stores one, so that ``new castelli ... --setup board=NAME`` (or, when it is the only stored
board, every new game) is played on it.
"""

from __future__ import annotations

import argparse
import sys

from companion.cli.commands.library import open_app, store_errors
from companion.cli.main import UserError
from companion.games.base import RecordError
from companion.games.castelli.board import layout_names
from companion.games.castelli.descriptor import BOARDS
from companion.games.messages import msg
from companion.i18n import say
from companion.service.castelli import CastelliService
from companion.service.castelli_board_entry import BACK, HELP, QUIT, BoardDrafts, BoardEntry, validity
from companion.service.errors import AppError
from companion.service.names import name_problem


def register(boards: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``enter`` to the ``board`` command group."""
    enter = boards.add_parser("enter", help="castelli.help.enter", description="castelli.description.enter")
    enter.add_argument("name", metavar="NAME", help="castelli.help.enter_name")
    enter.add_argument("--again", action="store_true", help="castelli.help.enter_again")
    enter.set_defaults(handler=run_enter)


def _out(line: str) -> None:
    print(line, flush=True)


@store_errors
def run_enter(args: argparse.Namespace) -> int:
    name = args.name.strip()
    problem = name_problem(name, "board")  # the one name rule, before anything is asked
    if problem is not None:
        raise UserError(say(problem))
    if name in layout_names():
        raise UserError(say(msg("app.board.shipped_name", name=name)))
    with open_app(args) as app:
        drafts = BoardDrafts(app.store)
        entry = None if args.again else drafts.load(name)
        if entry is None:
            entry = BoardEntry(name)
            drafts.forget(name)
            stored = name in (app.store.get_setting(BOARDS, {}) or {})
            _out(say(msg("castelli.enter.start", name=name, back=BACK, quit=QUIT, help=HELP)))
            if stored:
                _out(say(msg("castelli.enter.replaces", name=name)))
        else:
            answered, total = entry.count
            _out(say(msg("castelli.enter.resumed", name=name, answered=answered, total=total, back=BACK,
                         again=f"companion board enter {name} --again")))
            _out("\n".join(entry.drawing()))
        if not _ask_all(entry, drafts):
            answered, total = entry.count
            _out(say(msg("castelli.enter.kept", name=name, count=answered, total=total)))
            return 0
        try:
            board = entry.board()
        except RecordError as error:  # every answer was checked: only a board this entry cannot make
            raise UserError(say(msg("castelli.enter.invalid", name=name,
                                    reason=error.as_message()))) from None
        replaced = CastelliService.of(app).save_board(name, entry.to_json())
        drafts.forget(name)
        alone = len(app.store.get_setting(BOARDS, {}) or {}) == 1
    _out(say(validity(board)))
    _out(say(msg("castelli.enter.stored" if not replaced else "castelli.enter.stored_again", name=name)))
    _out(say(msg("castelli.enter.alone" if alone else "castelli.enter.named", name=name)))
    return 0


def _ask_all(entry: BoardEntry, drafts: BoardDrafts) -> bool:
    """Ask until every question is answered (``True``) or the players stop (``False``); each
    accepted answer (and each taken back) is kept in the store before the next question."""
    while True:
        question = entry.asking()
        if question is None:
            return True
        _out(say(question))
        try:
            line = sys.stdin.readline()
        except KeyboardInterrupt:
            return False
        if not line or line.strip().casefold() == QUIT:
            return False
        typed = line.strip()
        if typed.casefold() == HELP:
            _out(say(msg("castelli.enter.help", back=BACK, quit=QUIT)))
            continue
        if typed.casefold() == BACK:
            if not entry.back():
                _out(say(msg("castelli.enter.nothing_back")))
                continue
        else:
            try:
                entry.answer(typed)
            except AppError as refused:
                _out(say(refused.args[0]))
                continue
        drafts.keep(entry)
        drawn = entry.drawing()
        if drawn:
            _out("\n".join(drawn))
