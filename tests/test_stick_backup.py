"""Backups to the USB stick: the copy, the sync, and each reason nothing was written.

A temporary folder stands in for the stick's mount point (and a missing one
for no stick). Where the machine lets the test mount file systems (root), a
real tmpfs stands in for a full stick and a read-only one; elsewhere a folder
without write permission does, and the free space is given to the check.
"""

from __future__ import annotations

import contextlib
import functools
import os
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.service.app import Companion
from companion.storage.stick import StickError, backup_to_stick, next_name
from companion.storage.store import Store
from tests import helpers_campanile as camp
from tests.refusals import assert_message


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Companion]:
    (tmp_path / "data").mkdir()
    with Companion.open(tmp_path / "data" / "companion.sqlite3") as companion:
        live = companion.start("campanile", camp.PLAYERS, setup=camp.SETUP)
        for move in camp.random_game(3, 15, finish=False):
            live.session.propose(move)
        yield companion


@functools.cache
def _can_mount() -> bool:
    """Whether this machine lets the test mount a tmpfs: root, and a container that allows it."""
    if os.geteuid() != 0:
        return False
    with tempfile.TemporaryDirectory(prefix="companion-mount-probe-") as folder:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", folder],
                                 capture_output=True).returncode == 0
        if mounted:
            subprocess.run(["umount", folder], check=True)
    return mounted


@contextlib.contextmanager
def tmpfs(where: Path, *options: str) -> Iterator[Path]:
    """A real small file system at ``where`` (root only): a stick that is full or read-only."""
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join(options), "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=True)


def _games(path: Path) -> dict[int, list]:
    with Store.open(path, read_only=True) as store:
        return {row.id: store.stored_moves(row.id)[0] for row in store.list_sessions()}


def test_the_backup_lands_on_the_stick_synced_numbered_and_whole(app: Companion, tmp_path: Path) -> None:
    stick = tmp_path / "COMPANION"
    stick.mkdir()
    (stick / "holiday.jpg").write_bytes(b"not ours")
    first = backup_to_stick(app.store, stick)
    assert first.path.parent == stick and first.path.name.startswith("companion-0001-")
    assert_message(first.message, "appliance.stick.safe", name=first.path.name)
    assert _games(first.path) == {row.id: app.store.stored_moves(row.id)[0] for row in app.sessions()}
    live = app.resume()
    live.session.propose(camp.legal_moves(live.session.state)[0])
    second = backup_to_stick(app.store, stick)
    assert second.path.name.startswith("companion-0002-")  # the newest is the highest number
    assert len(_games(second.path)[live.id]) == len(_games(first.path)[live.id]) + 1
    assert sorted(p.name for p in stick.iterdir()) == sorted([first.path.name, second.path.name,
                                                              "holiday.jpg"])  # no temporary left


def test_the_newest_backup_is_the_highest_number_whatever_the_dates_say(tmp_path: Path) -> None:
    (tmp_path / "companion-0007-2031-01-01-000000.sqlite3").touch()  # a clock that ran ahead
    (tmp_path / "companion-0012-1970-01-01-000012.sqlite3").touch()  # a clock never set
    (tmp_path / "companion-2024-05-01-120000.sqlite3").touch()  # `companion backup DIR`: no number
    assert next_name(tmp_path, "1970-01-01-000100") == "companion-0013-1970-01-01-000100.sqlite3"


def test_without_a_stick_nothing_is_written_and_it_says_so(app: Companion, tmp_path: Path) -> None:
    missing = tmp_path / "COMPANION"
    with pytest.raises(StickError) as refused:
        backup_to_stick(app.store, missing)
    assert_message(refused.value.reason, "appliance.stick.none", path=str(missing))
    assert not missing.exists()


def test_a_stick_that_cannot_be_written_is_named_and_left_alone(app: Companion, tmp_path: Path) -> None:
    stick = tmp_path / "COMPANION"
    with tmpfs(stick, "ro", "size=1m") if _can_mount() else contextlib.nullcontext(stick):
        if not _can_mount():
            stick.mkdir()
            stick.chmod(0o555)
        with pytest.raises(StickError) as refused:
            backup_to_stick(app.store, stick)
        assert_message(refused.value.reason, "appliance.stick.read_only", path=str(stick))
        assert list(stick.iterdir()) == []
        if not _can_mount():
            stick.chmod(0o755)  # so that pytest can remove it


def test_a_full_stick_is_refused_before_writing(app: Companion, tmp_path: Path) -> None:
    stick = tmp_path / "COMPANION"
    needed = app.store.path.stat().st_size
    with tmpfs(stick, "size=16k") if _can_mount() else contextlib.nullcontext(stick):
        if not _can_mount():
            stick.mkdir()
        with pytest.raises(StickError) as refused:
            if _can_mount():
                backup_to_stick(app.store, stick)  # the real free space of a 16 kB file system
            else:
                backup_to_stick(app.store, stick, free=lambda _p: 4096)
        assert refused.value.reason.code == "appliance.stick.full_before"
        assert float(refused.value.reason.params["needed"]) * 1_000_000 >= needed
        assert list(stick.iterdir()) == []


@pytest.mark.skipif(not _can_mount(), reason="needs a real small file system (root, to mount a tmpfs)")
def test_a_stick_that_fills_up_during_the_copy_keeps_nothing(app: Companion, tmp_path: Path) -> None:
    with tmpfs(tmp_path / "COMPANION", "size=16k") as stick:
        with pytest.raises(StickError) as refused:
            backup_to_stick(app.store, stick, free=lambda _p: 10 ** 12)  # the stick lied about its room
        assert_message(refused.value.reason, "appliance.stick.full", path=str(stick))
        assert list(stick.iterdir()) == []
