"""The layout check's text rule fails on the companion's own names, not on names people typed
(issue 35: "the layout check does not catch it").

Game over showed "Tied on points; the highest_chip decides." and the history "Csaba: robber-baron":
a tie-break's key and a record value, which the check let through (only dotted message codes,
placeholders, parameters and ids failed). Every game's tie-break key and every Castelli card's record
value is one of the names the catalogues' codes end in; the OLED's pages and the touchscreen's
labels are both held to :func:`companion.i18n.leaks.leaks`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.castelli import tables
from companion.i18n import render
from companion.i18n.leaks import leaks
from companion.registry import GAMES, get_game
from companion.service.records import final_state, parse_record

EXAMPLES = Path(__file__).parent / "data" / "examples"


def _kinds(words: str, language: str = "en") -> list[str]:
    return [leak.kind for leak in leaks(words, language)]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("language", ["en", "hu"])
def test_every_games_tiebreak_key_fails_and_its_words_pass(name: str, language: str) -> None:
    record = next(parse_record(json.loads(path.read_text(encoding="utf-8")))
                  for path in sorted(EXAMPLES.glob("*.json"))
                  if json.loads(path.read_text(encoding="utf-8")).get("game") == name)
    outcome = record.game.outcome(final_state(record))
    assert get_game(name).name == name
    assert _kinds(f"Tied on points; the {outcome.tiebreak} decides.", language) == ["hardware.check.own_name"]
    assert _kinds(f"{outcome.tiebreak}: 5", language) == ["hardware.check.own_name"]
    assert _kinds(render(outcome.reason(), language), language) == []
    assert _kinds(render(outcome.tiebreak_words(), language) + ": 5", language) == []


def test_card_record_values_fail_and_the_cards_names_pass() -> None:
    from companion.games.castelli.words import card

    hyphenated = [key for key in (*tables.BASE_CARDS, *tables.BATTLE_CARDS) if "-" in key]
    assert {"robber-baron", "master-builder"} <= set(hyphenated)
    for key in hyphenated:
        assert _kinds(f"Csaba: {key}") == ["hardware.check.own_name"], key
        for language in ("en", "hu"):
            assert _kinds(f"Csaba: {render(card(key), language)}", language) == [], key


@pytest.mark.parametrize("words", ["Anna-Maria wins!", "big_board", "Kis-Nagy Éva", "Jean-Luc and Mary-Kate",
                                   "board_2 of the table", "wool, bread, stone, wine"])
def test_names_people_typed_pass(words: str) -> None:
    assert _kinds(words) == [] and _kinds(words, "hu") == []


@given(st.from_regex(r"[A-Z][a-z]{1,8}(-[A-Z][a-z]{1,8})?", fullmatch=True))
def test_a_capitalised_name_never_fails(name: str) -> None:
    assert _kinds(f"{name} wins!") == []
