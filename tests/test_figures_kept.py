"""A figure never starts a line away from the word it counts (issue 35, item 12).

The history wrapped "silver / 2", the OLED "forest, row 3, column / 1". One rule
(:mod:`companion.i18n.figures`) now holds a figure to the word before it: the history joins them with
a no-break space (Kivy breaks only at plain spaces), the OLED's word wrap keeps them as one word.
The issue's lines, then any line of words and figures (Hypothesis).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from companion.i18n.figures import NO_BREAK, keep_figures
from hardware.oled_render import COLUMNS, wrap

FIGURE_START = tuple("0123456789")


def test_the_oled_keeps_column_and_its_number_on_one_line() -> None:
    for width in range(12, COLUMNS + 1):
        lines = wrap("Csaba: forest, row 3, column 1 gives 2 wood", width)
        for line in lines:
            assert not line.startswith(FIGURE_START), (width, lines)
        assert " ".join(lines) == "Csaba: forest, row 3, column 1 gives 2 wood"


def test_the_history_joins_silver_and_its_figure() -> None:
    said = keep_figures("Csaba: take silver 2, mine 3")
    assert said == f"Csaba: take silver{NO_BREAK}2, mine{NO_BREAK}3"
    said = keep_figures("Dora: steward N red 3, E blue card")
    assert said == f"Dora: steward N red{NO_BREAK}3, E blue card"


WORD = st.sampled_from(["silver", "row", "column", "Anna:", "gives", "wood,", "király", "3,", "2", "1/3",
                        "x"])


@given(st.lists(WORD, min_size=1, max_size=30), st.integers(min_value=8, max_value=COLUMNS))
def test_no_line_starts_with_a_figure_its_word_could_have_taken_along(words: list[str], width: int) -> None:
    text = " ".join(words)
    lines = wrap(text, width)
    assert " ".join(line for line in lines if line) == text or any(len(w) > width for w in words)
    for before, line in itertools.pairwise(lines):
        first, last = line.split(" ")[0], before.split(" ")[-1]
        # a figure starts a line only after another figure or a clause's end, or when it and its
        # word would not fit on one line together
        if first.startswith(FIGURE_START) and last and not last.startswith(FIGURE_START) \
                and not last.endswith((",", ";", ".")):
            assert len(f"{last} {first}") > width, (before, line)


def test_the_history_screen_shows_figures_held(tmp_path: Path) -> None:
    from tests import ui_kit

    record = json.loads((Path(__file__).parent / "data" / "played" / "castelli-4p-cards.json").read_text(
        encoding="utf-8"))
    shell = ui_kit.open_shell(tmp_path / "store.db")
    try:
        shell.table.open(shell.table.app.open_game(shell.table.app.import_record(record)))
        shell.go("history")
        ui_kit.wait_for(lambda: shell.screens.current == "history", "the history")
        rows = [entry["words"] for entry in shell.screens.get_screen("history").ids.entries.data]
        assert rows
        for words in rows:
            parts = words.split(" ")
            for before, part in itertools.pairwise(parts):
                assert not (part.startswith(FIGURE_START) and not before.endswith((",", ";", "."))), words
    finally:
        ui_kit.close_shell(shell)
