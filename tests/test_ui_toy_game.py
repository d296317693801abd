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
