"""The San Gimignano board's words, checked without a window: every ``ui.san_gimignano.*`` code the
board's modules and rules name has words in every language, with the same placeholders, Hungarian
with no English."""

from __future__ import annotations

import re
import string
from pathlib import Path

from companion.games.messages import Message
from companion.i18n import catalogue
from tests.refusals import assert_words

ROOT = Path(__file__).resolve().parent.parent
CODE = re.compile(r"""["'](ui\.san_gimignano\.[a-z_.0-9]+)["']""")
#: The board's modules and its rules (the fixed words, such as Build and Start, are said in the rules).
SOURCES = [*(ROOT / "ui" / "games" / "san_gimignano").glob("*.py"),
           *(ROOT / "ui" / "games" / "san_gimignano").glob("*.kv"), ROOT / "ui" / "screens" / "settings.py",
           ROOT / "companion" / "games" / "san_gimignano" / "descriptor.py"]


def codes_named() -> set[str]:
    return {code for path in SOURCES for code in CODE.findall(path.read_text(encoding="utf-8"))}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_code_the_board_names_has_words_in_both_languages() -> None:
    named = codes_named()
    assert len(named) > 25, named  # the board's own turn line went to the shell's strip (issue 20)
    known = {msgid for _, msgid in catalogue("en").msgids if msgid.startswith("ui.san_gimignano.")}
    assert named <= known, sorted(named - known)
    hungarian = {msgid for _, msgid in catalogue("hu").msgids if msgid.startswith("ui.san_gimignano.")}
    assert known == hungarian


def test_hungarian_is_hungarian_with_the_english_placeholders() -> None:
    params = {"player": "Ada", "initials": "Ad", "who": "Ada (Ad)", "things": "x", "number": 2, "tokens": 5,
              "segments": 3, "count": 3, "guilds": ["wool", "bread"], "value": "'x'", "colours": "red, blue"}
    for _, code in catalogue("en").msgids:
        if not code.startswith("ui.san_gimignano."):
            continue
        english, hungarian = catalogue("en").lookup(code), catalogue("hu").lookup(code)
        assert english is not None and hungarian is not None, code
        assert fields(english) == fields(hungarian), code
        assert_words(Message(code, params), names=("Ada", "Ad", "wool", "bread", "red", "blue"))


def test_counts_agree_with_their_nouns_and_the_default_guilds_read_as_every_text_names_them() -> None:
    from companion.games.san_gimignano import notation

    say = {lang: catalogue(lang) for lang in ("en", "hu")}
    assert say["en"].lookup("ui.san_gimignano.player.segments", count=1) == "{count} segment to lay"
    assert say["en"].lookup("ui.san_gimignano.player.segments", count=2) == "{count} segments to lay"
    assert say["en"].lookup("ui.san_gimignano.player.tokens", count=1) == "{count} token"
    assert say["en"].lookup("ui.san_gimignano.player.towers", count=1) == "tower"
    assert say["en"].lookup("ui.san_gimignano.player.pool", count=1) == "{count} segment in the pool"
    assert say["hu"].lookup("ui.san_gimignano.player.segments", count=1) == "{count} tábla van még"
    # the notation (console, OLED, history) and the messages (explanations, the legend) say the
    # default guilds alike
    for lang in ("en", "hu"):
        default = say[lang].lookup("san_gimignano.guild.default")
        assert default is not None
        for number in range(1, 5):
            assert notation.word(notation.WORDS, f"guild-{number}", lang) == default.format(number=number)
