"""What reaches a terminal: names and values escaped, long values cut.

Messages quote what a player typed or a file held. Printed raw, an ESC
sequence in a name would clear or recolour the terminal, a line break would
split a one-line message, a lone surrogate could not even be encoded (and
Python's own error would be printed instead), and a 10,000-character value
would bury the message. So every line the console and the CLI print of such
text goes through :func:`shown` or :func:`shown_line`.

And because one forgotten call is enough for a name to reach the terminal
raw, the command line also writes standard output and error through
:class:`SafeStream`: whatever unsafe character is left (a control, a bidi
override, a zero-width space: :func:`~companion.service.names.unsafe_character`)
is written ``\\uXXXX``, JSON's own escape, so JSON on standard output still
reads back as the same data.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, TextIO

from companion.games.base import one_line
from companion.service.names import escaped

#: Longer values are cut to this many characters, the last one an ellipsis.
VALUE_LIMIT = 80
ELLIPSIS = "…"

# A double-quoted value (quotes pair up from the left, so prose between two
# values is never mistaken for one), or an unbroken run too long to be a word.
_VALUE = re.compile(rf'"[^"\n]*"|[^\s"]{{{VALUE_LIMIT + 1},}}')


def clip(value: str, limit: int = VALUE_LIMIT) -> str:
    """``value`` itself, or its first ``limit - 1`` characters and an ellipsis."""
    return value if len(value) <= limit else value[:limit - 1] + ELLIPSIS


def _clip_match(match: re.Match[str]) -> str:
    text = match.group()
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        return f'"{clip(text[1:-1])}"'
    return clip(text)


def clip_values(text: str) -> str:
    """``text`` with every quoted value, and every unbroken run, longer than the limit cut."""
    return _VALUE.sub(_clip_match, text)


def shown_line(text: str) -> str:
    """``text`` as one safe line: control characters escaped (``\\x1b``, ``\\n``), long values cut."""
    return clip_values(one_line(text))


def shown(text: str) -> str:
    """Like :func:`shown_line`, but line breaks stay (for reports of several lines)."""
    return "\n".join(shown_line(line) for line in text.split("\n"))


def terminal_safe(text: str) -> str:
    """``text`` with every unsafe character but line ends and tabs written ``\\uXXXX``."""
    if text.isprintable():
        return text
    return "\n".join(line if line.isprintable() else escaped(line, keep="\t") for line in text.split("\n"))


class SafeStream:
    """A text stream that writes :func:`terminal_safe` text to the stream it wraps; everything else
    (``flush``, ``fileno``, ``encoding``, ``buffer`` ...) is the wrapped stream's."""

    def __init__(self, stream: TextIO) -> None:
        self.wrapped = stream

    def write(self, text: str) -> int:
        self.wrapped.write(terminal_safe(text))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)
