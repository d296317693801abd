"""A child that confirms moves and dies with them still in the store's WAL (the kiosk, killed).

``python -m tests.helpers_wal_child DB COUNT`` starts a Campanile game in the store ``DB``, proposes
``COUNT`` moves, printing ``ok N`` once move N is confirmed (stored), then kills itself with SIGKILL:
no checkpoint runs, so the confirmed moves are in ``DB-wal`` only, as after a power cut mid-game.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

from companion.service.app import Companion
from tests import helpers_campanile as camp


def main(path: Path, count: int) -> None:
    with Companion.open(path) as app:
        live = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
        for number, move in enumerate(camp.random_game(1, count, finish=False), start=1):
            live.session.propose(move)
            print(f"ok {number}", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))
