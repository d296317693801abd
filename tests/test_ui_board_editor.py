"""The Castelli board editor, offscreen through synthetic touches over a real store: a board entered,
saved, loaded back, validated and then played on; refused edits say why and lose nothing.

Screenshots go to ``$UI_SCREENSHOTS`` when set (for a person to look at), else to the test's
temporary directory.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from companion import i18n
from companion.games.castelli.board import validate_board
from companion.games.messages import msg
from companion.i18n import say, text
from companion.service.castelli import CastelliService
from ui.games.castelli import board_model as model
from ui.games.castelli.board_editor import BoardEditorScreen
from ui.games.castelli.board_model import AreaCell, SpaceCell
from ui.widgets import LongTap, Tap


@pytest.fixture(params=["en", "hu"])
def shell(request: pytest.FixtureRequest, tmp_path: Path):
    i18n.set_language(request.param)
    opened = kit.open_shell(tmp_path / "store.db")
    yield opened
    kit.close_shell(opened)
    i18n.set_language("en")


def open_editor(shell) -> BoardEditorScreen:
    """From home: Settings, then the editor's button (scrolled into view as a finger would)."""
    kit.tap(kit.find(text("ui.home.settings"), Tap))
    kit.tap(kit.find(text("ui.editor.open"), Tap))
    assert shell.screens.current == "editor"
    return shell.screens.get_screen("editor")


def cell(screen: BoardEditorScreen, r: int, c: int) -> None:
    kit.tap(screen.cells[(r, c)])


def button(label: str) -> None:
    kit.tap(kit.find(label, Tap))


def step(screen: BoardEditorScreen, label: str, by: int) -> None:
    """Tap − or + ``by`` times on the stepper row labelled ``label``."""
    line = kit.find(label).parent
    sign = "+" if by > 0 else "−"
    for _ in range(abs(by)):
        kit.tap(next(w for w in line.children if isinstance(w, Tap) and w.text == sign))
        line = kit.find(label).parent  # the panel was drawn anew


def mode(name: str) -> None:
    button(text(f"ui.editor.mode.{name}"))


def test_a_board_entered_by_touch_is_saved_loaded_validated_and_played_on(shell, shots: Path) -> None:
    lang = i18n.current_language()
    screen = open_editor(shell)
    assert screen.draft == model.blank()
    kit.screenshot(shots / f"{lang}-editor-blank.png")
    mode("board")
    step(screen, text("ui.editor.rows"), -4)  # 4 rows of 8: two board parts
    assert (screen.draft.rows, screen.draft.columns) == (4, 8)

    cell(screen, 0, 0)
    button(text("ui.editor.pad.forest"))
    cell(screen, 0, 4)
    button(text("ui.editor.pad.rock"))
    step(screen, text("ui.editor.spots"), 1)
    cell(screen, 3, 5)
    button(text("ui.editor.pad.mine"))
    cell(screen, 1, 3)
    button(text("ui.editor.pad.market"))
    step(screen, text("ui.editor.tents"), 1)
    cell(screen, 0, 2)
    button(text("castelli.settlement.village"))
    cell(screen, 0, 1)  # a space on the top edge: its north side faces the frame
    button(text("ui.editor.gift.wood"))
    kit.screenshot(shots / f"{lang}-editor-space.png")
    cell(screen, 0, 7)  # the top right corner: north and east face the frame
    button(text("ui.editor.gift.silver"))
    button(text("ui.editor.side_short.east"))
    button(text("ui.editor.gift.card"))
    d = screen.draft
    assert d.at((0, 0)) == AreaCell("forest", 2) and d.at((0, 4)) == AreaCell("rock", 2, 2)
    assert d.at((1, 3)) == AreaCell("market", 2) and d.at((0, 2)) == AreaCell("plain", settlement="village")
    assert d.sides((0, 7)) == ("frame:silver", "frame:card", "a17", "a06")
    assert d.sides((0, 1))[0] == "frame:wood"

    mode("fill")  # the forest down column 1, every other cell (the checkerboard's default)
    cell(screen, 0, 0)
    kit.screenshot(shots / f"{lang}-editor-fill.png")
    cell(screen, 2, 0)
    assert screen.draft.at((2, 0)) == AreaCell("forest", 2)
    mode("copy")
    cell(screen, 1, 0)
    kit.screenshot(shots / f"{lang}-editor-copy.png")
    cell(screen, 3, 0)  # row 2 (1-based) copied onto row 4: the mine goes, which is allowed
    assert [screen.draft.at((3, c)) for c in range(8)] == [screen.draft.at((1, c)) for c in range(8)]
    kit.tap(kit.find(text("ui.editor.undo"), Tap))  # the mine back
    assert screen.draft.at((3, 5)) == AreaCell("mine")
    mode("board")
    button(text("ui.editor.mirror.columns"))
    assert screen.draft.at((0, 7)) == AreaCell("forest", 2) and screen.draft.at((3, 2)) == AreaCell("mine")
    button(text("ui.editor.mirror.columns"))
    assert screen.draft.at((0, 0)) == AreaCell("forest", 2)
    kit.screenshot(shots / f"{lang}-editor-board.png")

    built = screen.draft
    assert built.problem() is None
    screen.name_field.text = "Our table"
    button(text("ui.editor.mirror.rows"))  # typed, then another edit: the name stays
    button(text("ui.editor.mirror.rows"))
    assert screen.name_field.text == "Our table"
    button(text("ui.editor.save"))
    kit.find(text("ui.editor.saved", name="Our table"))
    kit.screenshot(shots / f"{lang}-editor-saved.png")
    app = shell.table.app
    assert "Our table" in [b.name for b in CastelliService.of(app).boards() if not b.shipped]
    stored = CastelliService.of(app).board_data("Our table")
    assert stored == built.to_json()
    board = validate_board(stored)
    assert len(board.spaces) == 16 and board.mine == "a35"

    button(text("ui.editor.blank"))  # start over, then load the saved board back
    assert screen.draft == model.blank()
    kit.tap(kit.find("Our table", Tap))
    assert screen.draft == built and screen.board_name == "Our table"

    # play on it: a 2-player game with this board, moves from the engine's own list
    shell.table.start("castelli", ["Anna", "Béla"], setup={"board": "Our table"},
                      colours={"Anna": "blue", "Béla": "red"})
    session = shell.table.session
    assert session.state.board.areas["a04"].spots == 2
    shell.table.propose(session.game.parse_move({
        "type": "reveal", "player": "Anna", "space": "s01",
        "shields": {"N": ["blue", 3], "E": ["red", 1], "S": ["yellow", 2], "W": ["green", "card"]},
        "silver": 0}))
    assert session.state.resources["Anna"][0] == 1  # the frame's wood to the north
    shell.table.propose(session.game.parse_move({
        "type": "reveal", "player": "Béla", "space": "s10",
        "shields": {"N": ["red", 5], "E": ["blue", 1], "S": ["yellow", 1], "W": ["green", 2]},
        "silver": 1}))
    # the forest a00 is bordered by s01 (W: green card) and s10 (N: red 5): complete, red leads
    assert session.state.resources["Béla"][0] == 2
    assert len(session.log) == 2


