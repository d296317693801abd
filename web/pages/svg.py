"""SVG drawn for a page: elements with presentation attributes (``fill=``, ``stroke=``), never a
``style`` attribute (the pages' Content-Security-Policy, ``default-src 'self'``, would drop it),
and the palette the touchscreen draws in.

Every text and attribute value is escaped, so a player's name drawn on a map is text, never markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from markupsafe import Markup, escape

# The pieces' colours by the names records and profiles use (PIECE_HEX) and a player's without one
# (NO_COLOUR): the core's one table, which the touchscreen draws with too.
from companion.games.colours import NO_COLOUR, PIECE_HEX

#: The page's background, its panels, its text (``ui/theme.py``'s BACKGROUND, SURFACE, TEXT).
BACKGROUND = "#12161c"
SURFACE = "#232b36"
TEXT = "#f2f4f7"
#: An outline round every piece, so a black one shows on the dark ground and a white one on a light area.
OUTLINE = "#c3cad4"

Point = tuple[float, float]


def piece_hex(colour: str | None) -> str:
    """A piece colour's hex code; :data:`NO_COLOUR` for none or an unknown one."""
    return PIECE_HEX.get(colour or "", NO_COLOUR)


def _luminance(hex_code: str) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    code = hex_code.lstrip("#")
    r, g, b = (channel(int(code[i:i + 2], 16)) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first: str, second: str) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    high, low = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def text_on(hex_code: str) -> str:
    """Dark or light text, whichever reads better on ``hex_code`` (as the touchscreen chooses)."""
    return max((BACKGROUND, TEXT), key=lambda ink: contrast(ink, hex_code))


def element(tag: str, text: str | None = None, /, **attributes: object) -> Markup:
    """``<tag a="v" ...>text</tag>`` (``stroke_width`` is written ``stroke-width``), escaped."""
    written = "".join(f' {name.rstrip("_").replace("_", "-")}="{escape(str(value))}"'
                      for name, value in attributes.items() if value is not None)
    if text is None:
        return Markup(f"<{tag}{written}/>")
    return Markup(f"<{tag}{written}>{escape(text)}</{tag}>")


def points(corners: Iterable[Point]) -> str:
    """An SVG ``points`` list."""
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


def drawing(width: float, height: float, parts: Sequence[Markup], label: str, *,
            natural: bool = False) -> Markup:
    """A whole ``<svg>`` with its words for a screen reader, scaled to the page's width; ``natural``:
    one unit a pixel at least (wider than the page, it scrolls sideways: a large map's initials
    would be too small to read if it were shrunk to a phone's width)."""
    size = f' width="{width:.0f}" height="{height:.0f}"' if natural else ""
    return Markup(f'<svg class="board{" natural" if natural else ""}" viewBox="0 0 {width:.0f} {height:.0f}"'
                  f'{size} role="img" aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">'
                  + "".join(parts) + "</svg>")


def badge(centre: Point, radius: float, colour: str | None, tag: str, *, square: bool = False) -> Markup:
    """A player's piece on a drawing: their colour with their initials on it (a circle, or a square
    for a tower or a castle)."""
    fill = piece_hex(colour)
    x, y = centre
    shape = (element("rect", x=f"{x - radius:.1f}", y=f"{y - radius:.1f}", width=f"{2 * radius:.1f}",
                     height=f"{2 * radius:.1f}", rx="2", fill=fill, stroke=OUTLINE, stroke_width="1")
             if square else
             element("circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r=f"{radius:.1f}", fill=fill, stroke=OUTLINE,
                     stroke_width="1"))
    size = radius * (0.95 if len(tag) <= 2 else 0.75)
    words = element("text", tag, x=f"{x:.1f}", y=f"{y + size * 0.36:.1f}", fill=text_on(fill),
                    font_size=f"{size:.1f}", font_weight="bold", text_anchor="middle")
    return shape + words
