"""Measure the companion against its budgets: ``.venv/bin/python benchmarks/run.py``.

Prints each figure with its budget and PASS/OVER (reported-only figures say
``info``) and exits 1 if any budgeted figure is over. ``--update-docs``
also writes the figures, date and machine into docs/performance.md.

Figures, for each game (Campanile, Castelli, San Gimignano), over a few long
legal games generated with fixed seeds (``benchmarks/legal_games.py``):
- ``propose()`` CPU path: validate + apply + notify (one listener), no journal;
  budget: median <= 1 ms; p99 and max reported.
- shown: what a screen needs after each move, ``game.summary(state)`` (which
  holds ``turn``), ``game.legal_moves(state)`` and the turn strip's step
  (``game.what_now(state)``); median, p99 and max reported.
- ``propose()`` CPU path + shown, per move: budget p99 <= 1.7 ms (one 60 fps
  frame on the Pi, about 10x slower, divided by 10); max reported.
- replay per move (``parse_record`` + ``final_state``), median of the rounds;
  budget <= 0.2 ms.
- the engine contract on every state of the example records and of the
  benchmark games (Castelli's on the shipped 4-player layout), each state fresh
  (no facts cached from an earlier question): ``legal_moves`` budget median
  <= 0.5 ms, p99 and max reported; ``turn``, ``outcome``, each view target and
  ``preview_*`` reported.
And once:
- ``propose()`` with the SQLite store (database in a temporary directory under
  ``benchmarks/``, on the repository's file system; ``--dir`` to choose): the
  durable commit (WAL, synchronous=FULL) timed alone and the whole call; median
  and p99 reported, not budgeted.
- opening a store that holds 1,000 finished games (``Store.open``: the writer's
  lock, ``PRAGMA quick_check``, the schema check), median of the rounds;
  budget <= 100 ms (the Pi, about 10x slower, would take about 10x that: it is
  reported as an estimate); ``quick_check`` alone and a read-only open reported.
- a backup of that store (``Store.copy_to``, SQLite's online backup API), reported.
- ``companion replay`` process cold start as a multiple of a bare ``python -c pass``;
  budget <= 3x (``benchmarks/cold_start.py`` measures each game's alone).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import (  # noqa: E402
    TimedJournal,
    bytecode_folders,
    compile_packages,
    remove_bytecode,
)
from benchmarks.games.campanile import campanile_long_record  # noqa: E402
from benchmarks.legal_games import GENERATORS, Spec  # noqa: E402
from companion.registry import title as registry_title  # noqa: E402
from companion.service.app import Companion  # noqa: E402
from companion.service.records import Record, final_state, parse_record  # noqa: E402
from companion.service.session import Session  # noqa: E402
from companion.storage.store import Store  # noqa: E402
from tests import helpers_campanile as camp  # noqa: E402

DOCS = ROOT / "docs" / "performance.md"
EXAMPLES = ROOT / "tests" / "data" / "examples"
BEGIN, END = "<!-- figures:begin -->", "<!-- figures:end -->"
#: Budgets (ms on this machine; the Pi is about 10x slower).
PROPOSE_MEDIAN_BUDGET = 1.0
FRAME_P99_BUDGET = 1.7
REPLAY_BUDGET = 0.2
LEGAL_MOVES_BUDGET = 0.5
OPEN_BUDGET = 100.0
PI_FACTOR = 10
LIBRARY_GAMES = 1000


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def worst_move(values: list[float], rounds: int) -> float:
    """The slowest move's median over the rounds (``values`` holds ``rounds`` passes over the same moves).

    A single call's maximum on a shared machine is often a scheduler or
    garbage-collector pause; the median of the same move over the rounds is
    what the code costs in its worst spot.
    """
    per_round = len(values) // rounds
    return max(statistics.median(values[move::per_round]) for move in range(per_round))


@dataclass
class MoveTimes:
    """Milliseconds per move: the propose() CPU path, the shown cost, and both together."""

    propose: list[float]
    shown: list[float]
    both: list[float]


def bench_moves(records: list[Record], rounds: int) -> MoveTimes:
    """Play every record move by move through a Session (no journal, one listener), ``rounds`` times.

    After each ``propose()`` the screen's work is timed: ``summary`` (with ``turn``)
    and ``legal_moves`` of the new state.
    """
    times = MoveTimes([], [], [])
    for _ in range(rounds):
        for record in records:
            game = record.game
            session = Session(game, record.players, record.initial)
            heard: list[Any] = []
            session.subscribe(lambda _s, change, heard=heard: heard.append(change))
            for move in record.moves:
                start = time.perf_counter_ns()
                state = session.propose(move)
                proposed = time.perf_counter_ns()
                game.summary(state)
                game.legal_moves(state)
                game.what_now(state)  # the turn strip's and the OLED's step
                shown = time.perf_counter_ns()
                times.propose.append((proposed - start) / 1e6)
                times.shown.append((shown - proposed) / 1e6)
                times.both.append((shown - start) / 1e6)
            assert len(heard) == len(record.moves)
            assert game.is_finished(session.state), "a benchmark game must be played to its end"
    return times


def example_records() -> list[Record]:
    return [parse_record(json.loads(path.read_text(encoding="utf-8")))
            for path in sorted(EXAMPLES.glob("*.json")) if not path.name.endswith(".expected.json")]


def view_asks(name: str) -> dict[str, Any]:
    """The view targets and previews of one game, as functions of a state."""
    if name == "campanile":
        from companion.games.campanile import views as campanile

        return {"views.targets": campanile.targets, "views.preview": campanile.preview}
    if name == "castelli":
        from companion.games.castelli import views as castelli

        def preview_area(state: Any) -> Any:
            return [castelli.preview_area(state, area) for area in list(state.board.areas)[:1]]

        return {"views.targets": castelli.targets, "views.build_targets":
                lambda s: castelli.build_targets(s, s.players[s.current or 0]),
                "views.preview_area (one area)": preview_area, "views.preview_final": castelli.preview_final}
    from companion.games.san_gimignano import views as sg

    return {"views.targets (acting player)":
            lambda s: sg.targets(s, s.current or s.players[s.next_seat])}


def bench_contract(records: list[Record], rounds: int) -> dict[str, list[float]]:
    """Milliseconds per state of ``legal_moves``, ``turn``, ``outcome`` and the views (fresh copies)."""
    asks: dict[str, Any] = {}
    if records:
        game = records[0].game
        asks = {"legal_moves": game.legal_moves, "turn": game.turn, "outcome": game.outcome,
                **view_asks(game.name)}
    times: dict[str, list[float]] = {name: [] for name in asks}
    states: list[Any] = []
    for record in records:
        state = record.initial
        states.append(state)
        for move in record.moves:
            state = record.game.apply(state, move)
            states.append(state)
    for _ in range(rounds):
        for state in states:
            for name, ask in asks.items():
                fresh = replace(state)  # facts cached on a state are not carried over
                start = time.perf_counter_ns()
                ask(fresh)
                times[name].append((time.perf_counter_ns() - start) / 1e6)
    return times


class GcPauses:
    """The garbage collector's pauses (ms) by generation, while installed (``gc.callbacks``)."""

    def __init__(self) -> None:
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._start = 0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = time.perf_counter_ns()
        else:
            self.pauses[info["generation"]].append((time.perf_counter_ns() - self._start) / 1e6)

    def __enter__(self) -> GcPauses:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self)