def test_refused_edits_say_why_and_lose_nothing(shell, shots: Path) -> None:
    lang = i18n.current_language()
    screen = open_editor(shell)
    cell(screen, 0, 0)
    button(text("ui.editor.pad.mine"))
    before = screen.draft
    cell(screen, 2, 2)
    button(text("ui.editor.pad.mine"))  # a second mine
    assert screen.draft == before
    expected = model.EditRefused(msg("ui.editor.refused.second_mine", where=before.describe((0, 0))))
    assert shell.banner.shown and shell.banner.text == str(expected)
    kit.screenshot(shots / f"{lang}-editor-refused-mine.png")
    button(text("castelli.settlement.town"))  # the plain selected still takes a town
    assert screen.draft.at((2, 2)) == AreaCell("plain", settlement="town")
    cell(screen, 0, 0)  # a mine: no settlement buttons, no yield
    assert not [w for w in kit.walk() if isinstance(w, Tap) and w.text == text("castelli.settlement.town")]
    cell(screen, 0, 1)
    button(text("ui.editor.side_short.west"))  # faces the mine: said, nothing changes
    assert shell.banner.shown and say(before.describe((0, 0))) in shell.banner.text
    assert screen.side != 3
    mode("fill")
    cell(screen, 0, 0)
    cell(screen, 1, 1)  # not in line
    assert shell.banner.text == str(model.EditRefused(msg("ui.editor.refused.not_in_line")))
    assert screen.draft.at((0, 0)) == AreaCell("mine")
    mode("board")
    button(text("ui.editor.save"))  # no name yet
    assert shell.banner.shown and "Our" not in shell.banner.text
    assert [b for b in CastelliService.of(shell.table.app).boards() if not b.shipped] == []
    screen.name_field.text = "example-4p"  # a shipped layout's name
    button(text("ui.editor.save"))
    assert "example-4p" in shell.banner.text
    assert [b for b in CastelliService.of(shell.table.app).boards() if not b.shipped] == []
    kit.screenshot(shots / f"{lang}-editor-refused-save.png")


