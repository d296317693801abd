"""The code base stays ruff-clean and the engines stay pure, checked on every test run."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPLIANCE_LIBRARIES = {"kivy", "gpiozero", "luma", "serial", "ui", "hardware"}
IMPURE_MODULES = {"os", "sys", "io", "time", "random", "datetime", "sqlite3", "socket", "subprocess",
                  "pathlib", "shutil", "tempfile", "threading"}


def test_ruff_finds_nothing():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff, "ruff is a dev dependency: pip install -e '.[dev]'"
    run = subprocess.run([ruff, "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_rules_engines_import_no_appliance_library_and_do_no_io():
    engines = sorted((ROOT / "companion" / "games").rglob("*.py"))
    assert engines
    for path in engines:
        imported = _imports(path)
        assert not imported & APPLIANCE_LIBRARIES, f"{path} imports {imported & APPLIANCE_LIBRARIES}"
        assert not imported & IMPURE_MODULES, f"{path} imports {imported & IMPURE_MODULES}"
