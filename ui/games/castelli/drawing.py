"""The Castelli board drawn from its layout: areas, tile spaces, shields, frame gifts, settlements, castles.

The layout is a checkerboard of ``[row, column]`` cells (``companion/games/castelli/board.py``):
an area (drawn as an octagon in its kind's colour, with its yield, tents or
castle places) or a tile space (a square: face down, or its four shields as
triangles in the players' colours with their values) in each. Frame pieces
lie beside the spaces that face them, in a margin around the grid. The cell
size follows the widget's size, so a 32-space board and a small one both fit, down to
:attr:`~CastelliBoardView.least_cell` (48 px on the game's board): a larger board pans, by the
board's buttons (:mod:`ui.games.castelli.viewport`; the drawing is clipped to the widget).

Everything is drawn on one canvas with cached text textures. Each cell keeps
its instructions: what lies under and over its ring is drawn again only when
what the cell shows changed (a move changes a few cells of up to 64), and the
ring itself is one kept line whose colour and width follow what is live or
flashing now (most moves change only rings). The widget knows nothing of
rules: the board (:mod:`ui.games.castelli.board`) tells it what is live (a
target now) and gets the taps back as a space's or an area's name.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, InstructionGroup, Line, Mesh, Rectangle, Triangle
from kivy.input.motionevent import MotionEvent
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty
from kivy.uix.stencilview import StencilView

from companion.games.castelli import tables
from companion.games.castelli.board import FRAME_PREFIX, Board
from ui.games.castelli import icons
from ui.games.castelli.figures import draw_text, glyph
from ui.games.castelli.viewport import ZOOM_STEP, Viewport
from ui.theme import (
    ACCENT,
    BACKGROUND,
    DIMMED,
    FLASH_SECONDS,
    REFUSED,
    SHOWN,
    SURFACE,
    TEXT,
    Colour,
    piece_colour,
    rgb,
    text_on,
)

#: Area kinds by colour: earthy, so that the shields' colours stand out on them, and apart for colour-blind
#: eyes too (forest and field were green against olive, market and mine one colour to a deuteranope;
#: the rule is in ui/theme.py).
KIND_COLOURS: dict[str, Colour] = {
    "forest": rgb("#19692b"),
    "field": rgb("#a78941"),
    "rock": rgb("#3f4352"),
    "market": rgb("#8d19bb"),
    "mine": rgb("#586783"),
    "plain": rgb("#645e58"),
}
#: What a frame piece gives, by colour (silver carries "$", the card its picture); the resource tracks
#: use them too. Silver and the card were 9 apart.
GIFT_COLOURS: dict[str, Colour] = {
    "wood": rgb("#7a472e"),
    "grain": rgb("#dca838"),
    "stone": rgb("#8a8b94"),
    "silver": rgb("#b7c0c9"),
    "card": rgb("#f2f4f7"),
    "neutral": rgb("#56585c"),
}
#: The face-down side of a tile.
FACE_DOWN = rgb("#1b2f4a")
#: Room around the grid for the frame pieces, in cells.
MARGIN = 0.2
#: The largest cell (a small board is not blown up beyond it).
MAX_CELL = 96.0
#: The smallest shield figure on the board, in px: read from across the table (the role of a mark
#: on a piece is 12 px at least; a shield's value is what players look for on a tile).
SHIELD_FIGURE = 24
#: The same on a board drawn small beside words (the evaluations' map): where the board itself is
#: read, not its figures, which at 24 px would reach over the small tiles' edges and coins.
SMALL_SHIELD_FIGURE = 17


def tint(colour: Colour, towards: float = 0.4) -> Colour:
    """``colour`` lightened ``towards`` white: a sign drawn on an area in a shade of its own colour."""
    return (*(c + (1 - c) * towards for c in colour[:3]), 1.0)  # type: ignore[return-value]


def add_fan(canvas: InstructionGroup, shape: icons.Fan) -> None:
    """One of :mod:`~ui.games.castelli.icons`' shapes, filled in the colour set before."""
    canvas.add(Mesh(vertices=shape, indices=list(range(len(shape) // 4)), mode="triangle_fan"))


def draw_card(canvas: InstructionGroup, cx: float, cy: float, size: float, ink: tuple[float, ...],
              ground: tuple[float, ...]) -> None:
    """A card-covered shield (worth nothing) or a card gift: two fanned cards, filled in ``ink`` and
    parted by a line of ``ground`` (an outlined rectangle was read as the figure 0)."""
    behind, front = icons.card(cx, cy, size)
    for corners in (behind, front):
        canvas.add(Color(*ink))
        add_fan(canvas, icons.corners_fan(corners))
        canvas.add(Color(*ground))
        canvas.add(Line(points=corners, close=True, width=1.1))


@dataclass(frozen=True)
class Shown:
    """What the board shows now; the canvas is rebuilt only when this changes."""

    revealed: Mapping[str, tuple[tuple[str, int | str], ...]]
    silver_on: Mapping[str, int]
    castles: Mapping[str, tuple[tuple[str, ...], ...]]
    settlements: Mapping[str, str]
    done: frozenset[str]
    live_spaces: frozenset[str] = frozenset()
    live_areas: frozenset[str] = frozenset()
    colours: Mapping[str, str] = field(default_factory=dict)  # player -> piece colour
    mine: int = 0


@dataclass
class _Cell:
    """One space's or area's instructions: what lies under its ring, the ring (kept: its colour and
    width change with what is live or flashing), and what lies over it."""

    under: InstructionGroup
    ring_colour: Color
    ring: Line
    over: InstructionGroup
    #: What ``under`` and ``over`` show (:meth:`CastelliBoardView._cell_key`), None: nothing yet.
    drawn: tuple[Any, ...] | None = None


class CastelliBoardView(StencilView):
    """The drawn board (:attr:`layout` set once by the board); ``on_space(name)`` and ``on_area(name)``
    are dispatched for the taps."""

    __events__ = ("on_space", "on_area")
    #: The least cell (px): a board that does not fit at it is drawn at it and pans (0: always fits).
    least_cell = NumericProperty(0.0)
    #: Whether the board does not fit whole at :attr:`least_cell` (its pan buttons are shown).
    crowded = BooleanProperty(False)
    #: What a press would change now ("left", "right", "up", "down", "in", "out"): those buttons are
    #: bright, the others dimmed (the board is at that edge, or at its least or largest cells).
    reach = ObjectProperty(frozenset())
    #: The room (px) the pan buttons take from the board while they are shown.
    buttons_room = NumericProperty(0.0)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.layout: Board | None = None
        self.rows = self.cols = (0, 0)
        self.at: dict[tuple[int, int], tuple[str, str]] = {}
        self.shown: Shown | None = None
        self.flashing: str | None = None
        self._drawn_for: tuple[Any, ...] | None = None
        self._cells: dict[str, _Cell] = {}
        #: The places lit up (a recorded move's, the areas an overlay speaks of: :meth:`light`), drawn
        #: over everything.
        self.lit: tuple[str, ...] = ()
        self._lit = InstructionGroup()
        #: The least size of a shield's figure here (:data:`SMALL_SHIELD_FIGURE` on a small map).
        self.least_figure = SHIELD_FIGURE
        #: The players' zoom (a cell size, None: the opening one) and scroll (:class:`Viewport`).
        self.zoomed: float | None = None
        self.scroll = (0.0, 0.0)
        #: Whether the frame pieces carry their figure ("$"); a small map shows their colour only.
        self.gift_figures = True
        self.bind(pos=lambda *_: self.redraw(), size=lambda *_: self.redraw())

    def set_layout(self, board: Board) -> None:
        """The board's layout: where each space and area lies (a game's board does not change)."""
        self.layout = board
        cells = [a.at for a in board.areas.values()] + [s.at for s in board.spaces.values()]
        self.rows = (min(r for r, _ in cells), max(r for r, _ in cells))
        self.cols = (min(c for _, c in cells), max(c for _, c in cells))
        self.at = {a.at: ("area", a.name) for a in board.areas.values()}
        self.at.update({s.at: ("space", s.name) for s in board.spaces.values()})
        self._drawn_for = None
        self.zoomed, self.scroll, self.crowded = None, (0.0, 0.0), False
        self.redraw()

    def on_space(self, name: str) -> None:
        pass

    def on_area(self, name: str) -> None:
        pass

    @property
    def board(self) -> Board:
        if self.layout is None:
            raise ValueError("the board view has no layout yet")
        return self.layout

    # -- geometry ---------------------------------------------------------------------------------
    def viewport(self) -> Viewport:
        """The cell size and scroll now (the players' zoom and pan kept within the board)."""
        across = self.cols[1] - self.cols[0] + 1 + 2 * MARGIN
        down = self.rows[1] - self.rows[0] + 1 + 2 * MARGIN
        return Viewport(float(self.width), float(self.height), across, down, float(self.least_cell),
                        MAX_CELL, self.zoomed, *self.scroll).clamped()

    def _set_view(self, view: Viewport) -> None:
        self.zoomed, self.scroll = view.zoomed, (view.scroll_x, view.scroll_y)
        self.redraw()

    @property
    def cell(self) -> float:
        return self.viewport().cell

    def origin(self) -> tuple[float, float]:
        """The top-left corner of the grid (without the margin): centred in the widget, or panned."""
        view = self.viewport()
        left, top = view.content_corner()
        # y + height, not top: inside a size event Kivy's ``top`` may still be the old one
        return self.x + left + MARGIN * view.cell, self.y + self.height - top - MARGIN * view.cell

    def pan(self, direction: str) -> None:
        """A pan button: ``left`` shows what lies further left (half the board's room at a time)."""
        self._set_view(self.viewport().panned(direction))

    def zoom(self, factor: float) -> None:
        """+ or −: cells ``factor`` times larger, never under the opening size."""
        self._set_view(self.viewport().zoom(factor))

    @property
    def frame_box(self) -> tuple[float, float, float, float]:
        """The widget's left, bottom, right and top: what is drawn outside it is clipped."""
        return self.x, self.y, self.x + self.width, self.y + self.height

    def in_view(self, name: str) -> bool:
        """Whether a space or an area lies wholly inside the widget (a finger can tap all of it)."""
        x, y, side = self.box((self.board.spaces.get(name) or self.board.areas[name]).at)
        slack = 0.5
        return bool(x >= self.x - slack and y >= self.y - slack and x + side <= self.x + self.width + slack
                    and y + side <= self.y + self.height + slack)

    def bring_into_view(self, name: str) -> None:
        """Pan the least that shows a space or an area whole (History's "show on the board")."""
        view = self.viewport()
        row, col = (self.board.spaces.get(name) or self.board.areas[name]).at
        cell = view.cell
        left = (col - self.cols[0] + MARGIN) * cell
        top = (row - self.rows[0] + MARGIN) * cell
        self._set_view(view.showing(left, top, left + cell, top + cell))

    def box(self, at: tuple[int, int]) -> tuple[float, float, float]:
        """(x, y, side) of the cell at ``[row, column]``, in the widget's parent coordinates."""
        cell = self.cell
        left, top = self.origin()
        return left + (at[1] - self.cols[0]) * cell, top - (at[0] - self.rows[0] + 1) * cell, cell

    def centre_of(self, name: str) -> tuple[float, float]:
        """A space's or an area's centre, in window coordinates (where a finger taps it)."""
        thing = self.board.spaces.get(name) or self.board.areas[name]
        x, y, side = self.box(thing.at)
        wx, wy = self.to_window(x + side / 2, y + side / 2)
        return float(wx), float(wy)

    def hit(self, x: float, y: float) -> tuple[str, str] | None:
        """("space" | "area", name) under the point (parent coordinates), or None."""
        cell = self.cell
        left, top = self.origin()
        col = math.floor((x - left) / cell) + self.cols[0]
        row = math.floor((top - y) / cell) + self.rows[0]
        return self.at.get((row, col))

    def _outline(self, name: str) -> list[float]:
        """The ring's points: an area's octagon, a space's square."""
        if name in self.board.areas:
            x, y, side = self.box(self.board.areas[name].at)
            inset, cut = side * 0.06, side * 0.26
            x0, y0, x1, y1 = x + inset, y + inset, x + side - inset, y + side - inset
            return [x0 + cut, y0, x1 - cut, y0, x1, y0 + cut, x1, y1 - cut, x1 - cut, y1, x0 + cut, y1,
                    x0, y1 - cut, x0, y0 + cut]
        x, y, side = self.box(self.board.spaces[name].at)
        inset = side * 0.04
        x0, y0, x1, y1 = x + inset, y + inset, x + side - inset, y + side - inset
        return [x0, y0, x1, y0, x1, y1, x0, y1]

    def on_touch_down(self, touch: MotionEvent) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        found = self.hit(*touch.pos)
        if found is None:
            return False
        kind, name = found
        self.dispatch("on_space" if kind == "space" else "on_area", name)
        return True

    def flash(self, name: str) -> None:
        """A refused tap: the space or area is ringed red for a moment."""
        self.flashing = name
        self.redraw()
        Clock.schedule_once(self._unflash, FLASH_SECONDS)

    def _unflash(self, _dt: float) -> None:
        self.flashing = None
        self.redraw()

    # -- drawing ------------------------------------------------------------------------------------
    def show(self, shown: Shown) -> None:
        self.shown = shown
        self.redraw()

    def redraw(self) -> None:
        """Draw what changed: each cell keeps its instructions; what lies under and over its ring is
        drawn again only when what it shows changed (a move changes a few cells of up to 64), its ring
        only changes colour. All of them are made again when the board moved or resized."""
        if self.shown is None or self.layout is None:
            return
        view = self.viewport()
        # the buttons are shown while the board would not fit whole without them (their room counted
        # back, so that showing them never hides them again)
        room = float(self.buttons_room) if self.crowded else 0.0
        self.crowded = Viewport(view.width + room, view.height, view.across, view.down, view.least,
                                view.largest).crowded
        reach = {d for d in ("left", "right", "up", "down") if view.can_pan(d)}
        reach |= {"in"} if view.zoom(ZOOM_STEP).cell > view.cell else set()
        reach |= {"out"} if view.zoom(1 / ZOOM_STEP).cell < view.cell else set()
        self.reach = frozenset(reach)
        geometry = (tuple(self.pos), tuple(self.size), view.cell, view.scroll_x, view.scroll_y)
        if geometry != self._drawn_for:
            self._drawn_for = geometry
            self._make_cells()
        shown = self.shown
        for name, cell in self._cells.items():
            key = self._cell_key(name, shown)
            if key != cell.drawn:
                cell.under.clear()
                cell.over.clear()
                if name in self.board.areas:
                    self._area(cell, name, shown)
                else:
                    self._space(cell.under, name, shown)
                cell.drawn = key
            self._set_ring(cell, name, shown)

    def _make_cells(self) -> None:
        """Each cell's instructions, in the order they are drawn (areas first: spaces' gifts lie over)."""
        self.canvas.clear()
        self._cells = {}
        for name in (*self.board.areas, *self.board.spaces):
            cell = _Cell(InstructionGroup(), Color(0, 0, 0, 0), Line(points=self._outline(name), close=True),
                         InstructionGroup())
            for instruction in (cell.under, cell.ring_colour, cell.ring, cell.over):
                self.canvas.add(instruction)
            self._cells[name] = cell
        self.canvas.add(self._lit)
        self._draw_lit()

    def prepare_figures(self) -> None:
        """Make the textures of every shield figure at this size now (six values, in the ink of each
        shield colour), not in the tap that first shows a tile drawn at this size."""
        size = max(self.least_figure, round(self.cell * 0.34))
        for ink in {tuple(text_on(piece_colour(colour))) for colour in tables.COLORS}:
            for value in tables.SHIELD_VALUES:
                glyph(str(value), size, ink)

    def light(self, *names: str) -> None:
        """Light up spaces or areas (where a recorded move took place, the areas evaluated), or none:
        a ring of two tones, dark under light, that reads on every area and shield colour and is not
        the amber of "tap here"."""
        self.lit = names
        self._draw_lit()

    def _draw_lit(self) -> None:
        self._lit.clear()
        for name in self.lit:
            if self.layout is None or name not in self._cells:
                continue
            points = self._outline(name)
            self._lit.add(Color(*BACKGROUND))
            self._lit.add(Line(points=points, close=True, width=5))
            self._lit.add(Color(*SHOWN))
            self._lit.add(Line(points=points, close=True, width=2.5))

    def _cell_key(self, name: str, shown: Shown) -> tuple[Any, ...]:
        """Everything a cell's drawing under and over its ring depends on."""
        if name in self.board.spaces:
            return (shown.revealed.get(name), shown.silver_on.get(name, 0))
        owners = tuple(stack[-1] for stack in shown.castles.get(name, ()))
        colours = tuple(shown.colours.get(p) for p in owners)
        return (name in shown.done, colours, shown.settlements.get(name),
                shown.mine if self.board.areas[name].kind == "mine" else None)

    def _set_ring(self, cell: _Cell, name: str, shown: Shown) -> None:
        """Red while a refused tap flashes, the accent while live (a target now); a face-down space
        that is not a target keeps a dimmed outline."""
        face_down = name in self.board.spaces and name not in shown.revealed
        live = name in shown.live_areas or (face_down and name in shown.live_spaces)
        if self.flashing == name:
            rgba, width = REFUSED, 3.0
        elif live:
            rgba, width = ACCENT, 2.5
        elif face_down:
            rgba, width = DIMMED, 1.0
        else:
            rgba, width = (0, 0, 0, 0), 1.0
        cell.ring_colour.rgba = rgba
        if cell.ring.width != width:
            cell.ring.width = width

    def _area(self, cell: _Cell, name: str, shown: Shown) -> None:
        spec = self.board.areas[name]
        x, y, side = self.box(spec.at)
        inset = side * 0.06
        y0 = y + inset
        fill = KIND_COLOURS[spec.kind]
        if name in shown.done and spec.kind != "plain":
            fill = (fill[0] * 0.7, fill[1] * 0.7, fill[2] * 0.7, 1.0)
        corners = self._outline(name)
        cell.under.add(Color(*fill))
        vertices: list[float] = []
        for index in range(0, len(corners), 2):
            vertices += [corners[index], corners[index + 1], 0, 0]
        cell.under.add(Mesh(vertices=vertices, indices=list(range(8)), mode="triangle_fan"))
        canvas = cell.over
        cx, cy = x + side / 2, y + side / 2
        if spec.kind in ("forest", "field"):  # told apart by their sign, not by colour alone
            sign = icons.SIGNS[spec.kind]
            canvas.add(Color(*tint(fill)))
            for dx in (-0.3, 0.3):
                for shape in sign(cx + dx * side, cy, side * 0.22):
                    add_fan(canvas, shape)
        size = max(20, round(side * 0.34))
        ink = tuple(text_on(fill))  # a light kind (the field) takes dark figures
        figure = {"forest": str(spec.amount), "field": str(spec.amount), "rock": str(spec.amount),
                  "market": str(spec.amount), "mine": str(shown.mine)}.get(spec.kind, "")
        castles = [stack[-1] for stack in shown.castles.get(name, ())]
        if spec.kind == "market":
            self._tents(canvas, cx, y + side - inset - side * 0.22, side, spec.amount)
            draw_text(canvas, figure, size, (cx, cy - side * 0.1), ink, fill, shown_in=self.frame_box)
        elif spec.kind == "mine":
            canvas.add(Color(*GIFT_COLOURS["silver"]))
            canvas.add(Line(circle=(cx, cy, side * 0.3), width=1.5))
            draw_text(canvas, figure, size, (cx, cy), ink, fill, shown_in=self.frame_box)
        elif figure:
            draw_text(canvas, figure, size, (cx, cy + (side * 0.14 if spec.kind == "rock" else 0)), ink, fill,
                      shown_in=self.frame_box)
        if spec.kind == "rock":
            self._castle_places(canvas, cx, y0 + side * 0.2, side, spec.spots, castles, shown)
        elif castles:
            self._castle_places(canvas, cx, y0 + side * 0.2, side, len(castles), castles, shown)
        settlement = shown.settlements.get(name)
        if settlement:
            self._settlement(canvas, cx, cy + (side * 0.12 if castles else 0), side, settlement)

    def _tents(self, canvas: InstructionGroup, cx: float, cy: float, side: float, count: int) -> None:
        width = side * 0.16
        canvas.add(Color(*TEXT))
        start = cx - (count - 1) * width * 0.65
        for index in range(count):
            left = start + index * width * 1.3 - width / 2
            canvas.add(Triangle(points=[left, cy - width / 2, left + width, cy - width / 2,
                                        left + width / 2, cy + width / 2]))

    def _castle_places(self, canvas: InstructionGroup, cx: float, cy: float, side: float, places: int,
                       owners: list[str], shown: Shown) -> None:
        square = side * 0.2
        start = cx - (places - 1) * square * 0.65
        by_colour = {player: colour for player, colour in shown.colours.items()}
        for index in range(places):
            left = start + index * square * 1.3 - square / 2
            if index < len(owners):
                canvas.add(Color(*piece_colour(by_colour.get(owners[index]))))
                canvas.add(Rectangle(pos=(left, cy - square / 2), size=(square, square)))
                canvas.add(Color(*TEXT))
                canvas.add(Line(rectangle=(left, cy - square / 2, square, square), width=1.2))
            else:
                canvas.add(Color(*TEXT))
                canvas.add(Line(rectangle=(left, cy - square / 2, square, square), width=1.2,
                                dash_length=3, dash_offset=2))

    def _settlement(self, canvas: InstructionGroup, cx: float, cy: float, side: float, kind: str) -> None:
        """A village: one house; a town: two houses side by side."""
        house = side * (0.2 if kind == "village" else 0.18)
        lefts = [cx - house / 2] if kind == "village" else [cx - house * 1.1, cx + house * 0.1]
        for left in lefts:
            canvas.add(Color(*TEXT))
            canvas.add(Rectangle(pos=(left, cy - house / 2), size=(house, house * 0.7)))
            canvas.add(Triangle(points=[left - house * 0.1, cy - house / 2 + house * 0.7,
                                        left + house * 1.1, cy - house / 2 + house * 0.7,
                                        left + house / 2, cy + house * 0.55]))

    def _space(self, canvas: InstructionGroup, name: str, shown: Shown) -> None:
        spec = self.board.spaces[name]
        x, y, side = self.box(spec.at)
        inset = side * 0.04
        x0, y0, x1, y1 = x + inset, y + inset, x + side - inset, y + side - inset
        cx, cy = x + side / 2, y + side / 2
        shields = shown.revealed.get(name)
        for side_index, target in enumerate(spec.sides):
            if target.startswith(FRAME_PREFIX):
                self._gift(canvas, target[len(FRAME_PREFIX):], side_index, x, y, side)
        if shields is None:
            canvas.add(Color(*FACE_DOWN))
            canvas.add(Rectangle(pos=(x0, y0), size=(x1 - x0, y1 - y0)))
            canvas.add(Color(*SURFACE))
            canvas.add(Line(points=[x0 + side * 0.2, y0 + side * 0.2, x1 - side * 0.2, y1 - side * 0.2],
                            width=1))
            canvas.add(Line(points=[x0 + side * 0.2, y1 - side * 0.2, x1 - side * 0.2, y0 + side * 0.2],
                            width=1))
            return
        # N, E, S, W: the triangle from each edge to the centre
        edges = [(x0, y1, x1, y1), (x1, y1, x1, y0), (x1, y0, x0, y0), (x0, y0, x0, y1)]
        size = max(self.least_figure, round(side * 0.34))
        for (colour, _), (ax, ay, bx, by) in zip(shields, edges, strict=True):
            canvas.add(Color(*piece_colour(colour)))
            canvas.add(Triangle(points=[ax, ay, bx, by, cx, cy]))
            canvas.add(Color(*SURFACE))
            canvas.add(Line(points=[ax, ay, cx, cy], width=1))
        silver = shown.silver_on.get(name, 0)
        for index in range(silver):
            canvas.add(Color(*GIFT_COLOURS["silver"]))
            # small enough to stay clear of the shields' figures around the middle (24 px each)
            r = side * 0.05
            ox = cx + (index - (silver - 1) / 2) * r * 2.8
            canvas.add(Line(circle=(ox, cy, r), width=1.5))
        # the figures last, each on its shield's colour and inside the tile (on a small tile a figure
        # is moved in from the edge, over the coins if need be: the value is what players read)
        for (colour, value), (ax, ay, bx, by) in zip(shields, edges, strict=True):
            fill = piece_colour(colour)
            tx = cx + ((ax + bx) / 2 - cx) * 0.66
            ty = cy + ((ay + by) / 2 - cy) * 0.66
            ink = tuple(text_on(fill))
            if isinstance(value, int):
                draw_text(canvas, str(value), size, (tx, ty), ink, fill, (x0, y0, x1, y1),
                          shown_in=self.frame_box)
            else:
                draw_card(canvas, tx, ty, side * CARD_SHIELD, ink, fill)

    def _gift(self, canvas: InstructionGroup, gift: str, side_index: int, x: float, y: float,
              side: float) -> None:
        """A frame piece in the margin beside a space's side: its gift's colour and figure."""
        depth = side * MARGIN * 0.85
        length = side * 0.6
        if side_index == 0:
            box = (x + (side - length) / 2, y + side + side * 0.04, length, depth)
        elif side_index == 2:
            box = (x + (side - length) / 2, y - side * 0.04 - depth, length, depth)
        elif side_index == 1:
            box = (x + side + side * 0.04, y + (side - length) / 2, depth, length)
        else:
            box = (x - side * 0.04 - depth, y + (side - length) / 2, depth, length)
        fill = GIFT_COLOURS[gift]
        canvas.add(Color(*fill))
        canvas.add(Rectangle(pos=box[:2], size=box[2:]))
        ink = tuple(text_on(fill))
        centre = (box[0] + box[2] / 2, box[1] + box[3] / 2)
        figure = GIFT_FIGURES.get(gift) if self.gift_figures else None
        if figure:
            draw_text(canvas, figure, max(14, round(min(box[2], box[3]) * 0.8)), centre, ink, fill,
                      shown_in=self.frame_box)
        elif gift == "card":
            draw_card(canvas, centre[0], centre[1], min(box[2], box[3]) * 0.9, ink, fill)
        elif self.gift_figures:
            # a sign as well as the colour (stone, silver and a neutral piece are three greys): the
            # resource's sign, or a cross for nothing, on a plate of the piece's colour as tall as
            # a sign needs (the piece itself is thinner than that on a small board)
            sign = max(GIFT_SIGN, min(box[2], box[3]))
            canvas.add(Color(*fill))
            canvas.add(Rectangle(pos=(centre[0] - sign / 2, centre[1] - sign / 2), size=(sign, sign)))
            canvas.add(Color(*ink))
            if gift in icons.SIGNS:
                for shape in icons.SIGNS[gift](centre[0], centre[1], sign * 0.85):
                    add_fan(canvas, shape)
            else:
                arm = sign * 0.3
                for dx in (-arm, arm):
                    canvas.add(Line(points=[centre[0] - dx, centre[1] - arm, centre[0] + dx, centre[1] + arm],
                                    width=1.5))


#: The figure on a frame piece (beside its colour): silver as a coin sign; wood, grain and stone
#: show their resource's sign (:data:`~ui.games.castelli.icons.SIGNS`), a neutral piece a cross, a
#: card its picture. The legend in the area detail names them in words.
GIFT_FIGURES: dict[str, str] = {"wood": "", "grain": "", "stone": "", "silver": "$", "neutral": ""}
#: A card-covered shield's cards, as a share of the tile's side (clear of the figures around them on
#: a tile of 48 px or more: tests/test_ui_castelli_cells.py).
CARD_SHIELD = 0.24
#: The least size (px) of a frame piece's sign.
GIFT_SIGN = 14
