"""The ``companion`` command line.

Each group of subcommands lives in a module of :mod:`companion.cli.commands`
with a ``register(subparsers)`` function that adds its parsers and sets
``handler`` on them. Every error a person can cause ends with exit 2 and one
line on standard error; ``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Any

from companion import __version__
from companion.console.display import SafeStream, shown_line
from companion.console.errors import InputError
from companion.games.base import RecordError
from companion.games.messages import msg
from companion.i18n import (
    DEFAULT_LANGUAGE,
    LanguageError,
    choose_language,
    current_language,
    known_text,
    set_language,
    text,
)
from companion.registry import descriptors
from companion.service.records import ReplayError

#: The modules under companion.cli.commands that add subcommands, in help order, with the
#: subcommands each adds: a command line imports only the module of its command, which
#: keeps start-up small (tests/test_cli_errors.py checks this table against the modules).
#: A game's own subcommands come from its descriptor (:attr:`GameDescriptor.commands`), listed
#: in help after :data:`GAMES_AFTER`.
COMMANDS: dict[str, tuple[str, ...]] = {
    "replay": ("replay",),
    "moves": ("moves",),
    "library": ("export", "import", "sessions", "stats"),
    "run": ("run", "new"),
    "sessions": ("rematch", "abandon"),
    "settings": ("settings", "players"),
    "championship": ("championship",),
    "config": ("config",),
    "doctor": ("doctor", "backup"),
    "hardware": ("hardware", "snapshot"),
    "web": ("web",),
    "club": ("club",),
}
COMMAND_PACKAGE = "companion.cli.commands"
#: The games' own subcommands come after this module's in help.
GAMES_AFTER = "settings"


def game_command_modules() -> dict[str, tuple[str, ...]]:
    """Each registered game's command module (its full name) -> the subcommands it adds, in menu order."""
    return {found.commands: found.command_names for found in descriptors() if found.commands}


def command_modules(command: str | None = None) -> list[str]:
    """The modules (full names) that add ``command``; every module, in help order, when none does
    (help, a mistyped command). A shared command reads no game's descriptor."""
    shared = [f"{COMMAND_PACKAGE}.{name}" for name, commands in COMMANDS.items() if command in commands]
    if shared:
        return shared
    games = game_command_modules()
    wanted = [module for module, commands in games.items() if command in commands]
    if wanted:
        return wanted
    ordered: list[str] = []
    for name in COMMANDS:
        ordered.append(f"{COMMAND_PACKAGE}.{name}")
        if name == GAMES_AFTER:
            ordered.extend(games)
    return ordered


EXIT_USAGE = 2


class UserError(Exception):
    """A problem the person at the keyboard can fix; printed as one line, exit 2.

    Its argument is a :class:`~companion.games.messages.Message` (or an
    error's own message), put into words in the current language when printed.
    """


class _CatalogueHelp(argparse.HelpFormatter):
    """Help whose texts may be message codes, put into words only when help is printed.

    So a plain ``companion replay`` reads no catalogue at start-up (the cold
    start budget), and ``--help`` speaks the language chosen by then.
    """

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        # argparse asks shutil for the width, and shutil brings zlib, bz2 and lzma (2-3 ms of a
        # replay's cold start, which builds a formatter for every argument it adds): the same
        # answer from the environment and the terminal directly
        super().__init__(prog, indent_increment, max_help_position,
                         width if width is not None else _terminal_columns() - 2)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        return None if action.help is None else _help_words(action.help)

    def add_text(self, text: str | None) -> None:
        """A description or epilog, which may be a message code too."""
        super().add_text(None if text is None else _help_words(text))

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        """Prose is filled to the width as argparse does; a line that starts with two spaces is
        a row of a listing (``new --help``'s setup keys) and keeps its own line."""
        if "\n  " not in text:
            return super()._fill_text(text, width, indent)
        shown: list[str] = []
        prose: list[str] = []
        for line in [*text.splitlines(), None]:
            if line is None or not line.strip() or line.startswith("  "):
                if prose:
                    shown.append(super()._fill_text(" ".join(prose), width, indent))
                    prose = []
                if line is not None:  # a row, or the empty line between paragraphs
                    shown.append(_row(line.rstrip(), width, indent) if line.strip() else "")
            else:
                prose.append(line)
        return "\n".join(shown)


