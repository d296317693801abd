"""Issue 21, the store's smaller defects: every copy set aside kept, restores that take only the
companion's own schema, a lost first page, a lock that cannot be deleted from under the app,
backups that follow no link, and the doctor's honest words.

Each damage is made on a real store file, and met through the real storage
functions or the ``companion`` command in-process; where a file is promised to
be left alone, its bytes are compared before and after.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from companion.service.app import Companion
from companion.service.damage import damage
from companion.storage import doctor
from companion.storage.backup import daily_backup
from companion.storage.lock import lock_path
from companion.storage.paths import DB_FILENAME
from companion.storage.stick import backup_to_stick
from companion.storage.store import Store, StoreError
from tests import helpers_campanile as camp
from tests.test_stick_backup import _can_mount, tmpfs
from tests.test_store_damage import _moves_leaf_pages, files, overwrite_page, snapshot


@pytest.fixture
def data(stocked_copy: Path) -> Path:
    """The stocked store (tests/conftest.py), this test's own copy."""
    return stocked_copy


def one_second() -> datetime:
    """A clock that never moves: everything happens within one second."""
    return datetime(2026, 12, 1, 17, 0, 0, tzinfo=UTC)


def asides(data: Path) -> list[str]:
    """The copies set aside beside the store (by their names, not by the doctor's own list)."""
    return sorted(p.name for p in data.iterdir() if p.name.startswith((f"{DB_FILENAME}.damaged-",
                                                                       f"{DB_FILENAME}.before-restore-")))


# -- defect 3: every copy set aside is kept ----------------------------------------------------

def test_two_repairs_within_one_second_keep_both_copies(data: Path, run_cli) -> None:
    path = data / DB_FILENAME
    original = path.read_bytes()
    first = doctor.repair(path, clock=one_second).aside
    second = doctor.repair(path, clock=one_second).aside
    assert first != second and first.read_bytes() == original
    assert asides(data) == [first.name, second.name]
    assert first.name.endswith("-0001-20261201T170000Z") and second.name.endswith("-0002-20261201T170000Z")
    code, out, _ = run_cli("--data-dir", str(data), "doctor")  # and the doctor says where they are
    assert code == 0 and f"kept aside: {first}\n" in out and f"kept aside: {second}\n" in out


def test_two_restores_within_one_second_keep_the_store_each_replaced(data: Path, tmp_path: Path) -> None:
    path = data / DB_FILENAME
    original = snapshot(path)
    empty = tmp_path / "empty" / DB_FILENAME
    empty.parent.mkdir()
    Store.open(empty).close()
    first = doctor.restore(path, empty, clock=one_second).aside
    second = doctor.restore(path, empty, clock=one_second).aside
    assert first is not None and second is not None and first != second
    assert snapshot(first) == original  # the 5-session store is still there
    assert snapshot(second)["sessions"] == {}
    assert doctor.repair(path, clock=one_second).aside.name.endswith("-0003-20261201T170000Z")


# -- defect 5: restore accepts only the companion's own schema ---------------------------------

@pytest.mark.parametrize("plant", [
    "CREATE TRIGGER t AFTER INSERT ON moves BEGIN DELETE FROM moves WHERE session_id = NEW.session_id; END",
    "CREATE VIEW v AS SELECT * FROM sessions",  # variations: a view,
    "CREATE TABLE extra (x)",  # a table,
    "CREATE INDEX extra ON moves (move)",  # an index more,
    "DROP INDEX sessions_unfinished",  # one less
])
def test_a_restore_refuses_a_backup_with_anything_but_the_companions_schema(data: Path, tmp_path: Path,
                                                                           run_cli, plant: str) -> None:
    backup = tmp_path / "backup.sqlite3"
    shutil.copyfile(data / DB_FILENAME, backup)
    db = sqlite3.connect(backup)
    db.execute(plant)
    db.commit()
    db.close()
    before, trap = files(data), backup.read_bytes()
    code, out, err = run_cli("--data-dir", str(data), "doctor", "--restore", str(backup))
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "is not a backup of the companion" in err
    assert files(data) == before and backup.read_bytes() == trap


def test_a_restore_of_the_companions_own_backup_is_taken(data: Path, tmp_path: Path, run_cli) -> None:
    with Store.open(data / DB_FILENAME, read_only=True) as store:
        backup = store.copy_to(tmp_path / "backup.sqlite3")
    before = snapshot(data / DB_FILENAME)
    assert run_cli("--data-dir", str(data), "doctor", "--restore", str(backup))[0] == 0
    assert snapshot(data / DB_FILENAME) == before


# -- defect 6: a store whose first page is lost ------------------------------------------------

def _lose_first_page(path: Path, filler: bytes) -> None:
    with open(path, "r+b") as handle:
        handle.write(filler)


@pytest.mark.parametrize("filler", [bytes(4096), bytes(range(256)) * 16, bytes(100)],
                         ids=["zeroed", "overwritten", "header zeroed"])
