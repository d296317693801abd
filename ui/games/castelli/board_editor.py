"""The Castelli board editor: players enter their board (the published one is not shipped).

The grid on the left is the board as the example layouts lay it out: areas
and tile spaces in a checkerboard, a space's sides facing the areas next to
it or the frame (bars along those sides, their gifts spelled out in the
panel). The panel on the right has four modes:

- **Cell**: tap a cell, then its kind (an area kind, a tile space, empty),
  its yield / tents / castle places with − and +, a village or a town on a
  plain, and the frame's gift on each side of a space that faces the frame.
- **Copy**: tap a row (or column), then where it goes.
- **Fill**: tap a cell, then the last cell of a run along its row or column
  (every cell, or every other one: the checkerboard).
- **Board**: the grid's size, mirroring, starting again from a blank grid or
  any board the companion knows, and the name to save it under.

Every edit goes through :mod:`ui.games.castelli.board_model`; a refused one says why in the
banner and changes nothing, and Undo takes back the last edit. The line at
the bottom of the panel is what :func:`validate_board` says about the board
now, so a player sees what is missing before pressing Save.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType
from typing import Any

from kivy.lang import Builder
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    DictProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button

from companion.games.base import RecordError
from companion.games.castelli import tables
from companion.games.castelli.board import layout_names
from companion.games.messages import msg
from companion.i18n import say, text
from companion.service.app import AppError
from companion.service.castelli import CastelliService
from ui import theme
from ui.games.castelli import board_model as model
from ui.games.castelli.board_model import AreaCell, Cell, Draft, EditRefused, SpaceCell
from ui.games.castelli.round_board import is_round, open_game_state
from ui.screens import ShellScreen, show
from ui.shell_interface import ShellInterface
from ui.widgets import Field, Tap

KV = Path(__file__).with_name("board_editor.kv")
if str(KV) not in Builder.files:
    Builder.load_file(str(KV))

#: The panel's modes, in the order of their buttons, with their labels.
MODES = MappingProxyType({"cell": "ui.editor.mode.cell", "copy": "ui.editor.mode.copy",
                          "fill": "ui.editor.mode.fill", "board": "ui.editor.mode.board"})
#: An area kind's colour on the grid (its short name is written on it too: never colour alone).
KIND_COLOURS = MappingProxyType({
    "forest": theme.rgb("#2f6b3a"), "field": theme.rgb("#c9a227"), "rock": theme.rgb("#7d8590"),
    "market": theme.rgb("#8e44ad"), "mine": theme.rgb("#d9dde3"), "plain": theme.rgb("#3a4452"),
})
#: A tile space on the grid.
SPACE_COLOUR = theme.rgb("#1b2028")
#: Nothing in a cell.
EMPTY_COLOUR = theme.BACKGROUND
#: A frame piece's colour along a space's side.
GIFT_COLOURS = MappingProxyType({
    "wood": theme.rgb("#8b5a2b"), "grain": theme.rgb("#f2c500"), "stone": theme.rgb("#9aa0a6"),
    "silver": theme.rgb("#f5f5f5"), "card": theme.rgb("#2f6fdb"), "neutral": theme.rgb("#5b6673"),
})
#: Words: each kind's short name on the grid, each gift's word and short name, each side's letter.
KIND_SHORT = MappingProxyType({
    "forest": "ui.editor.short.forest", "field": "ui.editor.short.field", "rock": "ui.editor.short.rock",
    "market": "ui.editor.short.market", "mine": "ui.editor.short.mine"})
SETTLEMENT_SHORT = MappingProxyType({"village": "ui.editor.short.village", "town": "ui.editor.short.town"})
GIFT_WORDS = MappingProxyType({
    "wood": "ui.editor.gift.wood", "grain": "ui.editor.gift.grain", "stone": "ui.editor.gift.stone",
    "silver": "ui.editor.gift.silver", "card": "ui.editor.gift.card", "neutral": "ui.editor.gift.neutral"})
GIFT_SHORT = MappingProxyType({
    "wood": "ui.editor.short.wood", "grain": "ui.editor.short.grain", "stone": "ui.editor.short.stone",
    "silver": "ui.editor.short.silver", "card": "ui.editor.short.card"})
SIDE_SHORT = ("ui.editor.side_short.north", "ui.editor.side_short.east", "ui.editor.side_short.south",
              "ui.editor.side_short.west")
#: The cell pad's buttons: the area kinds in short words, a tile space, empty (four in a row fit).
PAD_WORDS = MappingProxyType({
    "forest": "ui.editor.pad.forest", "field": "ui.editor.pad.field", "rock": "ui.editor.pad.rock",
    "market": "ui.editor.pad.market", "mine": "ui.editor.pad.mine", "plain": "ui.editor.pad.plain",
    "space": "ui.editor.pad.space", "empty": "ui.editor.pad.empty"})
SETTLEMENT_WORDS = MappingProxyType({
    None: "ui.editor.no_settlement",
    "village": "castelli.settlement.village",
    "town": "castelli.settlement.town",
})


class EditorCell(Button):
    """One cell of the grid: its colour, its short name, the frame's bars, and whether it is selected."""

    #: The cell it shows (row, column).
    cell = ObjectProperty((0, 0))
    swatch = ColorProperty(EMPTY_COLOUR)
    selected = BooleanProperty(False)
    #: A tile space: drawn as a tile (an outline), so it is never told from a plain by colour alone.
    tile = BooleanProperty(False)
    north = ColorProperty((0, 0, 0, 0))
    east = ColorProperty((0, 0, 0, 0))
    south = ColorProperty((0, 0, 0, 0))
    west = ColorProperty((0, 0, 0, 0))


