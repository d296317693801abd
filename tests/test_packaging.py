"""Packaging: the headless appliance installs without Kivy; the README's two commands pin what CI gets."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower()


def _setup_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return [line for line in re.findall(r"```sh\n(.*?)```", readme, flags=re.S)
            for line in line.splitlines() if line.startswith("python3 -m venv")]


def test_the_touchscreen_is_an_extra_and_the_core_needs_no_kivy() -> None:
    project = _project()
    assert "kivy" not in {_name(r) for r in project["dependencies"]}
    assert "kivy" in {_name(r) for r in project["optional-dependencies"]["ui"]}


def test_the_readme_has_two_setup_commands_both_with_the_constraints_and_every_extra() -> None:
    commands = _setup_commands()
    assert len(commands) == 2
    assert all("pip install -c constraints.txt -e '.[ui" in c for c in commands)
    assert "'.[ui,dev,web,club]'" in commands[1] and commands[1].endswith(".venv/bin/pytest")


def test_ci_runs_the_readmes_test_command_verbatim() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert _setup_commands()[1] in script


def test_the_constraints_pin_kivy_and_pillow_exactly() -> None:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, sep, version = line.partition("==")
            assert sep, f"constraints.txt: {line!r} is not an exact pin"
            pins[name.lower()] = version
    assert {"kivy", "pillow"} <= set(pins)
    assert all(re.fullmatch(r"\d+(\.\d+)+", v) for v in pins.values())


@pytest.mark.parametrize("pytest_exit", [0, 1, 5])
def test_ci_fails_when_pytest_fails_or_collects_nothing(tmp_path: Path, pytest_exit: int) -> None:
    """``.ci/run`` exits with pytest's status: a failed test (1) and no test collected (5) fail CI.

    The script runs on a copy of itself with stand-ins for ``python3`` (whose ``-m venv``
    makes a ``.venv`` whose ``pip`` succeeds and whose ``pytest`` exits ``pytest_exit``).
    """
    (tmp_path / ".ci").mkdir()
    shutil.copy(ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    tools = tmp_path / "tools"
    tools.mkdir()
    python3 = tools / "python3"
    python3.write_text(
        "#!/bin/sh\n"
        "mkdir -p .venv/bin\n"
        "printf '#!/bin/sh\\nexit 0\\n' > .venv/bin/pip\n"
        f"printf '#!/bin/sh\\necho pytest ran \"$*\"\\nexit {pytest_exit}\\n' > .venv/bin/pytest\n"
        "chmod +x .venv/bin/pip .venv/bin/pytest\n", encoding="utf-8")
    python3.chmod(0o755)
    env = {**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", str(tmp_path / ".ci" / "run")], env=env, capture_output=True, text=True,
                          timeout=60, check=False)
    runs = [line for line in done.stdout.splitlines() if line.startswith("pytest ran")]
    # the README's bare pytest first; the emulated-Pi checks after it, only when it passed
    assert runs[0] == "pytest ran "
    if pytest_exit == 0:
        assert len(runs) == 2 and "-m pi" in runs[1], runs
    else:
        assert len(runs) == 1, runs
    assert done.returncode == pytest_exit


def test_the_readmes_pytest_runs_on_two_xdist_workers() -> None:
    """The bare ``pytest`` of the README spreads the suite over two processes (docs/performance.md)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    addopts = config["tool"]["pytest"]["ini_options"]["addopts"].split()
    assert addopts[addopts.index("-n") + 1] == "2"
    assert addopts[addopts.index("--dist") + 1] == "loadfile"
    assert "pytest-xdist" in {_name(r) for r in _project()["optional-dependencies"]["dev"]}