def test_a_lost_first_page_is_named_and_the_repair_recovers_every_game(data: Path, run_cli, monkeypatch,
                                                                       filler: bytes) -> None:
    path = data / DB_FILENAME
    before = snapshot(path)
    _lose_first_page(path, filler)
    code, out, err = run_cli("--data-dir", str(data), "doctor")
    assert code == 3 and out.startswith("pages: damaged: its first page"), (out, err)
    code, out, err = run_cli("--data-dir", str(data), "doctor", "--repair")
    assert (code, err) == (0, ""), out
    assert snapshot(path) == before
    assert run_cli("--data-dir", str(data), "doctor")[0] == 0


# -- defect 7: a lock that cannot be removed from under the app ---------------------------------

@pytest.mark.parametrize("tamper", ["deleted", "replaced"])
def test_a_writer_holds_the_store_even_without_its_lock_file(data: Path, tmp_path: Path, run_cli,
                                                             tamper: str) -> None:
    path = data / DB_FILENAME
    backup = tmp_path / "backup.sqlite3"
    shutil.copyfile(path, backup)
    with Companion.open(path) as app:
        lock_path(path).unlink()
        if tamper == "replaced":
            lock_path(path).write_text("")
        for command in (["doctor", "--restore", str(backup)], ["doctor", "--repair"],
                        ["new", "campanile", *camp.PLAYERS]):
            code, out, err = run_cli("--data-dir", str(data), *command)
            assert (code, out) == (2, "") and "is in use by another companion" in err, command
        assert asides(data) == []
        live = app.resume()  # the app plays on into the one store there is
        live.session.propose(camp.legal_moves(live.session.state)[0])
        moves = len(app.store.stored_moves(live.id)[0])
    with Store.open(path, read_only=True) as store:
        assert len(store.stored_moves(live.id)[0]) == moves


# -- defect 8: backups never follow links ----------------------------------------------------

@pytest.fixture
def small(tmp_path: Path) -> Iterator[Store]:
    (tmp_path / "data").mkdir()
    with Store.open(tmp_path / "data" / DB_FILENAME) as store:
        Companion(store).start("campanile", camp.PLAYERS, setup=camp.SETUP)
        yield store


def test_a_backup_writes_through_no_link_planted_at_its_names(small: Store, tmp_path: Path, run_cli) -> None:
    folder = tmp_path / "stick"
    folder.mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    target = folder / "companion-backup.sqlite3"
    for name in (f".{target.name}.part", f".{target.name}.part-journal"):  # the old temporary names
        (folder / name).symlink_to(outside)
    (folder / "dangling").symlink_to(tmp_path / "created-outside")
    written = small.copy_to(target)
    assert outside.read_text() == "precious" and not (tmp_path / "created-outside").exists()
    assert written == target and not target.is_symlink() and snapshot(target)["sessions"]
    with pytest.raises(StoreError, match="exists already"):  # a link at the name itself: refused
        small.copy_to(folder / "dangling")
    with pytest.raises(StoreError, match="too long"):  # and a name no file system takes
        small.copy_to(folder / f"companion-{'9' * 219}.sqlite3")
    assert not (tmp_path / "created-outside").exists()
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [target.name, ".companion-backup.sqlite3.part", ".companion-backup.sqlite3.part-journal", "dangling"])


def test_a_daily_backup_writes_through_no_link_at_its_old_temporary_name(small: Store,
                                                                        tmp_path: Path) -> None:
    outside = tmp_path / "outside.sqlite3"
    (small.path.parent / "backups").mkdir()
    today = f"{small.now().astimezone():%Y-%m-%d}"
    (small.path.parent / "backups" / f".companion-0001-{today}.sqlite3.part").symlink_to(outside)
    written = daily_backup(small)
    assert written is not None and not written.is_symlink() and snapshot(written)["sessions"]
    assert not outside.exists()


def test_a_planted_oversized_number_on_the_stick_does_not_stop_later_backups(small: Store,
                                                                            tmp_path: Path) -> None:
    stick = tmp_path / "COMPANION"
    stick.mkdir()
    (stick / f"companion-{'9' * 219}-2026-12-01-170000.sqlite3").touch()
    (stick / "companion-0004-2026-12-01-170000.sqlite3").symlink_to(tmp_path / "elsewhere")
    written = backup_to_stick(small, stick)
    assert written.path.name.startswith("companion-0005-") and not written.path.is_symlink()
    assert not (tmp_path / "elsewhere").exists()


# -- defect 11: the doctor's honest words --------------------------------------------------------

def test_a_repair_of_a_newer_schema_copies_nothing(data: Path, run_cli) -> None:
    path = data / DB_FILENAME
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.close()
    before = files(data)
    code, out, err = run_cli("--data-dir", str(data), "doctor", "--repair")
    assert (code, out) == (2, "") and "newer version of the companion" in err
    assert files(data) == before and asides(data) == []


def test_a_repair_of_a_sound_store_does_not_call_it_damaged(data: Path, run_cli) -> None:
    code, out, err = run_cli("--data-dir", str(data), "doctor", "--repair")
    assert (code, err) == (0, "")
    assert out.startswith("the store was sound; a copy of it was kept at ") and "damaged store" not in out