def bench_propose_durable(moves: list[Any], directory: Path) -> tuple[list[float], list[float]]:
    """(commit ms, whole propose ms) with the SQLite store on ``directory``."""
    with Companion.open(directory / "bench.sqlite3") as app:
        store = app.store
        live = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
        sid, session = live.id, live.session
        journal = TimedJournal(session._journal)
        session._journal = journal
        whole: list[float] = []
        for move in moves:
            start = time.perf_counter_ns()
            session.propose(move)
            whole.append((time.perf_counter_ns() - start) / 1e6)
        assert store.session(sid).moves == len(moves)
        return journal.times, whole


def build_library(path: Path, games: int) -> int:
    """A store holding ``games`` finished Campanile games (25 distinct games, players renamed); its moves."""
    game = camp.engine()
    distinct = [[game.move_to_json(m) for m in camp.random_game(seed, 40)] for seed in range(25)]
    moves = 0
    with Companion.open(path) as app:
        store = app.store
        for number in range(games):
            names = {old: f"{old} {number}" for old in camp.PLAYERS}
            log = [{k: names.get(v, v) if k == "player" else v for k, v in m.items()}
                   for m in distinct[number % len(distinct)]]
            app.import_record({"format": "companion-record/1", "game": "campanile",
                                 "players": list(names.values()), "options": {}, "setup": camp.SETUP,
                                 "moves": log})
            moves += len(log)
        assert len(store.results()) == 3 * games
    return moves


