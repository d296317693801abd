"""The console at a terminal: a prompt that says whose turn it is, line editing, history, completion.

When a person types at a terminal (standard input and output both a TTY),
the console reads with Python's :func:`input` and its :mod:`readline`: the
arrow keys edit the line and walk back through what was typed, and Tab
completes commands, player names and every move that may be entered now,
written in the notation (``Alb`` Tab Tab lists Albert's moves). The prompt
is printed only when the previous line has been answered, so it always
names the player who acts now. Piped input (a script, the appliance's
``/dev/null``) is read as before, without a prompt.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import TextIO

try:  # not on every platform; the console works without it, only less comfortably
    import readline
except ImportError:  # pragma: no cover - Linux (the appliance) always has it
    readline = None  # type: ignore[assignment]


def is_terminal(stdin: TextIO, stdout: TextIO) -> bool:
    """Whether a person types at a terminal: both streams are TTYs."""
    try:
        return bool(stdin.isatty() and stdout.isatty())
    except (AttributeError, ValueError):
        return False


class TerminalLines:
    """Lines typed at a terminal, each read after the previous one was answered.

    The console loop sets :attr:`prompt` and :attr:`completions` (what it
    knows: the game, whose turn) and calls :meth:`answered` once it has
    handled a line; only then is the next prompt shown.
    """

    def __init__(self) -> None:
        #: The prompt for the next line (the loop's: "Albert> ").
        self.prompt: Callable[[], str] = lambda: "> "
        #: Every whole line worth completing now (commands, names, the moves allowed now).
        self.completions: Callable[[], list[str]] = list
        self._answered = threading.Event()
        self._answered.set()
        self._matches: list[str] = []
        if readline is not None:
            readline.set_completer(self._complete)
            readline.set_completer_delims("")  # complete the whole line: moves hold spaces
            readline.parse_and_bind("tab: complete")

    def answered(self) -> None:
        """The last line has been handled: the next prompt may be shown."""
        self._answered.set()

    def __iter__(self) -> Iterator[str]:
        while True:
            self._answered.wait()
            self._answered.clear()
            try:
                yield input(self.prompt()) + "\n"
            except EOFError:  # Ctrl-D: the end of the input, as a piped file ends
                print()
                return

    def _complete(self, text: str, state: int) -> str | None:
        """readline's completer: the ``state``-th line starting with ``text`` (case-free)."""
        if state == 0:
            typed = text.casefold()
            self._matches = [line for line in self.completions() if line.casefold().startswith(typed)]
        return self._matches[state] if state < len(self._matches) else None
