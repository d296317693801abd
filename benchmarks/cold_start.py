"""The cold start of ``companion replay`` alone: ``.venv/bin/python benchmarks/cold_start.py``.

Prints the median wall time of ``companion replay EXAMPLE --json`` as a process for each game's
example record, with the companion's bytecode compiled as an install leaves it, beside the median
of a bare ``python -c pass`` with the same interpreter (the two alternate, run for run, so a busy
machine slows both alike), and the ratio. The budget, **<= 3x**, is the Campanile record's (the
figure ``benchmarks/run.py`` reports with the others); Castelli's and San Gimignano's are reported
beside it (Castelli's example is a whole game of 120 moves, each area evaluated and explained: its
replay does more than its start-up). Exit 1 when the budgeted ratio is over.

Why it matters: a replay (and ``moves``) loads just the game its record names — the registry reads
this distribution's entry points without ``importlib.metadata`` and imports one descriptor — so
the start-up grows with what one game needs, not with how many games are installed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.figures import bytecode_folders, compile_packages, example_records, remove_bytecode
from benchmarks.run import _time_run

ROOT = Path(__file__).resolve().parent.parent
#: The budget: the Campanile record's replay takes at most this many times a bare interpreter.
BUDGET = 3.0
BUDGETED = "campanile"


def measure(runs: int) -> dict[str, tuple[float, float]]:
    """Example -> (median ms of its replay, median ms of ``python -c pass``), bytecode compiled."""
    script = Path(sys.executable).parent / "companion"
    replay = [str(script)] if script.exists() else [sys.executable, "-m", "companion"]
    bare_command = [sys.executable, "-c", "pass"]
    caches = bytecode_folders()
    compiled_here = compile_packages()
    found: dict[str, tuple[float, float]] = {}
    try:
        for example, record in example_records().items():
            command = [*replay, "replay", str(record), "--json"]
            _time_run(bare_command), _time_run(command)  # warm the file cache
            bare, timed = [], []
            for _ in range(runs):
                bare.append(_time_run(bare_command))
                timed.append(_time_run(command))
            found[example] = statistics.median(timed), statistics.median(bare)
    finally:
        remove_bytecode(compiled_here - caches)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="runs of each command (default 21)")
    args = parser.parse_args(argv)
    over = False
    for example, (replay, bare) in measure(args.runs).items():
        ratio = replay / bare
        if example == BUDGETED:
            over |= ratio > BUDGET
            verdict = f"(budget <= {BUDGET:g}x) {'PASS' if ratio <= BUDGET else 'OVER'}"
        else:
            verdict = "(reported)"
        print(f"companion replay {example}: {replay:.1f} ms / python -c pass {bare:.1f} ms = "
              f"{ratio:.2f}x {verdict}")
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
