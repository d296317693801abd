"""The child process of the championship power-cut test: plays round 1 of a stored championship.

``python -m tests.helpers_championship_child DB`` opens the store, resumes the
game in progress (the championship's round 1, as ``companion run`` would at
boot), prints ``ready``, then enters the round's moves (:func:`script`: both
groups' moves interleaved) but the last, printing ``begin N`` before move N and
``ok N`` once it is confirmed (stored). Then it prints ``done`` and waits to be
killed. It never ends the round: a kill that lands late (the parent kills a few
milliseconds after an ``ok``, and a fast machine may enter two moves meanwhile)
must still find the round in progress, as a power cut during play does.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from tests.championship_kit import round_moves

#: Who wins each group of the round the child plays.
WINNERS = ["Bob", "Dan"]


def script(game: Any, state: Any) -> list[dict[str, Any]]:
    """The round's moves from ``state`` (the round as started), the same in the parent and the child."""
    return round_moves(game, state, WINNERS)


def main(argv: list[str]) -> None:
    from companion.service.app import Companion

    app = Companion.open(argv[0])
    live = app.latest_unfinished()
    assert live is not None and live.row.championship is not None
    game = live.session.game
    moves = script(game, live.session.state)
    print("ready", flush=True)
    for number, move in enumerate(moves[:-1], start=1):
        print(f"begin {number}", flush=True)
        live.session.propose(game.parse_move(move))
        print(f"ok {number}", flush=True)
    print("done", flush=True)
    time.sleep(60)


if __name__ == "__main__":
    main(sys.argv[1:])