def _row(line: str, width: int, indent: str) -> str:
    """A listing's row (``    colors  each player's colour …``) folded to ``width``: what does not fit
    goes on under its own column, so that each key still starts one line of its own."""
    column = re.match(r"\s+\S+\s{2,}", line)
    if column is None or len(indent) + len(line) <= width:
        return indent + line
    import textwrap

    hanging = indent + " " * column.end()
    return textwrap.fill(line[column.end():], width, initial_indent=indent + line[:column.end()],
                         subsequent_indent=hanging, break_on_hyphens=False, break_long_words=False)


def _terminal_columns() -> int:
    """The terminal's width as :func:`shutil.get_terminal_size` tells it: ``$COLUMNS``, else the
    standard output's terminal, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns if sys.__stdout__ else 0
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


#: The placeholders a help text may hold for the games installed here (read only when it does).
_GAME_LISTS = ("{games}", "{games_or}", "{titles}", "{option_keys}", "{setup_keys}")


def _game_keys(kind: str) -> str:
    """Every game's ``setup`` (or ``option``) keys, grouped under the game, one line each: the keys
    and what each holds come from the game's descriptor (:attr:`GameDescriptor.setup_keys`,
    :attr:`~GameDescriptor.option_keys`), which its engine checks a record against, so that this
    list cannot drift from what a game takes."""
    from companion.i18n import say
    from companion.registry import get_game

    keyed = [(found, found.setup_keys if kind == "setup" else found.option_keys) for found in descriptors()]
    games = [(found, keys) for found, keys in keyed if keys]
    width = max((len(key) for _, keys in games for key in keys), default=0)
    lines: list[str] = []
    for found, keys in games:
        title = get_game(found.name).title
        named = title if title.casefold() == found.name.replace("-", " ") else f"{title} ({found.name})"
        lines.append(f"  {named}:")
        lines.extend(f"    {key:<{width}}  {say(words)}" for key, words in keys.items())
    return "\n".join(lines)


def _help_words(code_or_text: str) -> str:
    """A help text in words; the list of games it names (``{games}``: the names a command takes,
    ``{games_or}`` the same as alternatives, ``{titles}``: what players call them) comes from the
    registry, so that no catalogue names a game."""
    words = known_text(code_or_text)
    if not any(placeholder in words for placeholder in _GAME_LISTS):
        return words
    from companion.i18n import current_language, join_list
    from companion.registry import get_game

    names = [found.name for found in descriptors()]
    language = current_language()
    lists: dict[str, Callable[[], str]] = {
        "{games}": lambda: ", ".join(names),
        "{games_or}": lambda: join_list(names, language, "common.list.or"),
        # the titles are the engines': loaded only for the help that shows them
        "{titles}": lambda: join_list([get_game(name).title for name in names], language),
        "{option_keys}": lambda: _game_keys("option"),
        "{setup_keys}": lambda: _game_keys("setup")}
    for placeholder, listed in lists.items():  # not str.format: a help text may show JSON's braces
        if placeholder in words:
            words = words.replace(placeholder, listed())
    return words


def _metavar_words(metavar: str | tuple[str, ...] | None) -> str | tuple[str, ...] | None:
    """A placeholder in the current language (``GAME`` -> ``JÁTÉK``): the catalogue's
    ``help.metavar.<name>`` (``KEY=VALUE`` -> ``help.metavar.key_value``); unchanged when it
    has none (a placeholder without a letter, such as ``1|2``)."""
    if metavar is None:
        return None
    if isinstance(metavar, tuple):
        return tuple(str(_metavar_words(part)) for part in metavar)
    name = re.sub(r"[^a-z0-9]+", "_", metavar.lower()).strip("_")
    if not re.match(r"[a-z]", name):
        return metavar
    code = f"help.metavar.{name}"
    words = known_text(code)
    return metavar if words == code else words


class _Parser(argparse.ArgumentParser):
    """argparse, but its errors are one line (not the usage block) and exit 2; help texts may be codes;
    placeholders (metavars) and a mistyped command are said in the current language."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _CatalogueHelp)
        super().__init__(*args, **kwargs)
        #: The language the placeholders are in now, and each action's placeholder as written.
        self._metavar_language = DEFAULT_LANGUAGE
        self._written_metavars: dict[int, str | tuple[str, ...] | None] = {}

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        self._speak_placeholders()
        return super().parse_known_args(args, namespace)

    def format_help(self) -> str:
        self._speak_placeholders()
        return super().format_help()

    def format_usage(self) -> str:
        self._speak_placeholders()
        return super().format_usage()

    def _speak_placeholders(self) -> None:
        """Put every placeholder of this parser into the current language (the usage line, the
        help and argparse's own errors all read ``action.metavar``). English reads no catalogue:
        the placeholders are written in it."""
        language = current_language()
        if language == self._metavar_language:
            return
        for action in self._actions:
            written = self._written_metavars.setdefault(id(action), action.metavar)
            action.metavar = written if language == DEFAULT_LANGUAGE else _metavar_words(written)
        self._metavar_language = language

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """A word that names no command gets the commands it is close to (``sesions``: did you mean
        `sessions`?), or none at all: never the list of every command."""
        if isinstance(action, argparse._SubParsersAction) and value not in (action.choices or {}):
            from companion.i18n.suggest import did_you_mean

            suggestion = did_you_mean(str(value), list(action.choices or {}))
            message = (msg("help.command.unknown", word=value) if suggestion is None else
                       msg("help.command.unknown_close", word=value, suggestion=suggestion))
            raise argparse.ArgumentError(None, str(message))
        super()._check_value(action, value)

    def error(self, message: str) -> None:  # type: ignore[override]
        command = self.prog.removeprefix("companion").strip()
        if command:
            raise UserError(msg("cli.usage.error_in", command=command, reason=message, prog=self.prog))
        raise UserError(msg("cli.usage.error", reason=message, prog=self.prog))


