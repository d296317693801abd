"""Small readings at the table (issue 35, item 14).

Hungarian settings said "Állapotkijelző kikapcsol (mp, 0: soha)" (a verb where a noun belongs:
"kikapcsolása"); the resolver's "Utolsó törlése" and "Mind törlése" wrapped inside their buttons; a
disabled "Start Campanile" was an amber button with grey words (the accent says "your action",
which a button that cannot be tapped is not).
"""

from __future__ import annotations

import pytest

from companion.games.messages import Message
from companion.i18n import render


def test_the_hungarian_timeouts_are_named_as_nouns() -> None:
    for code in ("ui.settings.oled_timeout", "ui.settings.backlight_timeout"):
        said = render(Message(code), "hu")
        assert "kikapcsolása (mp, 0: soha)" in said, said


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_resolvers_buttons_hold_their_words_on_one_line(lang: str) -> None:
    from kivy.core.text import Label as CoreLabel

    from tests import ui_kit  # noqa: F401  (prepares Kivy)
    from ui import theme

    room = theme.TOUCH * 2.5 - theme.SPACING * 2  # the buttons' width less the Tap's text margins
    for code in ("ui.resolver.undo", "ui.resolver.clear"):
        said = render(Message(code), lang)
        label = CoreLabel(text=said, font_size=theme.FONT_SMALL)
        label.refresh()
        assert label.texture.size[0] <= room, (said, label.texture.size[0], room)


def test_a_disabled_accent_button_is_not_amber() -> None:
    from kivy.lang import Builder

    from tests import ui_kit  # noqa: F401  (prepares Kivy)
    from ui import theme
    from ui.app import KV_FILE
    from ui.widgets import Tap

    if str(KV_FILE) not in Builder.files:  # the looks, as the app loads them
        Builder.load_file(str(KV_FILE))
    live = Tap(text="Start", accent=True)
    assert list(live.background_color) == list(theme.ACCENT)
    off = Tap(text="Start", accent=True, disabled=True)
    assert list(off.background_color) != list(theme.ACCENT)
    assert list(off.background_color) == list(off.swatch)
    off.disabled = False  # the rule follows: amber again once it may be tapped
    assert list(off.background_color) == list(theme.ACCENT)
