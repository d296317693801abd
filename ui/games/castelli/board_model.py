"""The board editor's model: a Castelli layout as a grid of cells, and the edits players make on it.

Pure Python (no Kivy), so that every edit is unit-tested and fuzzed apart
from the widgets. The board is the one the engine's layouts describe
(``companion/games/castelli/layouts``): a grid of cells, each an octagonal
**area**, a square **tile space**, or nothing. A space's side faces the cell
next to it: that area, or (off the grid, or an empty cell) a piece of the
frame showing its gift. So sides never have to be typed: putting an area
next to a space is all it takes, and copies and mirrors stay consistent.

A draft is immutable; every edit returns a new one (the editor's undo is a
list of drafts). An edit that would make the board impossible (a second
silver mine, a town on a forest, more villages than the box holds, a value
out of range) is refused with :class:`EditRefused` naming what is wrong, and
the draft stays as it was. What is merely unfinished (a forest no space
borders yet) is allowed while editing and reported by :meth:`Draft.problem`
in the words of :func:`~companion.games.castelli.board.validate_board`,
the same check the service runs before saving.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.games.base import RecordError
from companion.games.castelli import tables
from companion.games.castelli.board import FRAME_PREFIX, Board, board_to_json, validate_board
from companion.games.castelli.words import kind as kind_word
from companion.games.messages import Message, msg

Cell = tuple[int, int]  # (row, column), 0-based as in the board's ``at``

#: The largest grid the editor draws (names stay "a<row><column>" with one digit each).
MAX_ROWS = 10
MAX_COLUMNS = 10
#: A blank grid's size: the 4-player example layout's.
BLANK_SIZE = (8, 8)
#: The neighbour each side of a space faces, as (row, column) steps, in the order of ``tables.SIDES``.
SIDE_STEPS: tuple[Cell, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))
#: Each side in words (north, east, south, west), in the order of ``tables.SIDES``.
SIDE_WORDS = ("ui.editor.side.north", "ui.editor.side.east", "ui.editor.side.south", "ui.editor.side.west")
#: A side's opposite when mirrored: left-right swaps E and W, top-bottom swaps N and S.
_MIRRORED_SIDES = {"columns": (0, 3, 2, 1), "rows": (2, 1, 0, 3)}
#: What validate_board reports about a board that is only unfinished: allowed while editing.
UNFINISHED = frozenset({"castelli.board.unbordered", "castelli.board.no_spaces", "castelli.board.no_areas"})
#: Kinds with a yield (forest, field, rock) and the kind whose amount is tents.
YIELD_KINDS = ("forest", "field", "rock")


class EditRefused(ValueError):
    """An edit that would make the board impossible; ``message`` says why in player words."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return str(self.message)


@dataclass(frozen=True)
class AreaCell:
    """An octagonal area: its kind, yield (or tents), castle places (rock) and settlement (plain)."""

    kind: str
    amount: int = 0
    spots: int = 0
    settlement: str | None = None


@dataclass(frozen=True)
class SpaceCell:
    """A tile space: the frame gift on each side (N, E, S, W) that faces no area."""

    frame: tuple[str, str, str, str] = ("neutral", "neutral", "neutral", "neutral")


Content = AreaCell | SpaceCell | None


def new_area(kind: str) -> AreaCell:
    """An area of ``kind`` with the record format's defaults (yield 2, 1 tent, 1 castle place)."""
    if kind not in tables.AREA_KINDS:
        raise EditRefused(msg("ui.editor.refused.kind", kind=kind))
    amount = {"market": tables.DEFAULT_TENTS}.get(kind, tables.DEFAULT_YIELD if kind in YIELD_KINDS else 0)
    return AreaCell(kind, amount, tables.DEFAULT_SPOTS if kind == "rock" else 0)


def area_name(cell: Cell) -> str:
    return f"a{cell[0]}{cell[1]}"


def space_name(cell: Cell) -> str:
    return f"s{cell[0]}{cell[1]}"


