"""The layers (docs/architecture.md, "Layers"): who may import whom, and nothing in a circle.

- dynamic: a subprocess whose ``sys.meta_path`` refuses Kivy, gpiozero, luma
  and pyserial (they are installed in the development environment, so they
  must be actively blocked) imports every engine in the registry and runs
  ``companion replay`` on the shared example records;
- the contracts: ``lint-imports`` checks pyproject.toml's ``[tool.importlinter]``
  (engines, core, the store, the system layer, hardware, touchscreen, web, the
  command line's composition root), every import statement counted, those
  inside functions too;
- static: the engines import the standard library and ``companion.games`` only
  (anywhere in a module, not just at its top); no module under ``companion/``
  imports the front ends or their libraries at module level, except the
  composition root, which imports them lazily;
- no cycles: the graph of every import statement of ``companion/``,
  ``hardware/`` and ``ui/`` (in functions and ``TYPE_CHECKING`` blocks too)
  has no circle.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = Path(__file__).parent / "data" / "examples"
BLOCKED = ("kivy", "gpiozero", "luma", "serial", "starlette", "uvicorn", "jinja2")
#: Packages that import the blocked libraries themselves.
UPPER_LAYERS = ("ui", "hardware", "web")
#: The modules that wire the front ends: the composition root (``companion run``) and the command
#: that drives the hardware on its own (``companion hardware test``). They import upper layers
#: lazily, in the handler that starts them (pyproject.toml's contracts name the same two).
COMPOSITION_ROOTS = frozenset({"companion/cli/commands/run.py", "companion/cli/commands/hardware.py"})
#: The packages whose import graph must have no circle.
PACKAGES = ("companion", "hardware", "ui", "web")

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
from companion import registry
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


# -- the engines: the standard library and companion.games only ---------------------------------

def _imported_names(tree: ast.AST, module: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """Every module an import statement anywhere in ``tree`` names, absolute (``from . import x``
    resolved against ``module``), with ``from a import b`` giving ``a.b`` (``b`` may be a module)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".") if is_package else module.split(".")[:-1]
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}" if alias.name != "*" else base


def engine_violations(source: str, module: str, is_package: bool = False) -> list[str]:
    """Imports of an engine module that are neither the standard library nor ``companion.games``."""
    bad = []
    for line, name in _imported_names(ast.parse(source), module, is_package):
        top = name.split(".")[0]
        if top in sys.stdlib_module_names or top == "__future__":
            continue
        if name == "companion.games" or name.startswith("companion.games."):
            continue
        bad.append(f"{module}:{line}: imports {name}")
    return bad


def _module_name(path: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def test_the_engines_import_the_standard_library_and_companion_games_only() -> None:
    files = sorted((ROOT / "companion" / "games").rglob("*.py"))
    assert len(files) > 30
    problems = []
    for path in files:
        module, is_package = _module_name(path)
        problems += engine_violations(path.read_text(encoding="utf-8"), module, is_package)
    assert problems == []


@pytest.mark.parametrize(("source", "caught"), [
    ("def summary():\n    from companion.i18n import render_json\n", True),
    ("import companion.service.records\n", True),
    ("from companion import i18n\n", True),
    ("from .. import messages\n", False),  # companion.games.messages, from companion.games.castelli.x
    ("from ... import i18n\n", True),  # companion.i18n
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from hardware.oled import OledDevice\n", True),
    ("import json\nfrom collections import OrderedDict\n", False),
    ("from companion.games.messages import msg\n", False),
])
def test_the_engine_check_sees_every_import(source: str, caught: bool) -> None:
    assert bool(engine_violations(source, "companion.games.castelli.game")) is caught


# -- the contracts (import-linter) ----------------------------------------------------------------

def _lint_imports(*options: str) -> subprocess.CompletedProcess[str]:
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or "lint-imports"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    return subprocess.run([command, "--no-cache", *options], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_import_contracts_hold() -> None:
    run = _lint_imports()
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout


def test_a_broken_contract_fails_and_imports_inside_functions_count(tmp_path: Path) -> None:
    """The composition root imports hardware.appliance only inside its handler: a contract that
    forbids it must still be broken, so lint-imports sees lazy imports and its failure fails."""
    config = tmp_path / "contracts.toml"
    config.write_text(
        '[tool.importlinter]\nroot_packages = ["companion", "hardware"]\n\n'
        '[[tool.importlinter.contracts]]\nname = "a contract the composition root breaks"\n'
        'type = "forbidden"\nsource_modules = ["companion.cli.commands.run"]\n'
        'forbidden_modules = ["hardware.appliance"]\n', encoding="utf-8")
    run = _lint_imports("--config", str(config))
    assert run.returncode != 0
    assert "BROKEN" in run.stdout and "companion.cli.commands.run -> hardware.appliance" in run.stdout


# -- no cycles -----------------------------------------------------------------------------------

def import_graph(files: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """``module -> modules it imports`` among ``files`` (``module -> (source, is_package)``).

    Every import statement counts, inside functions and ``TYPE_CHECKING`` blocks too: a lazy
    import is still a dependency, and a type-only one still ties the two modules together. An
    import names the deepest module of ``files`` it reaches (``from a import b`` is ``a.b`` when
    that is a module, else ``a``); the parent packages Python imports on the way are not edges.
    """
    graph: dict[str, set[str]] = {}
    for module, (source, is_package) in files.items():
        found: set[str] = set()
        for _, name in _imported_names(ast.parse(source), module, is_package):
            while name and name not in files:
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
        graph[module] = found
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


def test_no_modules_import_each_other_in_a_circle() -> None:
    """No exceptions: no package's ``__init__`` imports its composition root's front ends."""
    files = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            files[_module_name(path)[0]] = (path.read_text(encoding="utf-8"), path.name == "__init__.py")
    assert len(files) > 100
    graph = import_graph(files)
    assert sum(len(targets) for targets in graph.values()) > 500  # the imports were found
    assert cycles(graph) == []


@pytest.mark.parametrize(("sources", "expected"), [
    ({"p.a": "import p.b\n", "p.b": "def f():\n    from p import a\n"}, [["p.a", "p.b"]]),
    ({"p.a": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.b import B\n",
      "p.b": "from p.a import A\n"}, [["p.a", "p.b"]]),
    ({"p.a": "from . import b\n", "p.b": "from .c import x\n", "p.c": "from .a import y\n"},
     [["p.a", "p.b", "p.c"]]),
    ({"p": "", "p.a": "from p.b import x\n", "p.b": "import json\n"}, []),
    ({"p": "from p.a import x\n", "p.a": "import json\n"}, []),  # a parent package is no edge
])
def test_the_cycle_check_finds_lazy_type_only_and_relative_cycles(sources: dict[str, str],
                                                                 expected: list[list[str]]) -> None:
    files = {module: (source, module == "p") for module, source in sources.items()}
    assert cycles(import_graph(files)) == expected
