"""The board editor's model (ui/games/castelli/board_model.py), apart from the widgets: edits, refusals,
the round trip through the inline-board format, with hypothesis properties over random edit sequences."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.base import RecordError
from companion.games.castelli import tables
from companion.games.castelli.board import board_to_json, layout_names, load_layout, validate_board
from tests.refusals import assert_message, assert_words
from ui.games.castelli import board_model as model
from ui.games.castelli.board_model import AreaCell, Draft, EditRefused, SpaceCell


def refused(code: str, action, **params) -> None:
    """``action()`` raises EditRefused with ``code``, in words in every language."""
    with pytest.raises(EditRefused) as caught:
        action()
    assert_message(caught.value.message, code, **params)


@pytest.mark.parametrize("name", layout_names())
def test_a_shipped_layout_loads_into_the_grid_and_writes_back_the_same_board(name: str) -> None:
    board = load_layout(name)
    draft = model.from_board(board)
    assert draft.to_json() == board_to_json(board)
    assert draft.problem() is None
    assert draft.counts() == (len(board.spaces), len(board.areas))


def test_a_blank_grid_is_the_checkerboard_of_32_spaces_and_32_plain_areas() -> None:
    draft = model.blank()
    assert draft.counts() == (32, 32)
    assert draft.at((0, 0)) == AreaCell("plain") and draft.at((0, 1)) == SpaceCell()
    board = draft.board()
    assert board.spaces["s01"].sides == ("frame:neutral", "a02", "a11", "a00")


def test_sides_follow_the_areas_next_to_a_space_and_gifts_the_frame() -> None:
    draft = model.blank(2, 2).set_gift((0, 1), 0, "wood").set_kind((0, 0), "forest")
    assert draft.sides((0, 1)) == ("frame:wood", "frame:neutral", "a11", "a00")
    assert draft.board().areas["a00"].amount == tables.DEFAULT_YIELD
    refused("ui.editor.refused.side_has_area", lambda: draft.set_gift((0, 1), 3, "card"))


def test_an_unfinished_board_is_allowed_while_editing_and_says_what_is_missing() -> None:
    draft = model.blank(1, 4).put((0, 3), None).set_kind((0, 3), "forest")  # no space beside it
    problem = draft.problem()
    assert problem is not None
    texts = assert_message(problem, "ui.editor.problem_at")
    assert problem.params["reason"].code == "castelli.board.unbordered"
    assert "row 1, column 4" in texts["en"] and "4. oszlop" in texts["hu"]
    with pytest.raises(RecordError):
        draft.board()


def test_impossible_edits_are_refused_with_the_reason_and_change_nothing() -> None:
    draft = model.blank(2, 4).set_kind((0, 0), "mine")
    before = draft.to_json()
    refused("ui.editor.refused.second_mine", lambda: draft.set_kind((1, 1), "mine"))
    with pytest.raises(EditRefused) as caught:  # a copy makes a second one too: validate_board says so
        draft.copy_line("columns", 0, 2)
    assert caught.value.message.code == "castelli.board.mines"
    assert_words(caught.value.message)
    assert draft.to_json() == before
    refused("ui.editor.refused.settlement_not_plain", lambda: draft.set_settlement((0, 0), "town"))
    refused("ui.editor.refused.yield_range", lambda: draft.set_kind((0, 2), "forest").step_amount((0, 2), 4))
    refused("ui.editor.refused.no_amount", lambda: draft.step_amount((0, 0), 1))
    refused("ui.editor.refused.no_spots", lambda: draft.step_spots((0, 0), 1))
    refused("ui.editor.refused.spots_range", lambda: draft.set_kind((0, 2), "rock").step_spots((0, 2), -1))
    refused("ui.editor.refused.not_space", lambda: draft.set_gift((0, 0), 0, "wood"))
    refused("ui.editor.refused.not_area", lambda: draft.set_settlement((0, 1), "village"))
    refused("ui.editor.refused.same_line", lambda: draft.copy_line("rows", 1, 1))
    refused("ui.editor.refused.not_in_line", lambda: draft.fill_run((0, 0), (1, 1)))
    refused("ui.editor.refused.off_grid", lambda: draft.put((5, 5), None))
    refused("ui.editor.refused.size", lambda: draft.resize(11, 4))
    refused("ui.editor.refused.cut", lambda: draft.set_kind((1, 3), "forest").resize(1, 4))
    assert draft.resize(2, 1).counts() == (1, 1)  # blank cells go without a word
    assert draft.to_json() == before


def test_the_box_holds_13_villages_and_a_14th_is_refused() -> None:
    draft = model.blank(6, 10)
    plains = [c for c in model.cells_of(draft) if isinstance(draft.at(c), AreaCell)]
    for cell in plains[:13]:
        draft = draft.set_settlement(cell, "village")
    with pytest.raises(EditRefused) as caught:
        draft.set_settlement(plains[13], "village")
    assert caught.value.message.code == "castelli.board.too_many_villages"
    assert_words(caught.value.message)


def test_fill_run_copies_a_cell_along_a_row_every_cell_or_every_other() -> None:
    draft = model.blank(2, 8).set_kind((0, 0), "forest")
    every_other = draft.fill_run((0, 0), (0, 7), every_other=True)
    assert [every_other.at((0, c)) for c in range(0, 8, 2)] == [AreaCell("forest", 2)] * 4
    assert every_other.at((0, 1)) == SpaceCell()
    backwards = draft.set_gift((1, 0), 3, "card").fill_run((1, 0), (1, 7))  # every cell: spaces
    assert all(isinstance(backwards.at((1, c)), SpaceCell) for c in range(8))


def test_copy_row_and_mirror_keep_gifts_on_the_right_sides() -> None:
    draft = model.blank(2, 3).set_gift((0, 1), 0, "silver").set_kind((0, 0), "rock")
    copied = draft.copy_line("rows", 0, 1)
    assert copied.at((1, 0)) == copied.at((0, 0))
    flipped = draft.mirror("rows")
    assert flipped.at((1, 1)) == SpaceCell(("neutral", "neutral", "silver", "neutral"))
    assert flipped.sides((1, 1))[2] == "frame:silver"


def test_a_board_off_the_grid_is_refused_when_loaded() -> None:
    data = {"areas": {"far": {"kind": "forest", "at": [0, 5]}},
            "spaces": {"s": {"at": [0, 0], "sides": {"N": "far", "E": "frame:card", "S": "frame:wood",
                                                     "W": "frame:neutral"}}}}
    validate_board(data)
    refused("ui.editor.refused.not_on_grid", lambda: model.from_json(data))


# -- properties over random drafts ----------------------------------------------------------------

@st.composite
def drafts(draw: st.DrawFn) -> Draft:
    """A draft reached by random edits from a blank grid (refused edits are skipped, as the editor does)."""
    rows = draw(st.integers(1, 6))
    columns = draw(st.integers(1, 6))
    draft = model.blank(rows, columns)
    cell = st.tuples(st.integers(0, rows - 1), st.integers(0, columns - 1))
    edit = st.one_of(
        st.tuples(st.just("kind"), cell, st.sampled_from(tables.AREA_KINDS)),
        st.tuples(st.just("space"), cell),
        st.tuples(st.just("clear"), cell),
        st.tuples(st.just("gift"), cell, st.integers(0, 3), st.sampled_from(tables.FRAME_GIFTS)),
        st.tuples(st.just("amount"), cell, st.integers(-2, 2)),
        st.tuples(st.just("spots"), cell, st.integers(-1, 2)),
        st.tuples(st.just("settle"), cell, st.sampled_from([None, "village", "town"])),
    )
    for step in draw(st.lists(edit, max_size=25)):
        with contextlib.suppress(EditRefused):
            draft = apply(draft, step)
    return draft


def apply(draft: Draft, step: tuple) -> Draft:
    kind, cell, *rest = step
    if kind == "kind":
        return draft.set_kind(cell, rest[0])
    if kind == "space":
        return draft.make_space(cell)
    if kind == "clear":
        return draft.put(cell, None)
    if kind == "gift":
        return draft.set_gift(cell, rest[0], rest[1])
    if kind == "amount":
        return draft.step_amount(cell, rest[0])
    if kind == "spots":
        return draft.step_spots(cell, rest[0])
    return draft.set_settlement(cell, rest[0])


@given(drafts(), st.sampled_from(["rows", "columns"]))
def test_mirroring_twice_is_the_same_draft(draft: Draft, axis: str) -> None:
    assert draft.mirror(axis).mirror(axis) == draft


@given(drafts(), st.sampled_from(["rows", "columns"]))
def test_mirroring_keeps_a_saveable_board_saveable(draft: Draft, axis: str) -> None:
    assert (draft.mirror(axis).problem() is None) == (draft.problem() is None)


@given(drafts())
def test_save_and_load_is_the_identity(draft: Draft) -> None:
    if draft.problem() is not None:
        return  # only a complete board is saved
    data = draft.to_json()
    again = model.from_json(data)
    assert again.to_json() == data
    assert model.from_board(validate_board(data)).to_json() == data
    trimmed = Draft(again.rows, again.columns, draft.cells)  # the loaded grid ends at the last cell
    assert again == trimmed


@given(drafts(), st.data())
def test_copying_a_row_keeps_validity_or_is_refused_changing_nothing(draft: Draft,
                                                                     data: st.DataObject) -> None:
    axis = data.draw(st.sampled_from(["rows", "columns"]))
    size = draft.rows if axis == "rows" else draft.columns
    source = data.draw(st.integers(0, size - 1))
    target = data.draw(st.integers(0, size - 1))
    before = draft.to_json()
    try:
        copied = draft.copy_line(axis, source, target)
    except EditRefused as refusal:
        assert_words(refusal.message)
        assert draft.to_json() == before
        return
    assert_only_unfinished(copied)


@given(drafts())
def test_every_draft_edits_reach_is_saveable_or_only_unfinished(draft: Draft) -> None:
    assert_only_unfinished(draft)


def assert_only_unfinished(draft: Draft) -> None:
    """The edits' own check and validate_board agree: what is not saveable is only unfinished."""
    problem = draft.problem()
    if problem is not None:
        reason = problem.params.get("reason", problem) if problem.code == "ui.editor.problem_at" else problem
        assert reason.code in model.UNFINISHED, reason
