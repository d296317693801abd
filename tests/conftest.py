"""Shared fixtures: paths to the example records and a way to run the CLI in-process."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
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

# The touchscreen tests draw in an offscreen window with Mesa's software renderer (llvmpipe),
# where Kivy's default multisampling makes every frame and every label's texture cost several
# times what it costs without (two of the Castelli board's scenarios: 10.2 s of CPU with it,
# 4.5 s without; docs/performance.md, "The test suite"). The tests look at
# widgets, touches, texts and whole-pixel colours, never at antialiased edges, so they draw
# without it; child processes (the board kits, `companion run`) inherit the setting, and a
# value set by whoever runs the tests wins. The appliance keeps Kivy's default.
os.environ.setdefault("KCFG_GRAPHICS_MULTISAMPLES", "0")
# Kivy's clock sleeps to keep to 60 frames a second; a test that runs frames until something
# shows (tests/ui_kit.py: `pump`, `wait_for`, `settled`) then waits 16.7 ms a frame for nothing,
# and the suite's touchscreen tests run thousands of frames (the board editor's blank-grid entry
# took 27 s with the cap and 14 s without). Waiting for time to pass is done with real time
# (`wait_for`, `hold`), never by counting frames, so the tests run frames unthrottled.
os.environ.setdefault("KCFG_GRAPHICS_MAXFPS", "0")

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
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh data directory, made (a missing one is created and named: test_store_writers.py) and
    named in ``COMPANION_DATA``, so that no test reaches the real user data folder."""
    directory = tmp_path / "data"
    directory.mkdir()
    monkeypatch.setenv("COMPANION_DATA", str(directory))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    return directory


@pytest.fixture
def cli(run_cli, data_dir: Path):
    """``companion --data-dir DATA ARGS`` in this process on :func:`data_dir`; ``cli.data`` is it."""
    def run(*args: str) -> tuple[int, str, str]:
        return run_cli("--data-dir", str(data_dir), *args)

    run.data = data_dir  # type: ignore[attr-defined]
    return run


@pytest.fixture(scope="module")
def stocked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory with five games and two settings (tests/test_store_damage.py: ``stock``),
    made once per module: stocking plays 572 moves. Tests damage :func:`stocked_copy`."""
    from companion.storage.paths import DB_FILENAME
    from tests.test_store_damage import stock

    data = tmp_path_factory.mktemp("stocked") / "data"
    stock(data)
    (data / f"{DB_FILENAME}.lock").unlink()
    return data


@pytest.fixture
def stocked_copy(stocked: Path, tmp_path: Path) -> Path:
    """A copy of :func:`stocked` of this test's own, to damage."""
    copy = tmp_path / "data"
    shutil.copytree(stocked, copy)
    return copy


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


@pytest.fixture(autouse=True)
def _root_log_as_it_was() -> Iterator[None]:
    """A test that runs ``companion run`` or ``companion web`` in this process leaves the root
    logger with their handler, bound to the standard error of that test (the command line's
    wrapper of pytest's capture, closed when the test ends); the next records, Kivy's first lines
    among them, would go to a closed stream. Each test gets the root logger back as it found it."""
    import logging

    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in root.handlers:
        if handler not in handlers:
            root.removeHandler(handler)
            handler.close()
    for handler in handlers:
        if handler not in root.handlers:
            root.addHandler(handler)
    root.setLevel(level)


@pytest.fixture(autouse=True, scope="session")
def _games_left_out() -> Iterator[None]:
    """``COMPANION_TEST_WITHOUT=castelli`` runs the tests as on a box where that game is not
    installed (the generic front ends must not need it: docs/architecture.md, "Adding a game")."""
    from contextlib import ExitStack

    from companion import registry

    with ExitStack() as stack:
        for name in filter(None, os.environ.get("COMPANION_TEST_WITHOUT", "").split(",")):
            stack.enter_context(registry.without(name.strip()))
        yield


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where a UI test saves its screenshots for review: ``$UI_SCREENSHOTS`` when set, else a temp folder."""
    return Path(os.environ.get("UI_SCREENSHOTS") or tmp_path / "shots")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """On an xdist worker, temporary folders of the same shape as in one process.

    xdist puts a worker's ``tmp_path`` one level deeper than pytest does
    (``.../pytest-76/popen-gw0/test_x0``), and the CLI's messages cut a value
    (a path) longer than 80 characters with an ellipsis: the tests that read
    such a message back would fail only under xdist. A worker that was handed
    xdist's folder inside pytest's own numbered one makes its own numbered folder
    instead, as a single pytest process does (same place, same retention).
    A ``--basetemp`` given on the command line is left as it is.
    """
    if not hasattr(config, "workerinput") or not config.option.basetemp:
        return
    given = Path(config.option.basetemp)
    if given.name.startswith("popen-") and re.fullmatch(r"pytest-\d+", given.parent.name) \
            and given.parent.parent.name.startswith("pytest-of-"):
        config.option.basetemp = None


#: Test modules that take the longest, begun first (in this order) so that no long one is left
#: for the end while the other worker idles: the two whose shared fixture plays every scenario of
#: a board in a child process (about 30 s before their first test), the SIGKILL loop, the rest of
#: the touchscreen's (``test_ui_*``: a window, frames drawn in software), then the others by what
#: they take. Order only; every test runs wherever it is listed.
LONGEST_FIRST = ("test_ui_castelli.py", "test_ui_campanile.py", "test_crash_consistency",
                 "test_layout_sweep", "test_ui_board_editor", "test_ui_", "test_contract",
                 "test_power_loss_app", "test_notation_refusals", "test_docs_commands",
                 "test_damaged_store_kiosk", "test_headless_appliance",
                 "test_store_damage_property", "test_store_repair_promise", "test_store_reliability",
                 "test_panel_pairing")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put the longest test modules first (pyproject.toml's ``--dist loadfile --no-loadscope-reorder``).

    ``pytest`` runs on two workers, each taking whole test files (so a module's
    shared fixture, such as the Castelli board's child process playing every
    scenario, is set up once) in the order collected: long files first, and the
    many short ones after them even out the end.
    """
    def longest_first(item: pytest.Item) -> int:
        name = item.path.name
        return next((rank for rank, start in enumerate(LONGEST_FIRST) if name.startswith(start)),
                    len(LONGEST_FIRST))

    items.sort(key=longest_first)  # stable: within each part, collection order