@pytest.mark.parametrize("where", ["fsync", "rebuild"])
def test_a_repair_without_room_leaves_the_store_as_it_was_and_nothing_beside(data: Path, run_cli,
                                                                           monkeypatch, where: str) -> None:
    path = data / DB_FILENAME
    db = sqlite3.connect(path)
    db.execute("UPDATE moves SET move = '{' WHERE session_id = 2 AND idx = 3")
    db.commit()
    db.close()
    before = files(data)

    def full(*_args: object) -> None:
        if where == "fsync":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        error = sqlite3.OperationalError("database or disk is full")
        error.sqlite_errorname = "SQLITE_FULL"
        raise error

    monkeypatch.setattr("companion.storage.repairing.os.fsync" if where == "fsync"
                        else "companion.storage.repairing._rebuild", full)
    code, out, err = run_cli("--data-dir", str(data), "doctor", "--repair")
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "could not finish" in err and "unexpected" not in err
    assert files(data) == before and asides(data) == []


@pytest.mark.skipif(not _can_mount(), reason="needs a real small file system (root, to mount a tmpfs)")
def test_a_repair_on_a_really_full_disk(stocked: Path, tmp_path: Path, run_cli) -> None:
    size = (stocked / DB_FILENAME).stat().st_size
    with tmpfs(tmp_path / "small", f"size={size * 3 // 2}") as data:
        shutil.copyfile(stocked / DB_FILENAME, data / DB_FILENAME)
        before = files(data)
        code, out, err = run_cli("--data-dir", str(data), "doctor", "--repair")
        assert (code, out) == (2, "") and "could not finish" in err
        assert files(data) == before and asides(data) == []


@pytest.mark.parametrize("which", [0, -1], ids=["first moves page", "last moves page"])
def test_sessions_lists_the_games_of_a_store_whose_moves_pages_are_damaged(data: Path, run_cli,
                                                                          which: int) -> None:
    path = data / DB_FILENAME
    leaves = _moves_leaf_pages(path)
    overwrite_page(path, leaves[which])
    code, out, err = run_cli("--data-dir", str(data), "stats")
    assert code == 0 and out  # stats reads this store ...
    code, out, err = run_cli("--data-dir", str(data), "sessions")
    assert code == 0 and "is damaged" in err  # ... and so does sessions, saying it is damaged
    listed = [line for line in out.splitlines() if "Campanile" in line]
    assert len(listed) == 5, out


@contextlib.contextmanager
def write_protected(path: Path) -> Iterator[None]:
    """The store file (not its folder) cannot be written: ``chmod 444``; for root, who ignores
    permissions, the immutable attribute (``chattr +i``)."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(path)], check=True)
    else:
        path.chmod(0o444)
    try:
        yield
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        path.chmod(0o644)


def test_a_write_protected_store_file_is_named_as_such_not_as_a_read_only_folder(data: Path, run_cli,
                                                                                monkeypatch) -> None:
    path = data / DB_FILENAME
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with write_protected(path):
        code, out, err = run_cli("--data-dir", str(data), "new", "campanile", *camp.PLAYERS)
        assert (code, out) == (2, "")
        assert "is write-protected" in err and "read-only" not in err, err
        # `run` starts all the same (issue 34: it never ends on the store), saying why nothing is saved
        code, out, err = run_cli("--data-dir", str(data), "run", "--headless")
        assert code == 0
        assert "is write-protected" in out and "read-only" not in out and "`backup`" in out, out
        assert run_cli("--data-dir", str(data), "sessions")[0] == 0  # reading still works


def test_a_store_the_app_cannot_write_always_says_why(data: Path) -> None:
    """Never read-only in silence: the kiosk's damage line names why nothing can be saved."""
    with Companion(Store.open(data / DB_FILENAME, read_only=True)) as app:
        found = damage(app)
        assert found is not None and found.code == "appliance.damage.read_only"
        assert str(found).startswith("Nothing can be saved: ") and "is open for reading only" in str(found)


def test_a_copy_that_does_not_read_back_is_never_called_safe_to_remove(small: Store, tmp_path: Path,
                                                                       monkeypatch) -> None:
    """A stick that garbles what it is given: the copy is read back before "safe to remove"."""
    from companion.storage import store as store_module
    from companion.storage.stick import StickError

    real_fsync = store_module.fsync_path

    def garbling(path: Path) -> None:
        if path.name == "copy.sqlite3":  # the copy, before it is renamed to its name
            with open(path, "r+b") as handle:
                handle.seek(4096)
                handle.write(bytes(range(256)) * 16)
        real_fsync(path)

    monkeypatch.setattr(store_module, "fsync_path", garbling)
    stick = tmp_path / "COMPANION"
    stick.mkdir()
    with pytest.raises(StickError) as refused:
        backup_to_stick(small, stick)
    assert "does not read back" in str(refused.value)
    assert list(stick.iterdir()) == []