def test_an_unfinished_board_shows_what_is_missing_and_is_not_saved(shell, shots: Path) -> None:
    lang = i18n.current_language()
    screen = open_editor(shell)
    cell(screen, 0, 1)
    button(text("ui.editor.pad.empty"))
    cell(screen, 1, 0)
    button(text("ui.editor.pad.empty"))
    cell(screen, 0, 0)
    button(text("ui.editor.pad.forest"))  # the corner forest: no space beside it any more
    problem = screen.draft.problem()
    assert problem is not None and problem.params["reason"].code == "castelli.board.unbordered"
    kit.find(say(problem))
    kit.screenshot(shots / f"{lang}-editor-problem.png")
    mode("board")
    screen.name_field.text = "Half done"
    button(text("ui.editor.save"))
    assert shell.banner.text == say(problem)
    assert "Half done" not in [b.name for b in CastelliService.of(shell.table.app).boards()]
    kit.tap(kit.find(text("ui.editor.undo"), Tap))  # the forest goes: the board is whole again
    assert screen.draft.problem() is None
    button(text("ui.editor.save"))
    assert "Half done" in [b.name for b in CastelliService.of(shell.table.app).boards()]
    kit.hold(kit.find(text("ui.editor.forget_hold", name="Half done"), LongTap),
             lambda: "Half done" not in [b.name for b in CastelliService.of(shell.table.app).boards()],
             "the board deleted")
    assert screen.draft.at((0, 1)) is None and screen.draft.at((1, 0)) is None  # deleting kept the draft
    assert isinstance(screen.draft.at((1, 2)), SpaceCell)


def test_a_shipped_layout_is_a_start_and_is_never_overwritten(shell, shots: Path) -> None:
    lang = i18n.current_language()
    screen = open_editor(shell)
    mode("board")
    kit.tap(kit.find("example-2p", Tap))
    assert screen.draft.to_json() == CastelliService.of(shell.table.app).board_data("example-2p")
    assert screen.board_name == ""  # saved under a new name only
    cell(screen, 0, 0)
    kit.screenshot(shots / f"{lang}-editor-example.png")


@pytest.mark.parametrize("shell", ["hu"], indirect=True)
def test_the_2_player_example_entered_from_a_blank_grid_is_the_shipped_layout(shell, shots: Path) -> None:
    """In Hungarian only, where the words are longer: the 67 taps are the same in either language
    (the editor's screens are checked in both by the layout sweep, tests/test_layout_sweep.py)."""
    from companion.games.castelli.board import load_layout
    from tests import board_editor_kit as plans

    lang = i18n.current_language()
    screen = open_editor(shell)
    wanted = model.from_board(load_layout("example-2p"))
    steps = plans.plan(wanted, "Two parts")
    plans.perform(screen, steps, kit)
    assert screen.draft == wanted
    assert CastelliService.of(shell.table.app).board_data("Two parts") == load_layout_json("example-2p")
    assert plans.taps(steps) <= 150  # the benchmark's budget for a 16-space board
    kit.screenshot(shots / f"{lang}-editor-example-2p-entered.png")


def load_layout_json(name: str) -> dict:
    from companion.games.castelli.board import board_to_json, load_layout

    return board_to_json(load_layout(name))


def test_a_tap_changes_the_widgets_it_has_and_builds_none(tmp_path: Path) -> None:
    """Kivy with its grain: the grid's cells and every mode's panel are made once; a tap sets the
    screen's properties and puts the parts of the panel in use in place (on main before this, a tap
    built the panel anew: 4–5 widgets for an edit of a cell, 21 for any tap on the Board panel).

    Within a mode a tap makes nothing; another mode, or another kind of cell, puts back parts the
    screen keeps (none is built); only a grid grown by a row makes that row's cells."""
    shell = kit.open_shell(tmp_path / "store.db")
    try:
        screen = open_editor(shell)
        screen.choose_mode("board")  # its buttons for the boards the companion knows: made on a first visit
        screen.choose_mode("cell")
        kept = {id(w) for part in screen.parts.values() for w in part.walk(restrict=True)}

        def made_by(action) -> list:
            made = kit.widgets_made_by(action, screen)
            assert all(id(w) in kept for w in made), [w for w in made if id(w) not in kept]
            return made

        assert made_by(lambda: cell(screen, 0, 1))  # a space: its sides and gifts put in the panel
        assert made_by(lambda: button(text("ui.editor.gift.wood"))) == []
        assert made_by(lambda: cell(screen, 0, 3)) == []  # another space on the edge
        assert made_by(lambda: cell(screen, 0, 0))  # a plain: its settlements
        assert made_by(lambda: button(text("ui.editor.pad.forest")))  # the yield's stepper
        assert made_by(lambda: step(screen, text("ui.editor.yield"), 1)) == []
        assert made_by(lambda: mode("fill"))
        assert made_by(lambda: cell(screen, 0, 0)) == []
        assert made_by(lambda: mode("board"))
        assert made_by(lambda: button(text("ui.editor.mirror.columns"))) == []
        assert made_by(lambda: step(screen, text("ui.editor.rows"), -1)) == []
        grown = kit.widgets_made_by(lambda: step(screen, text("ui.editor.rows"), 1), screen)
        assert len(grown) == screen.draft.columns and set(grown) <= set(screen.cells.values())
    finally:
        kit.close_shell(shell)
