"""The San Gimignano hex map: segments as three rhombi in guild colours, tokens, towers, what is lit.

The map draws a :class:`Scene` (what the board decided to show, read off the
engine) and reports taps: ``on_space(space)`` for a guild space,
``on_position(at)`` for an empty hexagon. It knows no rule. Zoom and pan
come from the board's buttons (:meth:`zoom`, :meth:`pan`, :meth:`fit_all`)
and, as a bonus, from gestures: one finger dragged pans, two fingers pinch.
A touch that moved is a gesture, never a tap.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Canvas, Color, Ellipse, Line, Mesh, Rectangle
from kivy.input.motionevent import MotionEvent
from kivy.properties import NumericProperty
from kivy.uix.stencilview import StencilView

from ui import theme
from ui.drawn_text import remember
from ui.games.san_gimignano.layout import (
    STACK_SHIFT,
    View,
    digit_box,
    first_edges,
    fit,
    panned,
    smallest_fitting,
    space_at,
    space_marks,
    tokens_apart,
    zoomed,
)

Colour = tuple[float, float, float, float]
Position = tuple[int, int]
Space = tuple[int, int, str]

#: A finger that moved farther than this (px) is dragging the map, not tapping it.
DRAG_SLOP = 12.0
#: One press of a zoom button.
ZOOM_STEP = 1.25
#: A token is at least 24 px across with initials of at least 12 px (docs/ui.md, marks on pieces).
TOKEN_RADIUS = 12.0
MARK_FONT = 13
#: A guild's digit is at least this tall (px): read across the table, it tells the guild without colour.
DIGIT_FONT = 16
#: The board's map opens showing the whole city (and Fit shows it again, − zooms out towards it) down
#: to this hexagon size: the smallest at which a space still holds a whole token beside its whole
#: digit (:func:`ui.games.san_gimignano.layout.smallest_fitting`). Only a city larger than the map
#: at this size opens cut, and pans; + makes the spaces larger targets.
SMALLEST_SIZE = math.ceil(smallest_fitting(TOKEN_RADIUS, digit_box(DIGIT_FONT)))


def target_size(size: float) -> float:
    """How wide a guild space is as a target at the hexagon size ``size``: the widest disc inside it."""
    return size * math.sqrt(3.0) / 2.0


def token_radius(size: float) -> float:
    """A token's radius at the hexagon size ``size`` (never under :data:`TOKEN_RADIUS`)."""
    return max(TOKEN_RADIUS, size * 0.18)


def digit_font(size: float) -> int:
    """A guild digit's font size at the hexagon size ``size`` (never under :data:`DIGIT_FONT`)."""
    return max(DIGIT_FONT, int(size * 0.22))


def tokens_side_by_side(size: float) -> bool:
    """Whether a space's two tokens lie either side of its digit at this size, inside the space (else
    they are drawn as one, the last laid, with a count)."""
    return tokens_apart(size, token_radius(size), digit_box(digit_font(size)))


@dataclass
class Scene:
    """Everything the map shows, decided by the board from the engine's state and targets."""

    segments: Mapping[Position, tuple[str, ...]] = field(default_factory=dict)
    tokens: Mapping[Space, tuple[str, ...]] = field(default_factory=dict)
    towers: Mapping[Space, str] = field(default_factory=dict)
    guild_colours: Mapping[str, Colour] = field(default_factory=dict)
    guild_tags: Mapping[str, str] = field(default_factory=dict)
    player_fill: Mapping[str, Colour] = field(default_factory=dict)
    initials: Mapping[str, str] = field(default_factory=dict)
    #: Spaces a tap would put a token on now (thin amber ring).
    token_spaces: frozenset[Space] = frozenset()
    #: Spaces of the groups someone may build on now (thick amber ring).
    group_spaces: frozenset[Space] = frozenset()
    #: While a build is being entered: the spaces to choose from (amber fill).
    build_spaces: frozenset[Space] = frozenset()
    #: Empty positions a segment could go to (faint outline), and those lit for the chosen type.
    open_positions: tuple[Position, ...] = ()
    lit_positions: frozenset[Position] = frozenset()
    #: The segment about to be placed, drawn half-transparent: (position, edges) or None.
    ghost: tuple[Position, tuple[str, ...]] | None = None
    #: Each laid segment's letter, drawn at its middle (the texts name spaces by it: "Guild 2 on B").
    letters: Mapping[Position, str] = field(default_factory=dict)
    #: A history entry's place, lit until the next tap: its spaces, or the segment it laid.
    shown_spaces: frozenset[Space] = frozenset()
    shown_positions: frozenset[Position] = frozenset()


