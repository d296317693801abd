"""The Castelli board keeps its widgets: a move, a tap on the pad, an overlay opened again change the
widgets it has (texts, colours, rings) and make no new ones.

In the shared offscreen window of :mod:`tests.ui_kit`, through the whole
shell: the example game's moves are entered at the table as the console or
the OLED's buttons would (the board follows the table's events), and the
overlays are opened by touch. :func:`tests.ui_kit.widgets_made_by` returns
the widgets that were not on the screen before an action. An overlay is
measured from one opening to the next (with another one shown in between
where the board reuses the same rows for both): its first opening makes its
rows, and a row put back after a shorter list is a widget that was taken
off the screen, not a new one.

Before the board kept its overlays' rows, opening the evaluations again made
16 widgets, the card picker 28, an area's detail 11 (and 11 for a move while
it was open).
"""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

EXAMPLE = Path(__file__).parent / "data" / "examples" / "castelli.json"


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return found


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory, record: dict[str, Any]) -> Iterator[Any]:
    """The Castelli board in the shell, at the start of the example game (one for the module: the
    tests below go on with the same game, each from the move it needs)."""
    yield from kit.example_board(tmp_path_factory.mktemp("castelli-grain") / "store.db", record)


@pytest.fixture(autouse=True)
def overlay_closed(board: Any) -> Iterator[None]:
    """Each test leaves the board as the next one expects it, even when it fails: no overlay open."""
    yield
    board.close_overlay()
    kit.pump(2)


def at_the_table(board: Any, move: dict[str, Any]) -> None:
    """A move entered elsewhere (the console, the OLED's buttons): the board follows the table."""
    table = board.table
    table.propose(table.session.game.parse_move(move), "console")


def moves_up_to(board: Any, record: dict[str, Any], count: int) -> None:
    """The example's moves entered at the table until ``count`` are in the log."""
    for move in record["moves"][len(board.table.session.log):count]:
        at_the_table(board, move)
    assert len(board.table.session.log) == count


def close(board: Any) -> None:
    kit.tap(board.overlay.close_button)


def test_moves_at_the_table_change_the_boards_widgets_and_make_none(board: Any,
                                                                    record: dict[str, Any]) -> None:
    done = len(board.table.session.log)
    for move in record["moves"][done:done + 5]:
        assert kit.widgets_made_by(lambda m=move: at_the_table(board, m)) == [], move
    session = board.table.session
    assert board.panels["Dora"].score.text == str(session.game.summary(session.state)["scores"]["Dora"])
    assert board.view.shown.revealed == session.state.revealed


def test_the_reveal_pad_keeps_its_buttons_while_a_tile_is_entered(board: Any, record: dict[str, Any]) -> None:
    from ui.games.castelli.popups import RevealPad

    moves_up_to(board, record, 5)  # Anna's turn: any face-down space opens the pad
    board.tap_space("s10")
    pad = board.overlay
    assert isinstance(pad, RevealPad)
    gc.collect()  # a widget the pad took off the screen (Swap) must still be there for the next tile
    assert kit.widgets_made_by(lambda: (close(board), board.tap_space("s12"))) == []
    assert board.overlay is pad and pad.space == "s12"
    slots = list(pad.colour_row.children)
    assert kit.widgets_made_by(lambda: kit.tap(pad.colour_buttons["blue"])) == []
    assert kit.widgets_made_by(lambda: kit.tap(pad.value_buttons[2])) == []
    assert list(pad.colour_row.children) == slots  # the same buttons in their places...
    assert [button.colour for button in reversed(slots)][-1] == "blue"  # ...blue, used, now last
    assert pad.sides[0] == ["blue", 2] and pad.current == 1
    assert not pad.confirm.live and not pad.confirm.accent  # three sides to go
    close(board)


def test_an_overlay_opened_again_shows_the_widgets_it_had(board: Any, record: dict[str, Any]) -> None:
    moves_up_to(board, record, 12)
    kit.tap(board.buttons["evaluations"])
    rows = list(board.overlay.rows.children)
    assert len(rows) >= 2
    gc.collect()  # the line shown when there is no evaluation, off the screen now, must live on
    assert kit.widgets_made_by(lambda: (close(board), kit.tap(board.buttons["evaluations"]))) == []
    assert list(board.overlay.rows.children) == rows
    close(board)

    kit.tap(board.buttons["card"])
    cards = [button.move for button in board.overlay.buttons]
    assert kit.widgets_made_by(lambda: (close(board), kit.tap(board.buttons["sell"]),
                                        close(board), kit.tap(board.buttons["card"]))) == []
    assert [button.move for button in board.overlay.buttons] == cards
    close(board)

    board.tap_area("a13")
    kit.pump(2)
    assert kit.widgets_made_by(lambda: (board.tap_area("a11"), kit.pump(2), board.tap_area("a13"))) == []
    assert kit.widgets_made_by(lambda: at_the_table(board, record["moves"][12])) == []
    assert board.overlay.area == "a13"
    close(board)