def bench_open(path: Path, rounds: int) -> tuple[list[float], list[float], list[float]]:
    """(Store.open ms, quick_check alone ms, read-only open ms) over ``rounds`` rounds."""
    opened, checked, reading = [], [], []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        store = Store.open(path)
        opened.append((time.perf_counter_ns() - start) / 1e6)
        assert store.damage == []
        start = time.perf_counter_ns()
        assert store.pragma("quick_check") == "ok"
        checked.append((time.perf_counter_ns() - start) / 1e6)
        store.close()
        start = time.perf_counter_ns()
        Store.open(path, read_only=True).close()
        reading.append((time.perf_counter_ns() - start) / 1e6)
    return opened, checked, reading


def bench_backup(path: Path, rounds: int) -> tuple[list[float], int]:
    """(ms per ``copy_to`` of the store at ``path``, the copy's size in bytes)."""
    times = []
    size = 0
    with Store.open(path, read_only=True) as store:
        for round_ in range(rounds):
            target = path.with_name(f"backup-{round_}.sqlite3")
            start = time.perf_counter_ns()
            store.copy_to(target)
            times.append((time.perf_counter_ns() - start) / 1e6)
            size = target.stat().st_size
            target.unlink()
    return times, size


def bench_replay(records: list[dict[str, Any]], rounds: int) -> float:
    """Milliseconds per move to parse and replay ``records``: the median of ``rounds`` rounds."""
    moves = sum(len(record["moves"]) for record in records)
    per_round = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        for record in records:
            final_state(parse_record(record))
        per_round.append((time.perf_counter_ns() - start) / 1e6 / moves)
    return statistics.median(per_round)


