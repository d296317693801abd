"""The Castelli board's speed and taps: ``.venv/bin/python benchmarks/ui_castelli.py [--update-docs]``.

Plays the example record (``tests/data/examples/castelli.json``) on the board
in an offscreen 800×480 Kivy window, by the same synthetic touches as the
tests (``tests/ui_castelli_scenarios.py``'s ``play``: a reveal is its space,
the pad's colours and values, the silver and Confirm; a sale, a card or a
build its button and its choice; the end a hold), a fresh store and table
each round, and prints against the budgets:

- **taps per move** over the example game: a reveal ≤ 10 (the space, the
  four shields, silver, Confirm), every other move ≤ 2; the taps that only
  close an evaluation overlay are counted apart.
- **tap → move validated and every widget updated**: the tap that enters a
  move (Confirm, the picker's choice), from the touch going down to its
  handler's return: ``Table.propose`` (the engine's ``apply``, the log, the
  table's event, the board's ``refresh`` from ``targets``, ``build_targets``,
  ``player_views``) and the overlays closed or opened (the evaluations that
  follow a reveal), *minus* the durable commit, timed alone
  (``StoreJournal.save``); budget: median ≤ 8 ms here (as the Campanile board's).
- the same in CPU time of the main thread (the commit's CPU included), and
  the commit alone: reported.

``--update-docs`` writes the figures into ``docs/performance.md`` between
their own markers. Exit 1 when a budget is over.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import TimedJournal, machine, report, spread, touch_arguments, write_block  # noqa: E402

EXAMPLE = ROOT / "tests" / "data" / "examples" / "castelli.json"
BEGIN, END = "<!-- ui-castelli:begin -->", "<!-- ui-castelli:end -->"
INTRO = """## The Castelli screen

`.venv/bin/python benchmarks/ui_castelli.py [--update-docs]` plays the example record on the
touchscreen board in an offscreen 800×480 Kivy window, five rounds after a warm-up, by synthetic
touches through the window (see `ui-castelli.md`). *Taps per move*: a reveal is the space, each
shield's colour (the fourth is implied) and value, the silver when there is some, and Confirm —
budget ≤ 10; every other move ≤ 2 (a sale: Sell, then how many; a King: Card, then King 5; a
build: the area, then the build). Closing the evaluation overlay that follows a reveal is counted
apart. *Tap*: the tap that enters the move, from the touch to its handler's return — the move
validated and stored (`Table.propose`), every widget of the board refreshed from the engine's
views, the overlays closed or opened — with the durable commit (`StoreJournal.save`) timed apart
and subtracted; budget: median ≤ 8 ms here. The CPU time of the same tap is given too.
"""
TAP_MEDIAN_BUDGET = 8.0
REVEAL_TAPS_BUDGET = 10
OTHER_TAPS_BUDGET = 2


def timed_harness(out: Path) -> Any:
    """The tests' harness, with each touch's dispatch timed (wall and CPU), its frames not."""
    from kivy.tests.common import UnitTestTouch

    from tests.ui_castelli_kit import CastelliHarness

    class Timed(CastelliHarness):
        def __init__(self, out: Path) -> None:
            super().__init__(out)
            self.taps: list[tuple[float, float, int]] = []  # (wall ms, cpu ms, commits so far)
            self.journal: TimedJournal | None = None

        def _touch(self, x: float, y: float) -> None:
            touch = UnitTestTouch(x, y)
            start, cpu = time.perf_counter_ns(), time.thread_time_ns()
            touch.touch_down()
            touch.touch_up()
            done, cpu_done = time.perf_counter_ns(), time.thread_time_ns()
            commits = len(self.journal.times) if self.journal else 0
            self.taps.append(((done - start) / 1e6, (cpu_done - cpu) / 1e6, commits))
            self.pump(2)

        def tap(self, widget: Any) -> None:
            self._touch(*self._centre(widget))

        def tap_at(self, point: tuple[float, float]) -> None:
            self._touch(*point)

    return Timed(out)


def play_round(h: Any, record: dict[str, Any]) -> dict[str, list[float]]:
    from tests.ui_castelli_scenarios import play

    found: dict[str, list[float]] = {"tap": [], "tap_cpu": [], "commit": [], "reveal_taps": [],
                                     "other_taps": [], "closes": []}
    with h.game(record["players"], options=record["options"], setup=record["setup"]):
        session = h.session
        h.journal = journal = TimedJournal(session._journal)
        session._journal = journal
        for number, move in enumerate(record["moves"], start=1):
            h.pump(2)
            h.taps = []
            taps, closes = play(h, move)
            assert len(session.log) == number, f"move {number} was not entered: {move}"
            found["reveal_taps" if move["type"] == "reveal" else "other_taps"].append(taps)
            found["closes"].append(closes)
            entering = [t for t in h.taps if t[2] == number]  # the tap during which the commit came
            if entering and move["type"] != "end":
                wall, cpu, _ = entering[0]
                commit = journal.times[-1]
                found["tap"].append(wall - commit)
                found["tap_cpu"].append(cpu)
                found["commit"].append(commit)
        assert session.game.is_finished(session.state)
    return found


def main(argv: list[str] | None = None) -> int:
    args = touch_arguments(__doc__, argv)

    from tests.ui_campanile_kit import prepare_environment

    prepare_environment()
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as out:
        h = timed_harness(Path(out))
        play_round(h, record)  # warm-up: fonts, catalogues, textures
        figures: dict[str, list[float]] = {}
        for _ in range(args.rounds):
            for key, values in play_round(h, record).items():
                figures.setdefault(key, []).extend(values)


    reveal = figures["reveal_taps"]
    other = figures["other_taps"]
    tap_median = statistics.median(figures["tap"])
    moves = len(record["moves"])
    rows = [
        ("taps per reveal over the example game (mean / most)",
         f"{statistics.mean(reveal):.2f} / {max(reveal):.0f}", f"≤ {REVEAL_TAPS_BUDGET}",
         max(reveal) <= REVEAL_TAPS_BUDGET),
        ("taps per other move: sell, King, Thief, build, end (mean / most)",
         f"{statistics.mean(other):.2f} / {max(other):.0f}", f"≤ {OTHER_TAPS_BUDGET}",
         max(other) <= OTHER_TAPS_BUDGET),
        ("taps closing an evaluation overlay, per game", f"{sum(figures['closes']) / args.rounds:.0f}", "",
         None),
        ("tap → move validated, every widget updated (median / p99 / max; commit apart)",
         spread(figures["tap"]), f"median ≤ {TAP_MEDIAN_BUDGET:g} ms", tap_median <= TAP_MEDIAN_BUDGET),
        ("the same tap, CPU time of the main thread (commit included; median / p99 / max)",
         spread(figures["tap_cpu"]), "", None),
        ("durable commit alone (median / p99 / max)", spread(figures["commit"]), "", None),
    ]
    over = report(rows, (82, 26, 14))
    print(f"{args.rounds} rounds of the example game ({moves} moves, {len(figures['tap'])} entering taps "
          f"timed); machine: {machine()}")
    if args.update_docs:
        write_block((BEGIN, END), INTRO, f": {args.rounds} rounds of the example game "
                    f"({moves} moves), offscreen window 800×480.", rows)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