def add_command_group(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], name: str, help: str,
                      description: str) -> argparse._SubParsersAction[argparse.ArgumentParser]:
    """A subcommand that holds subcommands (``companion board validate``); alone it prints its help."""
    group = subparsers.add_parser(name, help=help, description=description)

    def show_help(args: argparse.Namespace) -> int:
        group.print_help()
        return 0

    show_help.shows_help = True  # type: ignore[attr-defined]  # (the table's language: see _main)
    group.set_defaults(handler=show_help)
    return group.add_subparsers(dest=f"{name}_command", metavar="COMMAND", parser_class=type(group),
                                help="help.command")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser: with ``command``, only the module that adds it is imported and
    registered; without (help, a mistyped command), every subcommand."""
    parser = _Parser(prog="companion",
                     description="cli.companion.description")
    parser.add_argument("--version", action="version", version=f"companion {__version__}",
                        help="cli.option.version.help")
    parser.add_argument("--debug", action="store_true", help="cli.option.debug.help")
    parser.add_argument("--lang", metavar="LANG", help="cli.option.lang")
    parser.add_argument("--data-dir", metavar="DIR",
                        help="cli.option.data_dir.help")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser,
                                       help="help.command")
    for name in command_modules(command):
        try:
            module = import_module(name)
        except ModuleNotFoundError as error:
            if error.name == name:
                continue
            raise
        module.register(subparsers)
    return parser


def _command_word(argv: Sequence[str]) -> str | None:
    """The subcommand named on the command line (its first word that is not a global option)."""
    words = iter(argv)
    for word in words:
        if word in ("--lang", "--data-dir"):
            next(words, None)  # the option's value
        elif word == "--":
            return next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def _language_option(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` among the global options, read before argparse (which must speak it)."""
    from companion.cli.table_language import global_option

    return global_option(argv, "--lang")


#: The fields of a game the command line's own arguments fill, said in words (a setup key as typed).
_ARGUMENT_FIELDS = {"game": "cli.field.game", "players": "cli.field.players"}


