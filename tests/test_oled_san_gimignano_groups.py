"""The OLED names the groups a San Gimignano player may build on (issue 35, item 6).

It said "Ada may build: 1", a number with no group named. It now names each group by its guild and
the letters of its segments ("Guild 1 on B and C"; the engine's ``geometry.group_name``, as the phone
names them), or says the player cannot build now; checked on random games of two to four players
(both rule sets) and the example, in English and Hungarian, with no word cut.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion.games.san_gimignano.geometry import group_name
from companion.i18n import current_language, say, set_language, text
from hardware.games.san_gimignano import status_pages
from hardware.oled_render import COLUMNS
from tests.contract_kit import random_states


@pytest.fixture
def language() -> Iterator[Any]:
    before = current_language()
    yield set_language
    set_language(before)


def _said(game: Any, state: Any) -> str:
    lines = [line.text for page in status_pages(game, state, game.summary(state)) for line in page.lines[1:]]
    assert all(len(line) <= COLUMNS for line in lines), lines
    return " ".join(" ".join(lines).split())


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_acting_players_groups_are_named(lang: str, language: Any) -> None:
    language(lang)
    named = empty = 0
    for seed in range(8):
        for game, state, _moves in random_states("san-gimignano", seed, 70):
            acting = game.turn(state).acting
            if acting is None:
                continue
            said = _said(game, state)
            groups = game.summary(state)["buildable"].get(acting, [])
            if groups:
                names = [say(group_name(group, state.segments)) for group in groups]
                assert text("oled.san_gimignano.build_on", player=acting, groups="; ".join(names)) in said
                assert all("?" not in name for name in names), names  # every space on a laid segment
                named += 1
            else:
                assert text("oled.san_gimignano.build_none", player=acting) in said
                empty += 1
    assert named >= 5 and empty >= 5, (named, empty)
