"""The product type-checks under mypy's strict mode: companion/, hardware/ and ui/ (a wrong type fails).

One mypy run over the three packages, configured by pyproject.toml's
``[tool.mypy]`` (so a developer's plain ``mypy`` agrees with the suite).
``--no-incremental``: from a clean clone (as CI runs) a cache dir would start
cold, and measured here a cold cache costs the same as no cache (3-4 s of CPU
either way, 5-10 s of wall time on the loaded 2-core machine; a warm cache
0.25 s, which a clean clone never has), so the run writes nothing and leaves
nothing behind.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("companion", "hardware", "ui", "web", "club")

#: Third-party packages with neither inline types nor stubs: the only modules mypy may not follow.
UNTYPED_THIRD_PARTY = {"kivy", "gpiozero", "luma", "sdnotify", "lgpio"}


def test_mypy_strict_finds_nothing_in_companion_hardware_and_ui() -> None:
    mypy = shutil.which("mypy", path=str(Path(sys.executable).parent)) or shutil.which("mypy")
    assert mypy, "mypy is a dev dependency: pip install -e '.[dev]'"
    run = subprocess.run([mypy, "--strict", "--no-incremental", *PACKAGES], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_mypy_configuration_relaxes_only_what_kivy_and_untyped_libraries_need() -> None:
    """Strict stays strict: an override may only skip an untyped library, or let ui/ subclass Kivy."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    assert set(config["files"]) == set(PACKAGES)
    for override in config.get("overrides", []):
        modules = override["module"] if isinstance(override["module"], list) else [override["module"]]
        settings = {key: value for key, value in override.items() if key != "module"}
        if settings == {"ignore_missing_imports": True}:
            assert {m.split(".")[0] for m in modules} <= UNTYPED_THIRD_PARTY, modules
        else:
            assert settings == {"disallow_subclassing_any": False}, override
            assert all(m == "ui" or m.startswith("ui.") for m in modules), modules
