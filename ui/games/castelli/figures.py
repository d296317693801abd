"""A figure drawn on the Castelli board: its texture made once, and a plate under its letters.

Kept apart from :mod:`ui.games.castelli.drawing` (which draws the cells) so that the tile view and the
tests use the same textures and plates.
"""

from __future__ import annotations

from functools import cache

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, InstructionGroup, Rectangle
from kivy.graphics.texture import Texture

from ui.drawn_text import remember
from ui.theme import TEXT


@cache
def glyph(text: str, size: int, ink: tuple[float, ...] = tuple(TEXT), bold: bool = True) -> Texture:
    """A text's texture, made once per (text, size, colour): the board draws many of the same figures."""
    label = CoreLabel(text=text, font_size=size, bold=bold, color=ink)
    label.refresh()
    texture: Texture = label.texture
    remember(texture, text, size, ink)  # for the layout check: no widget holds these words
    return texture


@cache
def ink_box(texture: Texture) -> tuple[int, int, int, int]:
    """Where a text's letters are in its texture (left, bottom, right, top in px, from the texture's
    lower left): the texture has room around them."""
    w, h = texture.size
    alpha = bytes(texture.pixels)[3::4]
    rows = [y for y in range(h) if any(alpha[y * w:(y + 1) * w])]
    columns = [x for x in range(w) if any(alpha[x::w])]
    if not rows or not columns:
        return 0, 0, w, h
    # the pixels run from the texture's top row down (Kivy flips them when drawn)
    return columns[0], h - 1 - rows[-1], columns[-1] + 1, h - rows[0]


#: Room (px) a plate leaves around a figure's letters.
PLATE_MARGIN = 1


def draw_text(canvas: InstructionGroup, text: str, size: int, centre: tuple[float, float],
              ink: tuple[float, ...] = tuple(TEXT), plate: tuple[float, ...] | None = None,
              within: tuple[float, float, float, float] | None = None,
              shown_in: tuple[float, float, float, float] | None = None) -> None:
    """A text centred at ``centre``; with ``plate``, on a rectangle of that colour just larger than its
    letters: a figure reaching over its shield's or frame piece's edge (a 24 px "1" on a small tile's
    triangle, a "$" on a thin frame piece) still stands on its own colour, never on a neighbour's.
    ``within`` (left, bottom, right, top): the letters and their plate are moved inside it (a tile's
    figure never reaches over the tile's edge onto the frame piece beside it). ``shown_in`` (left,
    bottom, right, top): the widget that clips the drawing; a figure not wholly inside it is not drawn
    (half a figure at a panned board's edge reads as another figure, and nothing is under its cut
    half)."""
    texture = glyph(text, size, tuple(ink))
    w, h = texture.size
    left, bottom, right, top = ink_box(texture)
    x, y = centre[0] - w / 2, centre[1] - h / 2
    if within is not None:
        m = PLATE_MARGIN
        x += max(0.0, within[0] - (x + left - m)) - max(0.0, (x + right + m) - within[2])
        y += max(0.0, within[1] - (y + bottom - m)) - max(0.0, (y + top + m) - within[3])
        centre = (x + w / 2, y + h / 2)
    if shown_in is not None and not (shown_in[0] <= x and shown_in[1] <= y and x + w <= shown_in[2]
                                     and y + h <= shown_in[3]):
        return
    if plate is not None:
        canvas.add(Color(*plate))
        canvas.add(Rectangle(pos=(x + left - PLATE_MARGIN, y + bottom - PLATE_MARGIN),
                             size=(right - left + 2 * PLATE_MARGIN, top - bottom + 2 * PLATE_MARGIN)))
    canvas.add(Color(1, 1, 1, 1))
    # on whole pixels: a texture at half a pixel is smoothed into grey edges (a "1" read 4.2:1)
    where = (round(centre[0] - w / 2), round(centre[1] - h / 2))
    canvas.add(Rectangle(texture=texture, size=(w, h), pos=where))
