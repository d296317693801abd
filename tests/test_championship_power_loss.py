"""A power cut in the middle of a championship round: SIGKILL the process entering moves, reopen.

The child (tests/helpers_championship_child.py) resumes round 1 of a stored
championship and enters both groups' moves, printing ``ok N`` once move N is
confirmed. The parent kills it at a random moment (between moves, or inside a
move's commit), then opens the store as the box does at boot: the game it
resumes must be the round, with every confirmed move of both groups (and at
most the one in flight besides), each group's game as those moves leave it;
the rest of the round is then entered and the championship goes on to round 2.
As tests/test_crash_consistency.py says, SIGKILL proves the process-crash case;
a power cut further relies on SQLite's WAL with ``synchronous=FULL``.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from companion.service.app import Companion
from tests.child_output import ChildOutput
from tests.helpers_championship_child import script

ROOT = Path(__file__).resolve().parent.parent
TRIALS = 4
FOUR = ("Ann", "Bob", "Cid", "Dan")


def _kill_at_random(db: Path, rng: random.Random, moves: int) -> int:
    """Run the child on ``db`` and kill it at a random moment; the last move it confirmed."""
    proc = subprocess.Popen([sys.executable, "-m", "tests.helpers_championship_child", str(db)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    try:
        output = ChildOutput(proc)
        output.wait_for((f"ok {rng.randint(1, moves - 2)}",))
        time.sleep(rng.uniform(0.0, 0.004))  # land anywhere in the next move, its commit included
        os.kill(proc.pid, signal.SIGKILL)
        lines = output.finish()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL, lines[-3:]
    return max(int(line.split()[1]) for line in lines if line.startswith("ok "))


def test_a_round_resumes_after_a_sigkill_with_both_groups_every_confirmed_move(tmp_path: Path) -> None:
    rng = random.Random(23)
    found: Counter[str] = Counter()
    for trial in range(TRIALS):
        folder = tmp_path / f"trial-{trial}"
        folder.mkdir()
        db = folder / "companion.sqlite3"
        with Companion.open(db) as app:
            first = app.championships.new(1, FOUR)
            game, opening = first.session.game, first.session.state
        moves = [game.move_to_json(game.parse_move(m)) for m in script(game, opening)]  # as stored
        confirmed = _kill_at_random(db, rng, len(moves))

        with Companion.open(db) as app:
            assert app.store.pragma("integrity_check") == "ok"
            live = app.latest_unfinished()  # what the box resumes at boot
            assert live is not None and (live.id, live.row.championship_round) == (first.id, 1)
            stored = app.store.stored_moves(live.id)[0]
            assert stored in (moves[:confirmed], moves[:confirmed + 1]), (confirmed, len(stored))
            found["in flight kept" if len(stored) > confirmed else "exact"] += 1
            # both groups have every confirmed move: each group's game is the replay of its own moves
            for index, group in enumerate(live.row.setup["groups"]):
                own = [m for m in stored if m.get("player") in group or m.get("group") == index + 1]
                state = game.start(tuple(group), {}, _group_setup(live.row.setup, index))
                for move in own:
                    state = game.apply(state, game.parse_move(move))
                assert game.summary(state)["scores"] == {p: game.summary(live.session.state)["scores"][p]
                                                         for p in group}
            status = app.championships.status(live=live)
            assert status.current is not None and status.current.session_id == live.id
            for move in moves[len(stored):]:
                live.session.propose(game.parse_move(move))
            status = app.championships.status()
            assert [g.winners for g in status.rounds[0].groups] == [("Bob",), ("Dan",)]
            assert status.next_groups == (("Bob", "Dan"), ("Ann", "Cid"))
            assert app.championships.next_round().row.championship_round == 2
    print(f"\nstores found after the kill: {dict(found)}")
    assert sum(found.values()) == TRIALS


def _group_setup(setup: dict, index: int) -> dict:
    """The setup of one group's game played alone (a 2-player Castelli game on its board and mine)."""
    group = setup["groups"][index]
    return {"board": setup["boards"][index], "colors": {p: setup["colors"][p] for p in group},
            "mine": setup["mines"][index]}
