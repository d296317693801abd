"""Seat panel round trips over a pseudo-terminal: ``.venv/bin/python benchmarks/panels.py``.

A panel's line goes through the whole path a real one takes: the companion's
reader thread reads it from the pty, parses it, posts it to the main loop
(here the main thread, draining the command queue as the headless app does),
the answer is computed there, queued, written by the writer thread, and read
back by the "panel" (a thread on the pty's master side) — the time from the
panel's write to its reading the answer's line end is one round trip.

Figures (median, p99 and maximum of ``--rounds`` round trips each):
- ``PING`` → ``PONG``: the transport and the two threads, no main loop;
- ``KEY NEXT`` → ``PICK``: parse, post, the seat's legal moves in the
  notation on the main loop, answer; budget: median <= 5 ms;
- a refused move (``JSON``, out of turn) → ``REFUSED``: parse, post, the
  rules, the reason in words; budget: median <= 5 ms;
- an accepted move (``MOVE`` in the notation) → ``ACCEPTED``, the four
  status lines pushed to the panel first: without a store (the session has no
  journal), budget: median <= 5 ms; and with the durable commit (SQLite,
  ``synchronous=FULL``), reported, not budgeted (the commit is the disk's
  figure; ``benchmarks/run.py`` has it alone). The move is undone between rounds.

Exits 1 if a budgeted median is over.
"""

from __future__ import annotations

import argparse
import os
import select
import statistics
import sys
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.service.app import Companion, LiveGame  # noqa: E402
from companion.service.session import Session  # noqa: E402
from companion.service.table import Table  # noqa: E402
from hardware.panel_protocol import LineSplitter  # noqa: E402
from hardware.panels import SeatPanels  # noqa: E402
from tests import helpers_campanile as camp  # noqa: E402

BUDGET_MS = 5.0


class Panel:
    """The panel's side of a pty: write a line, wait for the answer with a keyword."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.name = os.ttyname(self.slave)
        self.splitter = LineSplitter()

    def ask(self, line: bytes, keyword: bytes, timeout: float = 30.0) -> float:
        """Seconds from writing ``line`` to reading a line that starts with ``keyword``."""
        start = time.perf_counter()
        os.write(self.master, line + b"\n")
        deadline = start + timeout
        while True:
            if not select.select([self.master], [], [], max(0.0, deadline - time.perf_counter()))[0]:
                raise TimeoutError(f"no {keyword!r} after {line!r}")
            for item in self.splitter.feed(os.read(self.master, 4096)):
                if isinstance(item, bytes) and item.startswith(keyword):
                    return time.perf_counter() - start

    def drain(self) -> None:
        while select.select([self.master], [], [], 0.05)[0]:
            os.read(self.master, 4096)


def measure(rounds: int) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory(dir=ROOT / "benchmarks") as folder, \
            Companion.open(Path(folder) / "companion.sqlite3") as app:
        table = Table(app)
        table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
        albert, birgit = Panel(), Panel()
        panels = SeatPanels(table, [albert.name, birgit.name], first_retry=0.02).start()
        figures: dict[str, list[float]] = {}
        done = threading.Event()
        failure: list[BaseException] = []

        def panel_side() -> None:
            try:
                for panel, seat in ((albert, 1), (birgit, 2)):
                    panel.ask(f"HELLO 1 {seat}".encode(), b"SCORE")
                out_of_turn = b'JSON {"type": "build", "player": "Birgit", "tower": "red", "stories": 1}'
                steps: list[tuple[str, Panel, bytes, bytes, Callable[[], None] | None]] = [
                    ("PING -> PONG", albert, b"PING", b"PONG", None),
                    ("KEY NEXT -> PICK", albert, b"KEY NEXT", b"PICK", None),
                    ("refused move -> REFUSED", birgit, out_of_turn, b"REFUSED", None),
                    ("accepted move -> ACCEPTED (with the commit)", albert, b"MOVE red +1", b"ACCEPTED",
                     lambda: table.submit(lambda t: t.undo()).result(30)),
                ]
                for name, panel, line, keyword, after in steps:
                    times = figures.setdefault(name, [])
                    for _ in range(rounds):
                        times.append(panel.ask(line, keyword))
                        if after is not None:
                            after()
                        panel.drain()
                # the same game without a store: the accepted move's CPU path, the commit left out
                table.submit(lambda t: t.open(LiveGame(0, t.live.row, Session(
                    t.session.game, t.session.players, camp.initial())))).result(30)
                albert.drain()  # the lines every panel is told when a game is opened
                steps = [("accepted move -> ACCEPTED (no commit)", albert, b"MOVE red +1", b"ACCEPTED",
                          lambda: table.submit(lambda t: t.undo()).result(30))]
                for name, panel, line, keyword, after in steps:
                    times = figures.setdefault(name, [])
                    for _ in range(rounds):
                        times.append(panel.ask(line, keyword))
                        if after is not None:
                            after()
                        panel.drain()
            except BaseException as error:  # reported by the main thread
                failure.append(error)
            finally:
                done.set()

        thread = threading.Thread(target=panel_side)
        thread.start()
        while not done.is_set():  # the main loop: drain the commands as the headless app does
            table.commands.drain(timeout=0.05)
        thread.join()
        panels.close()
        for panel in (albert, birgit):
            os.close(panel.master)
            os.close(panel.slave)
        if failure:
            raise failure[0]
        return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    figures = measure(args.rounds)
    over = False
    print(f"seat panel round trips over a pty, {args.rounds} each (ms)")
    for name, times in figures.items():
        ms = sorted(t * 1000 for t in times)
        median, p99 = statistics.median(ms), ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
        budgeted = not name.startswith("PING") and "with the commit" not in name
        verdict = ("PASS" if median <= BUDGET_MS else "OVER") if budgeted else "info"
        over |= verdict == "OVER"
        budget = f"median <= {BUDGET_MS:g}" if budgeted else "reported"
        print(f"  {name:<46} median {median:6.2f}  p99 {p99:6.2f}  max {ms[-1]:6.2f}  [{budget}] {verdict}")
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
