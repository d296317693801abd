"""A Castelli Championship round against the move budgets: ``.venv/bin/python benchmarks/castelli_round.py``.

A round is two 2-player games at once with one deck (``companion.games.castelli.championship``);
its moves take the same path as any game's, so its budgets are ``benchmarks/run.py``'s, measured
the same way over long legal rounds generated with fixed seeds
(``benchmarks/games/castelli.py``, ``round_games``):
- ``propose()`` CPU path (validate + apply + notify, no journal), median; budget <= 1 ms;
- shown: ``summary``, ``legal_moves`` and ``what_now`` of the round, and each group's
  ``group_what_now`` and ``group_legal_moves`` (what the two boards' turn strips ask);
- ``propose()`` CPU path + shown, per move: budget p99 <= 1.7 ms;
- replay per move (``parse_record`` + ``final_state``), median of the rounds; budget <= 0.2 ms.
Prints each figure with its budget and PASS/OVER and exits 1 if any is over. ``--quick``: one
round, one pass (a smoke test).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.games.castelli import round_games  # noqa: E402
from benchmarks.run import (  # noqa: E402
    FRAME_P99_BUDGET,
    PROPOSE_MEDIAN_BUDGET,
    REPLAY_BUDGET,
    MoveTimes,
    bench_replay,
    percentile,
)
from companion.service.records import Record, parse_record  # noqa: E402
from companion.service.session import Session  # noqa: E402


def bench_round_moves(records: list[Record], rounds: int,
                      clock: Callable[[], int] = time.perf_counter_ns) -> MoveTimes:
    """Every round move by move through a Session (no journal, one listener), ``rounds`` times; after
    each ``propose()`` what the screens ask of the round and of each group.

    ``clock``: wall time by default, as ``benchmarks/run.py``; ``--cpu`` takes the thread's CPU time
    (``time.thread_time_ns``), which leaves out the time other processes hold the core: on a
    shared, loaded machine the wall clock's p99 measures the neighbours."""
    times = MoveTimes([], [], [])
    for _ in range(rounds):
        for record in records:
            game: Any = record.game
            session = Session(game, record.players, record.initial)
            heard: list[Any] = []
            session.subscribe(lambda _s, change, heard=heard: heard.append(change))
            for move in record.moves:
                start = clock()
                state = session.propose(move)
                proposed = clock()
                game.summary(state)
                game.legal_moves(state)
                game.what_now(state)
                for group in (1, 2):
                    game.group_what_now(state, group)
                    game.group_legal_moves(state, group)
                shown = clock()
                times.propose.append((proposed - start) / 1e6)
                times.shown.append((shown - proposed) / 1e6)
                times.both.append((shown - start) / 1e6)
            assert len(heard) == len(record.moves) and game.is_finished(session.state)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one round, one pass (a smoke test)")
    parser.add_argument("--cpu", action="store_true",
                        help="time the moves in the thread's CPU time rather than the wall clock")
    args = parser.parse_args(argv)
    passes = 1 if args.quick else 5
    specs = round_games(args.quick)
    records = [parse_record(spec.record) for spec in specs]
    times = bench_round_moves(records, passes, time.thread_time_ns if args.cpu else time.perf_counter_ns)
    per_move = bench_replay([spec.record for spec in specs], passes)
    cpu = statistics.median(times.propose)
    frame = percentile(times.both, 0.99)
    rows = [
        ("propose() CPU path, median", f"{cpu:.3f} ms", "<= 1 ms", cpu <= PROPOSE_MEDIAN_BUDGET),
        ("propose() CPU path, p99", f"{percentile(times.propose, 0.99):.3f} ms", "-", None),
        ("shown (round and both groups), median / p99",
         f"{statistics.median(times.shown):.3f} / {percentile(times.shown, 0.99):.3f} ms", "-", None),
        ("propose() CPU + shown, p99", f"{frame:.3f} ms", "<= 1.7 ms", frame <= FRAME_P99_BUDGET),
        ("propose() CPU + shown, slowest call", f"{max(times.both):.3f} ms", "-", None),
        ("replay per move, median", f"{per_move:.4f} ms", "<= 0.2 ms", per_move <= REPLAY_BUDGET),
    ]
    played = ", ".join(f"{spec.label} ({len(record.moves)} moves)" for spec, record in zip(specs, records,
                                                                                            strict=True))
    print(f"Castelli Championship rounds: {played}; moves timed in {'CPU' if args.cpu else 'wall'} time")
    for name, value, budget, ok in rows:
        verdict = "info" if ok is None else ("PASS" if ok else "OVER")
        print(f"  {name:<48} {value:>22}  {budget:>10}  {verdict}")
    return 1 if any(ok is False for *_, ok in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
