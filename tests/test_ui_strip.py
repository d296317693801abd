"""The turn strip on the game screen (:mod:`ui.strip`): the engine's step in touch words, the
acting player named once, "next" only when it helps, the game over naming the winners, and every
strip of the example records fitting 800×480 in both languages.

The words are read from :func:`ui.strip.strip_for` for every state of the examples (cheap: no
window); their widths are measured with Kivy's text renderer against the strip's boxes; one shell
shows two of them on the real boards, screenshots kept for a person (``UI_SCREENSHOTS``).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from companion.games.base import next_up
from companion.service.names import initials
from companion.service.records import load_record, replay
from tests import ui_kit as kit
from ui import theme
from ui.strip import PICKER_WORDS, Strip, strip_for

EXAMPLES = Path(__file__).parent / "data" / "examples"
NAMES = ("campanile-3p", "castelli", "san-gimignano")


def _states(name: str) -> tuple[Any, list[Any]]:
    record = load_record(EXAMPLES / f"{name}.json")
    return record.game, replay(record.game, record.initial, record.moves)


def _strip(game: Any, state: Any, language: str, surface: str | None = None) -> Strip:
    i18n.set_language(language)
    try:
        return strip_for(game, state) if surface is None else strip_for(game, state, surface)
    finally:
        i18n.set_language("en")


def test_the_strip_names_the_acting_player_and_says_the_step_in_touch_words_in_both_languages() -> None:
    game, states = _states("campanile-3p")
    # Albert built 2 stories: his 2-marker is due, and Birgit may already build
    assert _strip(game, states[1], "en") == Strip("Albert", "Albert",
                                                  "Tap a ringed tower for your 2-marker.", "next: Birgit")
    assert _strip(game, states[1], "hu") == Strip(
        "Albert", "Albert", "Koppintsatok egy kiemelt toronyra: oda kerül a 2 értékű jelző.", "utána: Birgit")
    # his marker placed: only Birgit may move, so nobody else is named
    assert _strip(game, states[2], "en") == Strip("Birgit", "Birgit",
                                                  "Tap +1, +2 or +3 under the tower you build on.")
    game, states = _states("castelli")
    # the "Dora to play — next Anna" above "Anna: tap a ringed face-down tile": one strip now
    assert _strip(game, states[4], "en") == Strip("Dora", "Dora", "You may still tap Card or Sell.",
                                                  "next: Anna")
    assert _strip(game, states[5], "hu") == Strip(
        "Anna", "Anna", "Koppintsatok egy kiemelt, lefordított mezőre: felfordul a lapkája.")
    assert _strip(game, states[18], "en") == Strip(None, "The table",
                                                   "Every tile is face up: hold End to score.")
    game, states = _states("san-gimignano")
    assert _strip(game, states[26], "hu") == Strip(
        "Bo", "Bo", "Tornyot kell építeni: koppintsatok az Építés gombra, majd a mezőre.")
    # without a board the move picker's words: the moves are listed below
    assert _strip(game, states[0], "en", PICKER_WORDS).sentence == "Ada: place a token"


@pytest.mark.parametrize("name", NAMES)
def test_every_state_names_one_player_and_next_only_by_the_one_rule(name: str) -> None:
    """No other player's name in the sentence (a second player named on one screen), "next" exactly
    when :func:`next_up` says it helps, and never a code, a placeholder or an id left in the words."""
    game, states = _states(name)
    players = game.summary(states[0])["players"]
    for state in states:
        if game.is_finished(state):
            continue
        now = game.what_now(state)
        assert now is not None
        following = next_up(game.turn(state), game.legal_moves(state), now.params.get("player"))
        for language in ("en", "hu"):
            strip = _strip(game, state, language)
            assert strip.player == now.params.get("player")
            assert strip.player in (game.turn(state).acting, None)
            assert (following is not None) == bool(strip.next) and (following or "") in strip.next
            assert not [p for p in players if re.search(rf"\b{re.escape(p)}\b", strip.sentence)], strip
            assert not re.search(r"[a-z_]+\.[a-z_.]+|\{|\b[as]\d\d\b", strip.sentence), strip


class _Shared:
    """The game with its outcome made a shared win (no example ends in one)."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def outcome(self, state: Any) -> Any:
        outcome = self.game.outcome(state)
        return replace(outcome, winners=tuple(s.player for s in outcome.standings[:2]), decided_by="shared")


def test_when_the_game_is_over_the_strip_names_the_winner_or_the_shared_win_and_says_so() -> None:
    game, states = _states("campanile-3p")
    assert _strip(game, states[-1], "en") == Strip("Albert", "Albert",
                                                   "Albert wins with 21 points. The game is over.")
    assert _strip(game, states[-1], "hu") == Strip("Albert", "Albert",
                                                   "Albert nyert 21 ponttal. Vége a játéknak.")
    assert _strip(_Shared(game), states[-1], "en") == Strip(
        None, "A shared win", "Albert and Birgit share the win at 21 points. The game is over.")
    assert _strip(_Shared(game), states[-1], "hu").sentence == \
        "Albert és Birgit együtt nyertek 21 ponttal. Vége a játéknak."
    tied = replace(game.outcome(states[-1]), decided_by="highest_chip")
    by_tiebreak = type("Tied", (_Shared,), {"outcome": lambda self, s: tied})(game)
    assert "a tie at 21 points, decided by highest chip" in _strip(by_tiebreak, states[-1], "en").sentence


