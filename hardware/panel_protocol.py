"""The seat panels' line protocol: reading what a panel says, writing what it is told. No I/O.

A seat panel is a small board on USB serial, one per seat (``docs/serial-protocol.md``
is the reference for whoever builds one). Everything here is pure so that it
can be fuzzed and reasoned about apart from the threads and ports of
:mod:`hardware.panels`:

- :class:`LineSplitter` cuts the incoming bytes into lines, never holding more
  than :data:`MAX_LINE` bytes of an unfinished one: a panel that sends
  garbage without a line end costs a bounded buffer, not the companion's memory;
- :func:`parse_line` reads one panel line into a small frozen dataclass, or
  raises :class:`ProtocolError` (its ``kind`` is what the port counts);
- the ``*_line`` functions write the companion's lines, cut to the limit at a
  character boundary and with control characters made spaces, so a player's
  name or a long refusal can never break the framing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

#: The protocol version this companion speaks (sent in ``HELLO``).
VERSION = 1
#: The longest line, in bytes of UTF-8 without the line end, either way.
MAX_LINE = 200
#: Seats are numbered from 1 in seating order; a panel may claim 1 to 9.
MAX_SEAT = 9
#: The keys a panel may report.
KEYS = ("NEXT", "PREV", "OK")
#: The longest token of an ``ECHO``.
MAX_TOKEN = 32
#: A panel's own id (the third field of its ``HELLO``): 4 to 32 of these characters. It is made once
#: on the panel and kept, so that the companion can remember which panel it allowed at which seat.
ID_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:")
MIN_ID, MAX_ID = 4, 32

_ELLIPSIS = "…"


class ProtocolError(ValueError):
    """A line that is not the protocol; ``kind`` is one of ``unknown``, ``malformed``,
    ``overlong`` or ``encoding``, the counters a port keeps."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind


@dataclass(frozen=True)
class Hello:
    """The panel introduces itself: the protocol version it speaks, the seat it asks for, and its id.

    ``panel_id`` is ``None`` when the panel sent none (a panel from before ids)
    or one that is not an id: such a panel is only ever seated by a port the
    configuration wires to a seat, never trusted for the seat it claims.
    """

    version: int
    seat: int
    panel_id: str | None = None


@dataclass(frozen=True)
class Key:
    """A key pressed on the panel: ``NEXT``/``PREV`` choose among the seat's moves, ``OK`` enters it."""

    name: str


@dataclass(frozen=True)
class MoveText:
    """A whole move in the companion's notation (``brown +3``), for the panel's own seat."""

    text: str


@dataclass(frozen=True)
class MoveJson:
    """A whole move as record JSON (``{"type": "build", ...}``), for the panel's own seat."""

    data: dict[str, Any]


@dataclass(frozen=True)
class Echo:
    """The panel repeating the token of the companion's ``ECHO`` (the hardware test)."""

    token: str


@dataclass(frozen=True)
class Ping:
    """The panel asking whether the companion is listening (answered with ``PONG``)."""


PanelLine = Hello | Key | MoveText | MoveJson | Echo | Ping


def _whole(word: str, low: int, high: int, what: str) -> int:
    if not (word.isascii() and word.isdigit() and len(word) <= 4):
        raise ProtocolError("malformed", f"{what} is not a number")
    value = int(word)
    if not low <= value <= high:
        raise ProtocolError("malformed", f"{what} {value} is not from {low} to {high}")
    return value


def _token(word: str) -> str:
    if not 1 <= len(word) <= MAX_TOKEN or not (word.isascii() and word.isprintable()) or " " in word:
        raise ProtocolError("malformed", "an echo token is 1 to 32 printable ASCII characters")
    return word


def panel_id(word: str) -> str | None:
    """``word`` if it is a panel id (:data:`MIN_ID` to :data:`MAX_ID` of :data:`ID_CHARACTERS`), else None."""
    if MIN_ID <= len(word) <= MAX_ID and all(ch in ID_CHARACTERS for ch in word):
        return word
    return None


