"""Issue 34 (9): a repair that runs out of room removes what it made and says "no room".

On a real small file system (a tmpfs, mounted as root) holding a store of a few games, with a
little room left — less than a copy of the store and its rebuilt twin need — ``companion doctor
--repair`` exits 2 with one line saying "no room", and the folder holds exactly what it held
before: no partial copy set aside, no ``-wal`` or ``-shm`` of one, no half-built store. (Before:
with about 96 kB free, "cannot open …damaged-0001…: disk I/O error", and the copy and its
``-wal``/``-shm`` stayed.) With room enough, the same repair succeeds.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from companion.storage.paths import DB_FILENAME
from companion.storage.store import Store
from tests.test_stick_backup import _can_mount, tmpfs
from tests.test_store_damage import files, stock

pytestmark = pytest.mark.skipif(not _can_mount(), reason="needs a real small file system (root, tmpfs)")


@pytest.fixture(scope="module")
def stocked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("stocked") / "data"
    stock(data)
    (data / f"{DB_FILENAME}.lock").unlink()
    return data / DB_FILENAME


@pytest.mark.parametrize("free_kb", [8, 48, 96, 160])
def test_a_repair_without_room_leaves_nothing_beside_and_says_no_room(
        stocked: Path, tmp_path: Path, run_cli, free_kb: int) -> None:
    size = stocked.stat().st_size
    with tmpfs(tmp_path / "small", f"size={size + free_kb * 1024}") as data:
        shutil.copyfile(stocked, data / DB_FILENAME)
        before = files(data)
        code, out, err = run_cli("--data-dir", str(data), "doctor", "--repair")
        assert (code, out) == (2, ""), err
        assert err.count("\n") == 1 and "no room" in err and "could not finish" in err, err
        own = {DB_FILENAME, f"{DB_FILENAME}.lock", f"{DB_FILENAME}-wal", f"{DB_FILENAME}-shm"}  # (a reader's)
        assert {p.name for p in data.iterdir()} - own == set()  # no copy, no -wal/-shm of one, no half store
        assert files(data) == before  # (the store's -wal empty, if a reader made one)
        shutil.copyfile(data / DB_FILENAME, tmp_path / "read.sqlite3")  # (no room here even for a -shm)
        with Store.open(tmp_path / "read.sqlite3", read_only=True) as store:
            assert len(store.list_sessions()) == 5


def test_the_same_repair_with_room_enough_succeeds(stocked: Path, tmp_path: Path, run_cli) -> None:
    size = stocked.stat().st_size
    with tmpfs(tmp_path / "roomy", f"size={size * 4 + (1 << 20)}") as data:
        shutil.copyfile(stocked, data / DB_FILENAME)
        code, out, err = run_cli("--data-dir", str(data), "doctor", "--repair")
        assert (code, err) == (0, ""), out
        assert run_cli("--data-dir", str(data), "doctor")[0] == 0


def test_on_a_read_only_medium_the_doctor_names_the_damage_and_the_repair_waits(
        stocked: Path, tmp_path: Path, run_cli) -> None:
    """A card remounted read-only (how a failing SD card looks): ``doctor`` still names the damage, the
    repair is refused in one line with nothing changed, and once the card is writable it converges."""
    size = stocked.stat().st_size
    with tmpfs(tmp_path / "card", f"size={size * 4 + (1 << 20)}") as data:
        shutil.copyfile(stocked, data / DB_FILENAME)
        db = sqlite3.connect(data / DB_FILENAME)
        db.execute("UPDATE moves SET move = CAST(X'7B22ff22' AS TEXT) WHERE session_id = 2 AND idx = 3")
        db.commit()
        db.close()
        before = files(data)
        subprocess.run(["mount", "-o", "remount,ro", str(data)], check=True)
        try:
            code, out, err = run_cli("--data-dir", str(data), "doctor")
            assert code == 3 and "session 2" in out and "its text is not UTF-8" in out, (out, err)
            code, out, err = run_cli("--data-dir", str(data), "doctor", "--repair")
            assert (code, out) == (2, "") and err.count("\n") == 1 and "read-only" in err, err
            assert files(data) == before
        finally:
            subprocess.run(["mount", "-o", "remount,rw", str(data)], check=True)
        code, out, err = run_cli("--data-dir", str(data), "doctor", "--repair")
        assert (code, err) == (0, ""), out
        assert "session 2 (campanile): kept moves 1-3; saved moves lost: 9" in out
        assert run_cli("--data-dir", str(data), "doctor")[0] == 0
