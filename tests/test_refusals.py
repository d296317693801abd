"""The refusal checker itself: it passes a well-translated code and fails on the faults it is for."""

from __future__ import annotations

import pytest

from companion.games.base import IllegalMove, require_player
from companion.games.messages import msg
from tests.refusals import assert_message, english_words_in, refuses


def test_a_translated_refusal_passes_in_every_language() -> None:
    with refuses("common.player.not_playing", player="Zed") as caught:
        require_player(["Albert", "Birgit"], "Zed")
    assert "Zed" in str(caught.value)


def test_a_plain_sentence_fails() -> None:
    with pytest.raises(AssertionError, match="plain sentence"), refuses("any.code"):
        raise IllegalMove("an English sentence")


def test_a_wrong_code_or_parameter_fails() -> None:
    with pytest.raises(AssertionError, match=r"expected other\.code"):
        assert_message(msg("common.player.not_playing", player="Zed"), "other.code")
    with pytest.raises(AssertionError, match="player='Zed', expected 'Ann'"):
        assert_message(msg("common.player.not_playing", player="Zed"), "common.player.not_playing",
                       player="Ann")


def test_a_code_without_text_fails() -> None:
    with pytest.raises(AssertionError, match="no text"):
        assert_message(msg("no.such.code"), "no.such.code")


def test_english_words_are_found_but_names_are_not_counted() -> None:
    assert english_words_in("a torony nem the tower") == {"the", "tower"}
    assert english_words_in("„The Tower” nem játszik", ("The Tower",)) == set()