class HexMap(StencilView):
    """The map; see the module's docstring."""

    #: The smallest hexagon size (circumradius, px) it opens at or zooms out to.
    smallest = NumericProperty(22.0)
    #: The largest it opens at (a small board is not blown up past this).
    largest = NumericProperty(120.0)

    def __init__(self, **kwargs: object) -> None:
        self.register_event_type("on_space")
        self.register_event_type("on_position")
        super().__init__(**kwargs)
        self.scene = Scene()
        #: The zoom and pan, relative to the widget's own corner; ``None`` until the first fit.
        self.view: View | None = None
        #: True once the players zoomed or panned: the map then keeps their view when it grows.
        self.user_view = False
        self._touches: dict[int, dict[str, Any]] = {}
        self._textures: dict[tuple[str, int, Colour], Any] = {}
        #: The drawing's layers (see :meth:`redraw`): the open positions' outlines, by position;
        #: each segment's group with the look it was drawn for; the segment about to be placed.
        self._open_layer, self._segment_layer, self._ghost_layer = layers = (
            Canvas(), Canvas(), Canvas())
        for layer in layers:
            self.canvas.add(layer)
        self._open: dict[Position, tuple[Color, Line]] = {}
        self._open_order: tuple[Position, ...] = ()
        self._segments: dict[Position, tuple[Any, Canvas]] = {}
        self._segment_order: list[Canvas] = []
        self._ghost_key: Any = None
        self.bind(size=lambda *_: self._resized(), pos=lambda *_: self.redraw())

    # -- events --------------------------------------------------------------------------------
    def on_space(self, space: Space) -> None:
        pass

    def on_position(self, at: Position) -> None:
        pass

    # -- the view ------------------------------------------------------------------------------
    def show(self, scene: Scene) -> None:
        """Draw ``scene`` (fitting the view to it unless the players chose their own)."""
        grew = set(scene.segments) != set(self.scene.segments)
        self.scene = scene
        if self.view is None or (grew and not self.user_view):
            self.view = self._fitted()
        self.redraw()

    def _fitted(self) -> View:
        return fit([*self.scene.segments, *self.scene.open_positions], self.width, self.height, margin=4.0,
                   largest=self.largest, smallest=self.smallest)

    def _resized(self) -> None:
        if not self.user_view:
            self.view = self._fitted()
        self.redraw()

    def fit_all(self) -> None:
        """Everything in view again (the players' zoom and pan forgotten)."""
        self.user_view = False
        self.view = self._fitted()
        self.redraw()

    def zoom(self, factor: float, about: tuple[float, float] | None = None) -> None:
        """Zoom by ``factor`` about a point (the map's middle by default; local pixels)."""
        if self.view is None:
            self.view = self._fitted()
        self.user_view = True
        centre = about if about is not None else (self.width / 2.0, self.height / 2.0)
        self.view = zoomed(self.view, factor, centre, smallest=self.smallest)
        self.redraw()

    def pan(self, dx: float, dy: float) -> None:
        """Move the drawing by ``dx``, ``dy`` pixels (a button moves it by a quarter of the map)."""
        if self.view is None:
            self.view = self._fitted()
        self.user_view = True
        self.view = panned(self.view, dx, dy)
        self.redraw()

    def bring_into_view(self, positions: list[Position]) -> None:
        """Pan so that the middle of ``positions`` lies in the middle of the map, when any of them is
        not wholly in view (a history entry shown on a board larger than the map)."""
        if self.view is None or not positions or self.width < 2:
            return
        centres = [self.view.centre(at) for at in positions]
        size = self.view.size
        if all(size <= x <= self.width - size and size <= y <= self.height - size for x, y in centres):
            return
        mx = sum(x for x, _ in centres) / len(centres)
        my = sum(y for _, y in centres) / len(centres)
        self.view = panned(self.view, self.width / 2.0 - mx, self.height / 2.0 - my)
        self.redraw()

    def _local(self, x: float, y: float) -> tuple[float, float]:
        return x - self.x, y - self.y

    def point_of(self, space: Space) -> tuple[float, float]:
        """The window point in the middle of ``space`` (where a finger taps it)."""
        assert self.view is not None
        at = (space[0], space[1])
        edge = first_edges(self.scene.segments[at])[space[2]]
        x, y = self.view.space_centre(at, edge)
        return window_point(self.to_window(self.x + x, self.y + y))

    def point_of_position(self, at: Position) -> tuple[float, float]:
        assert self.view is not None
        x, y = self.view.centre(at)
        return window_point(self.to_window(self.x + x, self.y + y))

    def shows(self, point: tuple[float, float]) -> bool:
        """Whether a window point lies inside the map (not hidden by the clipping)."""
        return bool(self.collide_point(*self.to_widget(*point)))

    # -- touches -------------------------------------------------------------------------------
    def on_touch_down(self, touch: MotionEvent) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        touch.grab(self)
        self._touches[touch.uid] = {"start": touch.pos, "last": touch.pos, "moved": False}
        return True

    def on_touch_move(self, touch: MotionEvent) -> bool:
        if touch.grab_current is not self or touch.uid not in self._touches:
            return False
        record = self._touches[touch.uid]
        sx, sy = record["start"]
        if math.hypot(touch.x - sx, touch.y - sy) > DRAG_SLOP:
            record["moved"] = True
        if len(self._touches) >= 2:
            self._pinch(touch)
        elif record["moved"]:
            lx, ly = record["last"]
            self.pan(touch.x - lx, touch.y - ly)
        record["last"] = touch.pos
        return True

    def _pinch(self, touch: MotionEvent) -> None:
        """Two fingers: the distance between them scales the map about their middle."""
        other = next(r for uid, r in self._touches.items() if uid != touch.uid)
        before = math.dist(self._touches[touch.uid]["last"], other["last"])
        after = math.dist(touch.pos, other["last"])
        self._touches[touch.uid]["moved"] = other["moved"] = True
        if before > 1.0:
            mx, my = ((touch.x + other["last"][0]) / 2.0, (touch.y + other["last"][1]) / 2.0)
            self.zoom(after / before, self._local(mx, my))

    def on_touch_up(self, touch: MotionEvent) -> bool:
        if touch.grab_current is not self:
            return False
        touch.ungrab(self)
        record = self._touches.pop(touch.uid, None)
        if record is None or record["moved"] or self._touches:
            return True
        self.tap_at(*self._local(*touch.pos))
        return True

    def tap_at(self, x: float, y: float) -> None:
        """A tap at local pixels: a space's, else an empty position's event."""
        if self.view is None:
            return
        found = space_at(self.view, dict(self.scene.segments), (x, y))
        if found is not None:
            self.dispatch("on_space", found)
            return
        at = self.view.position_at((x, y))
        if at not in self.scene.segments:
            self.dispatch("on_position", at)

    # -- drawing -------------------------------------------------------------------------------
    def redraw(self) -> None:
        """Bring the drawing up to date with the scene and the view, changing only what changed.

        The canvas keeps three layers: the open positions' outlines (a colour and
        a line each, moved and recoloured in place), the segments (one group of
        instructions each, built again only when its look changed: a move changes
        one or two) and the segment about to be placed. A whole map's instructions
        are what costs on the Pi, not changing a few of them.
        """
        if self.view is None or self.width < 2:
            self._clear()
            return
        view = View(self.view.size, (self.view.origin[0] + self.x, self.view.origin[1] + self.y))
        self._draw_open(view)
        self._draw_segments(view)
        self._draw_ghost(view)

    def _clear(self) -> None:
        for layer in (self._open_layer, self._segment_layer, self._ghost_layer):
            layer.clear()
        self._open.clear()
        self._open_order = ()
        self._segments.clear()
        self._segment_order = []
        self._ghost_key = None

    def _draw_open(self, view: View) -> None:
        """The empty positions a segment could go to: dashed, or lit for the chosen kind."""
        scene = self.scene
        wanted = tuple(scene.open_positions)
        for at in [at for at in self._open if at not in wanted]:
            del self._open[at]
        for at in wanted:
            if at not in self._open:
                self._open[at] = (Color(noadd=True), Line(close=True, noadd=True))
        if wanted != self._open_order:
            # drawn in the scene's order, as a neighbour's outline lies over the shared edge
            self._open_layer.clear()
            for at in wanted:
                colour, line = self._open[at]
                self._open_layer.add(colour)
                self._open_layer.add(line)
            self._open_order = wanted
        for at in wanted:
            lit = at in scene.lit_positions
            colour, line = self._open[at]
            colour.rgba = theme.ACCENT if lit else theme.DIMMED
            line.points = _flat(view.hexagon(at))
            line.width = 2.5 if lit else 1.0
            line.dash_length = 0 if lit else 6
            line.dash_offset = 0 if lit else 4

    def _draw_segments(self, view: View) -> None:
        """Each segment's group of instructions, kept while its look (and the view) stay the same."""
        scene = self.scene
        common = (view, tuple(self.size), tuple(sorted(scene.guild_colours.items())),
                  tuple(sorted(scene.player_fill.items())), tuple(sorted(scene.guild_tags.items())),
                  tuple(sorted(scene.initials.items())))
        letters = scene.letters
        kept: dict[Position, tuple[Any, Canvas]] = {}
        for at, edges in scene.segments.items():
            key = (common, edges, letters.get(at, ""), at in scene.shown_positions, self._look(at, edges))
            old = self._segments.get(at)
            if old is not None and old[0] == key:
                kept[at] = old
                continue
            group = Canvas()
            with group:
                self._segment(view, at, edges, 1.0)
                for guild, edge in first_edges(edges).items():
                    self._space(view, (at[0], at[1], guild), edge)
                if at in scene.shown_positions:
                    _ring(view.hexagon(at), 3.0)
                self._letter(view, at, letters.get(at, ""))
            kept[at] = (key, group)
        order = [group for _, group in kept.values()]
        shown = self._segment_order
        if len(order) == len(shown) and list(kept) == list(self._segments):
            for index, (before, after) in enumerate(zip(shown, order, strict=True)):
                if before is not after:
                    self._segment_layer.insert(index, after)
                    self._segment_layer.remove(before)
        else:
            self._segment_layer.clear()
            for group in order:
                self._segment_layer.add(group)
        self._segments = kept
        self._segment_order = order

    def _draw_ghost(self, view: View) -> None:
        """The segment about to be placed, half-transparent (drawn again when it or the view changed)."""
        ghost = self.scene.ghost
        key = (view, ghost, tuple(sorted(self.scene.guild_colours.items())))
        if key == self._ghost_key:
            return
        self._ghost_key = key
        self._ghost_layer.clear()
        if ghost is not None:
            with self._ghost_layer:
                self._segment(view, ghost[0], ghost[1], 0.7)

    def _look(self, at: Position, edges: tuple[str, ...]) -> tuple[Any, ...]:
        """What decides how a segment's spaces look: tokens, tower, and how each is lit."""
        scene = self.scene
        found = []
        for guild in first_edges(edges):
            space = (at[0], at[1], guild)
            found.append((scene.tokens.get(space, ()), scene.towers.get(space), space in scene.build_spaces,
                          space in scene.group_spaces, space in scene.token_spaces,
                          space in scene.shown_spaces))
        return tuple(found)

    def _segment(self, view: View, at: Position, edges: tuple[str, ...], alpha: float) -> None:
        for guild, edge in first_edges(edges).items():
            colour = self.scene.guild_colours.get(guild, theme.NO_COLOUR)
            Color(colour[0], colour[1], colour[2], alpha)
            corners = view.rhombus(at, edge)
            Mesh(vertices=[c for x, y in corners for c in (x, y, 0, 0)], indices=[0, 1, 2, 3],
                 mode="triangle_fan")
            Color(*theme.BACKGROUND)
            Line(points=_flat(corners), close=True, width=1.2)
        Color(*theme.BACKGROUND)
        Line(points=_flat(view.hexagon(at)), close=True, width=2.0)

    def _space(self, view: View, space: Space, edge: int) -> None:
        """A guild space's marks: its guild's tag, its rings, its tokens or tower."""
        scene = self.scene
        at = (space[0], space[1])
        corners = view.rhombus(at, edge)
        inset = _shrunk(corners, 0.86)
        size = view.size
        # what is lit is ringed, never tinted: a tint turned the red guild orange and lavender beige
        if space in scene.build_spaces:
            _ring(inset, 3.0)
            _ring(_shrunk(corners, 0.62), 2.0)
        if space in scene.shown_spaces:
            _ring(inset, 4.0)
            _ring(_shrunk(corners, 0.55), 2.0)
        elif space in scene.group_spaces:
            _ring(inset, 3.0)
        elif space in scene.token_spaces:
            _ring(_shrunk(corners, 0.8), 1.2)
        cx, cy = view.space_centre(at, edge)
        tower = scene.towers.get(space)
        if tower is not None:
            half = max(12.0, size * 0.26)
            if self._wholly_shown(cx, cy, half + 3, half * 1.1 + 3):
                self._tower(cx, cy, size, tower)
            return
        owners = scene.tokens.get(space, ())
        font = digit_font(size)
        tag = scene.guild_tags.get(space[2], "")
        ink = theme.text_on(self._under(space))  # a light guild takes dark digits
        texture = self._texture(tag or "0", font, ink)
        box = (max(texture.size[0] / 2.0, digit_box(font)[0]), max(texture.size[1] / 2.0, digit_box(font)[1]))
        (dx, dy), spots = space_marks(view, at, edge, len(owners), token_radius(size), box)
        if tag and self._wholly_shown(dx, dy, texture.size[0] / 2.0, texture.size[1] / 2.0):
            # on a plate of its guild's colour: a lit space's rings pass under the digit, never
            # through it (a white "1" on the amber ring read 1.2:1)
            Color(*self._under(space))
            plate = (texture.size[0] * 0.8, texture.size[1] * 0.7)
            Ellipse(pos=(dx - plate[0] / 2.0, dy - plate[1] / 2.0), size=plate)
            self._text(tag, font, ink, dx, dy)
        if len(owners) > len(spots):
            # too small to lie apart: a stack, the last one laid on top, the first peeking out
            # towards the digit (in its player's colour, ringed as a token is)
            (x, y), gap = spots[0], math.dist(spots[0], (dx, dy)) or 1.0
            self._token(x + (dx - x) * STACK_SHIFT / gap, y + (dy - y) * STACK_SHIFT / gap, size,
                        owners[-2], initials=False)
            self._token(x, y, size, owners[-1])
            return
        for owner, (x, y) in zip(owners, spots, strict=True):
            self._token(x, y, size, owner)

    def _letter(self, view: View, at: Position, letter: str) -> None:
        """The segment's letter on a dark disc at its middle, where its three guilds meet."""
        if not letter:
            return
        texture = self._texture(letter, max(MARK_FONT, int(view.size * 0.2)), theme.TEXT)
        cx, cy = view.centre(at)
        across = max(texture.size[0], texture.size[1]) + 4
        if not self._wholly_shown(cx, cy, across / 2.0, across / 2.0):
            return
        Color(*theme.BACKGROUND)
        Ellipse(pos=(cx - across / 2.0, cy - across / 2.0), size=(across, across))
        self._text(letter, max(MARK_FONT, int(view.size * 0.2)), theme.TEXT, cx, cy)

    def _under(self, space: Space) -> Colour:
        """The colour a space's digit lies on: its guild's, lit or not (what is lit is only ringed)."""
        return self.scene.guild_colours.get(space[2], theme.NO_COLOUR)

    def _wholly_shown(self, x: float, y: float, half_width: float, half_height: float) -> bool:
        """Whether a mark centred at ``x``, ``y`` lies wholly inside the map: one cut by its edge (or
        hidden beyond it, the map drawing the whole board) is left out, never a token without its
        initials nor half a digit."""
        return bool(self.x <= x - half_width and x + half_width <= self.right
                    and self.y <= y - half_height and y + half_height <= self.top)

    def _token(self, x: float, y: float, size: float, owner: str, initials: bool = True) -> None:
        radius = token_radius(size)
        if not self._wholly_shown(x, y, radius + 2, radius + 2):
            return
        fill = self.scene.player_fill.get(owner, theme.NO_COLOUR)
        Color(*theme.BACKGROUND)
        Ellipse(pos=(x - radius - 2, y - radius - 2), size=(2 * radius + 4, 2 * radius + 4))
        Color(*fill)
        Ellipse(pos=(x - radius, y - radius), size=(2 * radius, 2 * radius))
        Color(*theme.MARKER_OUTLINE)
        Line(circle=(x, y, radius), width=1.0)
        if initials:
            self._text(self.scene.initials.get(owner, "?"), max(MARK_FONT, int(radius * 0.95)),
                       theme.text_on(fill), x, y)

    def _tower(self, x: float, y: float, size: float, owner: str) -> None:
        """A tower: a block with three merlons, in its builder's colour with their initials."""
        half = max(12.0, size * 0.26)
        fill = self.scene.player_fill.get(owner, theme.NO_COLOUR)
        body = (x - half, y - half, 2 * half, 1.6 * half)
        merlon = half * 0.5
        Color(*theme.BACKGROUND)
        Rectangle(pos=(body[0] - 3, body[1] - 3), size=(body[2] + 6, body[3] + merlon + 6))
        Color(*fill)
        Rectangle(pos=(body[0], body[1]), size=(body[2], body[3]))
        for k in (0, 2, 4):
            Rectangle(pos=(body[0] + k * body[2] / 5.0, body[1] + body[3]), size=(body[2] / 5.0, merlon))
        Color(*theme.TEXT)
        Line(rectangle=(body[0], body[1], body[2], body[3]), width=1.5)
        self._text(self.scene.initials.get(owner, "?"), max(MARK_FONT, int(half * 0.85)), theme.text_on(fill),
                   x, body[1] + body[3] / 2.0)

    def _texture(self, words: str, font_size: int, colour: Colour) -> Any:
        key = (words, font_size, tuple(colour))
        texture = self._textures.get(key)  # type: ignore[arg-type]
        if texture is None:
            label = CoreLabel(text=words, font_size=font_size, bold=True, color=colour)
            label.refresh()
            texture = label.texture
            remember(texture, words, font_size, colour)  # for the layout check: no widget holds these words
            self._textures[key] = texture  # type: ignore[index]
        return texture

    def _text(self, words: str, font_size: int, colour: Colour, x: float, y: float) -> None:
        texture = self._texture(words, font_size, colour)
        w, h = texture.size
        Color(1, 1, 1, 1)
        # on whole pixels: a texture drawn at half a pixel is smoothed into grey edges (a small
        # segment letter read at 2:1)
        Rectangle(texture=texture, pos=(round(x - w / 2.0), round(y - h / 2.0)), size=(w, h))


def _ring(points: list[tuple[float, float]], width: float) -> None:
    """A two-tone ring along ``points``: the dark tone against the colour under it, the light one
    against the background (:data:`ui.theme.RING_DARK`, :data:`ui.theme.RING_LIGHT`)."""
    Color(*theme.RING_DARK)
    Line(points=_flat(points), close=True, width=width + 2.0)
    Color(*theme.RING_LIGHT)
    Line(points=_flat(points), close=True, width=width)


def _flat(points: list[tuple[float, float]]) -> list[float]:
    return [c for point in points for c in point]


def _shrunk(corners: list[tuple[float, float]], factor: float) -> list[tuple[float, float]]:
    mx = sum(x for x, _ in corners) / len(corners)
    my = sum(y for _, y in corners) / len(corners)
    return [(mx + (x - mx) * factor, my + (y - my) * factor) for x, y in corners]


def window_point(point: Any) -> tuple[float, float]:
    """A point Kivy's ``to_window`` gave (untyped: Kivy has no stubs) as the floats it holds."""
    x, y = point
    return float(x), float(y)
