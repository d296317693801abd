"""The OLED's towers page shows the flag the next valuation would give (issue 35, items 3 and 6).

It showed the Finito's flag for the fifth tower while the Intermezzo, due next, gives it none ("5
grey 1 2" beside the touchscreen's "#5: no flag"; "5 yellow 0 2" at the start), under a heading
("rank, flag") naming two of its three numbers. The flag is now the engine's
(``TowerStanding.next_flag``); it is checked here against the valuation itself
(:func:`~companion.games.campanile.views.preview`: what turning the card over now would award), on
random games of two to five players in English and Hungarian, and every column has a heading.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion.i18n import current_language, set_language, text
from companion.registry import get_game
from hardware.games.campanile import status_pages, word
from hardware.oled_render import COLUMNS
from tests.contract_kit import random_states


@pytest.fixture
def language() -> Iterator[Any]:
    before = current_language()
    yield set_language
    set_language(before)


def _rows(game: Any, state: Any) -> dict[str, tuple[str, str, str]]:
    """The towers page's rows by tower word: (place, height, flag), under the title and a heading."""
    rows: dict[str, tuple[str, str, str]] = {}
    for page in status_pages(game, state, game.summary(state)):
        for line in page.lines[1:]:
            if line.text.startswith("#"):
                continue  # the columns' heading
            assert len(line.text) <= COLUMNS, line.text
            place, *tower, height, flag = line.text.split()
            rows[" ".join(tower)] = (place, height, flag)
    return rows


def _expected(state: Any) -> dict[str, str]:
    """Each tower's flag as the valuation due now would award it, in the page's words."""
    from companion.games.campanile.views import preview

    flagged = {result.tower: "·".join(str(v) for v in result.flag) for result in preview(state)}
    return {word(tower): flagged.get(tower, text("oled.campanile.no_flag")) for tower in state.rules.towers}


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_at_the_start_the_fifth_tower_has_no_intermezzo_flag(lang: str, language: Any) -> None:
    language(lang)
    game = get_game("campanile")
    for players in (["Albert", "Birgit", "Franziska"], ["Al", "Bo", "Cy", "Di", "Ed"]):
        state = game.start(players, {}, {"towers": ["red", "blue", "yellow", "brown", "grey"]})
        rows = _rows(game, state)
        assert rows[word("grey")] == ("5", "0", text("oled.campanile.no_flag")), rows
        assert rows[word("red")] == ("1", "0", "4·2"), rows
        assert {tower: flag for tower, (_p, _h, flag) in rows.items()} == _expected(state)
        assert "Intermezzo" in status_pages(game, state, game.summary(state))[0].lines[0].text


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_every_towers_flag_is_the_one_the_next_valuation_gives(lang: str, language: Any) -> None:
    """300+ states of random games (before and after the Intermezzo, two to five players)."""
    from companion.games.campanile.views import next_valuation, standings

    language(lang)
    seen = 0
    phases: set[str] = set()
    for seed in range(12):
        for game, state, _moves in random_states("campanile", seed, 60):
            if game.is_finished(state):
                break
            rows = _rows(game, state)
            assert {tower: flag for tower, (_p, _h, flag) in rows.items()} == _expected(state), (seed, _moves)
            heights = {word(t): str(h) for t, h in zip(state.rules.towers, state.heights, strict=True)}
            assert {tower: height for tower, (_p, height, _f) in rows.items()} == heights
            for standing in standings(state):  # the fact every front end reads
                flag = standing.next_flag
                said = "·".join(map(str, flag)) if flag else text("oled.campanile.no_flag")
                assert _expected(state)[word(standing.tower)] == said
            phases.add(str(next_valuation(state)))
            seen += 1
    assert seen >= 300 and phases == {"intermezzo", "finito"}, (seen, phases)


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_every_number_on_the_towers_page_has_a_heading(lang: str, language: Any) -> None:
    """Item 6 on the OLED: the place, the height and the flag each under its column's heading on every
    page (the title named "rank, flag" over three numbers), the valuation due next in the title."""
    language(lang)
    game = get_game("campanile")
    for _game, state, _moves in random_states("campanile", 3, 40):
        if game.is_finished(state):
            break
        for page in status_pages(game, state, game.summary(state)):
            title, heading, *lines = page.lines
            assert title.inverted and not heading.inverted and lines
            assert heading.text.split()[0] == "#", heading.text
            for label in ("tower", "height", "flag"):
                assert text(f"oled.campanile.column.{label}") in heading.text, heading.text
            phase = "intermezzo" if state.phase == "opening" else "finito"
            assert text(f"oled.campanile.now.phase.{phase}") in title.text
            # each figure stands under its heading: the height's last digit under the heading's last letter
            height_end = heading.text.index(text("oled.campanile.column.height")) + len(
                text("oled.campanile.column.height"))
            for line in lines:
                under = line.text[height_end - 1:height_end + 1]
                assert under[0].isdigit() and under[1] == " ", (heading.text, line.text)
