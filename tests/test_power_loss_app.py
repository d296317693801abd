"""Power loss on the real app: SIGKILL the touchscreen app while players enter moves, restart it.

The child (tests/helpers_power_child.py) is the real shell in an offscreen
Kivy window over a store on disk, played by synthetic touches on the Campanile
board and by presses of the Undo button on gpiozero's mock pins. It prints
``confirmed N`` once a change is shown as saved. The parent kills it at random
moments — while it starts, between moves, inside a move's commit — several
times per run, restarts it on the same store each time, and checks that the
same game comes back on the game screen, the board showing its moves, with
every confirmed move (and at most the one in flight besides).

SIGKILL is the closest a test gets to pulling the plug: the process dies at
once, whatever it was doing. What it cannot show is the SD card's own
behaviour when its power goes (a card that loses writes it had acknowledged);
see docs/appliance.md.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from companion.service.app import Companion
from companion.storage.store import Store
from tests import helpers_campanile as camp
from tests.child_output import ChildEnded, ChildOutput
from tests.helpers_power_child import script

ROOT = Path(__file__).resolve().parent.parent
KILLS = 5
SEED = 11


def _spawn(store: Path) -> tuple[subprocess.Popen[str], ChildOutput]:
    environment = dict(os.environ, KIVY_NO_CONSOLELOG="1", KIVY_NO_ARGS="1")
    proc = subprocess.Popen([sys.executable, "-m", "tests.helpers_power_child", str(store), str(SEED)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
                            env=environment)
    return proc, ChildOutput(proc)


def _kill(proc: subprocess.Popen[str], output: ChildOutput) -> list[str]:
    os.kill(proc.pid, signal.SIGKILL)
    lines = output.finish()
    assert proc.returncode == -signal.SIGKILL, output.stderr_so_far()[-2000:]
    return lines


def _until(output: ChildOutput, prefix: str) -> str:
    """The child's next line starting with ``prefix`` (the lines before it are kept in ``output``)."""
    while not (line := output.next_line()).startswith(prefix):
        pass
    return line


def _expected_heights(moves: list[dict], count: int) -> str:
    game = camp.engine()
    state = camp.initial()
    for data in moves[:count]:
        state = game.apply(state, game.parse_move(data))
    return ",".join(str(height) for height in state.heights)


def _allowed(lines: list[str], before: int) -> set[int]:
    """The log lengths the store may hold after these lines: every confirmed change, and the one in
    flight (a move or a redo adds one, an undo takes one) if its commit ended before the kill."""
    confirmed = before
    for line in lines:
        if line.startswith("ready "):
            confirmed = int(line.split()[2])
        elif line.startswith("confirmed "):
            confirmed = int(line.split()[1])
    last = lines[-1] if lines else ""
    if last in ("begin move", "begin redo"):
        return {confirmed, confirmed + 1}
    if last == "begin undo":
        return {confirmed, confirmed - 1}
    return {confirmed}


def _stored(store: Path, session_id: int) -> list[dict]:
    with Store.open(store, read_only=True) as reading:
        assert reading.pragma("integrity_check") == "ok"
        return reading.stored_moves(session_id)[0]


def test_the_app_killed_at_random_moments_comes_back_with_every_confirmed_move(tmp_path: Path) -> None:
    seed = int.from_bytes(os.urandom(4), "big")  # other moments every run; a failure names its seed
    rng = random.Random(seed)
    print(f"\nseed {seed}")
    moves = script(SEED)
    store = tmp_path / "companion.sqlite3"
    with Companion.open(store) as app:
        session_id = app.start("campanile", camp.PLAYERS, setup=camp.SETUP).id
    allowed, landed = {0}, []
    for kill in range(KILLS + 1):
        proc, output = _spawn(store)
        try:
            if kill < KILLS and rng.random() < 0.15:  # while it starts: importing, opening the store
                time.sleep(rng.uniform(0.1, 1.5))
                lines = _kill(proc, output)
                landed.append("while starting" if not lines else lines[-1])
                if not lines:
                    continue
            else:
                try:
                    ready = _until(output, "ready ")
                except ChildEnded as ended:
                    raise AssertionError(f"the app did not start: {str(ended)[-2000:]}") from None
                _, shown_id, count, screen, heights = ready.split()
                # the same game, on the game screen, the board showing its moves, every confirmed one there
                assert (int(shown_id), screen) == (session_id, "game")
                assert int(count) in allowed, (seed, count, allowed)
                assert heights == _expected_heights(moves, int(count))
                if kill == KILLS:
                    _kill(proc, output)
                    break
                for _ in range(rng.randint(1, 6)):
                    _until(output, "confirmed ")
                time.sleep(rng.uniform(0.0, 0.15))  # land anywhere in the next change
                lines = _kill(proc, output)
                landed.append(lines[-1].split()[0] + " " + lines[-1].split()[1]
                              if lines[-1].startswith("begin") else "between changes")
            count = len(_stored(store, session_id))
            allowed = _allowed(lines, min(allowed))
            assert count in allowed, (seed, count, allowed, lines[-3:])
            assert _stored(store, session_id) == moves[:count]  # the game's own moves, in order
            allowed = {count}
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    print(f"\nkills landed: {landed}")
    assert len(landed) == KILLS
