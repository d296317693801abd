"""Packaging: the headless appliance installs without Kivy; the README's two commands pin what CI gets."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

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
    assert "'.[ui,dev]'" in commands[1] and commands[1].endswith(".venv/bin/pytest")


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
