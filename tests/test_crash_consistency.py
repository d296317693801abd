"""Process-crash consistency: SIGKILL a child while it plays into the store, then reopen.

The child (tests/helpers_crash_child.py) prints ``ok N`` after operation N
(a propose, undo or redo) returned. Whatever moment the kill lands — while
opening/creating the database, between moves, or inside a commit — the store
must afterwards pass ``PRAGMA integrity_check``, hold every operation whose
``ok`` was printed (and at most the one in flight besides), and resume: the
reopened session's state is the replay of the stored moves and the next move
is accepted and stored.

This proves the process-crash case. A power cut additionally relies on
SQLite's documented guarantee for WAL with ``synchronous=FULL`` (each commit
is fsynced to the WAL before it returns); see docs/storage.md.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.service.app import Companion
from companion.storage.store import Store
from tests import helpers_campanile as camp
from tests.child_output import ChildEnded, ChildOutput
from tests.helpers_crash_child import script

ROOT = Path(__file__).resolve().parent.parent
TRIALS = 60
LENGTH = 60


def _spawn(db: Path, seed: int, fresh: bool) -> subprocess.Popen[str]:
    args = [sys.executable, "-m", "tests.helpers_crash_child", str(db), str(seed), "--length", str(LENGTH)]
    if fresh:
        args.append("--fresh")
    return subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            bufsize=1)


def _run_and_kill(proc: subprocess.Popen[str], rng: random.Random, ops: int) -> tuple[int, str]:
    """Kill the child at a random moment; returns (last ``ok`` number printed, where the kill landed).

    The child's output is read by one reader only (:class:`ChildOutput`), before and after the kill.
    """
    output = ChildOutput(proc)
    if rng.random() < 0.15:
        time.sleep(rng.uniform(0.0, 0.25))  # somewhere in start-up, opening or creating the store
    else:
        target = "ready" if (k := rng.randint(0, ops)) == 0 else f"ok {k}"
        try:
            output.wait_for((target, "done"))
        except ChildEnded as ended:
            pytest.fail(f"the child ended by itself (exit {proc.poll()}): {str(ended)[-2000:]}")
        time.sleep(rng.uniform(0.0, 0.004))  # land anywhere in the next operation
    os.kill(proc.pid, signal.SIGKILL)
    lines = output.finish()
    assert proc.returncode == -signal.SIGKILL
    numbers = [int(line.split()[1]) for line in lines if line.startswith("ok ")]
    assert numbers == list(range(1, len(numbers) + 1))
    return (numbers[-1] if numbers else 0), landing(lines)


def landing(lines: list[str]) -> str:
    """Where the kill landed, from the child's last line: before ``ready``, inside an operation, ...

    The child prints ``begin N`` before operation N and ``ok N`` after it, so a
    last line ``begin N`` means the kill came during operation N: its validation
    (microseconds) or its write transaction (the rest).
    """
    last = lines[-1] if lines else ""
    if last.startswith("begin "):
        return "inside an operation"
    if last == "done":
        return "after the last operation"
    if last == "ready" or last.startswith("ok "):
        return "between operations"
    return "while starting"


def _check_store(db: Path, snapshots: list, last_ok: int, fresh: bool) -> str:
    game = camp.engine()
    with Companion.open(db) as app:
        store = app.store
        assert store.pragma("integrity_check") == "ok"
        live = app.latest_unfinished()
        if live is None:
            assert fresh and last_ok == 0, "the session vanished"
            return "no session yet"
        stored = store.stored_moves(live.id)
        allowed = snapshots[last_ok:last_ok + 2]
        assert stored in [(log, redo) for log, redo in allowed], (
            f"after ok {last_ok} the store holds {len(stored[0])} moves / {len(stored[1])} undone")
        in_flight = stored != (snapshots[last_ok][0], snapshots[last_ok][1])

        session = live.session
        expected = camp.initial()
        for data in stored[0]:
            expected = game.apply(expected, game.parse_move(data))
        assert session.state == expected
        assert [game.move_to_json(m) for m in session.redo_stack] == stored[1]

        next_move = camp.legal_moves(session.state)[0]
        session.propose(next_move)
        assert store.stored_moves(live.id)[0] == [*stored[0], game.move_to_json(next_move)]
    with Store.open(db) as again:
        assert again.pragma("integrity_check") == "ok"
        assert len(again.stored_moves(live.id)[0]) == len(stored[0]) + 1
    return "in flight committed" if in_flight else "exact"


def test_sigkill_at_random_moments_loses_no_confirmed_move(
        tmp_path: Path, record_property: Callable[[str, object], None]) -> None:
    rng = random.Random(20240501)
    scripts: dict[int, tuple[list, list]] = {}
    outcomes: Counter[str] = Counter()
    landings: Counter[str] = Counter()
    for trial in range(TRIALS):
        seed = trial % 6  # a few different games, each killed at many moments
        if seed not in scripts:
            scripts[seed] = script(seed, LENGTH)
        ops, snapshots = scripts[seed]
        db = tmp_path / f"trial-{trial}.sqlite3"
        fresh = trial % 5 == 0
        if not fresh:
            with Companion.open(db) as app:
                app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
        proc = _spawn(db, seed, fresh)
        try:
            last_ok, landed = _run_and_kill(proc, rng, len(ops))
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        outcome = _check_store(db, snapshots, last_ok, fresh)
        outcomes[outcome] += 1
        landings[landed] += 1
        if landed == "inside an operation" and outcome == "exact":
            landings["of which before its commit ended"] += 1  # in the write transaction, mostly
    record_property("outcomes", dict(outcomes))
    record_property("kills landed", dict(landings))
    print(f"\nkills landed: {dict(landings)}; stores found: {dict(outcomes)}")
    assert sum(outcomes.values()) == TRIALS
    assert outcomes["exact"] > 0  # the checks really ran against stored games
    # The point of the test: kills that land inside a write. Nearly every kill after
    # "ready" does (the child runs its operations back to back), so this cannot miss.
    assert landings["inside an operation"] > 0
