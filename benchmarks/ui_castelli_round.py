"""A Championship round's taps: ``.venv/bin/python benchmarks/ui_castelli_round.py [--update-docs]``.

Plays whole Championship rounds (four players, two groups, the boards
``example-2p`` and ``example-2p-extra-mine``; the moves of the championship
tests' kit, ``tests/championship_kit.py``, both groups interleaved) on the
round's two boards (``ui/games/castelli/round_board.py``) in an offscreen
800×480 Kivy window, by the same synthetic touches as the Castelli board's
benchmark (``benchmarks/ui_castelli.py``: a reveal is its space on the board,
the pad's colours and values, the silver and Confirm; a group's end is held on
its own board), switching boards by a tap on **Switch to group N** whenever the
next move is the other group's. Every table event redraws what the game
screen redraws: the round's shown board and its row, and the turn strip
(``RoundBoard.strip``). Prints against the budgets:

- **tap on either board → move validated and every widget updated**: the tap
  that enters a move, from the touch going down to its handler's return, the
  durable commit (``StoreJournal.save``) timed apart and subtracted; budget:
  median ≤ 8 ms here (the Castelli board's); per group and together.
- the switch's tap (one board out of the window, the other in, redrawn if a
  move of its group came meanwhile, the strip): reported.

``--update-docs`` writes the figures into ``docs/performance.md`` between
their own markers. Exit 1 when a budget is over.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import TimedJournal, machine, report, spread, touch_arguments, write_block  # noqa: E402
from benchmarks.ui_castelli import TAP_MEDIAN_BUDGET, timed_harness  # noqa: E402

BEGIN, END = "<!-- ui-castelli-round:begin -->", "<!-- ui-castelli-round:end -->"
FOUR = ["Anna", "Bela", "Csaba", "Dora"]
#: Who wins each group in the rounds played (the kit chooses the tiles so): one each, then level.
WINNERS: list[list[str | None]] = [["Anna", "Dora"], ["Bela", None]]
INTRO = """## A Championship round on the touchscreen

`.venv/bin/python benchmarks/ui_castelli_round.py [--update-docs]` plays whole Championship rounds
(four players, group 1 on `example-2p`, group 2 on `example-2p-extra-mine`; the championship
tests' moves, both groups interleaved) on the round's two boards in an offscreen 800×480 Kivy
window by synthetic touches, as `ui_castelli.py` plays a game (a reveal: the space, the pad,
Confirm; a group's end held on its board), switching boards by a tap on *Switch to group N*
whenever the next move is the other group's. Each table event redraws the round's shown board,
its row and the turn strip, as the game screen does. *Tap*: the tap that enters a move, from the
touch to its handler's return, the durable commit timed apart and subtracted; budget: median
≤ 8 ms here. The switch's tap is reported."""


def round_harness(out: Path) -> Any:
    """The Castelli benchmark's timed harness, with a Championship round on its two boards."""
    from tests.ui_campanile_kit import SHELL_BAR, WINDOW
    from ui.app import load_kv

    load_kv()  # the shell's looks: the row's buttons and words as the window shows them
    harness = timed_harness(out)

    class Round(type(harness)):  # type: ignore[misc]
        @contextmanager
        def round_game(self, winners: list[str | None]) -> Iterator[Any]:
            from companion.service.app import Companion
            from companion.service.table import Table
            from ui.games.castelli.round_board import RoundBoard

            with tempfile.TemporaryDirectory() as folder, Companion.open(Path(folder) / "c.sqlite3") as app:
                self.table = Table(app)
                self.table.start("castelli", FOUR, setup={"groups": [FOUR[:2], FOUR[2:]]},
                                 colours_by_seat=True)
                self.refusals = []
                self.round = RoundBoard(table=self.table, size_hint=(None, None),
                                        size=(WINDOW[0], WINDOW[1] - SHELL_BAR), pos=(0, 0))
                self.board = self.round.board
                self.strips: list[Any] = []
                self.table.listen(self._round_event)
                self.window.add_widget(self.round)
                self.pump(3)
                try:
                    yield self.round
                finally:
                    for board in self.round.boards.values():
                        board.close_overlay()
                    self.window.remove_widget(self.round)
                    self.table.close()
                    self.pump(1)

        def _round_event(self, _table: Any, event: Any) -> None:
            """What the game screen does on a table event: the round's board and the strip."""
            if event.kind == "refused":
                self.refusals.append(event)
            self.round.refresh()
            self.strips.append(self.round.strip())

    found = Round(out)
    return found


def play_round(h: Any, winners: list[str | None]) -> dict[str, list[float]]:
    from tests.championship_kit import round_moves
    from tests.ui_castelli_scenarios import play

    found: dict[str, list[float]] = {"tap": [], "tap-1": [], "tap-2": [], "switch": [], "commit": []}
    with h.round_game(winners) as round_board:
        session = h.session
        h.journal = journal = TimedJournal(session._journal)
        session._journal = journal
        for number, move in enumerate(round_moves(session.game, session.state, winners), start=1):
            group = move.get("group") or session.game.group_of(session.state, move["player"])
            if int(round_board.shown_part) != group:
                row = round_board.rows[int(round_board.shown_part)]
                h.taps = []
                h.tap(row.ids.switch)  # timed from the touch to its handler's return, its frames apart
                found["switch"].append(h.taps[-1][0])
                assert int(round_board.shown_part) == group
            h.board = round_board.board
            h.pump(2)
            h.taps = []
            play(h, move)
            assert len(session.log) == number, f"move {number} was not entered: {move}"
            entering = [t for t in h.taps if t[2] == number]
            if entering and move["type"] != "end":
                wall, _cpu, _ = entering[0]
                commit = journal.times[-1]
                found["tap"].append(wall - commit)
                found[f"tap-{group}"].append(wall - commit)
                found["commit"].append(commit)
        assert session.game.is_finished(session.state) and not h.refusals
    return found


def main(argv: list[str] | None = None) -> int:
    args = touch_arguments(__doc__, argv)

    from tests.ui_campanile_kit import prepare_environment

    prepare_environment()
    figures: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as out:
        h = round_harness(Path(out))
        play_round(h, WINNERS[0])  # warm-up: fonts, catalogues, textures
        for index in range(args.rounds):
            for key, values in play_round(h, WINNERS[index % len(WINNERS)]).items():
                figures.setdefault(key, []).extend(values)
    median = statistics.median(figures["tap"])
    rows = [
        ("tap on either board → move validated, every widget updated (median / p99 / max; commit apart)",
         spread(figures["tap"]), f"median ≤ {TAP_MEDIAN_BUDGET:g} ms", median <= TAP_MEDIAN_BUDGET),
        ("the same, group 1's board (median / p99 / max)", spread(figures["tap-1"]), "", None),
        ("the same, group 2's board (median / p99 / max)", spread(figures["tap-2"]), "", None),
        ("tap on Switch to group N → the other board shown (median / p99 / max; frames apart)",
         spread(figures["switch"]), "", None),
        ("durable commit alone (median / p99 / max)", spread(figures["commit"]), "", None),
    ]
    over = report(rows, (86, 26, 14))
    print(f"{args.rounds} rounds ({len(figures['tap'])} entering taps, {len(figures['switch'])} switches "
          f"timed); machine: {machine()}")
    if args.update_docs:
        write_block((BEGIN, END), INTRO, f": {args.rounds} Championship rounds, offscreen window 800×480.",
                    rows)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
