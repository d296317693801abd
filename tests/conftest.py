"""Shared fixtures: paths to the example records and a way to run the CLI in-process."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from companion.cli.main import main

# CI runs the property tests with fixed examples, so that a submission lands or
# not on its own merits; on a developer's machine they draw new examples every run
# (and replay any failure they found before, from .hypothesis/).
# Nowhere does a property test time itself: no per-example deadline and no "too slow"
# health check, so a loaded machine cannot fail a test that is right (speed is measured
# in benchmarks/, not asserted here).
UNTIMED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("dev", **UNTIMED)
settings.register_profile("ci", derandomize=True, print_blob=True, **UNTIMED)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

DATA = Path(__file__).parent / "data"
EXAMPLES = DATA / "examples"


@pytest.fixture
def run_cli(capsys):
    """Run ``companion ARGS`` in this process; returns (exit code, stdout, stderr)."""

    def run(*args: str) -> tuple[int, str, str]:
        try:
            code = main(list(args))
        except SystemExit as exit_:  # argparse exits for --help and usage errors
            code = exit_.code if isinstance(exit_.code, int) else 2
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def write_record(tmp_path):
    """Write a record (a dict) to a temporary file and return its path as a string."""
    counter = iter(range(10_000))

    def write(record: dict) -> str:
        path = tmp_path / f"record-{next(counter)}.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        return str(path)

    return write


@pytest.fixture(autouse=True)
def _english_unless_asked(monkeypatch):
    """Every test speaks English unless it asks otherwise (a developer's COMPANION_LANG must not leak in)."""
    from companion.i18n import LANGUAGE_VARIABLE, set_language

    monkeypatch.delenv(LANGUAGE_VARIABLE, raising=False)
    yield
    set_language("en")


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where a UI test saves its screenshots for review: ``$UI_SCREENSHOTS`` when set, else a temp folder."""
    return Path(os.environ.get("UI_SCREENSHOTS") or tmp_path / "shots")
