"""The child process of the crash-consistency test: plays a scripted game into a store on disk.

``python -m tests.helpers_crash_child DB SEED [--fresh]`` opens the store
(``--fresh``: creates it and a new session; else resumes the unfinished
session) and prints ``ready``, then runs the script of :func:`script` for
``SEED``, printing and flushing ``begin N`` before operation N and ``ok N``
after it returned (so the parent can tell where its kill landed). When the script is done it
prints ``done`` and waits to be killed.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from companion.service.session import Session
from tests import helpers_campanile as camp

Snapshot = tuple[list[dict[str, Any]], list[dict[str, Any]]]


def script(seed: int, length: int) -> tuple[list[tuple[str, Any]], list[Snapshot]]:
    """Operations (``propose``/``undo``/``redo``) and the (log, redo) JSON after each.

    ``snapshots[0]`` is the empty session, ``snapshots[n]`` the one after op ``n``.
    """
    rng = random.Random(seed)
    game = camp.engine()
    session = Session(game, camp.PLAYERS, camp.initial())
    choose = camp.weighted_chooser(rng, valuation_weight=0.03)
    ops: list[tuple[str, Any]] = []
    snapshots: list[Snapshot] = [([], [])]
    for _ in range(length):
        roll = rng.random()
        if roll < 0.15 and session.can_undo:
            session.undo()
            ops.append(("undo", None))
        elif roll < 0.25 and session.can_redo:
            session.redo()
            ops.append(("redo", None))
        else:
            moves = camp.playout(choose, session.state, 1)
            if not moves:
                break
            session.propose(moves[0])
            ops.append(("propose", moves[0]))
        snapshots.append(([game.move_to_json(m) for m in session.log],
                          [game.move_to_json(m) for m in session.redo_stack]))
    return ops, snapshots


def main(argv: list[str]) -> None:
    from companion.service.app import Companion

    path, seed = argv[0], int(argv[1])
    fresh = "--fresh" in argv
    length = int(argv[argv.index("--length") + 1]) if "--length" in argv else 60
    ops, _ = script(seed, length)
    app = Companion.open(path)
    if fresh:
        session = app.start("campanile", camp.PLAYERS, setup=camp.SETUP).session
    else:
        live = app.latest_unfinished()
        assert live is not None
        session = live.session
    print("ready", flush=True)
    for number, (kind, move) in enumerate(ops, start=1):
        print(f"begin {number}", flush=True)
        if kind == "propose":
            session.propose(move)
        elif kind == "undo":
            session.undo()
        else:
            session.redo()
        print(f"ok {number}", flush=True)
    print("done", flush=True)
    time.sleep(60)


if __name__ == "__main__":
    main(sys.argv[1:])
