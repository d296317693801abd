"""The table's language for what the command line says before any command opens the store.

``companion --help``, a command's ``--help``, a group named alone (``companion players``) and
argparse's own mistakes are printed while the arguments are read, before a command opens the
store and reads the table's language (``companion settings language hu``). So that they speak
it too, this reads the one setting, read-only, from the data directory the command would use
(``--data-dir``, else ``$COMPANION_DATA``, else the default; a configuration file's
``data_dir`` is not read here), through :func:`companion.storage.peek.peek_setting`: nothing is
checked, created, locked or written; a store that is missing, locked, damaged or unreadable
simply says nothing, and English stays.
"""

from __future__ import annotations

from collections.abc import Sequence


def data_dir_option(argv: Sequence[str]) -> str | None:
    """The value of the global ``--data-dir`` option, read before argparse."""
    for index, word in enumerate(argv):
        if word == "--":
            break
        if word == "--data-dir":
            return argv[index + 1] if index + 1 < len(argv) else None
        if word.startswith("--data-dir="):
            return word.partition("=")[2]
    return None


def stored_language(argv: Sequence[str]) -> str | None:
    """The language setting kept in the store the command line would open, or ``None``."""
    from companion.service.settings import LANGUAGE
    from companion.storage.paths import DataDirError, database_path
    from companion.storage.peek import peek_setting  # only on the way to help or a mistake

    try:
        value = peek_setting(database_path(data_dir_option(argv), create=False), LANGUAGE)
    except (DataDirError, OSError):
        return None
    return value if isinstance(value, str) else None
