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


def _line(place: int | None, player: str, points: float, score: int) -> object:
    from companion.service.championship_rules import Standing

    return Standing(place, player, 3, int(points), points, score)


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_league_tie_is_explained_in_words_not_only_by_places(lang: str) -> None:
    """Csaba and Dora level on points stood 2nd and 3rd with nothing saying why: the words say the
    score over every game decided, in its order, or that they share the place."""
    from tests import ui_kit  # noqa: F401  (prepares Kivy before the screen's module)
    from ui.games.castelli.standings import league_ties

    set_language(lang)
    try:
        broken = league_ties([_line(1, "Bela", 3, 50), _line(2, "Csaba", 2, 40), _line(3, "Dora", 2, 35),
                              _line(4, "Anna", 1, 20)])
        assert broken.index("Csaba 40") < broken.index("Dora 35"), broken
        assert "Bela" not in broken and "Anna" not in broken
        assert ("score over every game" in broken) if lang == "en" else ("összes játszma" in broken)
        shared = league_ties([_line(1, "Bela", 3, 50), _line(2, "Csaba", 2, 40), _line(2, "Dora", 2, 40),
                              _line(4, "Anna", 1, 20)])
        assert ("share place 2" in shared) if lang == "en" else ("2. helyen" in shared), shared
        assert league_ties([_line(1, "Bela", 3, 50), _line(2, "Csaba", 2, 40)]) == ""  # no tie
    finally:
        set_language("en")


def test_a_games_scores_are_larger_than_the_names(box) -> None:
    """The scores were 20 px, as small as the names beside them (issue 35, item 7)."""
    from kivy.uix.label import Label

    box.show_match("Group 1", Match(("Anna", "Bela"), {"Anna": 11, "Bela": 24}, ("Bela",), True))
    labels = [w for w in box.walk() if isinstance(w, Label)]
    scores = [w for w in labels if w.text in ("11", "24")]
    names = [w for w in labels if w.text.startswith(("Anna", "Bela"))]
    assert len(scores) == 2 and len(names) == 2
    assert all(s.font_size > 20 and s.font_size > n.font_size for s in scores for n in names)
