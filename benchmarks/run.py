"""Measure the companion against its budgets: ``.venv/bin/python benchmarks/run.py``.

Prints each figure with its budget and PASS/OVER (reported-only figures say
``info``) and exits 1 if any budgeted figure is over. ``--update-docs``
also writes the figures, date and machine into docs/performance.md.

Figures:
- ``propose()`` CPU path: validate + apply + notify (one listener), no journal;
  budget: median <= 1 ms.
- ``propose()`` with the SQLite store (database in a temporary directory under
  ``benchmarks/``, on the repository's file system; ``--dir`` to choose): the
  durable commit (WAL, synchronous=FULL) timed alone and the whole call; median
  and p99 reported, not budgeted.
- replay per move on a long legal Campanile record (parse + apply); budget <= 0.2 ms.
- ``companion replay`` process cold start as a multiple of a bare ``python -c pass``;
  budget <= 4x.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.records import final_state, parse_record  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.store import Store, StoreJournal  # noqa: E402
from tests import helpers_campanile as camp  # noqa: E402

DOCS = ROOT / "docs" / "performance.md"
BEGIN, END = "<!-- figures:begin -->", "<!-- figures:end -->"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def long_record(moves_wanted: int, seed: int = 1) -> dict[str, Any]:
    """A legal Campanile record of about ``moves_wanted`` moves (builds and markers, Finito last)."""
    game = camp.engine()
    rng = random.Random(seed)
    state = camp.initial()
    moves: list[Any] = []
    choose = camp.weighted_chooser(rng, valuation_weight=0.0)
    intermezzo_at = moves_wanted // 2
    while len(moves) < moves_wanted - 1:
        if len(moves) == intermezzo_at:
            for candidate in camp.legal_moves(state):
                if game.move_to_json(candidate) == {"type": "valuation", "phase": "intermezzo"}:
                    state = game.apply(state, candidate)
                    moves.append(candidate)
                    break
        (move,) = camp.playout(choose, state, 1)
        state = game.apply(state, move)
        moves.append(move)
    moves.append(game.parse_move({"type": "valuation", "phase": "finito"}))
    state = game.apply(state, moves[-1])
    return {"format": "companion-record/1", "game": "campanile", "players": list(camp.PLAYERS),
            "setup": camp.SETUP, "moves": [game.move_to_json(m) for m in moves]}


def bench_propose_cpu(moves: list[Any], rounds: int) -> list[float]:
    """Milliseconds per propose(), no journal, one listener."""
    game = camp.engine()
    times: list[float] = []
    for _ in range(rounds):
        session = Session(game, camp.PLAYERS, camp.initial())
        heard: list[Any] = []
        session.subscribe(lambda _s, change, heard=heard: heard.append(change))
        for move in moves:
            start = time.perf_counter_ns()
            session.propose(move)
            times.append((time.perf_counter_ns() - start) / 1e6)
        assert len(heard) == len(moves)
    return times


class TimedJournal:
    def __init__(self, inner: StoreJournal) -> None:
        self.inner = inner
        self.times: list[float] = []

    def save(self, first: int, moves: Any, redo: Any) -> None:
        start = time.perf_counter_ns()
        self.inner.save(first, moves, redo)
        self.times.append((time.perf_counter_ns() - start) / 1e6)


def bench_propose_durable(moves: list[Any], directory: Path) -> tuple[list[float], list[float]]:
    """(commit ms, whole propose ms) with the SQLite store on ``directory``."""
    with Store.open(directory / "bench.sqlite3") as store:
        sid = store.new_session("campanile", camp.PLAYERS, {}, camp.SETUP)
        session = store.open_session(sid)
        journal = TimedJournal(session._journal)  # type: ignore[arg-type]
        session._journal = journal
        whole: list[float] = []
        for move in moves:
            start = time.perf_counter_ns()
            session.propose(move)
            whole.append((time.perf_counter_ns() - start) / 1e6)
        assert store.session(sid).moves == len(moves)
        return journal.times, whole


def bench_replay(record: dict[str, Any], rounds: int) -> float:
    """Best-of-``rounds`` milliseconds per move to parse and replay ``record``."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter_ns()
        final_state(parse_record(record))
        best = min(best, (time.perf_counter_ns() - start) / 1e6)
    return best / len(record["moves"])


