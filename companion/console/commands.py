"""The console's command words: which words name a command, in which language, and what a word
that only looks like one is told.

A table types its own language's words or the English ones (``visszavon`` or ``undo``), so each
command has its word in every catalogue (``console.command.<name>``). A single word that names no
command and reads as no move is a mistyped command far more often than a move: the console calls
it an unknown command and offers the nearest word (``statsu`` -> ``status``), instead of refusing
it as a move.
"""

from __future__ import annotations

from functools import cache

from companion.games.messages import Message, msg
from companion.i18n import LANGUAGES, current_language, render
from companion.i18n.suggest import close_words
from companion.service.damage import ACTIONS, Action

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


def as_command(text: str) -> str:
    """``text`` with its first word in English when it is a command's word in another language."""
    first, _, rest = text.partition(" ")
    command = command_words().get(first.casefold())
    return text if command is None else f"{command} {rest}".strip()


def looks_like_a_command(text: str) -> bool:
    """Whether ``text`` is one word of letters naming no command: what a mistyped command looks
    like (a move has a name and a number or a word, or is a number from the list, or JSON)."""
    return text.isalpha() and text.casefold() not in command_words()


def nearest_command(word: str) -> str | None:
    """The command word most like ``word``, in the table's language where that one is as near
    (``statsu`` -> ``status``, ``visszavn`` -> ``visszavon``), or ``None`` when none is near."""
    language = current_language()
    own = [render(Message(f"console.command.{command}"), language).casefold() for command in COMMANDS]
    for words in (own, list(command_words())):
        found = close_words(word, words, most=1)  # the one rule of "did you mean" (companion.i18n.suggest)
        if found:
            return found[0]
    return None


def unknown_command(word: str) -> Message:
    """The refusal of ``word``, a command nobody has: with the nearest command when there is one."""
    nearest = nearest_command(word)
    if nearest is None:
        return msg("console.unknown_command", word=word)
    return msg("console.unknown_command.did_you_mean", word=word, nearest=nearest)
