"""The shell's game screens update the widgets they have rather than building them again.

Each test makes the change a screen sees most (a move, a tap on the history, a
step of the date, a player seated) and counts the widgets that appear under the
screen (:func:`tests.ui_kit.widgets_made_by`). Where something appears, it is
named: a row for a genuinely new item (a move more in the history, a player
seated), or a part of the screen's rule put back in its place (the verdict of an
amend, the QR code once the date is confirmed), which is not made anew.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from kivy.uix.boxlayout import BoxLayout

from companion import i18n
from ui.widgets import LongTap, Tap

EXAMPLE = Path(__file__).parent / "data" / "examples" / "campanile-3p.json"
PLAYERS = ["Albert", "Birgit", "Franziska"]


#: A shell playing every game with the move picker (a test that wants a board sets its own).
shell = pytest.fixture(kit.picker_shell, name="shell")


def under(widgets: list[Any], roots: list[Any]) -> bool:
    """Whether every widget is one of ``roots`` or inside one of them."""
    inside = {id(w) for root in roots for w in root.walk(restrict=True)}
    return all(id(w) in inside for w in widgets)


def test_a_move_on_the_move_picker_makes_no_widget_and_a_language_switch_rewords_them(shell: Any) -> None:
    shell.table.start("campanile", PLAYERS)
    screen = shell.screens.get_screen("game")
    kit.find("Albert: build 1, 2 or 3 stories on a tower")  # the strip
    assert kit.widgets_made_by(lambda: kit.tap(kit.find("Albert: brown +3")), screen) == []
    kit.find("1 move so far")
    assert kit.widgets_made_by(lambda: kit.tap(kit.find(i18n.text("ui.bar.undo"), Tap)), screen) == []
    assert shell.table.session.log == ()

    def in_hungarian() -> None:
        i18n.set_language("hu")
        shell.redraw_all()

    assert kit.widgets_made_by(in_hungarian, screen) == []  # main: 42, the screen built again
    kit.find("Albert: 1, 2 vagy 3 emelet építése egy toronyra")
    kit.find("Visszavonás", Tap)
    kit.find("Albert: barna +3")


class CountingBoard(BoxLayout):
    """A board as ui/games describes it: built with the table, brought up to date by refresh()."""

    built = 0

    def __init__(self, table: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.table = table
        self.refreshed = 0
        CountingBoard.built += 1

    def refresh(self) -> None:
        self.refreshed += 1


def test_a_board_is_kept_across_moves_and_the_bar_makes_no_widget(shell: Any, monkeypatch: Any) -> None:
    from ui.screens import game

    monkeypatch.setattr(game, "board_class", lambda name: CountingBoard if name == "campanile" else None)
    shell.table.start("campanile", PLAYERS)
    screen = shell.screens.get_screen("game")
    board, built = screen.board, CountingBoard.built
    assert isinstance(board, CountingBoard) and board.get_root_window() is not None
    session = shell.table.session
    for _ in range(3):
        move = session.game.parse_move(session.game.legal_moves(session.state)[0])
        assert kit.widgets_made_by(lambda m=move: shell.table.propose(m, "touch"), screen) == []
    assert screen.board is board and CountingBoard.built == built and board.refreshed >= 3
    shell.table.rematch()  # another game: its own board
    assert screen.board is not board and screen.board.get_root_window() is not None
    assert board.parent is None


def counted(monkeypatch: pytest.MonkeyPatch, cls: type) -> list[Any]:
    """Every ``cls`` built from now on (a recycled list takes rows out of the window and puts them back,
    so a row new to the window is not always a row made)."""
    made: list[Any] = []
    init = cls.__init__

    def counting(self: Any, **kwargs: Any) -> None:
        made.append(self)
        init(self, **kwargs)

    monkeypatch.setattr(cls, "__init__", counting)
    return made


def test_the_history_reuses_its_rows_and_its_amend_panel(shell: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.screens.history import AmendChoice, HistoryRow

    shell.table.start("campanile", PLAYERS)
    session = shell.table.session
    kit.tap(kit.find("Albert: brown +3"))
    for _ in range(5):
        shell.table.propose(session.game.parse_move(session.game.legal_moves(session.state)[0]), "touch")
    kit.tap(kit.find(i18n.text("ui.bar.history"), Tap))
    screen = shell.screens.get_screen("history")
    rows, choices = counted(monkeypatch, HistoryRow), counted(monkeypatch, AmendChoice)
    # the amend panel (built with the screen) put back, and only its list's rows made the first time
    panel = {id(w) for w in screen.parts["amend"].walk(restrict=True)}
    opened = kit.widgets_made_by(lambda: kit.tap(kit.find("1. Albert: brown +3")), screen)
    assert {id(w) for w in opened if id(w) not in panel} == {id(c) for c in choices} and choices  # main: 43
    first = len(choices)
    assert kit.widgets_made_by(lambda: screen.pick(0), screen) == []  # closed
    screen.pick(0)
    game = session.game
    grey = [game.parse_move({"type": "build", "player": "Albert", "tower": "grey", "stories": stories})
            for stories in (2, 3)]
    considered = kit.widgets_made_by(lambda: screen.consider(grey[0]), screen)
    kit.find(i18n.text("ui.amend.fits"))
    assert under(considered, [screen.parts["verdict"], screen.parts["confirm"]])  # put back; main: 45
    assert kit.widgets_made_by(lambda: screen.consider(grey[1]), screen) == []
    assert screen.verdict.accepted and len(choices) == first and rows == []  # rows made: none
    assert kit.widgets_made_by(shell.table.undo, screen) == []  # main: 22
    kit.find(i18n.text("ui.history.title", count=5))
    # one move more: at most its one row (a recycled row, its badge and its words) is made
    assert len(kit.widgets_made_by(shell.table.redo, screen)) <= 3 and len(rows) <= 1  # main: 25
    kit.find(i18n.text("ui.history.title", count=6))


def test_game_over_is_updated_in_place_by_the_date_stepper_and_a_redraw(shell: Any) -> None:
    app = shell.table.app
    session_id = app.import_record(json.loads(EXAMPLE.read_text(encoding="utf-8")))
    with app.store._transaction() as db:  # as if played before the clock was set
        db.execute("UPDATE sessions SET date_unsure = 1 WHERE id = ?", (session_id,))
    shell.table.open(app.open_game(session_id))
    screen = shell.screens.get_screen("over")
    kit.find(i18n.text("ui.over.winner", player="Albert"))
    chosen = screen.chosen
    assert kit.widgets_made_by(lambda: kit.tap(screen.steppers["day"][1]), screen) == []  # main: 44
    assert screen.chosen != chosen
    assert kit.widgets_made_by(lambda: screen.step_date("month", 1), screen) == []
    assert kit.widgets_made_by(shell.redraw_all, screen) == []  # main: 29
    kit.find(i18n.text("ui.over.confirm_date_hold"), LongTap)
    shown = kit.widgets_made_by(screen.confirm_date, screen)  # what the long press does; main: 29
    assert screen.qr is not None and not app.store.session(session_id).date_unsure
    # the date, the QR code and its words put back in their places, none made
    assert under(shown, [screen.parts[name] for name in ("played_on", "qr", "scan")])
    kit.find(i18n.text("ui.over.scan"))


def test_the_new_game_screen_adds_only_the_row_of_a_player_seated(shell: Any) -> None:
    from ui.screens.new_game import SeatRow

    for name in PLAYERS:
        shell.table.app.add_profile(name)
    kit.tap(kit.find(i18n.text("ui.home.new_game")))
    screen = shell.screens.get_screen("new")
    screen.toggle("Albert")
    seated = kit.widgets_made_by(lambda: kit.tap(kit.find("Birgit", Tap)), screen)
    rows = [w for w in seated if isinstance(w, SeatRow)]
    assert len(rows) == 1 and under(seated, rows)  # main: 27, the screen built again
    assert kit.widgets_made_by(lambda: screen.toggle("Birgit"), screen) == []  # left: main 27
    screen.toggle("Birgit")
    assert kit.widgets_made_by(lambda: screen.move_up(1), screen) == []  # main: 32
    assert screen.seated == ["Birgit", "Albert"]
    kit.find(i18n.text("ui.new.seat", seat=1, player="Birgit"))
    assert kit.widgets_made_by(lambda: screen.choose_game("san-gimignano"), screen) == []  # main: 30
    # Castelli: the colour buttons back in their rows, and the board to play on, the one widget the
    # game's own part makes (ui/games/castelli/new_game.py)
    castelli = kit.widgets_made_by(lambda: screen.choose_game("castelli"), screen)
    assert under(castelli, [screen.offered, screen.parts["example_words"],  # (an example board: said)
                            *(row.colour for row in screen.seat_rows)])  # main: 33
    assert kit.widgets_made_by(lambda: screen.next_colour("Albert"), screen) == []  # main: 33
    kit.find(i18n.text("ui.new.start", game="Castelli"))
    kit.find(i18n.text(f"ui.colour.{screen.colours['Albert']}"), Tap)


def test_four_seats_and_castellis_board_fit_and_the_board_follows_the_player_count(shell: Any) -> None:
    """With four players seated and Castelli's board button, the seats' column still fits under the
    game buttons (its heading once ran over them), and the board nobody chose is the one the player
    count asks for — the four parts for four players, not the first board of the list."""
    shell.go("new")
    screen = shell.screens.get_screen("new")
    screen.choose_game("castelli")
    for name in ("Anna", "Bela", "Csaba", "Dora"):
        screen.ids.name_field.text = name
        screen.add_player()
    kit.pump(4)
    assert screen.offered.text == i18n.text("ui.new.board_auto")
    game_row = screen.ids.top
    heading = kit.find(screen.seating)
    assert heading.top <= game_row.y, (heading.top, game_row.y)
    for child in screen.ids.seats.children:
        assert child.y >= 0 and child.top <= game_row.y, child
    kit.tap(kit.find(i18n.text("ui.new.start", game="Castelli"), Tap))
    kit.wait_for(lambda: shell.table.session is not None and len(shell.table.session.players) == 4,
                 "the game started")
    from companion.games.castelli.board import board_to_json, load_layout

    assert shell.table.live.row.setup["board"] in ("example-4p", board_to_json(load_layout("example-4p")))
