"""One setting read from a store without opening it as a store: nothing checked, created or written.

The command line asks the table's language before it parses its arguments, for help and for
argparse's mistakes (:mod:`companion.cli.table_language`). Opening the store for that, even to
read, would check every page (``PRAGMA quick_check``) and, on a database in WAL mode whose last
writer closed cleanly, leave an empty ``-wal`` and ``-shm`` beside it: a mistyped command must
leave the data directory exactly as it was. So the file is read as it lies (``immutable``) when no
``-wal`` is beside it (then it holds everything), and through SQLite's read-only mode when one is
(a writer is at work; its ``-shm`` is there already).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from companion.storage.rows import json_value


def peek_setting(path: Path, key: str) -> Any:
    """The JSON value stored under ``key`` in the store at ``path``; ``None`` when the file, the
    table or the key is missing or cannot be read (the caller's plain default)."""
    if not path.is_file():
        return None
    uri = f"{path.resolve().as_uri()}?mode=ro"
    if not path.with_name(path.name + "-wal").exists():
        uri += "&immutable=1"
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=1.0)
    except sqlite3.Error:
        return None
    try:
        row = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else json_value(row[0])
    except (sqlite3.Error, ValueError):
        return None
    finally:
        db.close()
