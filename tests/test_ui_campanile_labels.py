"""Every number on the Campanile board says what it counts (issue 35, item 6).

The board showed "3:1 2:3 1:5" for the markers left and "#1: 4/2" under each tower, where the phone
says "3s: 1 · 2s: 3 · 1s: 5" and "flag 4/2" (both now say "rank 1" rather than "#1"). The board
now says the markers as the phone does and each tower's rank and flag with their words, a figure
never parted from its word by a wrap.
The figures are the engine's (``markers_left``, ``standings``' ``next_flag``), read off a board
following a real game, in English and Hungarian.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from companion.games.campanile.views import markers_left, standings
from companion.games.messages import Message
from companion.i18n import render, set_language
from tests.conftest import EXAMPLES

RECORD = EXAMPLES / "campanile-3p.json"
KEEP = "\u00a0"


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from tests import ui_kit

    record = json.loads(RECORD.read_text(encoding="utf-8"))
    made = ui_kit.example_board(tmp_path_factory.mktemp("labels") / "store.db", record)
    shown = next(made)
    ui_kit.moves_up_to(shown, record, 24)
    yield shown
    set_language("en")
    made.close()


def _plain(text: str) -> str:
    return text.replace(KEEP, " ")


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_markers_left_are_said_as_the_phone_says_them(board: Any, lang: str) -> None:
    set_language(lang)
    board.refresh()
    left = markers_left(board.table.session.state)
    for player, cell in board.player_cells.items():
        figures = {"three": left[player][3], "two": left[player][2], "one": left[player][1]}
        assert _plain(cell.markers_text) == render(Message("web.campanile.markers", figures), lang)
        for part in cell.markers_text.split(" "):  # a wrap falls between the parts only
            assert part.endswith("·") or part == cell.markers_text.split(" ")[-1], cell.markers_text


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_each_tower_says_its_rank_and_its_flag_with_their_words(board: Any, lang: str) -> None:
    set_language(lang)
    board.refresh()
    state = board.table.session.state
    flags = 0
    for row in standings(state):
        said = board.columns[row.tower].flag.text
        assert _plain(said).startswith(render(Message("web.campanile.rank", {"rank": row.rank}), lang)), said
        if row.next_flag:
            flags += 1
            flag = "/".join(str(v) for v in row.next_flag)
            phone = render(Message("web.campanile.flag", {"flag": flag}), lang)
            assert _plain(said).replace("\n", " ").endswith(phone), said
            # never wrapped apart from its word: held to it, or under it on a line of its own (the
            # Hungarian "zászló: 6/4/2" is wider than a tower's column)
            assert said.endswith((f"{KEEP}{flag}", f":\n{flag}")), said
        else:
            assert said.split(" ")[-1] != str(row.rank)
        assert not said.startswith("#"), said
    assert flags == 4  # the Intermezzo flags four of five towers
