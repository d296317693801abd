"""Checking a store, and rebuilding a damaged one from everything that can still be read.

Two kinds of damage, two answers (``companion doctor``):

- **Damaged pages** (SQLite's ``integrity_check`` fails; the card corrupted a
  page): the store is only read until it is repaired.
- **A damaged row** in sound pages (a move that no longer parses or
  replays): only that session is damaged; every other game goes on.

:func:`examine` reports each session as good or damaged (every value the
companion reads back included, judged as every connection judges it);
:func:`repair` copies the damaged file (and its ``-wal``) aside under a new
numbered name and builds a new store under a temporary name from what can
be read — every session whose moves replay (a session whose log breaks at
move N keeps moves 1…N−1), a session that cannot be started set aside in its
own table (never resumed, so the companion starts and plays whatever one row
holds), and every readable row of the other tables (settings, profiles,
boards and flag tables) — then renames it into place. :func:`restore` puts a
backup in place the same way, after checking that its schema is exactly the
companion's own. Both take the store's writer lock.

Reading is done row by row where whole tables cannot be read: a damaged page
costs the rows on it, not the table.

The doctor is split along the lines of its work: :mod:`~companion.storage.checking`
(what is wrong), :mod:`~companion.storage.repairing` (the repair),
:mod:`~companion.storage.restoring` (putting a backup in place) and
:mod:`~companion.storage.salvage` (reading what can still be read). This
module keeps the names the rest of the companion imports.
"""

from __future__ import annotations

from companion.storage.checking import Checkup, SessionHealth, Unusable, examine, expected_results
from companion.storage.repairing import RepairReport, copies_aside, repair
from companion.storage.restoring import RestoreReport, fresh_schema, restore
from companion.storage.salvage import pages_from_wal, with_first_page

__all__ = [
    "Checkup", "RepairReport", "RestoreReport", "SessionHealth", "Unusable", "copies_aside", "examine",
    "expected_results", "fresh_schema", "pages_from_wal", "repair", "restore", "with_first_page",
]
