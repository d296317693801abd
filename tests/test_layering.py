"""The layering rule: engines, records and replay work with no Kivy, gpiozero, luma or pyserial.

Two checks:

- dynamic: a subprocess whose ``sys.meta_path`` refuses those libraries (they
  are installed in the development environment, so they must be actively
  blocked) imports every engine in the registry and runs ``companion replay``
  on the shared example records;
- static: no module under ``companion/`` imports them (or the ``ui`` and
  ``hardware`` packages, which do) at module level, except the composition
  root, and that one only lazily is best.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = Path(__file__).parent / "data" / "examples"
BLOCKED = ("kivy", "gpiozero", "luma", "serial")
#: Packages that import the blocked libraries themselves.
UPPER_LAYERS = ("ui", "hardware")
#: The module that wires the running appliance; it may import upper layers (lazily is better).
COMPOSITION_ROOTS = frozenset({"companion/service/app.py"})

BOOTSTRAP = r"""
import importlib.abc, json, sys
BLOCKED = set(sys.argv[1].split(","))

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name} is blocked by the layering test", name=name)
        return None

sys.meta_path.insert(0, Refuse())
for name in BLOCKED:
    sys.modules.pop(name, None)
    try:
        __import__(name)
    except ImportError:
        pass
    else:
        raise SystemExit(f"the blocker failed: {name} imported")

import contextlib, io
from importlib import import_module
from companion.games import registry
from companion.cli.main import main

report = {"engines": {}, "replays": {}}
for game in registry.GAMES:
    module_name, class_name = registry.descriptor(game).engine.split(":")
    try:
        module = import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name in BLOCKED or (error.name or "").split(".")[0] in BLOCKED:
            report["engines"][game] = f"blocked import: {error}"
            continue
        if error.name == module_name:
            report["engines"][game] = "not written yet"
            continue
        raise
    if not hasattr(module, class_name):
        report["engines"][game] = "not written yet"
        continue
    engine = registry.get_game(game)
    report["engines"][game] = "ok" if engine.name == game else f"wrong name {engine.name}"

for path in sys.argv[2:]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["replay", path, "--json"])
    report["replays"][path] = {"code": code, "stdout": out.getvalue(), "stderr": err.getvalue()}
report["loaded"] = sorted({m.split(".")[0] for m in sys.modules} & BLOCKED)
print(json.dumps(report))
"""


def _game_of(record: Path) -> str:
    return json.loads(record.read_text(encoding="utf-8"))["game"]


def _run_blocked(records: list[Path]) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", BOOTSTRAP, ",".join(BLOCKED), *map(str, records)],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.splitlines()[-1])


def test_engines_and_replay_run_without_the_hardware_and_ui_libraries() -> None:
    records = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))
    assert {_game_of(p) for p in records} == set(GAMES)  # an example for every registered game
    report = _run_blocked(records)

    # every registered engine is written and loads with the libraries blocked: an engine
    # that cannot be imported, or whose class is missing, is a failure here, not a skip
    assert report["engines"] == dict.fromkeys(GAMES, "ok")
    assert report["loaded"] == []
    assert sorted(report["replays"]) == sorted(map(str, records))
    for path, outcome in report["replays"].items():
        # the example records are legal games: they replay with exit 0 and their summary
        assert outcome["code"] == 0, f"{path}: {outcome['stderr']}"
        assert outcome["stderr"] == ""
        assert json.loads(outcome["stdout"])["game"] == _game_of(Path(path))
        # the same result as with every library available
        normal = subprocess.run([sys.executable, "-m", "companion", "replay", path, "--json"],
                                cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert (outcome["code"], outcome["stdout"], outcome["stderr"]) == (
            normal.returncode, normal.stdout, normal.stderr), path


# -- static check ------------------------------------------------------------------------------

def _module_level_imports(tree: ast.Module) -> list[tuple[int, str]]:
    """Imports executed when the module is imported (not inside functions or TYPE_CHECKING)."""
    found: list[tuple[int, str]] = []

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                found.extend((node.lineno, alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level == 0 and node.module:
                    found.append((node.lineno, node.module))
            elif isinstance(node, ast.If):
                test = ast.unparse(node.test)
                if test not in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try | ast.With):
                visit(node.body)
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)
                visit(getattr(node, "orelse", []))
                visit(getattr(node, "finalbody", []))
            elif isinstance(node, ast.ClassDef):
                visit(node.body)
    visit(tree.body)
    return found


def violations(source: str, relative: str) -> list[str]:
    if relative in COMPOSITION_ROOTS:
        return []
    bad = set(BLOCKED) | set(UPPER_LAYERS)
    return [f"{relative}:{line}: imports {name} at module level"
            for line, name in _module_level_imports(ast.parse(source))
            if name.split(".")[0] in bad]


def test_no_companion_module_imports_hardware_or_ui_libraries_at_module_level() -> None:
    files = sorted((ROOT / "companion").rglob("*.py"))
    assert len(files) > 10
    problems = [v for path in files
                for v in violations(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())]
    assert problems == []


@pytest.mark.parametrize(("source", "caught"), [
    ("import kivy\n", True),
    ("from luma.core.render import canvas\n", True),
    ("try:\n    import serial\nexcept ImportError:\n    serial = None\n", True),
    ("from ui.app import CompanionApp\n", True),
    ("class A:\n    import gpiozero\n", True),
    ("def f():\n    import kivy\n", False),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import serial\n", False),
    ("import serialize_things\n", False),
])
def test_the_static_check_catches_module_level_imports(source: str, caught: bool) -> None:
    assert bool(violations(source, "companion/example.py")) is caught