def _time_run(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    return (time.perf_counter() - start) * 1000


def bench_cold_start(runs: int) -> tuple[float, float, float]:
    """(median ms of `companion replay EXAMPLE --json` with the project's bytecode compiled, as an
    installed appliance has it; the same with the project's source compiled at every start; median
    ms of `python -c pass`).

    `pip install` (systemd/install.sh) compiles every module to bytecode, so the appliance never
    compiles the companion's source at start. A development checkout may (an editable install
    writes no bytecode, and this machine sets PYTHONDONTWRITEBYTECODE): that figure is reported
    too. The commands alternate, so that a busy machine slows all alike; the bytecode written
    here is removed again.
    """
    example = ROOT / "tests" / "data" / "examples" / "campanile-3p.json"
    script = Path(sys.executable).parent / "companion"
    replay = [str(script)] if script.exists() else [sys.executable, "-m", "companion"]
    bare_command = [sys.executable, "-c", "pass"]
    replay_command = [*replay, "replay", str(example), "--json"]
    caches = bytecode_folders()
    _time_run(bare_command), _time_run(replay_command)  # warm the file cache
    bare, source = [], []
    if not caches:  # with bytecode already there, the source is not compiled at start
        for _ in range(runs):
            bare.append(_time_run(bare_command))
            source.append(_time_run(replay_command))
    compiled_here = compile_packages()
    try:
        installed = []
        for _ in range(runs):
            bare.append(_time_run(bare_command))
            installed.append(_time_run(replay_command))
    finally:
        remove_bytecode(compiled_here - caches)
    return (statistics.median(installed), statistics.median(source) if source else float("nan"),
            statistics.median(bare))


def machine() -> str:
    return (f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
            f"SQLite {__import__('sqlite3').sqlite_version}, {platform.system()} {platform.release()}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update-docs", action="store_true",
                        help="write the figures into docs/performance.md")
    parser.add_argument("--dir", type=Path,
                        help="directory for the benchmark database (default: a temp dir in benchmarks/)")
    parser.add_argument("--quick", action="store_true", help="fewer games and rounds (a smoke test)")
    args = parser.parse_args(argv)
    rounds = 1 if args.quick else 5

    rows: list[tuple[str, str, str, str]] = []
    over = False

    def add(name: str, value: str, budget: str, ok: bool | None) -> None:
        nonlocal over
        verdict = "info" if ok is None else ("PASS" if ok else "OVER")
        over = over or ok is False
        rows.append((name, value, budget, verdict))

    def ms(values: list[float], median: bool = True) -> str:
        shown = [statistics.median(values)] if median else []
        shown += [percentile(values, 0.99), worst_move(values, rounds), max(values)]
        return " / ".join(f"{value:.3f}" for value in shown) + " ms"

    games: list[str] = []
    # a Castelli Championship round (two groups' games in one state) has its own figures:
    # benchmarks/castelli_round.py
    examples = [record for record in example_records() if "groups" not in record.setup]
    pauses = GcPauses()
    long = campanile_long_record(400 if args.quick else 2000)
    for name, generate in GENERATORS.items():
        title = registry_title(name)
        print(f"generating {title} games ...", file=sys.stderr)
        specs: list[Spec] = generate(args.quick)
        records = [parse_record(spec.record) for spec in specs]
        count = sum(len(r.moves) for r in records)
        with pauses:
            times = bench_moves(records, rounds)
        cpu = statistics.median(times.propose)
        add(f"{title}: propose() CPU path, median", f"{cpu:.3f} ms", "<= 1 ms",
            cpu <= PROPOSE_MEDIAN_BUDGET)
        add(f"{title}: propose() CPU path, p99 / slowest move / slowest call",
            ms(times.propose, median=False), "-", None)
        add(f"{title}: shown (summary+legal_moves+what_now), median / p99 / slowest move / slowest call",
            ms(times.shown),
            "-", None)
        frame = percentile(times.both, 0.99)
        add(f"{title}: propose() CPU + shown, p99", f"{frame:.3f} ms", "<= 1.7 ms", frame <= FRAME_P99_BUDGET)
        add(f"{title}: propose() CPU + shown, slowest move / slowest call",
            f"{worst_move(times.both, rounds):.3f} / {max(times.both):.3f} ms", "-", None)
        contract = bench_contract([r for r in examples if r.game.name == name] + records, rounds)
        lm = statistics.median(contract["legal_moves"])
        add(f"{title}: legal_moves, median", f"{lm:.3f} ms", "<= 0.5 ms", lm <= LEGAL_MOVES_BUDGET)
        for figure, values in contract.items():
            add(f"{title}: {figure}, median / p99 / slowest state / slowest call", ms(values), "-", None)
        if name == "campanile":
            replayed, what = [long], f"one {len(long['moves'])}-move record"
        else:
            replayed, what = [spec.record for spec in specs], f"the {count} moves above"
        per_move = bench_replay(replayed, rounds)
        add(f"{title}: replay per move, median", f"{per_move:.4f} ms", "<= 0.2 ms",
            per_move <= REPLAY_BUDGET)
        played = ", ".join(f"{spec.label} ({len(record.moves)} moves)"
                           for spec, record in zip(specs, records, strict=True))
        games.append(f"{title}: {played}; replay over {what}")

    young = pauses.pauses[0] + pauses.pauses[1]
    full = pauses.pauses[2]
    add("garbage collector during the move runs: longest full (gen 2) / young pause",
        f"{max(full, default=0):.2f} ms ({len(full)}x) / {max(young, default=0):.2f} ms", "-", None)

    moves = list(parse_record(long).moves)
    base = args.dir or ROOT / "benchmarks"
    base.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=base, prefix=".bench-") as directory:
        commit, whole = bench_propose_durable(moves[:200], Path(directory))
    add("durable commit (SQLite WAL, synchronous=FULL), median", f"{statistics.median(commit):.2f} ms",
        "reported", None)
    add("durable commit, p99", f"{percentile(commit, 0.99):.2f} ms", "reported", None)
    add("propose() with the store, median", f"{statistics.median(whole):.2f} ms", "reported", None)

    with tempfile.TemporaryDirectory(dir=base, prefix=".bench-") as directory:
        library = Path(directory) / "library.sqlite3"
        print(f"storing {LIBRARY_GAMES} finished games ...", file=sys.stderr)
        stored = build_library(library, 100 if args.quick else LIBRARY_GAMES)
        games_held = 100 if args.quick else LIBRARY_GAMES
        what = f"{games_held} finished games, {stored} moves, {library.stat().st_size // 1024} KiB"
        opened, checked, reading = bench_open(library, 5 if args.quick else 21)
        open_ms = statistics.median(opened)
        add(f"open the store ({what}): lock + quick_check + schema, median", f"{open_ms:.1f} ms",
            "<= 100 ms", open_ms <= OPEN_BUDGET)
        add("... the same on the Pi (estimate: x10)", f"{open_ms * PI_FACTOR:.0f} ms", "-", None)
        add("... of which quick_check alone, median / read-only open, median",
            f"{statistics.median(checked):.1f} / {statistics.median(reading):.1f} ms", "-", None)
        copied, size = bench_backup(library, 3 if args.quick else 7)
        add(f"backup of that store (online backup API, {size // 1024} KiB), median",
            f"{statistics.median(copied):.1f} ms", "reported", None)

    cold, source, bare = bench_cold_start(5 if args.quick else 21)
    ratio = cold / bare
    add("`companion replay` cold start / `python -c pass` (bytecode compiled, as installed)",
        f"{ratio:.2f}x ({cold:.0f} ms / {bare:.0f} ms)", "<= 3x", ratio <= 3.0)
    add("... the same compiling the companion's source at start (a checkout without bytecode)",
        f"{source / bare:.2f}x ({source:.0f} ms)", "-", None)

    width = max(len(r[0]) for r in rows)
    print(f"{'figure':<{width}}  {'value':>34}  {'budget':>9}  verdict")
    for name, value, budget, verdict in rows:
        print(f"{name:<{width}}  {value:>34}  {budget:>9}  {verdict}")
    print(f"machine: {machine()}; database on {base}")
    print("games (each played through propose() in every round):")
    for line in games:
        print(f"  {line}")

    if args.update_docs:
        write_docs(rows, games, base)
    return 1 if over else 0


def write_docs(rows: list[tuple[str, str, str, str]], games: list[str], base: Path) -> None:
    stamp = datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    table = ["| figure | value | budget | verdict |", "|---|---|---|---|"]
    table += [f"| {name} | {value} | {budget} | {verdict} |" for name, value, budget, verdict in rows]
    where = base.relative_to(ROOT) if base.is_relative_to(ROOT) else base
    block = "\n".join([BEGIN, f"Measured {stamp} on {machine()}.", "",
                       f"Benchmark database directory: `{where}` (same file system as the repository).",
                       "", *table, "", "Games (fixed seeds, `benchmarks/legal_games.py`):", "",
                       *[f"- {line}" for line in games], END])
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
