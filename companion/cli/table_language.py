"""The table's language, read before anything else opens the store.

argparse's errors and ``replay``'s report come before (or without) the store
being opened, yet a Hungarian table must read them in Hungarian. So this peeks
at the ``language`` setting of the data directory ``--data-dir`` or
``$COMPANION_DATA`` names (or the default one): read-only, no lock, nothing
created, and any trouble (no store yet, a damaged one, a locked one) is simply
"no language set", since the command itself will say what is wrong.
"""

from __future__ import annotations

import json
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


def data_dir_option(argv: Sequence[str]) -> str | None:
    """The value of ``--data-dir`` among the global options, read before argparse."""
    for index, word in enumerate(argv):
        if word == "--":
            break
        if word == "--data-dir":
            return argv[index + 1] if index + 1 < len(argv) else None
        if word.startswith("--data-dir="):
            return word.partition("=")[2]
    return None


def table_language(data_dir: str | None, environ: Mapping[str, str] | None = None) -> str | None:
    """The ``language`` setting of the store in ``data_dir`` (the ``--data-dir`` value; else the
    environment's or the default directory), or ``None`` (none set, no store, a store that does not
    read, a value this companion does not speak)."""
    import sqlite3

    from companion.storage.paths import DataDirError, database_path

    env = os.environ if environ is None else environ
    try:
        path = database_path(data_dir, environ=env, create=False)
    except (DataDirError, OSError):
        return None
    if not path.is_file():
        return None
    # Without a -wal file beside it no one has the store open and all of it is in the file:
    # read it as immutable, which creates no -wal or -shm (a peek must leave the folder as it
    # was). With one, a companion is running: read through its WAL, whose files already exist.
    wal = path.with_name(path.name + "-wal")
    mode = "mode=ro" if wal.exists() else "immutable=1"
    db = None
    try:
        db = sqlite3.connect(f"{path.absolute().as_uri()}?{mode}", uri=True, timeout=0.5)
        row = db.execute("SELECT value FROM settings WHERE key = 'language'").fetchone()
    except (sqlite3.Error, OSError, ValueError):
        return None
    finally:
        if db is not None:
            db.close()
    if row is None:
        return None
    try:
        value = json.loads(row[0])
    except (TypeError, ValueError):
        return None
    return value.lower() if isinstance(value, str) and value.lower() in LANGUAGES else None