def _with_field(error: Exception, args: argparse.Namespace) -> object:
    """A refusal of what ``new`` was given, led by its field in the current language's words
    ("a játék: …", "`setup.towers[2]`: …"); a record file's own paths (``players[1]`` of a file
    replayed or imported: they point into it) and every other error read as they are."""
    if getattr(args, "command", None) != "new" or not isinstance(error, RecordError) or not error.path:
        return error
    path = error.path
    if path in _ARGUMENT_FIELDS:
        field = msg(_ARGUMENT_FIELDS[path])
    elif path.split(".")[0] in ("setup", "options"):
        field = msg("cli.field.typed", path=path)
    else:
        return error
    return msg("cli.field.error", field=field, reason=error.message)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Every way out is one line: exit 2 for a mistake the person can fix, exit 1
    for an unexpected error (its text escaped; ``--debug`` shows the
    traceback), and quiet when the reader of standard output has gone away
    (``companion replay X --json | head -c1``), as other Unix tools are.
    """
    _print_safely(sys.stdout)
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeStream(sys.stdout), SafeStream(sys.stderr)  # no name reaches it raw
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    finally:
        sys.stdout, sys.stderr = streams


def _asks_for_help(argv: Sequence[str]) -> bool:
    """Whether ``-h`` or ``--help`` is among the words (before a ``--``)."""
    for word in argv:
        if word == "--":
            return False
        if word in ("-h", "--help"):
            return True
    return False


def _speak_the_tables_language(argv: Sequence[str]) -> bool:
    """Speak the language kept in the store (``companion settings language hu``) when neither
    ``--lang`` nor ``$COMPANION_LANG`` chose one: for help and argparse's mistakes, which are
    said before any command opens the store. Whether the language changed."""
    from companion.cli.table_language import language_given, stored_language

    if language_given(argv, os.environ):
        return False

    chosen = choose_language(None, {}, lambda: stored_language(argv))
    if chosen == current_language():
        return False
    set_language(chosen)
    return True


def _parse(argv: list[str]) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """The parser for ``argv``'s command, built in the current language (argparse words its headings
    when it is built), and what it read."""
    parser = build_parser(_command_word(argv))
    return parser, parser.parse_args(argv)


def _in_the_tables_language(mistake: UserError, argv: list[str]) -> str:
    """A mistake argparse found, in words: read again once the table's language is spoken, when the
    store has one that neither ``--lang`` nor the variable overrode (argparse words it as it finds it)."""
    if _speak_the_tables_language(argv):
        try:
            _parse(argv)
        except UserError as said:
            return str(said)
    return str(mistake)


def _main(argv: list[str]) -> int:
    try:
        set_language(choose_language(_language_option(argv), os.environ))
    except LanguageError as error:
        print(f"companion: {shown_line(str(error))}", file=sys.stderr)
        return EXIT_USAGE
    if _asks_for_help(argv):
        _speak_the_tables_language(argv)
    try:
        parser, args = _parse(argv)
        handler = getattr(args, "handler", None)
        if (handler is None or getattr(handler, "shows_help", False)) and _speak_the_tables_language(argv):
            parser, args = _parse(argv)  # help alone: read again in the table's language, then shown
            handler = getattr(args, "handler", None)
    except UserError as mistake:
        print(f"companion: {shown_line(_in_the_tables_language(mistake, argv))}", file=sys.stderr)
        return EXIT_USAGE
    if handler is None:
        parser.print_help()
        return 0
    try:
        code = int(handler(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, not in Python's exit-time flush
        return code
    except BrokenPipeError:
        return _quiet_after_broken_pipe()
    except (UserError, RecordError, ReplayError, InputError) as error:
        if args.debug:
            raise
        print(f"companion: {shown_line(str(_with_field(error, args)))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        if args.debug:
            raise
        print(f"companion: {text('cli.unexpected', reason=shown_line(str(error) or type(error).__name__))}",
              file=sys.stderr)
        return 1


#: The exit status of a command whose output pipe closed: 128 + SIGPIPE, as the shell reports
#: for a Unix tool that the signal ended.
EXIT_BROKEN_PIPE = 141


def _print_safely(stream: object) -> None:
    """Let ``stream`` print any text: a lone surrogate (from bytes that were not UTF-8 in a
    file name or an argument) becomes ``\udcff`` instead of Python's encoding error."""
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="backslashreplace")


def _quiet_after_broken_pipe() -> int:
    """End quietly once standard output is a closed pipe.

    Python would complain again when it flushes standard output on exit, so
    what is still buffered goes to ``/dev/null`` instead.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # not a real file (tests capture it): nothing is flushed later
        pass
    return EXIT_BROKEN_PIPE


if __name__ == "__main__":
    sys.exit(main())
