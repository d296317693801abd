"""Where the drawn Castelli board lies in its widget: the cell size, and how far it is panned.

A board the editor can make is up to :data:`~ui.games.castelli.board_model.MAX_ROWS` ×
:data:`~ui.games.castelli.board_model.MAX_COLUMNS` cells; fitted whole into the room beside the
players' column, a large one gets cells under a finger's 48 px (an 8 × 8 board about 40 px, a
Championship half of 8 × 4 about 42 px, 10 × 10 about 32 px). So the board never draws a cell
smaller than its ``least`` size: what does not fit at that size is reached by panning, with
buttons (no drag is ever needed), and + makes the cells larger still. Pure arithmetic, no Kivy:
the drawing (:mod:`ui.games.castelli.drawing`) asks it where each cell is.

The content is the grid with its margin for the frame pieces (``across`` × ``down`` cells). A
content narrower (lower) than the widget is centred across (down) it; a larger one lies from
``scroll`` px in, ``scroll`` kept between 0 (its left or top edge at the widget's) and its far
edge at the widget's.
"""

from __future__ import annotations

from dataclasses import dataclass

#: One press of + (or −).
ZOOM_STEP = 1.25


@dataclass(frozen=True)
class Viewport:
    """The widget's room, the content's extent in cells and the cell size limits; the zoom and scroll."""

    width: float
    height: float
    across: float
    down: float
    #: The least cell (px) it is drawn at (0: the whole board always fits, as on the small maps).
    least: float
    #: The largest cell it opens at (a small board is not blown up beyond it).
    largest: float
    #: The cell the players zoomed to with +, or None: the opening size.
    zoomed: float | None = None
    scroll_x: float = 0.0
    scroll_y: float = 0.0

    @property
    def fitted(self) -> float:
        """The cell at which the whole content fits the widget."""
        return max(1.0, min(self.width / self.across, self.height / self.down, self.largest))

    @property
    def opening(self) -> float:
        """The cell it opens at: the whole board, unless its cells would be under ``least``."""
        return max(self.fitted, self.least)

    @property
    def cell(self) -> float:
        return self.opening if self.zoomed is None else max(self.zoomed, self.opening)

    @property
    def crowded(self) -> bool:
        """Whether the whole board does not fit at ``least``: it pans (and its buttons are needed)."""
        return self.fitted < self.least

    def extent(self) -> tuple[float, float]:
        """The content's width and height in px."""
        return self.across * self.cell, self.down * self.cell

    def room(self) -> tuple[float, float]:
        """How far it may scroll across and down (0 where it fits)."""
        w, h = self.extent()
        return max(0.0, w - self.width), max(0.0, h - self.height)

    def clamped(self) -> Viewport:
        far_x, far_y = self.room()
        return Viewport(self.width, self.height, self.across, self.down, self.least, self.largest,
                        self.zoomed, min(max(self.scroll_x, 0.0), far_x), min(max(self.scroll_y, 0.0), far_y))

    def content_corner(self) -> tuple[float, float]:
        """The content's left edge and top edge, from the widget's left and its top (down positive)."""
        w, h = self.extent()
        left = (self.width - w) / 2 if w <= self.width else -self.scroll_x
        top = (self.height - h) / 2 if h <= self.height else -self.scroll_y
        return left, top

    def step(self) -> tuple[float, float]:
        """One pan button's move: half the widget, never more than the widget less a cell, so that
        between two presses the views overlap by a whole cell and every cell can be seen whole."""
        cell = self.cell
        return (max(1.0, min(self.width / 2, self.width - cell)),
                max(1.0, min(self.height / 2, self.height - cell)))

    def panned(self, direction: str) -> Viewport:
        """The view after a pan button: ``left`` shows what lies further left, and so on."""
        sx, sy = self.step()
        dx, dy = {"left": (-sx, 0.0), "right": (sx, 0.0), "up": (0.0, -sy), "down": (0.0, sy)}[direction]
        return Viewport(self.width, self.height, self.across, self.down, self.least, self.largest,
                        self.zoomed, self.scroll_x + dx, self.scroll_y + dy).clamped()

    def can_pan(self, direction: str) -> bool:
        return self.panned(direction) != self.clamped()

    def zoom(self, factor: float) -> Viewport:
        """Cells ``factor`` times larger (never under the opening size, nor over twice ``largest``,
        nor over half the widget: a press of a pan button moves half the widget and a cell is still
        seen whole between two presses), about the widget's middle."""
        before = self.clamped()
        ceiling = max(min(self.largest * 2, self.width / 2, self.height / 2), self.opening)
        cell = min(max(before.cell * factor, self.opening), ceiling)
        ratio = cell / before.cell
        mid_x = before.scroll_x + self.width / 2
        mid_y = before.scroll_y + self.height / 2
        return Viewport(self.width, self.height, self.across, self.down, self.least, self.largest,
                        None if cell <= self.opening else cell,
                        mid_x * ratio - self.width / 2, mid_y * ratio - self.height / 2).clamped()

    def showing(self, left: float, top: float, right: float, bottom: float) -> Viewport:
        """The least scroll that shows the content's box (px from its left and top edge) whole."""
        sx, sy = self.scroll_x, self.scroll_y
        if right - sx > self.width:
            sx = right - self.width
        if left < sx:
            sx = left
        if bottom - sy > self.height:
            sy = bottom - self.height
        if top < sy:
            sy = top
        return Viewport(self.width, self.height, self.across, self.down, self.least, self.largest,
                        self.zoomed, sx, sy).clamped()