def cell_label(draft: Draft, cell: Cell) -> str:
    """What a cell shows: "Fo 2", "Ro 2·1", "V" (a village on a plain), a space's frame gifts."""
    content = draft.at(cell)
    if isinstance(content, AreaCell):
        if content.kind == "plain":
            return text(SETTLEMENT_SHORT[content.settlement]) if content.settlement else ""
        short = text(KIND_SHORT[content.kind])
        if content.kind == "rock":
            return f"{short}\n{content.amount}·{content.spots}"
        if content.kind in ("forest", "field", "market"):
            return f"{short}\n{content.amount}"
        return short
    if isinstance(content, SpaceCell):
        return "\n".join(text(GIFT_SHORT[content.frame[side]]) for side in range(4)
                        if draft.facing(cell, side) is None and content.frame[side] != "neutral")
    return ""


class EditorStepper(BoxLayout):
    """A row: its label, −, the value, + (``board_editor.kv``); − and + dispatch ``on_step`` with -1 or 1."""

    __events__ = ("on_step",)
    label = StringProperty("")
    value = StringProperty("")

    def on_step(self, by: int) -> None:
        pass


class EditorChoice(Tap):
    """One choice of a row made from the game's tables (a mode, a kind, a side, a gift, a settlement):
    lit while it is the one in use in its ``group`` (``board_editor.kv``)."""

    group = StringProperty("")
    value = ObjectProperty(None, allownone=True)
    #: The catalogue code of its words.
    code = StringProperty("")
    screen = ObjectProperty(None)


class StartTap(Tap):
    """A board the companion knows, to start from (the Board panel)."""

    board = StringProperty("")
    screen = ObjectProperty(None)

    def on_release(self) -> None:
        self.screen.start_from(self.board)


#: The panel's parts (ids of the rule) in their order, and the mode that shows each (the Cell mode's
#: parts also depend on the cell selected).
PARTS = MappingProxyType({
    "pick": "cell", "sides": "cell", "no_frame": "cell", "gifts": "cell", "kinds": "cell", "amount": "cell",
    "spots": "cell", "settlements": "cell", "copy_axes": "copy", "fill_strides": "fill", "help": "copy fill",
    "rows": "board", "columns": "board", "mirrors": "board", "naming": "board", "start_from": "board",
    "starts": "board", "forget": "board"})


