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
from pathlib import Path
from types import MappingProxyType
from typing import Any

from kivy.effects.scroll import ScrollEffect
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ColorProperty
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout

from companion import i18n
from companion.games.base import RecordError
from companion.games.castelli import tables
from companion.games.castelli.board import layout_names
from companion.games.messages import msg
from companion.i18n import say, text
from companion.service.app import AppError
from ui import theme
from ui.games.castelli import board_model as model
from ui.games.castelli.board_model import AreaCell, Cell, Draft, EditRefused, SpaceCell
from ui.screens import ShellScreen, back_row, column, row, scrolling_list
from ui.widgets import Field, LongTap, Tap, Words

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


def pad(columns: int) -> GridLayout:
    """Buttons in ``columns``, as high as their rows (a kind pad, a gift pad)."""
    grid = GridLayout(cols=columns, spacing=theme.SPACING, size_hint_y=None, row_default_height=theme.TOUCH,
                      row_force_default=True)
    grid.bind(minimum_height=grid.setter("height"))
    return grid


class EditorCell(Button):
    """One cell of the grid: its colour, its short name, the frame's bars, and whether it is selected."""

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


class BoardEditorScreen(ShellScreen):
    """The grid, the panel of the mode in use, Undo, and the board's problem or readiness."""

    def __init__(self, shell: Any, **kwargs: Any) -> None:
        super().__init__(shell, **kwargs)
        self.draft: Draft = model.blank()
        self.history: list[Draft] = []
        self.mode = "cell"
        self.selected: Cell | None = None
        self.side: int | None = None  # the side of the selected space whose gift the pad sets
        self.anchor: Cell | None = None  # the first tap of a copy or a fill
        self.copy_axis = "rows"
        self.every_other = True
        self.board_name = ""
        self.note: str | None = None  # what the last action did ("saved as ..."), until the next edit
        self.cells: dict[Cell, EditorCell] = {}
        self._grid_holder: Any = None
        self._grid_size: tuple[int, int] | None = None
        self.name_field: Field | None = None

    # -- drawing -------------------------------------------------------------------------------
    # The screen's frame, the grid's cells and the cell panel's pads are built once (per language, per
    # grid size) and then only updated: building them anew each tap took 60 ms here, 10 times that on a Pi.
    def _build(self) -> None:
        self._language = i18n.current_language()
        self.clear_widgets()
        body = column()
        self._top = back_row(text("ui.common.back"), lambda: self.shell.go("settings"), "")
        self._title = self._top.children[0]
        self._undo = Tap(text=text("ui.editor.undo"), size_hint_x=None, width=theme.TOUCH * 3)
        self._undo.bind(on_release=lambda *_: self.undo())
        self._top.add_widget(self._undo)
        body.add_widget(self._top)
        self._halves = row(size_hint_y=1, height=0)
        panel = column(padding=0)
        modes = row()
        self._modes: dict[str, Tap] = {}
        for mode, label in MODES.items():
            choice = Tap(text=text(label))
            choice.bind(on_release=lambda _b, m=mode: self.choose_mode(m))
            modes.add_widget(choice)
            self._modes[mode] = choice
        panel.add_widget(modes)
        view, self._content = scrolling_list()
        view.effect_cls = ScrollEffect  # no bounce: a tap during one would land beside its button
        self._view = view
        panel.add_widget(view)
        self._status = Words()
        panel.add_widget(self._status)
        self._halves.add_widget(panel)
        body.add_widget(self._halves)
        self.add_widget(body)
        self._grid_holder = None
        self._grid_size = None
        self._shown_for: tuple[str, Cell | None] | None = None

        self._pick = Words(text=text("ui.editor.pick_cell"))
        self._no_frame = Words(text=text("ui.editor.no_frame"))
        self._sides = row()
        self._side_taps: list[Tap] = []
        for side in range(4):
            choice = Tap(text=text(SIDE_SHORT[side]))
            choice.bind(on_release=lambda _b, s=side: self.choose_side(s))
            self._sides.add_widget(choice)
            self._side_taps.append(choice)
        self._gifts = pad(columns=3)
        self._gift_taps: dict[str, Tap] = {}
        for gift in tables.FRAME_GIFTS:
            choice = Tap(text=text(GIFT_WORDS[gift]))
            choice.bind(on_release=lambda _b, g=gift: self.set_gift(g))
            self._gifts.add_widget(choice)
            self._gift_taps[gift] = choice
        self._kinds = pad(columns=4)
        self._kind_taps: dict[str, Tap] = {}
        for kind in (*tables.AREA_KINDS, "space", "empty"):
            choice = Tap(text=text(PAD_WORDS[kind]))
            choice.bind(on_release=lambda _b, k=kind: self.set_kind(k))
            self._kinds.add_widget(choice)
            self._kind_taps[kind] = choice
        self._amount, self._amount_label, self._amount_value = self._stepper(
            lambda by: self.edit(self.draft.step_amount, self.selected, by))
        self._spots, spots_label, self._spots_value = self._stepper(
            lambda by: self.edit(self.draft.step_spots, self.selected, by))
        spots_label.text = text("ui.editor.spots")
        self._settlements = row()
        self._settlement_taps: dict[str | None, Tap] = {}
        for settlement in (None, *tables.SETTLEMENT_KINDS):
            choice = Tap(text=text(SETTLEMENT_WORDS[settlement]))
            choice.bind(on_release=lambda _b, k=settlement: self.set_settlement(k))
            self._settlements.add_widget(choice)
            self._settlement_taps[settlement] = choice

    def redraw(self) -> None:
        self._keep_name()  # typed and not saved yet: the Board panel drawn anew must not lose it
        if getattr(self, "_language", None) != i18n.current_language():
            self._build()
        holder = self._grid()
        if holder.parent is None:
            self._halves.add_widget(holder, index=len(self._halves.children))  # on the left
        self._title.text = (say(self.draft.describe(self.selected))
                            if self.selected is not None and self.mode == "cell"
                            else text("ui.editor.title", name=self.board_name or text("ui.editor.untitled")))
        self._undo.disabled = not self.history
        for mode, choice in self._modes.items():
            choice.accent = self.mode == mode
        self._content.clear_widgets()
        if self._shown_for != (self.mode, self.selected):
            self._view.scroll_y = 1  # another cell or mode: its panel from the top
            self._shown_for = (self.mode, self.selected)
        {"cell": self._cell_panel, "copy": self._copy_panel, "fill": self._fill_panel,
         "board": self._board_panel}[self.mode](self._content)
        self._show_status()

    def _grid(self) -> Any:
        """The grid's holder, its cells built once per size and updated from the draft."""
        d = self.draft
        if self._grid_holder is None or self._grid_size != (d.rows, d.columns):
            if self._grid_holder is not None:
                self._halves.remove_widget(self._grid_holder)
            side = min((theme.WINDOW[1] - theme.TOUCH - theme.SPACING * 4) / d.rows, 400 / d.columns)
            # as high as the screen lets it: cells get a little lower while a refusal shows below
            grid = GridLayout(rows=d.rows, cols=d.columns, spacing=2, size_hint=(None, 1),
                              width=side * d.columns)
            top_space = max(0.0, (theme.WINDOW[1] - theme.TOUCH - theme.SPACING * 4) - side * d.rows)
            self.cells = {}
            for cell in model.cells_of(d):
                shown = EditorCell()
                shown.bind(on_release=lambda _b, c=cell: self.tap_cell(c))
                self.cells[cell] = shown
                grid.add_widget(shown)
            holder = column(padding=(0, 0, 0, top_space), size_hint_x=None, width=max(side * d.columns, 200))
            holder.add_widget(grid)
            self._grid_holder, self._grid_size = holder, (d.rows, d.columns)
        for cell, shown in self.cells.items():
            content = d.at(cell)
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
        return self._grid_holder

    def _colour(self, cell: Cell) -> theme.Colour:
        content = self.draft.at(cell)
        if isinstance(content, AreaCell):
            return KIND_COLOURS[content.kind]
        return SPACE_COLOUR if isinstance(content, SpaceCell) else EMPTY_COLOUR

    def _show_status(self) -> None:
        """The note of the last action, else validate_board's verdict on the board in player words."""
        problem = self.draft.problem() if self.note is None else None
        if self.note is not None:
            self._status.text, self._status.color = self.note, theme.ACCENT
        elif problem is None:
            spaces, areas = self.draft.counts()
            self._status.text = text("ui.editor.ready", spaces=spaces, areas=areas)
            self._status.color = theme.ACCENT
        else:
            self._status.text, self._status.color = say(problem), theme.REFUSED

    def _cell_panel(self, grid: Any) -> None:
        cell = self.selected
        if cell is None:
            grid.add_widget(self._pick)
            return
        content = self.draft.at(cell)
        if isinstance(content, SpaceCell):
            self._gift_pad(grid, cell, content)  # first: what a space is tapped for
        for kind, choice in self._kind_taps.items():
            choice.accent = ((isinstance(content, AreaCell) and content.kind == kind)
                             or (kind == "space" and isinstance(content, SpaceCell))
                             or (kind == "empty" and content is None))
        grid.add_widget(self._kinds)
        if not isinstance(content, AreaCell):
            return
        if content.kind in model.YIELD_KINDS or content.kind == "market":
            label = "ui.editor.tents" if content.kind == "market" else "ui.editor.yield"
            self._amount_label.text = text(label)
            self._amount_value.text = str(content.amount)
            grid.add_widget(self._amount)
        if content.kind == "rock":
            self._spots_value.text = str(content.spots)
            grid.add_widget(self._spots)
        if content.kind == "plain":
            for settlement, choice in self._settlement_taps.items():
                choice.accent = content.settlement == settlement
            grid.add_widget(self._settlements)

    def _gift_pad(self, grid: Any, cell: Cell, space: SpaceCell) -> None:
        """The four sides (those facing an area say so when tapped) and the six gifts for the chosen one."""
        free = [s for s in range(4) if self.draft.facing(cell, s) is None]
        if self.side not in free:
            self.side = free[0] if free else None
        for side, choice in enumerate(self._side_taps):
            choice.accent = side == self.side
            facing_frame = theme.TEXT if side in free else theme.DIMMED  # a side facing an area: dimmed
            choice.color = theme.ON_ACCENT if side == self.side else facing_frame
        grid.add_widget(self._sides)
        if self.side is None:
            grid.add_widget(self._no_frame)
            return
        for gift, choice in self._gift_taps.items():
            choice.accent = space.frame[self.side] == gift
        grid.add_widget(self._gifts)

    def _stepper(self, step: Any, label: str = "", value: int | None = None) -> tuple[Any, Words, Words]:
        """A row: its label, − , the value, + (``step(-1)`` / ``step(1)``)."""
        line = row()
        words = Words(text=label)
        line.add_widget(words)
        less = Tap(text="−", size_hint_x=None, width=theme.TOUCH)
        less.bind(on_release=lambda *_: step(-1))
        more = Tap(text="+", size_hint_x=None, width=theme.TOUCH)
        more.bind(on_release=lambda *_: step(1))
        line.add_widget(less)
        shown = Words(text="" if value is None else str(value), size_hint_x=None, width=theme.TOUCH,
                      halign="center")
        line.add_widget(shown)
        line.add_widget(more)
        return line, words, shown

    def _copy_panel(self, grid: Any) -> None:
        line = row()
        for axis in ("rows", "columns"):
            choice = Tap(text=text("ui.editor.rows" if axis == "rows" else "ui.editor.columns"),
                         accent=self.copy_axis == axis)
            choice.bind(on_release=lambda _b, a=axis: self.choose_axis(a))
            line.add_widget(choice)
        grid.add_widget(line)
        if self.anchor is None:
            grid.add_widget(Words(text=text("ui.editor.copy.help_rows" if self.copy_axis == "rows"
                                            else "ui.editor.copy.help_columns")))
        elif self.copy_axis == "rows":
            grid.add_widget(Words(text=text("ui.editor.copy.from_row", row=self.anchor[0] + 1)))
        else:
            grid.add_widget(Words(text=text("ui.editor.copy.from_column", column=self.anchor[1] + 1)))

    def _fill_panel(self, grid: Any) -> None:
        line = row()
        for other, label in ((False, "ui.editor.fill.every"), (True, "ui.editor.fill.other")):
            choice = Tap(text=text(label), accent=self.every_other == other)
            choice.bind(on_release=lambda _b, o=other: self.choose_stride(o))
            line.add_widget(choice)
        grid.add_widget(line)
        if self.anchor is None:
            grid.add_widget(Words(text=text("ui.editor.fill.help")))
        else:
            grid.add_widget(Words(text=text("ui.editor.fill.from", where=self.draft.describe(self.anchor))))

    def _board_panel(self, grid: Any) -> None:
        d = self.draft
        grid.add_widget(self._stepper(lambda by: self.edit(self.draft.resize, self.draft.rows + by,
                                                           self.draft.columns),
                                      text("ui.editor.rows"), d.rows)[0])
        grid.add_widget(self._stepper(lambda by: self.edit(self.draft.resize, self.draft.rows,
                                                           self.draft.columns + by),
                                      text("ui.editor.columns"), d.columns)[0])
        line = row()
        for axis, label in (("columns", "ui.editor.mirror.columns"), ("rows", "ui.editor.mirror.rows")):
            mirror = Tap(text=text(label))
            mirror.bind(on_release=lambda _b, a=axis: self.edit(self.draft.mirror, a))
            line.add_widget(mirror)
        grid.add_widget(line)
        line = row()
        self.name_field = field = Field(text=self.board_name, hint_text=text("ui.editor.name_hint"))
        line.add_widget(field)
        save = Tap(text=text("ui.editor.save"), accent=d.problem() is None, size_hint_x=None,
                   width=theme.TOUCH * 2.5)
        save.bind(on_release=lambda *_: self.save())
        line.add_widget(save)
        grid.add_widget(line)
        grid.add_widget(Words(text=text("ui.editor.start_from")))
        starts = GridLayout(cols=2, spacing=theme.SPACING, size_hint_y=None)
        starts.bind(minimum_height=starts.setter("height"))
        blank = Tap(text=text("ui.editor.blank"), size_hint_y=None, height=theme.TOUCH)
        blank.bind(on_release=lambda *_: self.start_blank())
        starts.add_widget(blank)
        for board in self.shell.table.app.boards():
            start = Tap(text=board.name, size_hint_y=None, height=theme.TOUCH)
            start.bind(on_release=lambda _b, n=board.name: self.start_from(n))
            starts.add_widget(start)
        grid.add_widget(starts)
        stored = [b.name for b in self.shell.table.app.boards() if not b.shipped]
        if self.board_name in stored:
            forget = LongTap(text=text("ui.editor.forget_hold", name=self.board_name), size_hint_y=None,
                             height=theme.TOUCH)
            forget.bind(on_long_press=lambda *_: self.forget())
            grid.add_widget(forget)

    # -- taps -------------------------------------------------------------------------------------
    def edit(self, action: Any, *args: Any) -> bool:
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
        data = self.shell.attempt(self.shell.table.app.board_data, name)
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
            self.shell.table.app.save_board(self.board_name, self.draft.to_json())
        except RecordError as error:  # the board: said as the cell it is about
            self.shell.refuse(say(self.draft.explain(error)))
            return
        except AppError as error:  # no name, or a shipped layout's name
            self.shell.refuse(str(error))
            return
        self.note = text("ui.editor.saved", name=self.board_name)
        self.redraw()

    def forget(self) -> None:
        if self.shell.attempt(self.shell.table.app.forget_board, self.board_name) is None:
            return
        self.note = text("ui.editor.forgotten", name=self.board_name)
        self.board_name = ""
        self.redraw()

    def snapshot_example(self) -> None:
        """For ``companion snapshot``: the open game's board (else the 4-player example), a space selected."""
        if self.history:
            return
        session = self.shell.table.session
        board = session.state.board if session is not None and session.game.name == "castelli" else None
        with contextlib.suppress(EditRefused):  # a game's board off the grid: the blank one stays
            self.draft = model.from_board(board) if board is not None else model.from_json(
                self.shell.table.app.board_data("example-4p"))
        self.mode = "cell"
        spaces = [c for c in model.cells_of(self.draft) if isinstance(self.draft.at(c), SpaceCell)]
        self.selected = spaces[0] if spaces else None
        self.redraw()
