"""Drawing one OLED page: lines of text in the bundled bitmap fonts, into a 1-bit image.

A page is data (:class:`Page`: its lines, which are big or inverted), so the
screen can tell whether anything changed before it draws, and tests can
compare what a page says apart from how it looks. Drawing pastes each character's
cell (drawn once per character and kept, the fonts being monospaced) into a
128×64 1-bit image: well under the 2 ms budget (see ``benchmarks/oled.py``).

The fonts are X11's public-domain misc-fixed bitmaps (``hardware/fonts``):
6×10 for text (21 characters a line, six lines), 9×18 bold for the one
figure that matters. Bitmap glyphs are copied pixel for pixel, so frames do
not change with FreeType versions, and they have Hungarian's ő and ű.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from companion.i18n.figures import held
from companion.service.names import escaped

if TYPE_CHECKING:
    from PIL import Image, ImageFont

FONTS = Path(__file__).resolve().parent / "fonts"
WIDTH, HEIGHT = 128, 64
SMALL_FONT, SMALL_SIZE = "6x10.pcf.gz", 10
BIG_FONT, BIG_SIZE = "9x18B.pcf.gz", 18
#: Characters of the small font on one line.
COLUMNS = WIDTH // 6
LINE_HEIGHT = {False: SMALL_SIZE + 1, True: BIG_SIZE}


@dataclass(frozen=True)
class Line:
    """One line of a page: its text, drawn big (9×18) or small (6×10), inverted (white box) or not."""

    text: str
    big: bool = False
    inverted: bool = False

    def __post_init__(self) -> None:
        # No control or bidi character of a name is drawn: it is written \uXXXX, like on a terminal.
        object.__setattr__(self, "text", escaped(self.text))


@dataclass(frozen=True)
class Page:
    """What one OLED frame says, top to bottom (lines that do not fit are cut at the bottom edge)."""

    lines: tuple[Line, ...]

    @classmethod
    def of(cls, *lines: Line | str) -> Page:
        return cls(tuple(line if isinstance(line, Line) else Line(line) for line in lines))

    def text(self) -> str:
        """The page's words, one line each (for tests and logs)."""
        return "\n".join(line.text for line in self.lines)


@cache
def font(big: bool) -> ImageFont.FreeTypeFont:
    """The bundled bitmap font, loaded once."""
    from PIL import ImageFont  # Pillow comes with luma.oled: loaded when a frame is drawn

    name, size = (BIG_FONT, BIG_SIZE) if big else (SMALL_FONT, SMALL_SIZE)
    return ImageFont.truetype(str(FONTS / name), size)


@cache
def glyph(character: str, big: bool) -> Image.Image:
    """One character's cell in the bundled font, drawn once and kept (the fonts are monospaced).

    Pasting kept cells is several times cheaper than laying text out again
    for every frame, and draws the same pixels.
    """
    from PIL import Image, ImageDraw  # Pillow comes with luma.oled: loaded when a frame is drawn

    face = font(big)
    cell = Image.new("1", (round(face.getlength("M")), LINE_HEIGHT[big]), 0)
    ImageDraw.Draw(cell).text((0, 0), character, font=face, fill=1)
    return cell


def draw(page: Page, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Image.Image:
    """``page`` as a 1-bit image of ``size`` (white text on black; inverted lines black on white)."""
    from PIL import Image, ImageDraw  # Pillow comes with luma.oled: loaded when a frame is drawn

    image = Image.new("1", size, 0)
    canvas = ImageDraw.Draw(image)
    y = 0
    for line in page.lines:
        height = LINE_HEIGHT[line.big]
        if y >= size[1]:
            break
        if line.inverted:
            canvas.rectangle((0, y, size[0] - 1, y + height - 1), fill=1)
        x = 1
        for character in line.text:
            cell = glyph(character, line.big)
            if x >= size[0]:
                break
            if character != " ":
                image.paste(0 if line.inverted else 1, (x, y), cell)
            x += cell.width
        y += height
    return image


def _pieces(item: str, columns: int) -> list[str]:
    """A held run longer than a line ("silver 2 3,": a figure, then another) in pieces that each fit:
    each figure still with the one word before it where the two fit, so that a run too long to keep
    whole does not let go of every figure in it."""
    if len(item) <= columns:
        return [item]
    parts = item.split(" ")
    pieces = [parts[0]]
    for part in parts[1:]:
        together = f"{pieces[-1]} {part}"
        if " " not in pieces[-1] and len(together) <= columns:
            pieces[-1] = together
        else:
            pieces.append(part)
    return pieces


def wrap(text: str, columns: int = COLUMNS) -> list[str]:
    """``text`` broken into lines of at most ``columns`` characters, at spaces where it can, never
    between a word and its figure (:func:`companion.i18n.figures.held`) unless they fill a line."""
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        paragraph = escaped(paragraph)  # cut as it is shown (a Line escapes what is left)
        current = ""
        # a figure stays with its word ("column 1"), unless the two are longer than a line
        items = [part for item in held(paragraph.split(" ")) for part in _pieces(item, columns)]
        for word in items:
            while len(word) > columns:  # a word longer than a line is cut
                if current:
                    lines.append(current)
                    current = ""
                lines.append(word[:columns])
                word = word[columns:]
            candidate = f"{current} {word}" if current else word
            if len(candidate) <= columns:
                current = candidate
            else:
                lines.append(current)
                current = word
        lines.append(current)
    return lines


def fit(text: str, columns: int = COLUMNS) -> str:
    """``text`` cut to one line of ``columns`` characters (an ellipsis marks the cut), escaped first
    (a control or bidi character of a name is shown ``\\uXXXX``) so that the cut is where it shows."""
    text = escaped(text)
    return text if len(text) <= columns else text[:columns - 1] + "…"