@dataclass(frozen=True)
class Draft:
    """A board being edited: its size and what stands in each cell (missing cells are empty).

    Build one with :func:`blank`, :func:`from_json` or :func:`from_board`;
    the edits return new drafts. Two drafts are equal when they describe the
    same board.
    """

    rows: int
    columns: int
    cells: Mapping[Cell, AreaCell | SpaceCell] = field(default_factory=dict)

    # -- reading ------------------------------------------------------------------------
    def at(self, cell: Cell) -> Content:
        return self.cells.get(cell)

    def on_grid(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.columns

    def facing(self, cell: Cell, side: int) -> Cell | None:
        """The area a space's ``side`` faces, or ``None`` when it faces the frame."""
        step = SIDE_STEPS[side]
        there = (cell[0] + step[0], cell[1] + step[1])
        return there if isinstance(self.cells.get(there), AreaCell) else None

    def sides(self, cell: Cell) -> tuple[str, str, str, str]:
        """A space's four sides as the record writes them: an area's name or ``frame:GIFT``."""
        space = self.cells[cell]
        assert isinstance(space, SpaceCell)
        named = []
        for index in range(4):
            area = self.facing(cell, index)
            named.append(area_name(area) if area is not None else FRAME_PREFIX + space.frame[index])
        return (named[0], named[1], named[2], named[3])

    def to_json(self) -> dict[str, Any]:
        """The inline board (``records.md``) this draft describes, every default written out.

        Written even when unfinished (the problem line shows what is missing);
        :func:`validate_board` reads it back.
        """
        areas: dict[str, Any] = {}
        spaces: dict[str, Any] = {}
        settlements: dict[str, str] = {}
        for cell in sorted(self.cells):
            content = self.cells[cell]
            if isinstance(content, AreaCell):
                entry: dict[str, Any] = {"kind": content.kind, "at": list(cell)}
                if content.kind in YIELD_KINDS:
                    entry["yield"] = content.amount
                if content.kind == "rock":
                    entry["spots"] = content.spots
                if content.kind == "market":
                    entry["tents"] = content.amount
                areas[area_name(cell)] = entry
                if content.settlement is not None:
                    settlements[area_name(cell)] = content.settlement
            else:
                spaces[space_name(cell)] = {"at": list(cell),
                                            "sides": dict(zip(tables.SIDES, self.sides(cell), strict=True))}
        return {"areas": areas, "spaces": spaces, "settlements": settlements}

    def board(self) -> Board:
        """The validated board; :class:`RecordError` (path and message) when it is not complete."""
        return validate_board(self.to_json())

    def problem(self) -> Message | None:
        """What keeps this board from being saved, in player words naming the cell; ``None`` when none."""
        try:
            self.board()
        except RecordError as error:
            return self.explain(error)
        return None

    def explain(self, error: RecordError) -> Message:
        """A :class:`RecordError` of this board with its path said as the cell it is about."""
        reason = error.message if isinstance(error.message, Message) else msg("records.quoted",
                                                                             text=error.message)
        parts = error.path.split(".")
        name = parts[1] if len(parts) > 1 else ""
        where = self._cell_named(name)
        if where is None:
            return reason
        return msg("ui.editor.problem_at", where=self.describe(where), reason=reason)

    def _cell_named(self, name: str) -> Cell | None:
        for cell, content in self.cells.items():
            if name == (area_name(cell) if isinstance(content, AreaCell) else space_name(cell)):
                return cell
        return None

    def describe(self, cell: Cell) -> Message:
        """A cell in player words: "the forest in row 2, column 3" (1-based, as players count)."""
        content = self.cells.get(cell)
        if isinstance(content, AreaCell):
            return msg("ui.editor.cell.area", kind=kind_word(content.kind), row=cell[0] + 1,
                       column=cell[1] + 1)
        if isinstance(content, SpaceCell):
            return msg("ui.editor.cell.space", row=cell[0] + 1, column=cell[1] + 1)
        return msg("ui.editor.cell.empty", row=cell[0] + 1, column=cell[1] + 1)

    def counts(self) -> tuple[int, int]:
        """(tile spaces, areas)."""
        spaces = sum(1 for c in self.cells.values() if isinstance(c, SpaceCell))
        return spaces, len(self.cells) - spaces

    # -- edits ------------------------------------------------------------------------------
    def put(self, cell: Cell, content: Content) -> Draft:
        """``content`` in ``cell`` (``None`` empties it)."""
        self._need_on_grid(cell)
        cells = dict(self.cells)
        if content is None:
            cells.pop(cell, None)
        else:
            cells[cell] = content
        return self._checked(cells)

    def set_kind(self, cell: Cell, kind: str) -> Draft:
        """Make ``cell`` an area of ``kind``, its values at the defaults (the same kind: no change)."""
        current = self.cells.get(cell)
        if isinstance(current, AreaCell) and current.kind == kind:
            return self
        mines = [c for c, a in self.cells.items()
                 if isinstance(a, AreaCell) and a.kind == "mine" and c != cell]
        if kind == "mine" and mines:  # said here: validate_board would name the mines by their record names
            raise EditRefused(msg("ui.editor.refused.second_mine", where=self.describe(mines[0])))
        return self.put(cell, new_area(kind))

    def make_space(self, cell: Cell) -> Draft:
        current = self.cells.get(cell)
        return self if isinstance(current, SpaceCell) else self.put(cell, SpaceCell())

    def step_amount(self, cell: Cell, by: int) -> Draft:
        """The yield (forest, field, rock) or the tents (market) up or down by ``by``."""
        area = self._area(cell)
        if area.kind in YIELD_KINDS:
            low, high = tables.YIELD_RANGE
            code = "ui.editor.refused.yield_range"
        elif area.kind == "market":
            low, high = tables.TENTS_RANGE
            code = "ui.editor.refused.tents_range"
        else:
            raise EditRefused(msg("ui.editor.refused.no_amount", kind=kind_word(area.kind)))
        value = area.amount + by
        if not low <= value <= high:
            raise EditRefused(msg(code, low=low, high=high))
        return self.put(cell, replace(area, amount=value))

    def step_spots(self, cell: Cell, by: int) -> Draft:
        """The castle places of a rock up or down by ``by``."""
        area = self._area(cell)
        if area.kind != "rock":
            raise EditRefused(msg("ui.editor.refused.no_spots", kind=kind_word(area.kind)))
        low, high = tables.SPOTS_RANGE
        value = area.spots + by
        if not low <= value <= high:
            raise EditRefused(msg("ui.editor.refused.spots_range", low=low, high=high))
        return self.put(cell, replace(area, spots=value))

    def set_settlement(self, cell: Cell, settlement: str | None) -> Draft:
        """A village, a town or nothing on a plain area."""
        area = self._area(cell)
        if settlement is not None and area.kind != "plain":
            raise EditRefused(msg("ui.editor.refused.settlement_not_plain", kind=kind_word(area.kind)))
        return self.put(cell, replace(area, settlement=settlement))

    def set_gift(self, cell: Cell, side: int, gift: str) -> Draft:
        """The frame gift on ``side`` (0–3: N, E, S, W) of a space; refused when an area is there."""
        space = self.cells.get(cell)
        if not isinstance(space, SpaceCell):
            raise EditRefused(msg("ui.editor.refused.not_space", where=self.describe(cell)))
        if gift not in tables.FRAME_GIFTS:
            raise EditRefused(msg("ui.editor.refused.gift", gift=gift))
        area = self.facing(cell, side)
        if area is not None:
            raise EditRefused(msg("ui.editor.refused.side_has_area", side=msg(SIDE_WORDS[side]),
                                  where=self.describe(area)))
        frame = list(space.frame)
        frame[side] = gift
        return self.put(cell, SpaceCell((frame[0], frame[1], frame[2], frame[3])))

    def resize(self, rows: int, columns: int) -> Draft:
        """A grid of ``rows`` × ``columns``; new cells are blank (the checkerboard), cut cells must be."""
        if not (1 <= rows <= MAX_ROWS and 1 <= columns <= MAX_COLUMNS):
            raise EditRefused(msg("ui.editor.refused.size", rows=MAX_ROWS, columns=MAX_COLUMNS))
        cells: dict[Cell, AreaCell | SpaceCell] = {}
        for cell, content in self.cells.items():
            if cell[0] < rows and cell[1] < columns:
                cells[cell] = content
            elif content != _blank_content(cell):
                raise EditRefused(msg("ui.editor.refused.cut", where=self.describe(cell)))
        for r in range(rows):
            for c in range(columns):
                if r >= self.rows or c >= self.columns:
                    cells[(r, c)] = _blank_content((r, c))
        return Draft(rows, columns, _normal(cells))._validated()

    def mirror(self, axis: str) -> Draft:
        """The board flipped: ``"columns"`` left to right, ``"rows"`` top to bottom (gifts follow)."""
        order = _MIRRORED_SIDES[axis]
        cells: dict[Cell, AreaCell | SpaceCell] = {}
        for (r, c), content in self.cells.items():
            there = (self.rows - 1 - r, c) if axis == "rows" else (r, self.columns - 1 - c)
            if isinstance(content, SpaceCell):
                f = content.frame
                content = SpaceCell((f[order[0]], f[order[1]], f[order[2]], f[order[3]]))
            cells[there] = content
        return self._checked(cells)

    def copy_line(self, axis: str, source: int, target: int) -> Draft:
        """Row (``axis="rows"``) or column ``source`` copied over ``target``."""
        length = self.columns if axis == "rows" else self.rows
        if not (0 <= source < (self.rows if axis == "rows" else self.columns)
                and 0 <= target < (self.rows if axis == "rows" else self.columns)):
            raise EditRefused(msg("ui.editor.refused.off_grid"))
        if source == target:
            raise EditRefused(msg("ui.editor.refused.same_line"))
        cells = dict(self.cells)
        for i in range(length):
            src, dst = ((source, i), (target, i)) if axis == "rows" else ((i, source), (i, target))
            if src in self.cells:
                cells[dst] = self.cells[src]
            else:
                cells.pop(dst, None)
        return self._checked(cells)

    def fill_run(self, first: Cell, last: Cell, every_other: bool = False) -> Draft:
        """What is in ``first`` copied to every cell on the straight line up to ``last`` (or every other)."""
        self._need_on_grid(first)
        self._need_on_grid(last)
        if first[0] != last[0] and first[1] != last[1]:
            raise EditRefused(msg("ui.editor.refused.not_in_line"))
        step_r = (last[0] > first[0]) - (last[0] < first[0])
        step_c = (last[1] > first[1]) - (last[1] < first[1])
        stride = 2 if every_other else 1
        content = self.cells.get(first)
        cells = dict(self.cells)
        cell = first
        while True:
            cell = (cell[0] + step_r * stride, cell[1] + step_c * stride)
            if not self.on_grid(cell) or (step_r and (cell[0] - last[0]) * step_r > 0) \
                    or (step_c and (cell[1] - last[1]) * step_c > 0) or (not step_r and not step_c):
                break
            if content is None:
                cells.pop(cell, None)
            else:
                cells[cell] = content
        return self._checked(cells)

    # -- checks -------------------------------------------------------------------------------
    def _area(self, cell: Cell) -> AreaCell:
        area = self.cells.get(cell)
        if not isinstance(area, AreaCell):
            raise EditRefused(msg("ui.editor.refused.not_area", where=self.describe(cell)))
        return area

    def _need_on_grid(self, cell: Cell) -> None:
        if not self.on_grid(cell):
            raise EditRefused(msg("ui.editor.refused.off_grid"))

    def _checked(self, cells: Mapping[Cell, AreaCell | SpaceCell]) -> Draft:
        return Draft(self.rows, self.columns, _normal(cells))._validated()

    def _validated(self) -> Draft:
        """This draft, or :class:`EditRefused` when validate_board finds it impossible (not only unfinished).

        The board is checked as if finished: each area no space borders yet
        gets a space of its own out of the way (and a board with no space
        one), so that the unfinished parts hide no real mistake
        (validate_board stops at the first error it finds).
        """
        probe = self.to_json()
        if not probe["areas"]:
            return self
        bordered = {side for space in probe["spaces"].values() for side in space["sides"].values()}
        waiting = [name for name, area in probe["areas"].items()
                   if area["kind"] != "plain" and name not in bordered]
        if not waiting and not probe["spaces"]:
            waiting = ["frame:neutral"]
        for index, name in enumerate(waiting):  # out of the way: spaces only clash with spaces
            probe["spaces"][f"probe{index}"] = {"at": [MAX_ROWS + index, MAX_COLUMNS],
                                                "sides": {side: name for side in tables.SIDES}}
        try:
            validate_board(probe)
        except RecordError as error:
            message = error.message
            if isinstance(message, Message) and message.code in UNFINISHED:
                return self
            raise EditRefused(self.explain(error)) from None
        return self


def _blank_content(cell: Cell) -> AreaCell | SpaceCell:
    """The checkerboard of the example layouts: spaces where row + column is odd, plains elsewhere."""
    return SpaceCell() if (cell[0] + cell[1]) % 2 else AreaCell("plain")


def _normal(cells: Mapping[Cell, AreaCell | SpaceCell]) -> dict[Cell, AreaCell | SpaceCell]:
    """``cells`` with what cannot show reset: a gift on a side that faces an area, an amount of a mine."""
    out: dict[Cell, AreaCell | SpaceCell] = {}
    for cell, content in cells.items():
        if isinstance(content, SpaceCell):
            frame = list(content.frame)
            for side, (dr, dc) in enumerate(SIDE_STEPS):
                if isinstance(cells.get((cell[0] + dr, cell[1] + dc)), AreaCell):
                    frame[side] = "neutral"
            content = SpaceCell((frame[0], frame[1], frame[2], frame[3]))
        elif content.kind != "plain" and content.settlement is not None:
            content = replace(content, settlement=None)
        out[cell] = content
    return out


def blank(rows: int = BLANK_SIZE[0], columns: int = BLANK_SIZE[1]) -> Draft:
    """A blank grid: the checkerboard of spaces and plain areas, every frame piece neutral."""
    if not (1 <= rows <= MAX_ROWS and 1 <= columns <= MAX_COLUMNS):
        raise EditRefused(msg("ui.editor.refused.size", rows=MAX_ROWS, columns=MAX_COLUMNS))
    return Draft(rows, columns, {(r, c): _blank_content((r, c)) for r in range(rows) for c in range(columns)})


def from_board(board: Board) -> Draft:
    """A validated board (a shipped layout, a stored one) as a draft to edit."""
    return from_json(board_to_json(board))


def from_json(data: Mapping[str, Any]) -> Draft:
    """An inline board as a draft: :class:`RecordError` when it is not a valid board,
    :class:`EditRefused` when it does not lie on a grid the editor can draw."""
    board = validate_board(dict(data))
    cells: dict[Cell, AreaCell | SpaceCell] = {}
    for area in board.areas.values():
        cells[area.at] = AreaCell(area.kind, area.amount, area.spots, board.settlements.get(area.name))
    for space in board.spaces.values():
        if space.at in cells:
            raise EditRefused(msg("ui.editor.refused.shared_place", space=space.name,
                                  row=space.at[0] + 1, column=space.at[1] + 1))
        cells[space.at] = SpaceCell()
    rows = max(r for r, _ in cells) + 1
    columns = max(c for _, c in cells) + 1
    if rows > MAX_ROWS or columns > MAX_COLUMNS:
        raise EditRefused(msg("ui.editor.refused.size", rows=MAX_ROWS, columns=MAX_COLUMNS))
    by_name = {a.name: a.at for a in board.areas.values()}
    for space in board.spaces.values():
        frame = ["neutral"] * 4
        for index, side in enumerate(space.sides):
            step = SIDE_STEPS[index]
            there = (space.at[0] + step[0], space.at[1] + step[1])
            next_to = there if isinstance(cells.get(there), AreaCell) else None
            if side.startswith(FRAME_PREFIX) and next_to is None:
                frame[index] = side[len(FRAME_PREFIX):]
            elif next_to is None or by_name.get(side) != next_to:
                raise EditRefused(msg("ui.editor.refused.not_on_grid", space=space.name,
                                      side=msg(SIDE_WORDS[index])))
        cells[space.at] = SpaceCell((frame[0], frame[1], frame[2], frame[3]))
    return Draft(rows, columns, cells)


def cells_of(draft: Draft) -> Iterable[Cell]:
    """Every cell of the grid, row by row."""
    return ((r, c) for r in range(draft.rows) for c in range(draft.columns))
