"""What each engine says is to be done now (``Game.what_now``) and who the screens name as next.

Rulebook-like states of the three games, said in both languages: the code and its figures come
from the engine, the words from the catalogues, and "next" only where it helps (``next_up``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.games.base import next_up
from companion.games.messages import Alternatives, Message
from companion.i18n import render
from companion.registry import descriptor, game_names, get_game, load_named
from companion.service.records import load_record, replay

EXAMPLES = Path(__file__).parent / "data" / "examples"


def _states(name: str) -> tuple[Any, list[Any]]:
    record = load_record(EXAMPLES / f"{name}.json")
    return record.game, replay(record.game, record.initial, record.moves)


def _said(game: Any, state: Any) -> tuple[str, str, str | None]:
    """What is to be done in English and in Hungarian, and who is named as next."""
    now = game.what_now(state)
    assert now is not None
    return (render(now, "en"), render(now, "hu"),
            next_up(game.turn(state), game.legal_moves(state), now.params.get("player")))


def test_campanile_says_the_build_then_the_marker_of_its_value_and_names_next_only_while_they_may() -> None:
    game, states = _states("campanile-3p")
    assert _said(game, states[0]) == ("Albert: build 1, 2 or 3 stories on a tower",
                                      "Albert: 1, 2 vagy 3 emelet építése egy toronyra", None)
    # Albert built 2 stories (yellow +2): his marker is a 2, and Birgit may already build
    assert _said(game, states[1]) == ("Albert: place your 2-marker under a tower",
                                      "Albert: a 2 értékű jelző letétele egy torony alá", "Birgit")
    assert _said(game, states[20])[1] == "Albert: az 1 értékű jelző letétele egy torony alá"
    # his marker placed, Birgit must build: nobody else may move, so "next" would not help
    assert _said(game, states[2]) == ("Birgit: build 1, 2 or 3 stories on a tower",
                                      "Birgit: 1, 2 vagy 3 emelet építése egy toronyra", None)
    assert game.what_now(states[-1]) is None


def test_campanile_with_the_display_tracked_says_the_card_and_then_the_tables_refill_or_valuation() -> None:
    game = get_game("campanile")
    state = game.start(["Albert", "Birgit", "Franziska"], {}, {"display": ["red", "blue", "grey"]})
    steps: list[tuple[str, str, str | None]] = []
    for move in ({"type": "build", "player": "Albert", "tower": "red", "stories": 3},
                 {"type": "influence", "player": "Albert", "tower": "red"},
                 {"type": "take", "player": "Albert", "card": "red"},
                 {"type": "valuation", "phase": "intermezzo"}):
        steps.append(_said(game, state))
        state = game.apply(state, game.parse_move(move))
    steps.append(_said(game, state))
    assert steps[1][0] == "Albert: place your 3-marker under a tower, then take a card"
    assert steps[2] == ("Albert: take a card from the display",
                        "Albert: egy kártya elvétele a kártyasorból", None)
    # the table turns the refill over (or a valuation card came up): Birgit builds after it
    assert steps[3] == ("The table: turn over the card that refills the display, or the Intermezzo or "
                        "Finito if that came up",
                        "Az asztal: a kártyasort pótló kártya felfordítása, vagy ha az jött, az "
                        "Intermezzo vagy Finito kártya", "Birgit")
    assert game.what_now(state) == Message("campanile.now.refill",
                                           {"cards": Alternatives([Message("campanile.now.phase.finito")])})
    assert steps[4][1].endswith("vagy ha az jött, a Finito kártya")


def test_castelli_says_the_reveal_then_the_optional_steps_with_the_next_revealer() -> None:
    game, states = _states("castelli")
    assert _said(game, states[0]) == ("Anna: reveal a tile", "Anna: egy lapka felfordítása", None)
    # after her reveal Anna may play or sell, and Bela may already reveal (which ends her turn)
    assert _said(game, states[1]) == ("Anna: play a card or sell cards",
                                      "Anna: egy kártya kijátszása vagy kártyák eladása", "Bela")
    assert _said(game, states[11])[0] == "Dora: build, play a card or sell cards"
    # the last tile is face up: Dora may still build, or the table ends the game
    assert _said(game, states[17])[0] == "Dora: build or end the game"
    assert _said(game, states[18]) == ("The table: every tile is face up; end the game",
                                       "Az asztal: minden lapka felfordítva; zárjátok le a játszmát", None)
    assert game.what_now(states[-1]) is None


def test_san_gimignano_says_the_token_the_segment_and_the_tower_the_rulebook_forces() -> None:
    game, states = _states("san-gimignano")
    assert _said(game, states[0]) == ("Ada: place a token", "Ada: egy korong letétele", None)
    assert _said(game, states[1]) == ("Ada: lay a segment", "Ada: egy tábla lerakása", None)
    forced = _said(game, states[26])
    assert forced[0].startswith("Bo: build a tower") and "kötelező" in forced[1] and forced[2] is None


@pytest.mark.parametrize("name", ["campanile-3p", "castelli", "san-gimignano"])
def test_every_state_of_the_examples_names_the_acting_player_or_the_table_and_renders_in_both_languages(
        name: str) -> None:
    """The instruction and the screens' badge can never disagree: the player it names is the turn's
    acting player (or nobody, when the table acts), and no code is left unrendered."""
    game, states = _states(name)
    for state in states:
        now = game.what_now(state)
        if game.is_finished(state):
            assert now is None
            continue
        assert now is not None
        assert now.params.get("player") in (game.turn(state).acting, None)
        for language in ("en", "hu"):
            words = render(now, language)
            assert ".now." not in words and "{" not in words, words


def test_every_step_code_has_touch_and_oled_words_in_both_languages_with_the_engines_fields() -> None:
    """Each front end words every ``<game>.now.*`` code itself (``ui.`` + code on the strip, ``oled.`` +
    code on the OLED, ``web.`` + code on the phones' pages): a code it lacked would fall back to the
    engine's sentence, name and all."""
    import string

    from companion.i18n import catalogue

    def fields(words: str | None) -> set[str]:
        assert words is not None
        return {name.split(":")[0] for _, name, _, _ in string.Formatter().parse(words) if name}

    english = catalogue("en")
    codes = [code for _, code in english.msgids if ".now." in code
             and not code.startswith(("ui.", "oled.", "web.", "common."))]
    games = {name.replace("-", "_"): name for name in game_names()}
    assert {code.split(".")[0] for code in codes} == set(games)
    for code in codes:
        # the touchscreen words a board's turn strip asks for, or the move picker's for a game without one
        for surface in (_touch_words(games[code.split(".")[0]]), "oled.", "web."):
            for language in ("en", "hu"):
                said = catalogue(language).lookup(surface + code)
                assert said is not None, (language, surface + code)
                assert fields(said) <= fields(english.lookup(code)), (language, surface + code)


def _touch_words(game: str) -> str:
    """Where the touchscreen's turn strip finds ``game``'s words for an engine code (ui/strip.py): a
    board's (``ui.``), or the move picker's (``ui.pick.``) for a game whose touchscreen part has none."""
    part = load_named(descriptor(game).touchscreen, game)
    return "ui." if getattr(part, "board", None) else "ui.pick."
