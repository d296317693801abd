"""The Campanile board's words and colours, checked without a window.

Every ``ui.campanile.*`` code the board's modules name has a text in every
language (Hungarian with no English left), the board's text colours keep 7:1 contrast (ui.md).
"""

from __future__ import annotations

import re
from pathlib import Path

from companion.games.messages import Message
from companion.i18n import catalogue
from companion.service.app import PIECE_COLOURS
from tests.refusals import assert_words
from ui import theme as style

UI = Path(__file__).resolve().parent.parent / "ui" / "games"
CODE = re.compile(r"""f?["'](ui\.campanile\.[a-z_.]*)(\{)?""")


def codes_named_in_the_board() -> tuple[set[str], set[str]]:
    """(whole codes, prefixes of codes completed at run time as f-strings) in ``ui/games/campanile/*.py``."""
    whole: set[str] = set()
    prefixes: set[str] = set()
    for path in (UI / "campanile").glob("*.py"):
        for code, brace in CODE.findall(path.read_text(encoding="utf-8")):
            (prefixes if brace else whole).add(code)
    return whole, prefixes


def test_the_board_names_codes_and_each_has_words_in_every_language() -> None:
    whole, prefixes = codes_named_in_the_board()
    assert len(whole) >= 10 and prefixes, (whole, prefixes)
    known = {msgid for _, msgid in catalogue("en").msgids if msgid.startswith("ui.campanile.")}
    assert whole <= known, whole - known
    for prefix in prefixes:
        assert any(code.startswith(prefix) for code in known), prefix
    params = {"rank": 2, "tower": "red", "flag": "5/3/1", "values": "3/1", "three": 1, "two": 3, "one": 5,
              "phase": "Finito", "problem": "…", "value": 2, "cards": "Finito"}
    for code in sorted(known):
        assert_words(Message(code, params), names=("Intermezzo", "Finito"))


def test_english_and_hungarian_catalogues_hold_the_same_board_codes() -> None:
    english = {m for _, m in catalogue("en").msgids if m.startswith("ui.campanile.")}
    hungarian = {m for _, m in catalogue("hu").msgids if m.startswith("ui.campanile.")}
    assert english == hungarian


def test_text_keeps_seven_to_one_contrast_on_the_board() -> None:
    for text in (style.TEXT, style.TEXT_QUIET):
        for ground in (style.BACKGROUND, style.SURFACE):
            assert style.contrast(text, ground) >= 7, (text, ground)
    assert style.contrast(style.ON_ACCENT, style.ACCENT) >= 7
    for colour in (style.piece_colour(name) for name in PIECE_COLOURS["campanile"] or ()):
        assert style.contrast(style.text_on(colour), colour) >= 7, colour


def test_sizes_meet_the_numbers_of_the_ui_spec() -> None:
    assert style.FONT_LARGE >= 36 and style.FONT_SMALL >= 20
    assert style.TOUCH >= 48 and style.SPACING >= 8
