"""The publisher's view of the store (club/watch.py): read-only, a commit of the app seen at the next
look, a store replaced by a restore opened anew, a store that cannot be read no crash."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from club.watch import StoreWatch
from companion.storage.paths import DB_FILENAME
from tests.club_table_kit import finish_a_game, open_table
from tests.helpers_campanile import PLAYERS, SETUP, random_game


def test_a_commit_and_a_replaced_store_are_seen(tmp_path: Path) -> None:
    path = tmp_path / "a" / DB_FILENAME
    watch = StoreWatch(path)
    assert watch.poll() and watch.app is None  # nothing stored yet: no game, nothing created
    assert not path.exists()
    app = open_table(path.parent)
    live = app.start("campanile", list(PLAYERS), setup=SETUP)
    assert watch.poll() and watch.app is not None
    assert not watch.poll()  # nothing changed since
    live.session.propose(random_game(3, 20)[0])
    assert watch.poll() and not watch.poll()
    assert watch.app.store.read_only
    other = open_table(tmp_path / "b")
    finish_a_game(other)
    other.close()
    app.close()
    replacement = tmp_path / "replacement.sqlite3"
    shutil.copy(tmp_path / "b" / DB_FILENAME, replacement)
    os.replace(replacement, path)  # what a restore does
    assert watch.poll()
    assert watch.app is not None and len(watch.app.store.outbox()) == 1
    path.write_bytes(b"not a store at all" * 100)
    assert watch.poll() and watch.app is None  # said in the log; the table publishes no game
    watch.close()
