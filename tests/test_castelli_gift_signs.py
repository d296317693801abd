"""Issue 35, item 9 (in part): a frame piece shows a sign as well as its colour, on the touchscreen and
on the phone (stone, silver and a neutral piece were three greys and nothing else); the phone's board
keeps the forests' trees and the fields' ears, as the touchscreen draws them."""

from __future__ import annotations

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from kivy.graphics import Color, InstructionGroup, Line, Mesh, Rectangle

from companion.games.castelli import tables
from companion.service.records import final_state, load_record
from tests.ui_kit import walk
from ui.drawn_text import drawn
from ui.games.castelli.drawing import GIFT_COLOURS, CastelliBoardView
from ui.theme import text_on
from web.pages.games.castelli import GIFT_HEX, _gifts, board_svg
from web.pages.people import Person

del kit, walk  # imported for the window it opens


def drawn_in_ink(gift: str) -> list[str]:
    """What the touchscreen draws for a frame piece of ``gift`` in the ink read on its colour."""
    view = CastelliBoardView(size=(400, 400))  # the piece lies inside it (a figure outside is not drawn)
    canvas = InstructionGroup()
    view._gift(canvas, gift, 0, 100.0, 100.0, 42.0)
    ink = tuple(text_on(GIFT_COLOURS[gift]))
    found, colour = [], ()
    for item in canvas.children:
        if isinstance(item, Color):
            colour = tuple(item.rgba)
        elif isinstance(item, Rectangle) and drawn(item.texture) is not None:
            found.append(f"text {drawn(item.texture).text}")  # a figure: its texture holds the ink
        elif isinstance(item, (Mesh, Line)) and colour[:3] == ink[:3]:
            found.append(type(item).__name__)
    return found


def test_every_frame_piece_on_the_touchscreen_shows_a_sign() -> None:
    for gift in tables.FRAME_GIFTS:
        assert drawn_in_ink(gift), gift
    # the three greys differ by more than their colour
    assert len({tuple(drawn_in_ink(g)) for g in ("stone", "silver", "neutral")}) == 3


def test_every_frame_piece_on_the_phone_shows_a_sign() -> None:
    marks = {}
    for gift in tables.FRAME_GIFTS:
        drawn = _gifts((f"frame:{gift}", "", "", ""), 20.0, 20.0)
        assert len(drawn) > 1, gift  # the bar and more
        marks[gift] = "".join(str(part) for part in drawn[2:])
        assert marks[gift], gift
    assert len({marks[g].split(" ")[0] + str(len(marks[g])) for g in ("stone", "silver", "neutral")}) == 3
    assert set(GIFT_HEX) >= set(tables.FRAME_GIFTS)


def test_the_phones_board_keeps_the_forests_and_fields_signs() -> None:
    record = load_record("tests/data/examples/castelli.json")
    state = final_state(record)
    who = {p: Person(p, p[:2], "red") for p in record.players}
    svg = str(board_svg(state, who, lambda key, **_: key))
    forests = sum(1 for a in state.board.areas.values() if a.kind == "forest")
    fields = sum(1 for a in state.board.areas.values() if a.kind == "field")
    assert forests and fields
    assert svg.count('fill="#5e966b"') >= 2 * 2 * forests  # two trees, crown and trunk
    assert svg.count("<ellipse") >= 2 * 3 * fields  # two signs of three ears
