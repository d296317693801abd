"""A QR code drawn in a terminal with half-block characters: ``companion web`` prints the page's.

A text line is two rows of modules: the upper half block for the upper one, the
lower half block for the lower one, a full block for both, a space for neither. The
light modules (the quiet zone around the code included) are the ones drawn, so that
on a terminal's usual dark background the code is dark on light as a camera expects;
one character cell is about twice as high as wide, so each module comes out square.
The code is :func:`companion.service.bgstats.qr_code`'s (segno): the touchscreen's
QR code and the terminal's are the same code.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.service.bgstats import QR_BORDER, qr_code

#: The character for (upper module drawn, lower module drawn).
HALF_BLOCKS = {(False, False): " ", (True, False): "\u2580", (False, True): "\u2584", (True, True): "\u2588"}


def qr_modules(link: str, border: int = QR_BORDER) -> list[list[bool]]:
    """``link``'s QR code as rows of modules, ``True`` for a dark one, the quiet zone of ``border``
    modules around it (light)."""
    return [[bool(module) for module in row] for row in qr_code(link).matrix_iter(border=border)]


def half_block_lines(modules: Sequence[Sequence[bool]]) -> list[str]:
    """``modules`` (``True``: dark) as text lines, two rows a line, the light modules drawn.

    An odd last row is paired with a light one below it (the quiet zone goes on).
    """
    lines = []
    for top in range(0, len(modules), 2):
        upper = modules[top]
        lower = modules[top + 1] if top + 1 < len(modules) else [False] * len(upper)
        lines.append("".join(HALF_BLOCKS[(not a, not b)] for a, b in zip(upper, lower, strict=True)))
    return lines


def qr_text(link: str, border: int = QR_BORDER) -> list[str]:
    """``link``'s QR code as the lines a terminal prints (:func:`half_block_lines`)."""
    return half_block_lines(qr_modules(link, border))
