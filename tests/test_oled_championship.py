"""The OLED during a Castelli Championship round: a page per group, then the championship's standings.

A real championship in a temporary store (the service's), its round 1 played a few moves at the
table; the pages are drawn on luma's ``dummy`` device as the box draws them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from luma.core.device import dummy

from companion.i18n import current_language, set_language, text
from companion.service.app import Companion
from companion.service.table import Table
from hardware.oled_pages import status_pages, table_pages
from hardware.oled_render import draw
from tests.championship_kit import round_moves

FOUR = ("Ann", "Bob", "Cid", "Dan")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    app = Companion.open(tmp_path / "store.db")
    opened = Table(app)
    opened.open(app.championships.new(2, list(FOUR)))
    before = current_language()
    yield opened
    set_language(before)
    app.close()


def shown(page: Any, device: Any, shots: Path, name: str) -> list[str]:
    """The page drawn on the dummy device (saved for a look); its lines."""
    device.display(draw(page))
    assert device.image.tobytes() == draw(page).tobytes()
    shots.mkdir(parents=True, exist_ok=True)
    device.image.save(shots / f"{name}.png")
    return page.text().splitlines()


def test_a_round_shows_each_groups_turn_then_the_standings(table: Table, shots: Path) -> None:
    session = table.session
    assert session is not None
    moves = round_moves(session.game, session.state, ["Ann", "Cid"])
    for move in moves[:5]:  # Ann, Cid, Bob, Dan, Ann revealed
        table.propose(session.game.parse_move(move), "console")
    game, state = session.game, session.state
    acting = [game.group_what_now(state, g).params["player"] for g in (1, 2)]  # each group's own step
    assert acting[0] in ("Ann", "Bob") and acting[1] in ("Cid", "Dan")
    device = dummy(width=128, height=64, mode="1")
    deck = session.state.deck()
    for lang in ("en", "hu"):
        set_language(lang)
        pages = [*status_pages(session.game, session.state), *table_pages(table)]
        one, two, standings = (shown(p, device, shots, f"{lang}-{n}") for n, p in
                               zip(("group-1", "group-2", "standings"), pages, strict=False))
        assert len(pages) == 3  # no turn page for the table, no scores page: the groups' pages hold them
        assert one[0] == text("oled.castelli.round.group", group=1, player=acting[0])
        assert two[0] == text("oled.castelli.round.group", group=2, player=acting[1])
        assert one[-1].startswith("An ") and one[-1].endswith(text("oled.castelli.round.deck", count=deck))
        assert two[-1].startswith("Ci ") and "Bo" not in two[-1]
        assert standings[0] == text("oled.castelli.round.standings")
        assert [line.split()[1] for line in standings[1:5]] == list(FOUR)  # nobody has a point yet
        assert all(line.split()[0] == "-" for line in standings[1:5])  # no place settled
    assert "csoport" in one[0] and "pakli" in one[-1]


def test_the_standings_page_says_the_next_round_once_a_round_has_ended(table: Table) -> None:
    session = table.session
    assert session is not None
    set_language("en")
    for move in round_moves(session.game, session.state, ["Bob", "Dan"]):
        table.propose(session.game.parse_move(move), "console")
    assert session.game.is_finished(session.state)
    lines = [line for page in table_pages(table) for line in page.text().splitlines()]
    assert lines[0] == "Championship" and lines[-1] == "round 2 next"
    assert {line.split()[1]: line.split()[2] for line in lines[1:5]} == {"Bob": "1", "Dan": "1", "Ann": "0",
                                                                       "Cid": "0"}
