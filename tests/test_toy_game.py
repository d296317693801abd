"""A game defined only in tests/ (Toy Tally) plays through every front end, nothing changed outside it.

The toy is registered for each test and forgotten after it. It has no part
of its own in any front end, so each plays it generically: the service
starts it (colours by seat, its descriptor's default from the table), the
console lists, reads its notation and asks for its observed field with the
descriptor's words, the OLED shows the turn and the scores and says what the
buttons cannot enter, and the touchscreen's move picker enters its moves.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli.commands.run import starter
from companion.console.loop import headless_loop
from companion.i18n import text
from companion.registry import game_names, get_game
from companion.service.app import Companion
from companion.service.table import Table
from hardware import games as oled_games
from hardware.navigator import Navigator, valuation_pages
from hardware.oled_pages import status_pages
from hardware.oled_render import Page, draw
from tests.toy_game import registered
from tests.toy_game.descriptor import TARGET

PLAYERS = ["Ann", "Anna", "Bob"]


@pytest.fixture
def toy() -> Iterator[None]:
    with registered():
        yield
    assert "toy-tally" not in game_names()


@pytest.fixture
def app(tmp_path: Path, toy: None) -> Iterator[Companion]:
    with Companion.open(tmp_path / "store.db") as opened:
        yield opened


def test_the_service_starts_plays_undoes_and_finishes_the_toy(app: Companion) -> None:
    app.store.set_setting(TARGET, 3)  # not a simple setting of the settings table: stored as it is
    live = app.start("toy-tally", PLAYERS[:2], colours_by_seat=True)
    stored = app.store.session(live.id)
    # the colours by seat, the target from the table
    assert stored.setup == {"colors": {"Ann": "blue", "Anna": "red"}, "target": 3}
    session, game = live.session, live.session.game
    session.propose(game.parse_move({"type": "add", "player": "Ann", "points": 2}))
    session.propose(game.parse_move({"type": "roll", "player": "Anna", "pips": 6}))
    session.undo()
    assert [game.move_to_json(m) for m in session.log] == [{"type": "add", "player": "Ann", "points": 2}]
    session.propose(game.parse_move({"type": "add", "player": "Anna", "points": 1}))
    session.propose(game.parse_move({"type": "add", "player": "Ann", "points": 1}))
    assert game.is_finished(session.state)
    results = [(r.player, r.score, r.winner) for r in app.store.results()]
    assert results == [("Ann", 3, True), ("Anna", 1, False)]
    record = app.export_record(live.id)
    assert record["game"] == "toy-tally" and len(record["moves"]) == 3


def test_without_colours_by_seat_the_service_still_asks_for_them(app: Companion) -> None:
    from companion.games.base import RecordError

    with pytest.raises(RecordError, match='"colors" is missing'):
        app.start("toy-tally", PLAYERS[:2])


def test_the_console_starts_lists_reads_the_notation_and_asks_for_the_observed_field(app: Companion) -> None:
    out = io.StringIO()
    headless_loop(None, ["new toy-tally Ann Anna Bob", "moves", "2", "Anna: roll", "5", "Bob: +1", "undo",
                         "status"], out, start=starter(app))
    said = out.getvalue()
    assert "1. Ann: +1" in said and "3. Ann: roll" in said
    assert text("toy.observed.roll") in said  # the descriptor's words for the open field
    live = app.resume()
    game = live.session.game
    assert [game.move_to_json(m) for m in live.session.log] == [
        {"type": "add", "player": "Ann", "points": 2}, {"type": "roll", "player": "Anna", "pips": 5}]
    assert app.store.session(live.id).setup["colors"] == {"Ann": "blue", "Anna": "red", "Bob": "green"}


def test_the_oled_shows_the_turn_and_scores_and_the_buttons_play_it(app: Companion) -> None:
    table = Table(app)
    notes: list[list[Page]] = []
    navigator = Navigator(table, notify=notes.append)
    assert oled_games.part("toy-tally") is oled_games.GENERIC
    navigator.key("menu")
    assert navigator.listing is not None
    navigator.listing.index = navigator.listing.labels.index(text("oled.menu.new"))
    navigator.key("confirm")
    assert navigator.listing is not None
    navigator.listing.index = navigator.listing.labels.index("Toy Tally")
    navigator.key("confirm")  # no profiles: the player count
    assert navigator.listing is not None
    navigator.key("confirm")  # 2 players
    session = table.session
    assert session is not None and session.game.name == "toy-tally"
    navigator.key("next")  # the legal moves
    assert navigator.listing is not None
    assert navigator.listing.labels[:2] == [f"{text('oled.menu.player', number=1)}: +1",
                                            f"{text('oled.menu.player', number=1)}: +2"]
    navigator.listing.index = 1
    navigator.key("confirm")
    assert len(session.log) == 1
    navigator.key("next")
    assert navigator.listing is not None
    navigator.listing.index = 2  # a roll: its pips are seen at the table
    navigator.key("confirm")
    assert len(session.log) == 1 and notes and text("oled.refused") in draw_texts(notes[-1][0])
    pages = status_pages(session.game, session.state)
    lines = [line.text for page in pages for line in page.lines]
    assert any("2" in line for line in lines)
    for page in [*pages, *valuation_pages(table)]:
        assert draw(page).size[0] > 0  # drawn as the panel would
    assert valuation_pages(table)[0].lines[0].text == text("oled.valuation.scores")
    navigator.key("valuation_hold")  # no valuation card in this game: the preview
    assert navigator.preview


def draw_texts(page: Page) -> str:
    return " ".join(line.text for line in page.lines)


def test_the_engine_is_found_by_name_and_forgotten_after(toy: None) -> None:
    assert get_game("toy-tally").title == "Toy Tally"