def parse_line(raw: bytes) -> PanelLine | None:
    """One line from a panel (without its line end), or ``None`` for a blank line or a ``#`` comment.

    Raises :class:`ProtocolError` and nothing else, whatever the bytes.
    """
    if len(raw) > MAX_LINE:
        raise ProtocolError("overlong", f"a line of more than {MAX_LINE} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError("encoding", "not UTF-8") from None
    text = text.removeprefix("\ufeff").rstrip("\r").strip(" \t")
    if not text or text.startswith("#"):
        return None
    keyword, _, rest = text.partition(" ")
    keyword = keyword.upper()
    rest = rest.strip(" \t")
    words = rest.split()
    if keyword == "HELLO":
        if len(words) < 2:
            raise ProtocolError("malformed", "HELLO needs the version and the seat")
        # the panel's id is the third word; words after it are ignored (a later version may add some)
        return Hello(_whole(words[0], 1, 9999, "the version"), _whole(words[1], 1, MAX_SEAT, "the seat"),
                     panel_id(words[2]) if len(words) > 2 else None)
    if keyword == "KEY":
        if len(words) != 1 or words[0].upper() not in KEYS:
            raise ProtocolError("malformed", f"KEY needs one of {', '.join(KEYS)}")
        return Key(words[0].upper())
    if keyword == "MOVE":
        if not rest or not rest.isprintable():
            raise ProtocolError("malformed", "MOVE needs the move in the notation")
        return MoveText(rest)
    if keyword == "JSON":
        return MoveJson(_json_object(rest))
    if keyword == "ECHO":
        if len(words) != 1:
            raise ProtocolError("malformed", "ECHO needs one token")
        return Echo(_token(words[0]))
    if keyword == "PING":
        return Ping()
    raise ProtocolError("unknown", "not a keyword of the protocol")


def _json_object(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("malformed", "JSON needs a move as a JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "JSON needs a move as a JSON object")
    return data


class LineSplitter:
    """Cuts a byte stream into lines of at most :data:`MAX_LINE` bytes.

    :meth:`feed` returns the complete lines (without ``\\n``) and, for each
    line that grew past the limit, a :class:`ProtocolError` of kind
    ``overlong`` in its place; the rest of such a line is dropped up to its
    line end. What is kept between calls is never more than the limit.
    """

    def __init__(self) -> None:
        self._pending = bytearray()
        self._skipping = False

    @property
    def pending(self) -> int:
        """Bytes of an unfinished line held now (at most :data:`MAX_LINE`)."""
        return len(self._pending)

    def feed(self, data: bytes) -> list[bytes | ProtocolError]:
        out: list[bytes | ProtocolError] = []
        parts = data.split(b"\n")
        for number, part in enumerate(parts):
            if not self._skipping:
                if len(self._pending) + len(part) > MAX_LINE + 1:  # +1: a CR before the LF
                    out.append(ProtocolError("overlong", f"a line of more than {MAX_LINE} bytes"))
                    self._pending.clear()
                    self._skipping = True
                else:
                    self._pending += part
            if number == len(parts) - 1:
                break  # no line end after this part (yet)
            if not self._skipping:
                line = bytes(self._pending)
                line = line[:-1] if line.endswith(b"\r") else line
                out.append(line if len(line) <= MAX_LINE else
                           ProtocolError("overlong", f"a line of more than {MAX_LINE} bytes"))
            self._skipping = False
            self._pending.clear()
        return out


# -- what the companion writes --------------------------------------------------

def _clean(text: str) -> str:
    """``text`` on one line: control characters (line ends among them) become spaces."""
    return "".join(ch if ch.isprintable() else " " for ch in str(text))


def format_line(keyword: str, *fields: Any) -> bytes:
    """``KEYWORD field ...`` as one UTF-8 line with its ``\\n``, cut with an ellipsis to :data:`MAX_LINE`."""
    text = " ".join([keyword, *(_clean(str(field)) for field in fields if str(field) != "")])
    encoded = text.encode("utf-8")
    if len(encoded) > MAX_LINE:
        room = MAX_LINE - len(_ELLIPSIS.encode("utf-8"))
        text = encoded[:room].decode("utf-8", errors="ignore") + _ELLIPSIS
        encoded = text.encode("utf-8")
    return encoded + b"\n"


def hello_line() -> bytes:
    """Sent when a port opens: the companion's version, asking the panel to say its ``HELLO``."""
    return format_line("HELLO", VERSION)


def seat_line(seat: int, player: str | None) -> bytes:
    """The player sitting at ``seat`` in the open game (nothing after the seat when nobody does)."""
    return format_line("SEAT", seat, player or "")


def turn_line(whose: str, player: str | None) -> bytes:
    """``TURN you NAME``, ``TURN other NAME`` or ``TURN none``: whether the panel's seat acts now."""
    return format_line("TURN", whose, player or "")


def status_line(text: str) -> bytes:
    """A short status in the table's language, for the panel's display."""
    return format_line("STATUS", text)


def score_line(points: int | None) -> bytes:
    """The seat's score now, ``SCORE -`` when the seat plays no game."""
    return format_line("SCORE", "-" if points is None else points)


def pick_line(index: int, count: int, text: str) -> bytes:
    """The move ``NEXT``/``PREV`` chose: its place (from 1) among ``count``, and its words."""
    return format_line("PICK", index, count, text)


def accepted_line(text: str) -> bytes:
    """The panel's move is stored (its words in the notation)."""
    return format_line("ACCEPTED", text)


def refused_line(text: str) -> bytes:
    """Why the panel's move (or request) was refused, in the table's language."""
    return format_line("REFUSED", text)


def echo_line(token: str) -> bytes:
    """Ask the panel to send ``ECHO token`` back (``companion hardware test``)."""
    return format_line("ECHO", _token(token))


def pong_line() -> bytes:
    return format_line("PONG")


def read_companion_line(raw: bytes) -> tuple[str, str]:
    """A line the companion wrote as (keyword, the rest): what a panel does first with each line."""
    text = raw.decode("utf-8").rstrip("\r\n")
    keyword, _, rest = text.partition(" ")
    return keyword, rest
