"""What the touchscreen benchmarks share: percentiles, the machine, the table they print, and the
block they write into ``docs/performance.md``.

Each benchmark measures its own screen and builds rows of ``(figure, value,
budget, ok)`` (``ok`` is ``None`` for a figure only reported). Printing the
rows and keeping them in the docs is the same for all of them, so it lives
here: a block between the benchmark's own markers is replaced in place, or
added at the end with its introduction the first time.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "performance.md"

#: One figure: its name, its value as shown, its budget as shown ("" when none), and whether the
#: value keeps the budget (``None``: reported only).
Row = tuple[str, str, str, bool | None]


#: The project's packages (their bytecode is what an install compiles: `systemd/install.sh` runs
#: `compileall` over the release, so the appliance never compiles the companion's source at start).
PACKAGES = ("companion", "hardware", "ui")


def compile_packages() -> set[Path]:
    """Compile the project's packages to bytecode as an install does; the `__pycache__` folders there
    are now (this machine sets PYTHONDONTWRITEBYTECODE, so a checkout has none until then)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", *PACKAGES], check=True, cwd=ROOT,
                   stdout=subprocess.DEVNULL)
    return bytecode_folders()


def bytecode_folders() -> set[Path]:
    """The `__pycache__` folders in the project's packages."""
    return {p for package in PACKAGES for p in (ROOT / package).rglob("__pycache__")}


def remove_bytecode(made: set[Path]) -> None:
    """Take away the bytecode folders ``made`` (those :func:`compile_packages` added)."""
    for cache in made:
        for pyc in cache.glob("*.pyc"):
            pyc.unlink()
        cache.rmdir()


class TimedJournal:
    """A session's journal with each save (the durable commit) timed, so a benchmark can give the
    commit apart from the CPU path it measures (``session._journal = TimedJournal(session._journal)``)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        #: Each save's time in milliseconds.
        self.times: list[float] = []

    def save(self, first: int, moves: Any, redo: Any, *, finished: bool = False) -> None:
        start = time.perf_counter_ns()
        self.inner.save(first, moves, redo, finished=finished)
        self.times.append((time.perf_counter_ns() - start) / 1e6)


def percentile(values: list[float], fraction: float) -> float:
    """The value at ``fraction`` (0..1) of the sorted values, the nearest rank (no interpolation)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def spread(milliseconds: list[float], digits: int = 2) -> str:
    """"median / p99 / max ms" of times in milliseconds."""
    figures = (statistics.median(milliseconds), percentile(milliseconds, 0.99), max(milliseconds))
    return " / ".join(f"{value:.{digits}f}" for value in figures) + " ms"


def machine() -> str:
    """The machine the figures were measured on, as the docs name it."""
    return f"{platform.machine()}, Python {platform.python_version()}, {platform.system()}"


def verdict(ok: bool | None) -> str:
    return "info" if ok is None else ("PASS" if ok else "OVER")


def report(rows: list[Row], widths: tuple[int, int, int] = (84, 26, 16)) -> bool:
    """Print the rows as a table; whether any budget is over (the benchmark then exits 1)."""
    name_width, value_width, budget_width = widths
    for name, value, budget, ok in rows:
        print(f"{name:<{name_width}}  {value:>{value_width}}  {budget:>{budget_width}}  {verdict(ok)}")
    return any(ok is False for *_, ok in rows)


def write_block(markers: tuple[str, str], intro: str, measured: str, rows: list[Row]) -> None:
    """Keep the rows in ``docs/performance.md`` between ``markers``, under "Measured <when> on
    <machine><measured>"; the first time, the block and ``intro`` are added at the end."""
    begin, end = markers
    stamp = datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    table = ["| figure | value | budget | verdict |", "|---|---|---|---|"]
    table += [f"| {name} | {value} | {budget} | {verdict(ok)} |" for name, value, budget, ok in rows]
    block = "\n".join([begin, f"Measured {stamp} on {machine()}{measured}", "", *table, end])
    text = DOCS.read_text(encoding="utf-8")
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        text = head + block + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + intro + "\n\n" + block + "\n"
    DOCS.write_text(text, encoding="utf-8")
    print(f"wrote the figures into {DOCS.relative_to(ROOT)}", file=sys.stderr)


def touch_arguments(doc: str | None, argv: list[str] | None) -> argparse.Namespace:
    """The touchscreen benchmarks' command line: ``--update-docs`` and ``--rounds`` (games played)."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("--update-docs", action="store_true",
                        help="write the figures into docs/performance.md")
    parser.add_argument("--rounds", type=int, default=5, help="games played (default 5)")
    return parser.parse_args(argv)


def example_records() -> dict[str, Path]:
    """Each registered game's example record (``tests/data/examples/<game>.json``, else the first
    ``<game>-*.json``), by game name in menu order: what the cold start and the OLED frames measure."""
    from companion.registry import game_names

    examples = ROOT / "tests" / "data" / "examples"
    found: dict[str, Path] = {}
    for name in game_names():
        exact = examples / f"{name}.json"
        others = sorted(p for p in examples.glob(f"{name}-*.json") if not p.name.endswith(".expected.json"))
        if exact.exists() or others:
            found[name] = exact if exact.exists() else others[0]
    return found
