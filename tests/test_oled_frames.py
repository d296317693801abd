"""OLED frames compared to reference PNGs (looked at by a person), and the pages' words in both languages.

The references live in ``tests/data/oled/``. After a deliberate change, write
them again with ``COMPANION_WRITE_FRAMES=1 pytest tests/test_oled_frames.py``,
look at every changed PNG, and commit them. The fonts are bitmaps, so a frame
does not change with Pillow's FreeType; Pillow itself is pinned.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from companion.games.messages import msg
from companion.i18n import current_language, set_language, text
from companion.service.names import escaped, initials
from companion.service.records import final_state, load_record, states_after
from hardware.oled_pages import choice_page, refused_pages, start_page, status_pages
from hardware.oled_render import COLUMNS, Page, draw, wrap

FRAMES = Path(__file__).parent / "data" / "oled"
EXAMPLES = Path(__file__).parent / "data" / "examples"
WRITE = os.environ.get("COMPANION_WRITE_FRAMES") == "1"


@pytest.fixture
def language() -> Iterator[Callable[[str], None]]:
    before = current_language()
    yield set_language
    set_language(before)


def _state_after(name: str, moves: int) -> tuple[Any, Any]:
    record = load_record(EXAMPLES / f"{name}.json")
    states = list(states_after(record.game, record.initial, record.moves[:moves]))
    return record.game, states[-1] if states else record.initial


def _campanile(number: int) -> Page:
    game, state = _state_after("campanile-3p", 31)
    return status_pages(game, state)[number]


CASES: dict[str, tuple[str, Callable[[], Page]]] = {
    "start-en": ("en", start_page),
    "campanile-turn-en": ("en", lambda: _campanile(0)),
    "campanile-towers-en": ("en", lambda: _campanile(1)),
    "campanile-turn-hu": ("hu", lambda: _campanile(0)),
    "campanile-towers-hu": ("hu", lambda: _campanile(1)),
    "castelli-en": ("en", lambda: status_pages(*_state_after("castelli", 10))[2]),
    "castelli-hu": ("hu", lambda: status_pages(*_state_after("castelli", 10))[2]),
    "castelli-turn-hu": ("hu", lambda: status_pages(*_state_after("castelli", 11))[0]),
    "castelli-scores-en": ("en", lambda: status_pages(*_state_after("castelli", 11))[1]),
    "san-gimignano-hu": ("hu", lambda: status_pages(*_state_after("san-gimignano", 12))[1]),
    "refused-hu": ("hu", lambda: refused_pages(msg("oled.valuation.not_now"))[0]),
    "game-over-en": ("en", lambda: status_pages(*_final("campanile-3p"))[0]),
}


def _final(name: str) -> tuple[Any, Any]:
    record = load_record(EXAMPLES / f"{name}.json")
    return record.game, final_state(record)


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_frame_matches_its_reference(name: str, language: Callable[[str], None]) -> None:
    lang, page = CASES[name]
    language(lang)
    image = draw(page())
    path = FRAMES / f"{name}.png"
    if WRITE:
        FRAMES.mkdir(parents=True, exist_ok=True)
        image.save(path)
    reference = Image.open(path).convert("1")
    assert reference.size == image.size == (128, 64)
    assert reference.tobytes() == image.tobytes(), f"{path} differs: look at both and write it again"


def test_the_hungarian_pages_have_their_accents_and_no_english_words(language: Callable[[str], None]) -> None:
    language("hu")
    game, state = _state_after("castelli", 10)
    words = "\n".join(page.text() for page in status_pages(game, state))
    assert "utána:" in words and "lapka" in words and "ezüst" in words
    assert "next" not in words and "silver" not in words
    language("en")
    assert "silver" in "\n".join(page.text() for page in status_pages(game, state))


def test_the_castelli_page_names_the_last_area_by_what_and_where(language: Callable[[str], None]) -> None:
    from hardware.games.castelli import status_pages as castelli_pages

    game, state = _state_after("castelli", 10)
    last = state.evaluations[-1]
    for lang, where in (("en", "row"), ("hu", "sor")):
        language(lang)
        said = " ".join(castelli_pages(game, state, game.summary(state))[-1].text().split())
        assert where in said and last.area not in said, said  # "rock, row 2, column 2", not "a11"


def test_the_first_page_answers_whose_turn_and_inverts_the_acting_player() -> None:
    game, state = _state_after("campanile-3p", 31)
    first = status_pages(game, state)[0]
    turn = game.turn(state)
    acting = turn.player or turn.next
    assert any(line.inverted and line.text == acting for line in first.lines) or \
        any(line.inverted for line in first.lines)
    assert f"{turn.next}" in first.text()


def test_a_long_refusal_scrolls_over_pages_and_loses_no_word() -> None:
    reason = " ".join(f"word{i}" for i in range(60))
    pages = refused_pages(reason)
    assert len(pages) > 1
    shown = " ".join(line.text for page in pages for line in page.lines[1:])
    assert shown.split() == reason.split()


def test_the_game_over_page_names_the_winner_and_why() -> None:
    game, state = _final("campanile-3p")
    page = status_pages(game, state)[0]
    outcome = game.outcome(state)
    assert outcome.winners[0] in page.text()
    assert "Game over" in page.text()


# -- invariants of the layout --------------------------------------------------------------------

_WORDS = st.text(alphabet=st.sampled_from(list("abcőűÁ .,-")), max_size=120)


@given(_WORDS)
def test_wrapping_keeps_every_character_but_spaces_and_no_line_is_too_long(words: str) -> None:
    lines = wrap(words)
    assert all(len(line) <= COLUMNS for line in lines)
    assert "".join(lines).replace(" ", "") == words.replace(" ", "")


@given(st.lists(st.text(min_size=1, max_size=30), min_size=1, max_size=40), st.data())
def test_the_chosen_option_is_always_on_the_page_and_the_only_inverted_line(
        options: list[str], data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(options) - 1))
    page = choice_page("Move", options, index)
    inverted = [line for line in page.lines if line.inverted]
    assert len(inverted) == 1
    assert escaped(options[index]).startswith(inverted[0].text.rstrip("…"))  # as shown: escaped
    assert page.lines[0].text.endswith(f"{index + 1}/{len(options)}")


def test_a_tie_broken_at_the_end_is_said_in_the_tables_language(language: Callable[[str], None]) -> None:
    from companion.games.base import Outcome, Standing
    from companion.games.messages import Message
    from hardware.oled_pages import _tiebreak

    language("hu")
    # the tie-break's key, and its words in the game's own catalogue
    outcome = Outcome((Standing("Ada", 1, 9, 4), Standing("Bo", 2, 9, 3)), ("Ada",), "highest_chip",
                      "highest_chip", Message("campanile.tiebreak.highest_chip"))
    assert _tiebreak(outcome) == "a legnagyobb zseton"


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Ann", "2-marker: turn to its", "tower, push.", "next: Bob", "An 0  Bo 0  Ci 0"]),
    ("hu", ["Ann", "Jelző (2): tekerni a", "toronyhoz, nyomni.", "utána: Bob", "An 0  Bo 0  Ci 0"])])
def test_the_turn_page_says_the_step_in_the_boxs_own_terms(lang: str, expected: list[str]) -> None:
    """What the touchscreen's strip says ("tap a ringed tower for your 2-marker"), said for the
    encoder; the page once showed a raw key (``oled.turn.may(moves=…)``), then only a count of moves."""
    from companion.i18n import set_language
    from companion.registry import get_game

    set_language(lang)
    game = get_game("campanile")
    state = game.apply(game.start(["Ann", "Bob", "Cid"], {}, {}),
                       game.parse_move({"type": "build", "player": "Ann", "tower": "red", "stories": 2}))
    first = status_pages(game, state)[0]
    assert [line.text for line in first.lines] == expected
    assert first.lines[0].big and first.lines[0].inverted


@pytest.mark.parametrize("name", ["campanile-3p", "castelli", "san-gimignano"])
def test_every_turn_page_of_the_examples_fits_the_frame_and_says_the_strips_step(
        name: str, language: Callable[[str], None]) -> None:
    """The first page names whom the touchscreen's strip names, says the engine's step in the box's
    words (never "tap"), "next" by the strip's rule, fits 128×64, and the scores are on some page."""
    from companion.games.base import next_up
    from hardware.oled_pages import page_height

    record = load_record(EXAMPLES / f"{name}.json")
    game = record.game
    for state in [record.initial, *states_after(game, record.initial, record.moves)]:
        now = game.what_now(state)
        if now is None:
            continue
        following = next_up(game.turn(state), game.legal_moves(state), now.params.get("player"))
        for lang in ("en", "hu"):
            language(lang)
            pages = status_pages(game, state)
            first = pages[0]
            assert page_height(first.lines) <= 64 and all(len(line.text) <= COLUMNS for line in first.lines)
            assert first.lines[0].inverted
            assert first.lines[0].text == now.params.get("player", first.lines[0].text)
            words = first.text()
            assert not any(word in words for word in ("tap", "Tap", "koppint", "Koppint", "{", "oled.",
                                                        ".now."))
            said_next = [line.text for line in first.lines if line.text.startswith(("next:", "utána:"))]
            assert said_next == ([] if following is None else [text("oled.turn.next", player=following)])
            shown = "\n".join(page.text() for page in pages)
            scores = game.summary(state)["scores"]
            assert all(f"{tag} {scores[player]}" in shown for player, tag in initials(list(scores)).items())
