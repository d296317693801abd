"""The doctor's view of the club's outbox and of the stable ids (schema 9, docs/club.md).

Part of the doctor (:mod:`companion.storage.checking` names these among the rows that are
wrong; :mod:`companion.storage.repairing` copies the outbox as a plain table and then mends what
is named here with :func:`mend`). Judged:

- each outbox row's values, as the store reads them back (:mod:`companion.storage.plain_check`);
- each row names a game finished at this table (not imported): a row for a game that is gone,
  unfinished or imported would send the club a play that is not one; a repair leaves it out;
- each game and championship has its own id: one without an id, or sharing one, would be a
  play the club cannot tell apart; a repair gives it a new one (the first of a shared id keeps it).
"""

from __future__ import annotations

import sqlite3
import uuid
from collections import defaultdict

from companion.games.messages import Message, msg
from companion.storage.migrations import new_uuid
from companion.storage.salvage import _columns, _rows


def _is_uuid(value: object) -> bool:
    if not isinstance(value, str) or len(value) != 36:
        return False
    try:
        return str(uuid.UUID(value)) == value
    except ValueError:
        return False


def outbox_lines(db: sqlite3.Connection, tables: set[str]) -> list[Message]:
    """What is wrong with the outbox and the stable ids, one line each (none before schema 9)."""
    if "outbox" not in tables or "uuid" not in _columns(db, "sessions"):
        return []
    found: list[Message] = []
    games, _ = _rows(db, "SELECT id, finished FROM sessions")
    finished = {sid for sid, done in games if done is not None}
    rows, _ = _rows(db, "SELECT session_id FROM outbox")
    found += [msg("club.table.doctor.stray", session=sid) for (sid,) in rows if sid not in finished]
    for table in ("sessions", "championships"):
        if table not in tables or "uuid" not in _columns(db, table):
            continue
        ids, _ = _rows(db, f"SELECT id, uuid FROM {table} ORDER BY id")
        shared: dict[str, list[int]] = defaultdict(list)
        kind = "" if table == "sessions" else "_championship"
        for row_id, value in ids:
            if not _is_uuid(value):
                found.append(msg(f"club.table.doctor.no_id{kind}", number=row_id))
            else:
                shared[value].append(row_id)
        found += [msg(f"club.table.doctor.same_id{kind}", numbers=", ".join(str(i) for i in same))
                  for same in shared.values() if len(same) > 1]
    return found


def mend(db: sqlite3.Connection) -> None:
    """Inside a repair's transaction, on the rebuilt store: the outbox keeps only the rows of finished
    games, and every game and championship has an id of its own."""
    db.execute("DELETE FROM outbox WHERE session_id NOT IN "
               "(SELECT id FROM sessions WHERE finished IS NOT NULL)")
    for table in ("sessions", "championships"):
        seen: set[str] = set()
        for row_id, value in db.execute(f"SELECT id, uuid FROM {table} ORDER BY id").fetchall():
            if not _is_uuid(value) or value in seen:
                value = new_uuid()
                db.execute(f"UPDATE {table} SET uuid = ? WHERE id = ?", (value, row_id))
            seen.add(value)