class BoardEditorScreen(ShellScreen):
    """The grid, the panel of the mode in use, Undo, and the board's problem or readiness.

    Layout: ``board_editor.kv``, every mode's panel in it. The grid's cells and
    the rows of choices made from the game's tables are made once (the cells
    grow or shrink by the difference when the grid is resized) and the
    properties below carry the state they show; a tap changes properties and
    puts the parts of the mode in use in the panel, and builds nothing.
    Building the panel anew each tap made 4–21 widgets a tap; building the
    whole screen took 60 ms here, 10 times that on a Pi.
    """

    #: The panel's mode ("cell", "copy", "fill", "board"), the copy's axis and the fill's stride.
    mode = StringProperty("cell")
    copy_axis = StringProperty("rows")
    every_other = BooleanProperty(True)
    #: The selected space's side whose gift the gift pad sets (None: no side faces the frame).
    side = ObjectProperty(None, allownone=True)
    #: The sides of the selected space that face the frame (the others are dimmed).
    free_sides = ListProperty([])
    #: Group -> the value lit in it (the mode, the cell's kind, its side's gift, its settlement).
    choices = DictProperty({})
    #: The top line, the line at the bottom (a note, the board's readiness or problem) and its colour.
    title = StringProperty("")
    status = StringProperty("")
    status_colour = ColorProperty(theme.ACCENT)
    #: Whether there is an edit to take back; whether the board may be saved as it is.
    can_undo = BooleanProperty(False)
    saveable = BooleanProperty(False)
    #: The grid's size, a cell's side and the room left above the grid.
    rows = NumericProperty(0)
    columns = NumericProperty(1)
    cell_side = NumericProperty(0)
    top_space = NumericProperty(0)
    #: The selected area's amount (its label's code) and castle places, as shown.
    amount_code = StringProperty("ui.editor.yield")
    amount_value = StringProperty("")
    spots_value = StringProperty("")
    #: What the next tap of a copy or a fill does.
    help = StringProperty("")
    #: The name to save the board under (as typed, once an edit or a mode change has read the field).
    board_name = StringProperty("")

    def __init__(self, shell: ShellInterface, **kwargs: object) -> None:
        super().__init__(shell, **kwargs)
        self.draft: Draft = model.blank()
        self.history: list[Draft] = []
        self.selected: Cell | None = None
        self.anchor: Cell | None = None  # the first tap of a copy or a fill
        self.note: str | None = None  # what the last action did ("saved as ..."), until the next edit
        self.cells: dict[Cell, EditorCell] = {}
        self._cell_pool: list[EditorCell] = []  # in reading order; as many in the grid as it has cells
        self._starts: list[StartTap] = []  # as many in the panel as the companion knows boards
        self._shown_for: tuple[str, Cell | None] | None = None
        ids = self.ids
        #: The panel's parts by their ids, held here: a rule's ids are weak, and a part is out of the tree
        #: while its mode is not in use.
        self.parts = {name: ids[name].__self__ for name in PARTS}
        self.name_field: Field = ids.name.__self__
        self._choices("mode", ids.modes, MODES.items())
        self._side_taps = self._choices("side", ids.sides, enumerate(SIDE_SHORT))
        self._choices("gift", ids.gifts, GIFT_WORDS.items())
        self._choices("kind", ids.kinds, ((k, PAD_WORDS[k]) for k in (*tables.AREA_KINDS, "space", "empty")))
        self._choices("settlement", ids.settlements, SETTLEMENT_WORDS.items())

    def _choices(self, group: str, box: Any, words: Any) -> list[EditorChoice]:
        """The row (or pad) ``box`` filled once with a choice per (value, code) of ``words``."""
        made = [EditorChoice(group=group, value=value, code=code, screen=self) for value, code in words]
        for choice in made:
            box.add_widget(choice)
        return made

    @staticmethod
    def chosen(group: str, choices: dict[str, Any]) -> Any:
        """The value lit in ``group`` (the rule names ``choices``: a choice is lit again as they change)."""
        return choices.get(group, ())

    def choose(self, group: str, value: object) -> None:
        """A choice tapped: the mode, the cell's kind, a side, a gift or a settlement."""
        actions: dict[str, Callable[[Any], None]] = {
            "mode": self.choose_mode, "side": self.choose_side, "gift": self.set_gift, "kind": self.set_kind,
            "settlement": self.set_settlement}
        actions[group](value)

    # -- drawing -------------------------------------------------------------------------------
    def refresh(self) -> None:
        self._keep_name()  # typed and not saved yet: the Board panel shown again must not lose it
        d = self.draft
        self._grid()
        self.title = (say(d.describe(self.selected)) if self.selected is not None and self.mode == "cell"
                      else text("ui.editor.title", name=self.board_name or text("ui.editor.untitled")))
        self.can_undo = bool(self.history)
        lit: dict[str, Any] = {"mode": self.mode}
        shown = {name for name, modes in PARTS.items() if self.mode in modes.split()}
        if self.mode == "cell":
            shown = self._cell_panel(lit)
        elif self.mode in ("copy", "fill"):
            self.help = self._help()
        else:
            self._board_panel(shown)
        self.choices = lit
        for side, choice in enumerate(self._side_taps):  # after the lit ones: a side facing an area dimmed
            choice.color = (theme.ON_ACCENT if side == self.side
                            else theme.TEXT if side in self.free_sides else theme.DIMMED)
        for name, part in self.parts.items():
            show(part, name in shown)
        if self._shown_for != (self.mode, self.selected):
            self.ids.view.scroll_y = 1  # another cell or mode: its panel from the top
            self._shown_for = (self.mode, self.selected)
        self._show_status()

    def _grid(self) -> None:
        """The grid's cells set from the draft (as many as it has: the difference made or taken off)."""
        d = self.draft
        high = theme.WINDOW[1] - theme.TOUCH - theme.SPACING * 4
        self.cell_side = min(high / d.rows, 400 / d.columns)
        self.top_space = max(0.0, high - self.cell_side * d.rows)
        self.rows, self.columns = d.rows, d.columns
        grid = self.ids.grid
        while len(self._cell_pool) < d.rows * d.columns:
            shown = EditorCell()
            shown.bind(on_release=lambda tapped: self.tap_cell(tapped.cell))
            self._cell_pool.append(shown)
            grid.add_widget(shown)
        while len(self._cell_pool) > d.rows * d.columns:
            grid.remove_widget(self._cell_pool.pop())
        self.cells = dict(zip(model.cells_of(d), self._cell_pool, strict=True))
        for cell, shown in self.cells.items():
            content = d.at(cell)
            shown.cell = cell
            shown.text = cell_label(d, cell)
            shown.swatch = self._colour(cell)
            shown.tile = isinstance(content, SpaceCell)
            shown.selected = cell == self.anchor or (self.mode == "cell" and cell == self.selected)
            if isinstance(content, SpaceCell):
                bars = [GIFT_COLOURS[content.frame[s]] if d.facing(cell, s) is None else (0, 0, 0, 0)
                        for s in range(4)]
            else:
                bars = [(0, 0, 0, 0)] * 4
            shown.north, shown.east, shown.south, shown.west = bars

    def _colour(self, cell: Cell) -> theme.Colour:
        content = self.draft.at(cell)
        if isinstance(content, AreaCell):
            return KIND_COLOURS[content.kind]
        return SPACE_COLOUR if isinstance(content, SpaceCell) else EMPTY_COLOUR

    def _show_status(self) -> None:
        """The note of the last action, else validate_board's verdict on the board in player words."""
        problem = self.draft.problem() if self.note is None else None
        if self.note is not None:
            self.status, self.status_colour = self.note, theme.ACCENT
        elif problem is None:
            spaces, areas = self.draft.counts()
            self.status = text("ui.editor.ready", spaces=spaces, areas=areas)
            self.status_colour = theme.ACCENT
        else:
            self.status, self.status_colour = say(problem), theme.REFUSED

    def _cell_panel(self, lit: dict[str, Any]) -> set[str]:
        """The Cell mode's parts for the cell selected (what they light in ``lit``): a space's sides and
        gifts first (what a space is tapped for), the kinds, an area's amount, castle places, settlement."""
        cell = self.selected
        if cell is None:
            return {"pick"}
        content = self.draft.at(cell)
        shown = {"kinds"}
        if isinstance(content, SpaceCell):
            shown |= self._gift_pad(lit, cell, content)
        lit["kind"] = ("space" if isinstance(content, SpaceCell) else "empty" if content is None
                       else content.kind)
        if not isinstance(content, AreaCell):
            return shown
        if content.kind in model.YIELD_KINDS or content.kind == "market":
            self.amount_code = "ui.editor.tents" if content.kind == "market" else "ui.editor.yield"
            self.amount_value = str(content.amount)
            shown.add("amount")
        if content.kind == "rock":
            self.spots_value = str(content.spots)
            shown.add("spots")
        if content.kind == "plain":
            lit["settlement"] = content.settlement
            shown.add("settlements")
        return shown

    def _gift_pad(self, lit: dict[str, Any], cell: Cell, space: SpaceCell) -> set[str]:
        """The four sides (those facing an area say so when tapped) and the six gifts for the chosen one."""
        free = [s for s in range(4) if self.draft.facing(cell, s) is None]
        if self.side not in free:
            self.side = free[0] if free else None
        self.free_sides = free
        lit["side"] = self.side
        if self.side is None:
            return {"sides", "no_frame"}
        lit["gift"] = space.frame[self.side]
        return {"sides", "gifts"}

    def _help(self) -> str:
        """What the next tap of a copy or a fill does."""
        if self.mode == "copy":
            if self.anchor is None:
                return text("ui.editor.copy.help_rows" if self.copy_axis == "rows"
                            else "ui.editor.copy.help_columns")
            if self.copy_axis == "rows":
                return text("ui.editor.copy.from_row", row=self.anchor[0] + 1)
            return text("ui.editor.copy.from_column", column=self.anchor[1] + 1)
        if self.anchor is None:
            return text("ui.editor.fill.help")
        return text("ui.editor.fill.from", where=self.draft.describe(self.anchor))

    def _board_panel(self, shown: set[str]) -> None:
        """The name as kept, whether Save is lit, a button per board the companion knows, and Forget
        for a board stored under the name (else out of ``shown``)."""
        self.name_field.text = self.board_name
        self.saveable = self.draft.problem() is None
        boards = CastelliService.of(self.shell.table.app).boards()
        starts = self.ids.starts
        while len(self._starts) < len(boards):
            self._starts.append(StartTap(screen=self, size_hint_y=None, height=theme.TOUCH))
        for index, start in enumerate(self._starts):
            if index < len(boards):
                start.board = start.text = boards[index].name
            if (index < len(boards)) != (start.parent is not None):
                (starts.add_widget if index < len(boards) else starts.remove_widget)(start)
        if self.board_name not in [b.name for b in boards if not b.shipped]:
            shown.discard("forget")

    # -- taps -------------------------------------------------------------------------------------
    def edit(self, action: Any, *args: object) -> bool:
        """Run an edit of the draft; a refusal says why (in the banner) and changes nothing."""
        try:
            new = action(*args)
        except EditRefused as refusal:
            self.shell.refuse(str(refusal))
            return False
        if new != self.draft:
            self.history.append(self.draft)
            self.draft = new
            self.note = None
        self.redraw()
        return True

    def step_amount(self, by: int) -> None:
        """− or + on the selected area's yield or tents."""
        self.edit(self.draft.step_amount, self.selected, by)

    def step_spots(self, by: int) -> None:
        """− or + on the selected rock's castle places."""
        self.edit(self.draft.step_spots, self.selected, by)

    def resize(self, rows: int, columns: int) -> None:
        """The grid ``rows`` and ``columns`` larger (or smaller)."""
        self.edit(self.draft.resize, self.draft.rows + rows, self.draft.columns + columns)

    def mirror(self, axis: str) -> None:
        self.edit(self.draft.mirror, axis)

    def undo(self) -> None:
        if not self.history:
            self.shell.refuse(text("ui.editor.nothing_to_undo"))
            return
        self.draft = self.history.pop()
        self.anchor = None
        if self.selected is not None and not self.draft.on_grid(self.selected):
            self.selected = None
        self.note = None
        self.redraw()

    def choose_mode(self, mode: str) -> None:
        self._keep_name()
        self.mode = mode
        self.anchor = None
        self.redraw()

    def choose_side(self, side: int) -> None:
        cell = self.selected
        if cell is None:
            return
        area = self.draft.facing(cell, side)
        if area is not None:
            self.shell.refuse(say(msg("ui.editor.refused.side_has_area", side=msg(model.SIDE_WORDS[side]),
                                      where=self.draft.describe(area))))
            return
        self.side = side
        self.redraw()

    def set_gift(self, gift: str) -> None:
        """The frame's gift on the chosen side of the selected space."""
        if self.selected is not None and self.side is not None:
            self.edit(self.draft.set_gift, self.selected, self.side, gift)

    def set_settlement(self, settlement: str | None) -> None:
        if self.selected is not None:
            self.edit(self.draft.set_settlement, self.selected, settlement)

    def set_kind(self, kind: str) -> None:
        """The selected cell becomes an area of ``kind``, a tile space (``"space"``) or empty."""
        cell = self.selected
        if cell is None:
            return
        if kind == "space":
            self.edit(self.draft.make_space, cell)
        elif kind == "empty":
            self.edit(self.draft.put, cell, None)
        else:
            self.edit(self.draft.set_kind, cell, kind)

    def choose_axis(self, axis: str) -> None:
        self.copy_axis = axis
        self.anchor = None
        self.redraw()

    def choose_stride(self, every_other: bool) -> None:
        self.every_other = every_other
        self.redraw()

    def tap_cell(self, cell: Cell) -> None:
        """Select it (Cell), or the first or second tap of a copy or a fill."""
        if self.mode in ("cell", "board"):
            self.mode = "cell"
            if cell != self.selected:
                self.side = None
            self.selected = cell
            self.redraw()
            return
        if self.anchor is None:
            self.anchor = cell
            self.redraw()
            return
        first, self.anchor = self.anchor, None
        if self.mode == "copy":
            index = 0 if self.copy_axis == "rows" else 1
            self.edit(self.draft.copy_line, self.copy_axis, first[index], cell[index])
        else:
            self.edit(self.draft.fill_run, first, cell, self.every_other)

    def start_blank(self) -> None:
        self.selected = self.anchor = None
        self.edit(model.blank)

    def start_from(self, name: str) -> None:
        """Edit a copy of a board the companion knows (a shipped layout is saved under a new name)."""
        data = self.shell.attempt(CastelliService.of(self.shell.table.app).board_data, name)
        if data is None:
            return
        try:
            loaded = model.from_json(data)
        except (EditRefused, RecordError) as refusal:
            self.shell.refuse(str(refusal))
            return
        self.selected = self.anchor = None
        self.board_name = "" if name in layout_names() else name
        self.edit(lambda: loaded)

    def _keep_name(self) -> None:
        if self.name_field is not None and self.name_field.get_root_window() is not None:
            self.board_name = self.name_field.text.strip()

    def save(self) -> None:
        """Keep the board under its name (validated by the service, as ``companion board import`` does)."""
        self._keep_name()
        try:
            CastelliService.of(self.shell.table.app).save_board(self.board_name, self.draft.to_json())
        except RecordError as error:  # the board: said as the cell it is about
            self.shell.refuse(say(self.draft.explain(error)))
            return
        except AppError as error:  # no name, or a shipped layout's name
            self.shell.refuse(str(error))
            return
        self.note = text("ui.editor.saved", name=self.board_name)
        self.redraw()

    def forget(self) -> None:
        if self.shell.attempt(CastelliService.of(self.shell.table.app).forget_board, self.board_name) is None:
            return
        self.note = text("ui.editor.forgotten", name=self.board_name)
        self.board_name = ""
        self.redraw()

    def snapshot_example(self) -> None:
        """For ``companion snapshot``: the open game's board (in a round, group 2's half with the extra
        mine tile; else the 4-player example), a space selected."""
        if self.history:
            return
        session = self.shell.table.session
        in_round = session is not None and session.game.name == "castelli" and is_round(session)
        state = open_game_state(self.shell, group=2 if in_round else None)
        board = state.board if state is not None else None
        with contextlib.suppress(EditRefused):  # a game's board off the grid: the blank one stays
            self.draft = model.from_board(board) if board is not None else model.from_json(
                CastelliService.of(self.shell.table.app).board_data("example-4p"))
        self.mode = "cell"
        spaces = [c for c in model.cells_of(self.draft) if isinstance(self.draft.at(c), SpaceCell)]
        self.selected = spaces[0] if spaces else None
        self.redraw()