def _width(words: str, size: int, bold: bool = False) -> int:
    from kivy.core.text import Label as Measure

    measure = Measure(text=words, font_size=size, bold=bold)
    measure.refresh()
    return int(measure.texture.size[0])


@pytest.fixture
def shell(tmp_path: Path):
    opened = kit.open_shell(tmp_path / "store.db")
    yield opened
    kit.close_shell(opened)
    i18n.set_language("en")


def _cut(name: str, moves: int) -> dict[str, Any]:
    record = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    record["moves"] = record["moves"][:moves]
    for key in ("summary", "result"):
        record.pop(key, None)
    return record


def _inside(inner: Any, outer: Any) -> bool:
    return (inner.x >= outer.x - 0.5 and inner.right <= outer.right + 0.5
            and inner.y >= outer.y - 0.5 and inner.top <= outer.top + 0.5)


def test_the_strip_shows_the_engines_step_on_the_boards_and_every_examples_strip_fits(
        shell, shots: Path) -> None:
    app = shell.table.app
    shell.set_language("hu")  # the longer words: the name's box is narrowest in Hungarian
    game, states = _states("castelli")
    shell.table.open(app.open_game(app.import_record(_cut("castelli", 4))))
    shell.go("game")
    kit.pump(4)
    screen = shell.screens.get_screen("game")
    expected = _strip(game, states[4], "hu")
    name, sentence, following = screen.strip_name, screen.strip_words, screen.ids.strip_next
    assert (name.text, sentence.text, following.text) == (expected.headline, expected.sentence,
                                                          expected.next)
    assert screen.turn_initials == "Do" and screen.turn_badge_box.parent is not None
    assert name.font_size >= theme.FONT_LARGE
    assert sentence.font_size >= theme.FONT_SMALL and following.font_size >= theme.FONT_SMALL
    # the sentence and "next" side by side on their line, under the bar, nothing cut
    line = screen.ids.strip_line
    assert _inside(sentence, line) and _inside(following, line) and sentence.right <= following.x + 1
    assert line.top <= screen.ids.bar.y + 1 and sentence.texture_size[0] <= sentence.width + 1
    kit.screenshot(shots / "hu-strip-castelli-4.png")
    # every strip of every example, both languages: the name fits its box, the sentence and "next" one line
    room = line.width - line.padding[0] - line.padding[2] - line.spacing
    strips = {_strip(game, state, language) for example in NAMES for game, states in [_states(example)]
              for state in states for language in ("en", "hu")}
    for strip in strips:
        assert _width(strip.headline, theme.FONT_LARGE, bold=True) <= name.width, strip
        used = _width(strip.sentence, theme.FONT_SMALL) + (_width(strip.next, theme.FONT_SMALL)
                                                          if strip.next else 0)
        assert used <= room, (used, room, strip)
    # the game over: the winner's badge and name, and no instruction left
    shell.set_language("en")
    kit.pump(4)  # the board made again in English settles before another game opens
    shell.table.open(app.open_game(app.import_record(_cut("campanile-3p", 64))))
    shell.go("game")
    kit.pump(4)
    assert (name.text, screen.turn_initials) == ("Albert",
                                                 initials(["Albert", "Birgit", "Franziska"])["Albert"])
    assert sentence.text == "Albert wins with 21 points. The game is over." and following.text == ""
    kit.screenshot(shots / "en-strip-game-over.png")


def test_home_offers_the_resolver_only_beside_its_game_and_rematch_only_after_a_finished_one(shell) -> None:
    """Home once offered the Castelli area resolver during any game and Rematch in mid-game."""
    home = shell.screens.get_screen("home")

    def offered() -> tuple[bool, bool, bool]:
        shell.go("home")
        kit.pump(2)
        return (home.ids.tools.parent is not None,  # the game's tool: the resolver
                *(home.ids[key].parent is not None for key in ("rematch", "back")))

    assert offered() == (True, False, False)  # no game: the resolver, nothing to rematch
    shell.table.start("campanile", ["Albert", "Birgit", "Franziska"])
    assert offered() == (False, False, True)  # mid-game: back to it, no resolver, no rematch
    app = shell.table.app
    shell.table.open(app.open_game(app.import_record(_cut("castelli", 4))))
    assert offered() == (True, False, True)  # its own game: the resolver stays
    shell.table.open(app.open_game(app.import_record(_cut("campanile-3p", 64))))
    assert offered() == (True, True, False)  # over: rematch, and the resolver again
    kit.find(i18n.text("ui.home.rematch", players=["Albert", "Birgit", "Franziska"]))


def test_another_game_opened_before_the_castelli_boards_next_frame_is_shown_as_it_is(shell) -> None:
    """The Castelli board prepares its overlays in the frame after it is made; a game opened before
    that frame (as a language switch or a quick resume does) must not be read as Castelli's."""
    app = shell.table.app
    shell.table.open(app.open_game(app.import_record(_cut("castelli", 4))))
    shell.go("game")
    shell.table.open(app.open_game(app.import_record(_cut("campanile-3p", 4))))
    kit.pump(4)
    screen = shell.screens.get_screen("game")
    assert shell.table.session is not None and shell.table.session.game.name == "campanile"
    assert screen.strip_name.text == shell.table.session.game.turn(shell.table.session.state).acting
