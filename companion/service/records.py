"""Game records (``companion-record/1``): strict parsing, replay and writing.

A record is the portable file for one game. It must replay identically on
every machine, so nothing here reads local settings: everything a replay
needs is in the file. The whole structure is checked before any move is
applied; the first illegal move then stops the replay.
"""

from __future__ import annotations

import json
import os
import stat
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic

from companion.games.base import Game, IllegalMove, MoveT, RecordError, StateT, one_line
from companion.games.fields import check_keys, require_object, type_message
from companion.games.messages import Message, json_problem, msg
from companion.games.naming import LIMITS, check_name
from companion.i18n import say
from companion.registry import get_game

FORMAT = "companion-record/1"
RESERVED_NAMES = frozenset({"mine"})
MAX_NAME_LENGTH = LIMITS["player"]
#: The largest file read as a record, a board or a ``--like`` record (bytes). The example records
#: are a few kB and a long game well under 1 MB; a larger file is refused before it is read, so a
#: device, a runaway file or a hostile one costs no memory (``docs/records.md``, "Limits").
MAX_FILE_BYTES = 4 * 2 ** 20
#: The most digits a whole number in such a file may have (what the console allows in a line).
#: Python itself refuses to convert more than 4,300; no value of a record needs more than a few.
MAX_DIGITS = 1000


class _TooManyDigits(ValueError):
    """A whole number longer than :data:`MAX_DIGITS` met while decoding (turned into a RecordError)."""


def _whole_number(text: str) -> int:
    """``json``'s reader of whole numbers, refusing one of more than :data:`MAX_DIGITS` digits."""
    if len(text) - text.startswith("-") > MAX_DIGITS:
        raise _TooManyDigits(text)
    return int(text)


@dataclass(frozen=True)
class Record(Generic[StateT, MoveT]):
    """A parsed, structurally valid record: the engine, its opening state and the moves."""

    game: Game[StateT, MoveT]
    players: tuple[str, ...]
    options: dict[str, Any]
    setup: dict[str, Any]
    moves: tuple[MoveT, ...]
    initial: StateT = field(repr=False)


class MoveRefusal(Exception):
    """A move of a log that the rules refuse: its 0-based ``index``, whose it was, and the rule.

    ``reason`` is the refusal's :class:`Message`, kept as data so that the line
    reads in the language current when it is shown; :attr:`message` is the
    whole line, worded by the subclass's two message codes (with and without
    the player); ``str()`` is that line.
    """

    #: The message code of the whole line when the move has a player, and when it has none.
    by_player = "records.replay.move_by"
    without_player = "records.replay.move"

    def __init__(self, index: int, player: str | None, reason: Message | str) -> None:
        super().__init__(index, player, reason)
        self.index = index
        self.player = player
        self.reason = reason

    @property
    def message(self) -> Message:
        """The whole line as a message: the move's number, whose it was and the rule."""
        if self.player:
            return msg(self.by_player, number=self.index + 1, player=one_line(self.player),
                       reason=self.reason)
        return msg(self.without_player, number=self.index + 1, reason=self.reason)

    def __str__(self) -> str:
        return one_line(say(self.message))


class ReplayError(MoveRefusal):
    """A move of a record that the rules refuse (``move 7 (Albert): ...``, ``7. lépés (Albert): ...``)."""


def check_players(players: object, game: Game[Any, Any]) -> tuple[str, ...]:
    """The ``players`` list, checked: each name by the one name rule (:mod:`companion.games.naming`:
    1–24 characters, none a control, format or bidi character), unique, not reserved, count in range."""
    if not isinstance(players, list):
        raise RecordError(msg("records.players.not_list", kind=type_message(players)), "players")
    seen: set[str] = set()
    for index, name in enumerate(players):
        path = f"players[{index}]"
        name = check_name(name, "player", path)  # the one name rule: text, 1-24 characters, none unsafe
        if name != name.strip():
            raise RecordError(msg("records.players.spaces", name=name), path)
        if name in RESERVED_NAMES:
            raise RecordError(msg("records.players.reserved", name=name), path)
        if name in seen:
            raise RecordError(msg("records.players.duplicate", name=name), path)
        seen.add(name)
    if not game.min_players <= len(players) <= game.max_players:
        raise RecordError(msg("records.players.count", game=game.title, low=game.min_players,
                              high=game.max_players, count=len(players)), "players")
    return tuple(players)


def parse_record(data: object) -> Record[Any, Any]:
    """A :class:`Record` from decoded JSON, or :class:`RecordError` naming the first bad field."""
    data = require_object(data, "record")
    fmt = data.get("format")
    if fmt != FORMAT:
        shown = json.dumps(fmt) if fmt is not None else msg("records.format.missing")
        raise RecordError(msg("records.format.wrong", format=FORMAT, said=shown), "format")
    check_keys(data, required=("format", "game", "players", "moves"), optional=("options", "setup"))
    game = get_game(data["game"]) if isinstance(data["game"], str) else None
    if game is None:
        raise RecordError(msg("records.game.not_text", kind=type_message(data["game"])), "game")
    players = check_players(data["players"], game)
    options = {} if data.get("options") is None else data["options"]
    setup = {} if data.get("setup") is None else data["setup"]
    require_object(options, "options")
    require_object(setup, "setup")
    initial = game.start(players, options, setup)
    raw_moves = data["moves"]
    if not isinstance(raw_moves, list):
        raise RecordError(msg("records.moves.not_list", kind=type_message(raw_moves)), "moves")
    moves = []
    for index, raw in enumerate(raw_moves):
        try:
            moves.append(game.parse_move(require_object(raw)))
        except RecordError as error:
            # a move's own path goes in front of its reason; a game's sentence not yet a code stays one
            inner = error.message if not error.path or isinstance(error.message, Message) else str(error)
            raise RecordError(error.as_message() if isinstance(inner, Message) else inner,
                              f"move {index + 1}") from None
    return Record(game, players, dict(options), dict(setup), tuple(moves), initial)


