"""Settings shows San Gimignano's default guild names in words (issue 35, item 11).

The field held the record values ``guild-1, guild-2, guild-3, guild-4``. It now shows the words the
board uses ("Guild 1", "1. céh"; the descriptor's ``TableSetting.named``), and keeping them as shown,
in either language, keeps the defaults (so a game started later names them in its players'
language); names the players type are kept as typed. On the real shell and store.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from companion import i18n
from companion.games.san_gimignano.descriptor import GUILDS
from companion.service.settings import kept_setting, shown_setting

DEFAULT = "guild-1, guild-2, guild-3, guild-4"


@pytest.fixture
def shell(tmp_path: Path) -> Iterator[Any]:
    i18n.set_language("en")
    opened = kit.open_shell(tmp_path / "store.db")
    yield opened
    kit.close_shell(opened)
    i18n.set_language("en")


def _keep(field: Any) -> None:
    keep = next(w for w in field.parent.children if getattr(w, "text", "") == i18n.text("ui.settings.keep"))
    kit.into_view(field)
    kit.tap(keep)


@pytest.mark.parametrize(("lang", "shown"), [("en", "Guild 1, Guild 2, Guild 3, Guild 4"),
                                             ("hu", "1. céh, 2. céh, 3. céh, 4. céh")])
def test_the_default_guilds_are_shown_in_words_and_kept_as_defaults(shell: Any, lang: str,
                                                                    shown: str) -> None:
    app = shell.table.app
    assert app.settings()[GUILDS] == DEFAULT
    i18n.set_language(lang)
    shell.redraw_all()
    shell.go("settings")
    kit.pump(2)
    field = shell.screens.get_screen("settings").fields[GUILDS]
    assert field.text == shown
    assert "guild-" not in field.text
    _keep(field)  # kept as shown: still the defaults
    assert app.settings()[GUILDS] == DEFAULT
    field.text = shown.replace(shown.split(", ")[1], "Bakers")  # one renamed, the others as shown
    _keep(field)
    assert app.settings()[GUILDS] == "guild-1, Bakers, guild-3, guild-4"
    kit.pump(2)
    assert field.text == shown.replace(shown.split(", ")[1], "Bakers")


def test_words_of_either_language_read_back_and_other_settings_are_untouched() -> None:
    assert kept_setting(GUILDS, "guild 1, 2. CÉH, Guild 3, wine", "hu") == "guild-1, guild-2, guild-3, wine"
    assert kept_setting(GUILDS, "Guild 1, Guild 2, Guild 3, Guild 4", "hu") == DEFAULT  # English read too
    assert shown_setting(GUILDS, "wool, guild-2, stone, wine", "en") == "wool, Guild 2, stone, wine"
    assert shown_setting("table.name", "guild-1", "en") == "guild-1"  # a name the players typed
    assert kept_setting("table.name", "Guild 1", "en") == "Guild 1"
