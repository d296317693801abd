"""The engines type-check under mypy's strict mode (the contract is typed; a wrong type is a test failure)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_strict_finds_nothing_in_the_engines():
    mypy = shutil.which("mypy", path=str(Path(sys.executable).parent)) or shutil.which("mypy")
    assert mypy, "mypy is a dev dependency: pip install -e '.[dev]'"
    run = subprocess.run([mypy, "--strict", "--no-incremental", "companion/games"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
