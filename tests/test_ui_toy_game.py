"""The touchscreen plays a game defined only in tests/ (Toy Tally) with its generic parts, offscreen.

The toy has no board, setup form or game-over line of its own: the new-game
screen offers it from the registry with its descriptor's colours, and the
shell's move picker enters its moves (a roll's pips through the notation field).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from companion import i18n
from tests.toy_game import registered
from ui import games
from ui.widgets import Tap


@pytest.fixture
def shell(tmp_path: Path) -> Iterator[Any]:
    i18n.set_language("en")
    with registered():
        opened = kit.open_shell(tmp_path / "store.db")
        try:
            yield opened
        finally:
            kit.close_shell(opened)


def test_the_move_picker_plays_the_toy_from_the_new_game_screen(shell: Any, shots: Path) -> None:
    assert games.board_class("toy-tally") is None
    kit.tap(kit.find(i18n.text("ui.home.new_game")))
    kit.tap(kit.find("Toy Tally", Tap))
    for name in ("Ann", "Bob"):
        shell.screens.get_screen("new").name_field.text = name
        kit.tap(kit.find(i18n.text("ui.new.add")))
    kit.tap(kit.find(i18n.text("ui.new.start", game="Toy Tally")))
    session = shell.table.session
    assert session is not None and session.game.name == "toy-tally"
    assert shell.table.app.store.session(shell.table.live.id).setup["colors"] == {"Ann": "blue", "Bob": "red"}
    kit.tap(kit.find("Ann: +2"))
    kit.tap(kit.find("Bob: roll"))  # the pips are still open: the field asks for them
    game_screen = shell.screens.get_screen("game")
    assert game_screen.notation.text == "Bob: roll "
    game_screen.notation.text = "Bob: roll 6"
    kit.tap(kit.find(i18n.text("ui.picker.enter")))
    assert [session.game.move_to_json(m) for m in session.log] == [
        {"type": "add", "player": "Ann", "points": 2}, {"type": "roll", "player": "Bob", "pips": 6}]
    kit.screenshot(shots / "toy-picker.png")
    kit.tap(kit.find(i18n.text("ui.bar.undo"), Tap))
    assert len(session.log) == 1


def _tool_texts(box: Any) -> list[str]:
    return [child.text for child in reversed(box.children)]


@pytest.mark.parametrize("castelli", [True, False], ids=["with-castelli", "without-castelli"])
def test_home_and_settings_show_the_tools_the_registered_games_offer(tmp_path: Path, shots: Path,
                                                                     castelli: bool) -> None:
    """The tools come from the games' touchscreen parts: Castelli's resolver on Home and its board
    editor in Settings while Castelli is installed, neither without it, and the rest of each screen
    as it was."""
    from contextlib import nullcontext

    from companion import registry

    i18n.set_language("en")
    with nullcontext() if castelli else registry.without("castelli"):
        shell = kit.open_shell(tmp_path / "store.db")
        try:
            home = shell.screens.get_screen("home")
            kit.find(i18n.text("ui.home.new_game"))
            kit.find(i18n.text("ui.home.statistics"))
            expected = [i18n.text("ui.resolver.open")] if castelli else []
            assert _tool_texts(home.ids.tools) == expected
            # without a tool, its place is taken out of the row: no gap between Statistics and Settings
            assert (home.ids.tools.parent is not None) is castelli
            kit.screenshot(shots / f"home-{'with' if castelli else 'without'}-castelli.png")
            kit.tap(kit.find(i18n.text("ui.home.settings")))
            settings = shell.screens.get_screen("settings")
            assert _tool_texts(settings.page.ids.tools) == ([i18n.text("ui.editor.open")] if castelli else [])
            assert (settings.page.ids.tools.parent is not None) is castelli
            kit.screenshot(shots / f"settings-{'with' if castelli else 'without'}-castelli.png")
            if castelli:
                kit.tap(kit.find(i18n.text("ui.editor.open"), Tap))
                assert shell.screens.current == "editor"
            else:
                assert "editor" not in games.game_screens() and "resolver" not in games.game_screens()
        finally:
            kit.close_shell(shell)
            i18n.set_language("en")
