"""Cards named as players read them on the screens that show moves (issue 35, item 11).

The history said "Csaba: robber-baron", "master-builder", Hungarian "tolvaj-báró": the notation's
words, which are the record's values. The screens that only show a move now say the catalogue's
names ("Robber baron", "Tolvaj Báró"), the engine naming which of the notation's words are record
values (``Game.record_words``); the notation itself, which the console reads, keeps its words. The
record is a random four-player game played to its end (tests/data/played), with both cards.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from companion.games.base import Game
from companion.games.castelli import notation
from companion.games.castelli.words import card
from companion.games.notation import word
from companion.i18n import render
from companion.service.app import Companion
from companion.service.move_words import move_words
from companion.service.records import parse_record, states_after

RECORD = Path(__file__).parent / "data" / "played" / "castelli-4p-cards.json"


def _moves_with_cards() -> list[tuple[Game[Any, Any], Any, dict[str, Any]]]:
    record = parse_record(json.loads(RECORD.read_text(encoding="utf-8")))
    states = [record.initial, *states_after(record.game, record.initial, record.moves)]
    return [(record.game, states[index], record.game.move_to_json(move))
            for index, move in enumerate(record.moves) if record.game.move_to_json(move).get("card")]


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_card_is_said_by_its_name_and_the_notation_keeps_its_word(lang: str) -> None:
    found = _moves_with_cards()
    cards = {str(move["card"]) for _, _, move in found}
    assert {"robber-baron", "master-builder"} <= cards  # the two the issue saw, and others
    for game, state, move in found:
        name = render(card(str(move["card"])), lang)
        value = word(notation.WORDS, str(move["card"]), lang)
        said = move_words(game, state, move, lang)
        left = said.replace(name, "")
        assert name in said and not re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", left), said
        described = game.describe(state, move, lang)
        assert value in described  # the notation is unchanged: the console still reads it
        assert game.parse_notation(state, described, lang) is not None
    names = {render(card(c), lang) for c in cards}
    assert ("Robber baron" in names) if lang == "en" else ("Tolvaj Báró" in names)


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_history_names_cards_from_the_catalogue(lang: str, tmp_path: Path) -> None:
    from tests import ui_kit  # noqa: F401  (prepares Kivy before the screen's module)
    from ui.screens.history import history_lines

    with Companion.open(tmp_path / "store.db") as app:
        live = app.open_game(app.import_record(json.loads(RECORD.read_text(encoding="utf-8"))))
        lines = [said for _index, _player, said in history_lines(live.session, lang)]
    joined = "\n".join(lines)
    for value in ("robber-baron", "master-builder", "tolvaj-báró", "főépítész"):
        assert value not in joined, [line for line in lines if value in line]
    expected = ("Robber baron", "Master builder") if lang == "en" else ("Tolvaj Báró", "Főépítész")
    for name in expected:
        assert any(name in line for line in lines), name


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_oled_says_a_card_by_its_name_when_saved_and_in_its_lists(lang: str, tmp_path: Path) -> None:
    """The OLED's "saved" notice, its list of moves to choose and its undo list: the card's name."""
    from companion.i18n import current_language, set_language
    from companion.service.table import Table
    from hardware.navigator import Navigator
    from hardware.oled_render import fit
    from hardware.oled_view import OledView

    record = json.loads(RECORD.read_text(encoding="utf-8"))
    index = next(i for i, move in enumerate(record["moves"]) if move.get("card") == "robber-baron")
    before = current_language()
    with Companion.open(tmp_path / "store.db") as app:
        table = Table(app)
        table.open(app.open_game(app.import_record({**record, "moves": record["moves"][:index]})))
        view = OledView(table, Navigator(table), lambda _image: None, clock=lambda: 1000.0)
        set_language(lang)
        try:
            session = table.session
            assert session is not None
            name = render(card("robber-baron"), lang)
            choices = view.navigator._moves_listing()
            assert choices is not None
            raw = ("robber-baron", "tolvaj-báró")
            assert not [label for label in choices.labels if any(value in label for value in raw)]
            table.propose(session.game.parse_move(record["moves"][index]), "console")
            shown = " ".join(view.page(1000.0).text().split())
            assert name in shown and "robber-baron" not in shown, shown
            view.navigator._undo_list()
            listing = view.navigator.listing
            assert listing is not None
            assert listing.labels[0] == fit(f"{index + 1}. {record['moves'][index]['player']}: {name}")
        finally:
            set_language(before)
            view.close()
