"""The commands in the README and docs/ run as written, and nothing in the project points outside it.

Every ``sh`` block of README.md and docs/*.md is run by bash, line by line
with ``set -e``, in a fresh folder that sees the checkout (its top-level
files and folders linked in) and a fresh data directory, with nothing on
standard input. A block that cannot run here (a Raspberry Pi, root, a
benchmark of minutes, the suite itself) starts with ``# not run here:``
and the reason, which this test reads too.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
NOT_RUN = "# not run here:"
#: How long a block may take (generous: a loaded machine; nothing here measures speed).
PATIENCE = 300


def _blocks() -> list[tuple[str, int, str]]:
    """Every ``sh`` block: (page, line where it starts, its text)."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(r"^```sh\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
            line = text.count("\n", 0, match.start()) + 1
            found.append((str(page.relative_to(ROOT)), line, match.group(1)))
    return found


BLOCKS = _blocks()
RUN = [block for block in BLOCKS if not block[2].startswith(NOT_RUN)]


def test_the_blocks_are_found_and_each_one_not_run_says_why():
    assert any(page == "README.md" for page, _, _ in RUN)
    for page, line, text in BLOCKS:
        if text.startswith(NOT_RUN):
            reason = text.splitlines()[0][len(NOT_RUN):].strip()
            assert len(reason) >= 10, f"{page}:{line}: say why the block is not run"


@pytest.mark.parametrize("page, line, text", RUN, ids=[f"{page}:{line}" for page, line, _ in RUN])
def test_every_command_of_a_block_runs_as_written(page, line, text, tmp_path):
    here = tmp_path / "checkout"
    here.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in (".git", ".venv"):
            (here / entry.name).symlink_to(entry)
    (here / ".venv").symlink_to(Path(sys.prefix))  # the environment the suite runs in
    env = {**os.environ, "COMPANION_DATA": str(tmp_path / "data"), "HOME": str(tmp_path),
           "KIVY_HOME": str(tmp_path / "kivy"), "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1"}
    env.pop("COMPANION_LANG", None)
    script = ("set -e -o pipefail\n"
              "trap 'echo \"failed: $BASH_COMMAND (exit $?)\" >&2' ERR\n" + text)
    shell = subprocess.Popen(["bash", "-c", script], cwd=here, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    try:
        _, err = shell.communicate(timeout=PATIENCE)
    except subprocess.TimeoutExpired:  # a command waits for ever: stop it and everything it started
        os.killpg(shell.pid, signal.SIGKILL)
        _, err = shell.communicate()
        raise AssertionError(f"{page}:{line}: still running after {PATIENCE} s:\n{err[-3000:]}") from None
    assert shell.returncode == 0, f"{page}:{line}:\n{err[-3000:]}"


def test_no_file_of_the_project_points_outside_it():
    """A clone has no sibling folder: a path into one is a broken link for everyone else."""
    outside = "shared" + "/"  # (spelt in two parts, so that this file does not find itself)
    roots = [ROOT / name for name in ("README.md", "docs", "tests", "companion", "hardware", "ui", "web",
                                      "systemd", "benchmarks", ".ci", "pyproject.toml")]
    files = [path for root in roots if root.exists()
             for path in ([root] if root.is_file() else root.rglob("*")) if path.is_file()
             and path.suffix in (".py", ".md", ".toml", ".kv", ".po", ".sh", ".service", ".txt", "")]
    pointing = [str(path.relative_to(ROOT)) for path in files
                if outside in path.read_text(encoding="utf-8", errors="replace")]
    assert pointing == []
