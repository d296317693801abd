"""Issue 34 (8): a repair or a restore killed at any kind of system call loses no confirmed move.

A child confirms 10 moves and is killed with them still in the store's WAL (as the kiosk is by a
power cut). Then ``companion doctor --repair`` (or ``--restore BACKUP``) runs as its own process
under strace, which kills it with SIGKILL at the N-th ``openat``, ``write``, ``pwrite64``,
``fsync``, ``fdatasync``, ``rename`` or ``unlink`` (``-e inject=SYSCALL:signal=KILL:when=N``).
Afterwards the store in place must open, and every confirmed move must be in it — after a
restore, in the copy of the old store set aside, which ``companion doctor`` then names.
(Before: the repair removed the live ``-wal`` before its rebuilt store was renamed into place;
killed in between, the game was gone and the doctor said all good.) Every N is tried for
``fsync``, ``rename`` and ``unlink``; for the others N is spread over their count in a whole run
(``COMPANION_CRASH_ALL`` tries every N).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.storage.doctor import copies_aside
from companion.storage.paths import DB_FILENAME
from companion.storage.store import Store, StoreError
from tests import helpers_campanile as camp

ROOT = Path(__file__).resolve().parent.parent
STRACE = shutil.which("strace")
CALLS = ("openat", "write", "pwrite64", "fsync", "fdatasync", "rename", "unlink")
MOVES = 10

pytestmark = pytest.mark.skipif(STRACE is None, reason="needs strace (its fault injection)")


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT), COMPANION_DATA="")


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    """A data directory whose one game's 10 confirmed moves are in the WAL only; their JSON."""
    data = tmp_path_factory.mktemp("wal") / "data"
    data.mkdir()
    child = [sys.executable, "-m", "tests.helpers_wal_child", str(data / DB_FILENAME), str(MOVES)]
    run = subprocess.run(child, cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=120)
    assert run.stdout.split("\n")[-2] == f"ok {MOVES}", run.stderr
    assert (data / f"{DB_FILENAME}-wal").stat().st_size > 0
    (data / f"{DB_FILENAME}.lock").unlink()
    with Store.open(data / DB_FILENAME, read_only=True) as store:  # (a reader: the WAL stays)
        logs = store.stored_moves(1)[0]
    assert len(logs) == MOVES
    return data, logs


@pytest.fixture(scope="module")
def backup(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A backup holding another game (what a restore puts in place)."""
    folder = tmp_path_factory.mktemp("backup")
    with Store.open(folder / "other.sqlite3") as store:
        store.insert_session("campanile", camp.PLAYERS, {}, camp.SETUP)
        copy = store.copy_to(folder / "backup.sqlite3")
    return copy


def _command(data: Path, action: str, backup: Path) -> list[str]:
    extra = ["--repair"] if action == "repair" else ["--restore", str(backup)]
    return [sys.executable, "-m", "companion", "--data-dir", str(data), "doctor", *extra]


def _counts(template: Path, action: str, backup: Path, tmp: Path) -> dict[str, int]:
    """How many times a whole run makes each call (strace -c)."""
    data = tmp / "count"
    shutil.copytree(template, data)
    summary = tmp / "summary"
    subprocess.run([STRACE or "strace", "-f", "-c", "-o", str(summary), *_command(data, action, backup)],
                   cwd=ROOT, env=_env(), capture_output=True, timeout=300, check=True)
    counts = {}
    for line in summary.read_text().splitlines():
        fields = line.split()
        if fields and fields[-1] in CALLS and fields[-2].isdigit():
            counts[fields[-1]] = int(fields[3])
    shutil.rmtree(data)
    return counts


#: Calls tried at every N (few per run, and the ones that put a store in place).
EVERY = ("fsync", "rename", "unlink")


def _spread(call: str, total: int) -> list[int]:
    if call in EVERY or os.environ.get("COMPANION_CRASH_ALL"):
        return list(range(1, total + 1))
    return sorted({n for n in (1, 2, *(total * k // 4 for k in range(1, 5)), total - 1) if 1 <= n <= total})


def where_the_moves_are(data: Path, logs: list[dict], doctor_out: str) -> str:
    """"in place", or the copy set aside that holds them (which the doctor must name)."""
    path = data / DB_FILENAME
    with Store.open(path, read_only=True) as store:  # the store in place opens, whatever happened
        try:
            if store.stored_moves(1)[0] == logs:
                return "in place"
        except StoreError:
            pass
    for aside in copies_aside(path):
        with Store.open(aside, read_only=True) as copy:
            try:
                found = copy.stored_moves(1)[0]
            except StoreError:
                continue
        if found == logs:
            assert f"kept aside: {aside}" in doctor_out, doctor_out
            return aside.name
    raise AssertionError(f"the confirmed moves are nowhere: {sorted(p.name for p in data.iterdir())}")


@pytest.mark.parametrize("action", ["repair", "restore"])
def test_a_repair_or_restore_killed_at_any_call_loses_no_confirmed_move(
        template: tuple[Path, list[dict]], backup: Path, tmp_path: Path, action: str) -> None:
    source, logs = template
    counts = _counts(source, action, backup, tmp_path)
    assert set(counts) >= {"openat", "fsync", "rename", "unlink"}, counts
    killed = 0
    places: dict[str, int] = {}
    for call in CALLS:
        for number in _spread(call, counts.get(call, 0)):
            data = tmp_path / f"{call}-{number}"
            shutil.copytree(source, data)
            inject = f"inject={call}:signal=KILL:when={number}"
            run = subprocess.run([STRACE or "strace", "-f", "-qq", "-o", os.devnull, "-e", inject,
                                  *_command(data, action, backup)], cwd=ROOT, env=_env(), capture_output=True,
                                 text=True, timeout=300)
            killed += run.returncode != 0
            doctor = subprocess.run([sys.executable, "-m", "companion", "--data-dir", str(data), "doctor"],
                                    cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=300)
            assert doctor.returncode in (0, 3), (call, number, doctor.stdout, doctor.stderr)
            place = "in place" if where_the_moves_are(data, logs, doctor.stdout) == "in place" else "aside"
            # a repair keeps every move in the store in place (old or new); a restore may have put the
            # backup there, the moves then in the copy of the old store, named by the doctor
            assert action == "restore" or place == "in place", (call, number, doctor.stdout)
            places[place] = places.get(place, 0) + 1
            shutil.rmtree(data)
    assert killed >= len(CALLS)  # the kills did land
    assert places.get("in place", 0) > 0
    print(f"{action}: {killed} kills; moves found {places}")
