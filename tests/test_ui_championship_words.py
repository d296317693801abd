"""The Championship's standings in players' words (issue 35, item 7).

A round read from a record (in no championship stored here) was titled "A Championship round on
its own (in no championship stored here)"; each game's winner was marked by amber text alone and a
tie was not explained. The title now says what it is, and a winner's name carries the words: won,
won on the tie-break (named), or a shared win, in English and Hungarian.
"""

from __future__ import annotations

import pytest

from companion.games.messages import msg
from companion.i18n import render, set_language
from ui.games.castelli.championship import Match


@pytest.fixture(scope="module")
def box() -> object:
    from tests import ui_kit  # noqa: F401  (prepares Kivy before the screen's module)
    from ui.games.castelli.standings import MatchBox

    return MatchBox()


CASES = [  # (scores, winners, what the winner's name must say besides it, the loser's)
    ({"Anna": 11, "Bela": 24}, ("Bela",), {"en": "won", "hu": "nyert"}),
    ({"Anna": 12, "Bela": 12}, ("Bela",), {"en": "won on castles built",
                                          "hu": "nyert (a megépített várak száma)"}),
    ({"Anna": 12, "Bela": 12}, ("Anna", "Bela"), {"en": "shared win", "hu": "megosztott győzelem"}),
]


@pytest.mark.parametrize("lang", ["en", "hu"])
@pytest.mark.parametrize(("scores", "winners", "said"), CASES)
def test_a_winner_is_named_with_words_and_a_tie_is_explained(box, lang, scores, winners, said) -> None:
    set_language(lang)
    try:
        box.show_match("Group 1", Match(("Anna", "Bela"), scores, winners, True))
        for name, shown, won in zip(("Anna", "Bela"), box.names, box.won, strict=True):
            assert won == (name in winners)
            assert shown == (f"{name} · {said[lang]}" if won else name)
        box.show_match("Group 1", Match(("Anna", "Bela"), scores, (), False))  # still being played
        assert list(box.names) == ["Anna", "Bela"]
    finally:
        set_language("en")


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_round_read_from_a_record_is_titled_a_championship_round(lang: str) -> None:
    said = render(msg("ui.castelli.standings.alone"), lang)
    assert ("Championship round" in said) if lang == "en" else ("Bajnoki forduló" in said)
    assert "no championship" not in said and "nem része" not in said
