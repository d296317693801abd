"""The Castelli board's words and its game-over line, checked without a window.

Every ``ui.castelli.*`` code the board's modules name has a text in every
language (Hungarian with no English left), both catalogues hold the same
codes, and the game-over breakdown adds up to each player's score.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from companion.games.messages import Message
from companion.i18n import catalogue, set_language
from companion.registry import get_game
from tests.refusals import assert_words, english_words_in
from ui.games import score_breakdown

ROOT = Path(__file__).resolve().parent.parent
UI = ROOT / "ui" / "games"
EXAMPLE = ROOT / "tests" / "data" / "examples" / "castelli.json"
CODE = re.compile(r"""f?["'](ui\.castelli\.[a-z_.A-Z]*)(\{)?""")


def codes_named_in_the_board() -> tuple[set[str], set[str]]:
    """(whole codes, prefixes completed at run time) in ``ui/games/castelli/*.py`` and its ``.kv``
    rules (the buttons' and overlays' fixed words are named there)."""
    whole: set[str] = set()
    prefixes: set[str] = set()
    for path in [*(UI / "castelli").glob("*.py"), *(UI / "castelli").glob("*.kv")]:
        for code, brace in CODE.findall(path.read_text(encoding="utf-8")):
            (prefixes if brace else whole).add(code)
    return whole, prefixes


def test_the_board_names_codes_and_each_has_words_in_every_language() -> None:
    whole, prefixes = codes_named_in_the_board()
    assert len(whole) >= 30 and prefixes, (whole, prefixes)
    known = {msgid for _, msgid in catalogue("en").msgids if msgid.startswith("ui.castelli.")}
    assert whole <= known, whole - known
    for prefix in prefixes:
        assert any(code.startswith(prefix) for code in known), prefix
    params = {"player": "Anna", "tiebreak": "várak", "space": "s12",
              "area": "a13", "kind": "szikla", "what": "2 kő",
              "count": 2, "spaces": ["s12", "s21"], "explanation": "…", "players": ["Anna", "Bela"],
              "settlement": "falu", "silver": 2, "resource": "gabona", "card": "Gróf", "cost": ["1 fa"],
              "points": 3, "on": "Bela", "initials": "An", "amount": "1 fa", "value": 4, "price": 2,
              "next": "Bela", "things": "Kártya",  # the turn strip's steps (ui.castelli.now.more)
              "group": 2, "other": 1, "number": 3, "place": 1, "sentence": "…",  # a Championship's
              "one": "…", "two": "…", "score": 40, "scores": ["Csaba 40", "Dora 35"]}
    for code in sorted(known):
        assert_words(Message(code, params),
                     names=("Anna", "Bela", "Gróf", "szikla", "falu", "gabona", "Kártya"))


def test_english_and_hungarian_catalogues_hold_the_same_board_codes() -> None:
    english = {m for _, m in catalogue("en").msgids if m.startswith("ui.castelli.")}
    hungarian = {m for _, m in catalogue("hu").msgids if m.startswith("ui.castelli.")}
    assert english == hungarian


def test_the_game_over_line_adds_up_to_each_score_in_both_languages() -> None:
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    game = get_game("castelli")
    state = game.start(record["players"], record["options"], record["setup"])
    for move in record["moves"]:
        state = game.apply(state, game.parse_move(move))
    summary = game.summary(state)
    try:
        for language in ("en", "hu"):
            set_language(language)
            for player in record["players"]:
                line = score_breakdown("castelli", summary, player)
                assert line is not None
                figures = [int(n) for n in re.findall(r"-?\d+", line)]
                assert sum(figures) == summary["scores"][player], (player, line)
                if language == "hu":
                    assert not english_words_in(line), line
    finally:
        set_language("en")


def test_no_line_before_the_end_and_none_for_other_games() -> None:
    assert score_breakdown("castelli", {"scores": {"Anna": 3}}, "Anna") is None
    assert score_breakdown("campanile", {"chips": {"Anna": [3]}}, "Anna") is None
