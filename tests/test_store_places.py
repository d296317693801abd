"""A read-only data directory: reading commands work, writing ones say "the data directory is read-only".

The directory is made read-only for real: for an ordinary user by taking
away its write permission; for root (who ignores permissions) by mounting
it read-only onto itself in a private mount namespace of the child process
(``unshare -m``), so nothing outside that one process sees the mount.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.console.display import shown_line
from companion.storage.paths import DB_FILENAME
from tests.test_store_damage import files, stock

COMPANION = str(Path(sys.executable).parent / "companion")
RECORD = Path(__file__).parent / "data" / "examples" / "campanile-3p.json"
Run = Callable[..., subprocess.CompletedProcess[str]]


def said(text: str) -> str:
    """What the CLI prints for ``text``: one line, values too long cut (:mod:`companion.console.display`)."""
    return f"companion: {shown_line(text.removeprefix('companion: ').removesuffix(chr(10)))}\n"


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[tuple[Path, Run]]:
    """A stocked data directory, and a way to run `companion` on it while it is read-only."""
    data = tmp_path / "data"
    stock(data)
    (data / f"{DB_FILENAME}.lock").unlink()

    def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        command = [COMPANION, "--data-dir", str(data), *args]
        if os.geteuid() == 0:
            command = ["unshare", "-m", "sh", "-c",
                       'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" "$0" && exec "$@"',
                       str(data), *command]
        return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=60, check=False)

    if os.geteuid() == 0:
        if shutil.which("unshare") is None:
            pytest.fail("running as root, this test needs unshare(1) to mount the directory read-only")
        yield data, run
    else:
        data.chmod(0o555)
        try:
            yield data, run
        finally:
            data.chmod(0o755)


def test_reading_commands_work_in_a_read_only_data_directory(read_only) -> None:
    data, run = read_only
    before = files(data)
    sessions = run("sessions")
    assert (sessions.returncode, sessions.stderr) == (0, "")
    assert len(sessions.stdout.splitlines()) == 6  # a heading and five games
    exported = run("export", "1")
    assert exported.returncode == 0 and json.loads(exported.stdout)["game"] == "campanile"
    assert run("stats").returncode == 0
    doctor = run("doctor")
    assert (doctor.returncode, doctor.stdout.splitlines()[-1]) == (0, "all good: 5 sessions")
    assert files(data) == before


@pytest.mark.parametrize("command", [["new", "campanile", "A", "B", "C"],
                                     ["import", str(RECORD)], ["campanile", "flags", "--forget"],
                                     ["doctor", "--repair"]])
def test_writing_commands_say_the_data_directory_is_read_only(read_only, command) -> None:
    data, run = read_only
    before = files(data)
    result = run(*command)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == said(f"the data directory {data} is read-only: games can be read here "
                                 "but nothing can be stored (sessions, export, stats and doctor still work)")
    assert files(data) == before


def test_run_starts_in_a_read_only_data_directory_and_says_why_nothing_is_saved(read_only) -> None:
    """Issue 34, item 4: a card remounted read-only is said, and the backup to the stick offered."""
    data, run = read_only
    before = files(data)
    result = run("run", "--headless")
    assert result.returncode == 0
    assert f"the data directory {data} is read-only" in result.stdout and "`backup`" in result.stdout
    assert files(data) == before
