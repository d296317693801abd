"""The Campanile board's words, colours and initials, checked without a window.

Every ``ui.campanile.*`` code the board's modules name has a text in every
language (Hungarian with no English left), player identity is colour *and*
unique initials, and the board's text colours keep 7:1 contrast (ui.md).
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from companion.games.messages import Message
from companion.i18n import catalogue
from tests.refusals import assert_words
from ui.games import campanile_style as style
from ui.games.campanile_players import initials, marker_colours

UI = Path(__file__).resolve().parent.parent / "ui" / "games"
CODE = re.compile(r"""f?["'](ui\.campanile\.[a-z_.]*)(\{)?""")


def codes_named_in_the_board() -> tuple[set[str], set[str]]:
    """(whole codes, prefixes of codes completed at run time as f-strings) in ``ui/games/campanile*.py``."""
    whole: set[str] = set()
    prefixes: set[str] = set()
    for path in UI.glob("campanile*.py"):
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
    params = {"rank": 2, "flag": "5/3/1", "three": 1, "two": 3, "one": 5, "phase": "Finito", "problem": "…"}
    for code in sorted(known):
        assert_words(Message(code, params), names=("Intermezzo", "Finito"))


def test_english_and_hungarian_catalogues_hold_the_same_board_codes() -> None:
    english = {m for _, m in catalogue("en").msgids if m.startswith("ui.campanile.")}
    hungarian = {m for _, m in catalogue("hu").msgids if m.startswith("ui.campanile.")}
    assert english == hungarian


def test_initials_tell_the_players_apart() -> None:
    assert initials(["Albert", "Birgit", "Franziska", "Helmut"]) == {
        "Albert": "Al", "Birgit": "Bi", "Franziska": "Fr", "Helmut": "He"}
    assert initials(["Albert", "Anna"]) == {"Albert": "Al", "Anna": "An"}
    assert initials(["Anna", "Annika"]) == {"Anna": "Anna", "Annika": "Anni"}


@given(st.lists(st.text(alphabet="abcdeABCDE", min_size=1, max_size=6), min_size=2, max_size=5,
                unique_by=str.casefold))
def test_initials_are_unique_prefixes_whatever_the_names(names: list[str]) -> None:
    shown = initials(names)
    assert len({s.casefold() for s in shown.values()}) == len(names)
    for name, short in shown.items():
        assert name.casefold().startswith(short.casefold())


def test_marker_colours_follow_the_profiles_unless_two_want_the_same() -> None:
    players = ["Albert", "Birgit", "Franziska"]
    assert marker_colours(players) == {"Albert": "blue", "Birgit": "yellow", "Franziska": "red"}
    wanted = {"Albert": "white", "Birgit": "white", "Franziska": "black"}
    chosen = marker_colours(players, wanted)
    assert chosen["Franziska"] == "black"
    assert "white" not in (chosen["Albert"], chosen["Birgit"])  # nobody gets a disputed colour
    assert len(set(chosen.values())) == 3


def test_text_keeps_seven_to_one_contrast_on_the_board() -> None:
    for text in (style.TEXT, style.TEXT_QUIET):
        for ground in (style.BACKGROUND, style.SURFACE):
            assert style.contrast(text, ground) >= 7, (text, ground)
    assert style.contrast(style.ON_ACCENT, style.ACCENT) >= 7
    for colour in style.MARKER_COLOURS.values():
        assert style.contrast(style.text_on(colour), colour) >= 7, colour


def test_sizes_meet_the_numbers_of_the_ui_spec() -> None:
    assert style.FONT_FIGURE >= 36 and style.FONT_LABEL >= 20
    assert style.TOUCH >= 48 and style.SPACING >= 8