def _time_run(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    return (time.perf_counter() - start) * 1000


def bench_cold_start(runs: int) -> tuple[float, float]:
    """(median ms of `companion replay EXAMPLE --json`, median ms of `python -c pass`).

    The two commands alternate, so that a busy machine slows both alike.
    """
    example = ROOT / "tests" / "data" / "examples" / "campanile-3p.json"
    script = Path(sys.executable).parent / "companion"
    replay = [str(script)] if script.exists() else [sys.executable, "-m", "companion"]
    bare_command = [sys.executable, "-c", "pass"]
    replay_command = [*replay, "replay", str(example), "--json"]
    _time_run(bare_command), _time_run(replay_command)  # warm the file cache
    bare, cold = [], []
    for _ in range(runs):
        bare.append(_time_run(bare_command))
        cold.append(_time_run(replay_command))
    return statistics.median(cold), statistics.median(bare)


def machine() -> str:
    return (f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
            f"SQLite {__import__('sqlite3').sqlite_version}, {platform.system()} {platform.release()}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update-docs", action="store_true",
                        help="write the figures into docs/performance.md")
    parser.add_argument("--dir", type=Path,
                        help="directory for the benchmark database (default: a temp dir in benchmarks/)")
    parser.add_argument("--quick", action="store_true", help="fewer rounds (a smoke test)")
    args = parser.parse_args(argv)
    rounds = 1 if args.quick else 5

    print("building a long legal Campanile record ...", file=sys.stderr)
    record = long_record(400 if args.quick else 2000)
    parsed = parse_record(record)
    moves = list(parsed.moves)
    short = moves[:300]

    rows: list[tuple[str, str, str, str]] = []
    over = False

    def add(name: str, value: str, budget: str, ok: bool | None) -> None:
        nonlocal over
        verdict = "info" if ok is None else ("PASS" if ok else "OVER")
        over = over or ok is False
        rows.append((name, value, budget, verdict))

    cpu = bench_propose_cpu(short, rounds)
    cpu_median = statistics.median(cpu)
    add("propose() CPU path (validate+apply+notify), median", f"{cpu_median:.3f} ms", "<= 1 ms",
        cpu_median <= 1.0)
    add("propose() CPU path, p99", f"{percentile(cpu, 0.99):.3f} ms", "-", None)

    base = args.dir or ROOT / "benchmarks"
    base.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=base, prefix=".bench-") as directory:
        commit, whole = bench_propose_durable(moves[:200], Path(directory))
    add("durable commit (SQLite WAL, synchronous=FULL), median", f"{statistics.median(commit):.2f} ms",
        "reported", None)
    add("durable commit, p99", f"{percentile(commit, 0.99):.2f} ms", "reported", None)
    add("propose() with the store, median", f"{statistics.median(whole):.2f} ms", "reported", None)

    per_move = bench_replay(record, rounds)
    add(f"replay per move ({len(moves)}-move record, parse+apply)", f"{per_move:.4f} ms", "<= 0.2 ms",
        per_move <= 0.2)

    cold, bare = bench_cold_start(5 if args.quick else 21)
    ratio = cold / bare
    add("`companion replay` cold start / `python -c pass`",
        f"{ratio:.2f}x ({cold:.0f} ms / {bare:.0f} ms)", "<= 4x", ratio <= 4.0)

    width = max(len(r[0]) for r in rows)
    print(f"{'figure':<{width}}  {'value':>26}  {'budget':>9}  verdict")
    for name, value, budget, verdict in rows:
        print(f"{name:<{width}}  {value:>26}  {budget:>9}  {verdict}")
    print(f"machine: {machine()}; database on {base}")

    if args.update_docs:
        write_docs(rows, base)
    return 1 if over else 0


def write_docs(rows: list[tuple[str, str, str, str]], base: Path) -> None:
    stamp = datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    table = ["| figure | value | budget | verdict |", "|---|---|---|---|"]
    table += [f"| {name} | {value} | {budget} | {verdict} |" for name, value, budget, verdict in rows]
    where = base.relative_to(ROOT) if base.is_relative_to(ROOT) else base
    block = "\n".join([BEGIN, f"Measured {stamp} on {machine()}.", "",
                       f"Benchmark database directory: `{where}` (same file system as the repository).",
                       "", *table, END])
    text = DOCS.read_text(encoding="utf-8") if DOCS.exists() else ""
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        text = text + "\n" + block + "\n"
    DOCS.write_text(text, encoding="utf-8")
    print(f"wrote the figures into {DOCS.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
