"""The touchscreen's words and looks, checked without a window: every ``ui.*`` code the shell
uses has a text in every language with the same placeholders, lives in ``ui.po`` only, and the
theme keeps its contrast and sizes."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from companion.i18n import LANGUAGES, catalogue, message_files
from companion.i18n.po import read_po
from companion.service.app import PIECE_COLOURS
from ui import theme

ROOT = Path(__file__).resolve().parent.parent
LITERAL = re.compile(r'''["'](ui\.[a-z_]+\.[a-z_.]+)["']''')
#: Codes that live in a tool's own file (ui_editor.po), not in ui.po (a board's: :func:`_a_boards_own`).
OWN_FILES = ("ui.resolver.", "ui.editor.")
FAMILY = re.compile(r'''f["'](ui\.[a-z_]+\.[a-z_]*)\{''')


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def codes_used() -> set[str]:
    """The literal codes in ui/ (its modules and its .kv rules), and the codes of the families built
    from a name (colours, languages)."""
    source = "\n".join(path.read_text(encoding="utf-8") for pattern in ("*.py", "*.kv")
                       for path in (ROOT / "ui").rglob(pattern))
    used = set(LITERAL.findall(source))
    families = set(FAMILY.findall(source))
    assert families == {"ui.colour.", "ui.language.", "ui.settings.flags_"}, families
    colours = {c for allowed in PIECE_COLOURS.values() if allowed for c in allowed}
    used |= {f"ui.colour.{c}" for c in colours} | {f"ui.language.{lang}" for lang in LANGUAGES}
    used |= {"ui.settings.flags_intermezzo", "ui.settings.flags_finito"}
    return used


def test_the_scan_finds_the_shells_codes() -> None:
    used = codes_used()
    assert {"ui.bar.undo", "ui.strip.next", "ui.colour.green", "ui.language.hu"} <= used
    assert len(used) > 80


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_code_has_a_text_with_the_english_placeholders(language: str) -> None:
    texts = catalogue(language)
    english = catalogue("en")
    missing = sorted(code for code in codes_used() if texts.lookup(code) is None)
    assert missing == []
    for code in codes_used():
        for count in (1, 2):
            found, expected = texts.lookup(code, count=count), english.lookup(code, count=count)
            assert _fields(found) == _fields(expected), code


def test_the_ui_codes_live_in_ui_po_only_and_hungarian_is_not_english() -> None:
    shared = ROOT / "companion" / "locale"
    for language in LANGUAGES:
        for path in message_files(language):
            codes = {entry.msgid for entry in read_po(path) if entry.msgid.startswith("ui.")}
            if path.is_relative_to(shared):  # the shell's own words: ui.po only
                assert (path.name == "ui.po") is bool(codes), path
            else:  # a game's: in its package, in a file of the touchscreen's (ui.po, ui_editor.po)
                assert not codes or path.name.startswith("ui"), path
    english = {e.msgid: e.msgstr for e in read_po(ROOT / "companion/locale/en/ui.po") if e.msgid}
    hungarian = {e.msgid: e.msgstr for e in read_po(ROOT / "companion/locale/hu/ui.po") if e.msgid}
    assert english.keys() == hungarian.keys()
    same = {code for code in english if english[code] == hungarian[code]
            and any(ch.isalpha() for ch in _without_fields(english[code][0]))}
    # the language names, which each language writes in its own words
    assert same == {"ui.language.en", "ui.language.hu"}


def _without_fields(text: str) -> str:
    return re.sub(r"\{[^}]*\}", "", text)


@pytest.mark.parametrize("colour", ["TEXT", "TEXT_QUIET", "ACCENT", "REFUSED"])
def test_text_colours_keep_seven_to_one_on_both_backgrounds(colour: str) -> None:
    for background in (theme.BACKGROUND, theme.SURFACE):
        assert theme.contrast(getattr(theme, colour), background) >= 7


def test_text_on_the_accent_and_refusal_colours_reads_too() -> None:
    assert theme.contrast(theme.ON_ACCENT, theme.ACCENT) >= 7
    assert theme.contrast(theme.ON_REFUSED, theme.REFUSED) >= 7
    assert theme.contrast(theme.TEXT, theme.BACKGROUND) >= 7


def test_sizes_follow_the_spec() -> None:
    assert theme.TOUCH >= 48 and theme.SPACING >= 8
    assert theme.FONT_LARGE >= 36 and theme.FONT_SMALL >= 20
    assert theme.REFUSAL_SECONDS >= 4 and theme.WINDOW == (800, 480)


def test_every_piece_colour_has_a_swatch_and_readable_initials() -> None:
    for allowed in PIECE_COLOURS.values():
        for name in allowed or ():
            swatch = theme.piece_colour(name)
            assert swatch is not theme.NO_COLOUR, name
            assert theme.contrast(theme.text_on(swatch), swatch) >= 4.5, name
    assert theme.piece_colour("no such colour") == theme.NO_COLOUR
