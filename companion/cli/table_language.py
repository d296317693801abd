"""The table's language for what the command line says before any command opens the store.

``companion --help``, a command's ``--help``, a group named alone (``companion players``),
argparse's own mistakes and ``replay``'s report are printed while (or without) the store being
opened, yet a Hungarian table (``companion settings language hu``) must read them in Hungarian.
So this reads the one setting from the data directory the command would use (``--data-dir``,
else ``$COMPANION_DATA``, else the default; a configuration file's ``data_dir`` is not read
here), through :func:`companion.storage.peek.peek_setting`: nothing is checked, created, locked
or written; a store that is missing, locked, damaged or unreadable, or a value this companion
does not speak, simply says nothing, and the command itself says what is wrong.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from companion.i18n import LANGUAGE_VARIABLE, LANGUAGES


def language_given(argv: Sequence[str], environ: Mapping[str, str]) -> bool:
    """Whether ``--lang`` or ``$COMPANION_LANG`` chose the language (then the table's setting says
    nothing)."""
    if environ.get(LANGUAGE_VARIABLE):
        return True
    for word in argv:
        if word == "--":
            return False
        if word == "--lang" or word.startswith("--lang="):
            return True
    return False


def global_option(argv: Sequence[str], option: str) -> str | None:
    """The value of a global ``option`` (``--lang``, ``--data-dir``), read before argparse."""
    for index, word in enumerate(argv):
        if word == "--":
            break
        if word == option:
            return argv[index + 1] if index + 1 < len(argv) else None
        if word.startswith(f"{option}="):
            return word.partition("=")[2]
    return None


def data_dir_option(argv: Sequence[str]) -> str | None:
    """The value of the global ``--data-dir`` option, read before argparse."""
    return global_option(argv, "--data-dir")


def table_language(data_dir: str | None, environ: Mapping[str, str] | None = None) -> str | None:
    """The ``language`` setting of the store in ``data_dir`` (the ``--data-dir`` value; else the
    environment's or the default directory), or ``None``."""
    from companion.service.settings import LANGUAGE
    from companion.storage.paths import DataDirError, database_path
    from companion.storage.peek import peek_setting  # only on the way to help, a mistake or a report

    try:
        path = database_path(data_dir, environ=os.environ if environ is None else environ, create=False)
        value = peek_setting(path, LANGUAGE)
    except (DataDirError, OSError, ValueError):
        return None
    return value.lower() if isinstance(value, str) and value.lower() in LANGUAGES else None


def stored_language(argv: Sequence[str]) -> str | None:
    """The language setting kept in the store the command line ``argv`` would open, or ``None``."""
    return table_language(data_dir_option(argv))