def _read_bounded(path: str | Path) -> bytes:
    """The bytes of the regular file ``path``, at most :data:`MAX_FILE_BYTES` of them.

    Opened without blocking (a pipe with no writer would wait for ever) and
    checked on the open handle before a byte is read: a device (``/dev/zero``,
    ``/dev/urandom``), a pipe or a socket is refused, and so is a file larger
    than the limit. A file that grows while it is read is cut at the limit
    and refused too.
    """
    handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(handle, "rb") as file:
        info = os.fstat(file.fileno())
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(path)
        if not stat.S_ISREG(info.st_mode):
            raise RecordError(msg("records.file.not_regular", path=str(path)))
        too_large = RecordError(msg("records.file.too_large", path=str(path),
                                    megabytes=MAX_FILE_BYTES // 2 ** 20))
        if info.st_size > MAX_FILE_BYTES:
            raise too_large
        data = file.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise too_large
        return data


def read_json(path: str | Path) -> Any:
    """Decoded JSON of a file; a missing, unreadable, invalid or unbounded file is a :class:`RecordError`.

    A byte-order mark (as some Windows editors write) is accepted. Only a
    regular file of at most :data:`MAX_FILE_BYTES` is read, and a whole number
    of more than :data:`MAX_DIGITS` digits is refused (``records.md``, "Limits").
    """
    try:
        text = _read_bounded(path).decode("utf-8-sig")
    except FileNotFoundError:
        raise RecordError(msg("records.file.missing", path=str(path))) from None
    except IsADirectoryError:
        raise RecordError(msg("records.file.directory", path=str(path))) from None
    except UnicodeDecodeError as error:
        raise RecordError(_not_utf8(path, error)) from None
    except OSError as error:
        raise RecordError(msg("records.file.unreadable", path=str(path),
                              reason=error.strerror or str(error))) from None
    try:
        return json.loads(text, parse_int=_whole_number)
    except _TooManyDigits:
        raise RecordError(msg("records.file.too_many_digits", path=str(path), digits=MAX_DIGITS)) from None
    except json.JSONDecodeError as error:
        raise RecordError(msg("records.file.not_json", path=str(path), line=error.lineno,
                              column=error.colno, reason=json_problem(error))) from None
    except RecursionError:
        raise RecordError(msg("records.file.too_deep", path=str(path))) from None


def _not_utf8(path: str | Path, error: UnicodeDecodeError) -> Message:
    """Why a file is not UTF-8 text, in words (not Python's codec message)."""
    if error.object[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return msg("records.file.utf16", path=str(path))
    return msg("records.file.not_utf8", path=str(path), byte=f"{error.object[error.start]:#04x}",
               position=error.start)


def load_record(path: str | Path) -> Record[Any, Any]:
    """Read and parse a record file; unreadable or non-JSON files are a :class:`RecordError`."""
    return parse_record(read_json(path))


def states_after(game: Game[StateT, MoveT], initial: StateT, moves: Sequence[MoveT]) -> Iterator[StateT]:
    """The state after each move in turn; :class:`ReplayError` at the first illegal one.

    The one replay loop: records, sessions, amends and the store all use it.
    """
    state = initial
    for index, move in enumerate(moves):
        try:
            state = game.apply(state, move)
        except IllegalMove as refusal:
            raise ReplayError(index, game.actor(move), refusal.reason) from None
        yield state


def replay(game: Game[StateT, MoveT], initial: StateT, moves: Sequence[MoveT]) -> list[StateT]:
    """Every state from ``initial`` through each move: ``states[i]`` is before move ``i``."""
    return [initial, *states_after(game, initial, moves)]


def final_state(record: Record[StateT, MoveT]) -> StateT:
    """The state after all of the record's moves (:class:`ReplayError` at an illegal one).

    Keeps only the latest state while replaying: a long record needs no list of them all.
    """
    last = deque(states_after(record.game, record.initial, record.moves), maxlen=1)
    return last[0] if last else record.initial


def record_json(game: Game[StateT, MoveT], players: Sequence[str], state: StateT,
                moves: Sequence[MoveT]) -> dict[str, Any]:
    """A complete record: every option written out and the board inline, so it replays anywhere."""
    return {
        "format": FORMAT,
        "game": game.name,
        "players": list(players),
        "options": game.options_json(state),
        "setup": game.setup_json(state),
        "moves": [game.move_to_json(move) for move in moves],
    }
