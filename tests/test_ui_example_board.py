"""The touchscreen's game screen says a game is on an example board or layout (issue 36, item 1): two
words in the bar, the whole sentence and how to enter the table's own on a tap; nothing on the table's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import i18n
from companion.games.castelli.board import board_to_json, load_layout
from companion.service.castelli import CastelliService
from tests import ui_kit as kit  # first: it prepares Kivy

shell = pytest.fixture(kit.picker_shell, name="shell")


def _play(shell, game: str, players: list[str], **setup: object) -> object:
    app = shell.table.app
    live = app.start(game, players, setup=setup or None, colours_by_seat=True)
    shell.table.open(app.open_game(live.id))
    shell.go("game")
    kit.pump(4)
    return shell.screens.get_screen("game")


def test_an_example_board_is_said_in_the_bar_and_explained_on_a_tap(shell) -> None:
    screen = _play(shell, "castelli", ["Anna", "Bela", "Csaba", "Dora"])
    tag = screen.ids.example_tag
    assert tag.parent is not None and tag.text == "Example board"
    kit.tap(tag)
    assert shell.banner.shown
    assert shell.banner.text.startswith(
        "This game is on the example board example-4p, not on your box's board")
    assert "Settings, Castelli board editor" in shell.banner.text


def test_the_tables_own_board_says_nothing(shell) -> None:
    board = board_to_json(load_layout("example-2p"))
    board["areas"]["a00"]["yield"] = 5 if board["areas"]["a00"].get("yield") != 5 else 4
    CastelliService.of(shell.table.app).save_board("kitchen", board)
    screen = _play(shell, "castelli", ["Anna", "Bela"])
    assert screen.ids.example_tag.parent is None
    assert "Example board" not in kit.texts()


def test_the_offered_layout_in_hungarian(shell) -> None:
    i18n.set_language("hu")
    screen = _play(shell, "san-gimignano", ["Ann", "Bob"])
    assert screen.ids.example_tag.text == "Felkínált kezdés"
    kit.tap(screen.ids.example_tag)
    assert shell.banner.text.startswith("A felkínált elrendezésből indult")


def test_the_bar_keeps_its_buttons_in_view(shell, tmp_path: Path) -> None:
    """The tag takes the bar's free room, not a row: the board below keeps its height."""
    screen = _play(shell, "castelli", ["Anna", "Bela", "Csaba", "Dora"])
    bar = screen.ids.bar
    kit.pump(4)
    right = max(child.right for child in bar.children)
    assert right <= bar.right + 1 and screen.ids.example_tag.height == bar.children[0].height


def test_the_new_game_screen_says_it_before_the_game_starts(shell, tmp_path: Path) -> None:
    kit.tap(kit.find(i18n.text("ui.home.new_game")))
    screen = shell.screens.get_screen("new")
    kit.tap(kit.find("Castelli"))
    for name in ("Anna", "Bela"):
        screen.name_field.text = name
        kit.tap(kit.find(i18n.text("ui.new.add")))
    kit.pump(4)
    assert screen.example_words.startswith("example-2p is an example board, not your box's")
    assert screen.parts["example_words"].parent is not None
    kit.screenshot(tmp_path / "new-castelli.png")
    kit.tap(kit.find("San Gimignano"))  # its setup form is where the table's layout is laid: no line
    kit.pump(4)
    assert screen.example_words == "" and screen.parts["example_words"].parent is None


def test_the_tag_gives_the_winners_name_its_room_once_the_game_is_over(shell, tmp_path: Path) -> None:
    """At the end the bar's room is the winner's name ("Franziska-Luise" was cut beside the tag in
    the layout sweep, Hungarian); the tag is back while a game on an example is played."""
    from tests.contract_kit import fill

    game = shell.table.app.start("castelli", ["Franziska-Luise", "Gustav"], colours_by_seat=True)
    session = shell.table.app.open_game(game.id).session
    while not session.game.is_finished(session.state):
        move = session.game.legal_moves(session.state)[0]
        session.propose(session.game.parse_move(fill(session.game, session.state, move)))
    shell.table.open(shell.table.app.open_game(game.id))
    shell.go("game")
    kit.pump(4)
    screen = shell.screens.get_screen("game")
    assert screen.ids.example_tag.parent is None
    screen = _play(shell, "castelli", ["Anna", "Bela"])
    assert screen.ids.example_tag.parent is not None


def test_a_name_too_long_beside_the_tag_has_the_room_and_the_tag_comes_back_after(shell) -> None:
    """Who acts comes first: a name that would be cut beside the tag (the layout sweep's
    "Franziska-Luise" in a Hungarian round) has the bar's room, and the tag is back when a shorter
    name acts; the other front ends say the example all along."""
    from tests.contract_kit import fill

    screen = _play(shell, "castelli", ["Maximiliane-Franziska", "Bo"])
    assert screen.strip_name.text == "Maximiliane-Franziska"
    assert screen.ids.example_tag.parent is None
    assert screen.strip_name.least_width() <= screen.strip_name.width
    session = shell.table.session
    for _ in range(10):  # Maximiliane-Franziska's turn, to its end
        move = session.game.legal_moves(session.state)[0]
        shell.table.propose(session.game.parse_move(fill(session.game, session.state, move)), "console")
        kit.pump(2)
        if screen.strip_name.text == "Bo":
            break
    kit.pump(2)
    assert screen.strip_name.text == "Bo"
    assert screen.ids.example_tag.parent is not None
