"""What the boards write straight into their canvas, remembered for the layout check.

A board draws its many small texts (initials on a token, a shield's value, a
guild's digit) as textures of Kivy's core ``Label`` laid on the canvas: fast,
but no widget holds the words, so :mod:`ui.layout_check` could not see them.
The helper that makes such a texture tells :func:`remember` what it says;
the check then finds each texture in the widgets' canvases (where it is drawn
now, and how large) and checks it as it checks a label. The registry holds the
textures weakly: a texture the board drops is forgotten with it, so remembering
costs a dictionary entry per texture made (the boards keep theirs) and nothing
in a long game.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

from ui.theme import Colour

#: The role of a text drawn on a piece (docs/ui.md, "Roles of a text"): initials, values, digits.
MARK = "mark"


@dataclass(frozen=True)
class DrawnText:
    """The words of one texture a board draws, their font size in px, their colour and their role."""

    text: str
    font_size: float
    colour: Colour
    role: str = MARK


_REMEMBERED: weakref.WeakKeyDictionary[Any, DrawnText] = weakref.WeakKeyDictionary()


def remember(texture: Any, text: str, font_size: float, colour: Colour | tuple[float, ...],
             role: str = MARK) -> None:
    """Note that ``texture`` (a Kivy texture) shows ``text`` at ``font_size`` px in ``colour``."""
    red, green, blue, *alpha = (float(c) for c in colour)
    ink = (red, green, blue, alpha[0] if alpha else 1.0)
    _REMEMBERED[texture] = DrawnText(text, float(font_size), ink, role)


def drawn(texture: Any) -> DrawnText | None:
    """What ``texture`` says, if a board remembered it."""
    if texture is None:
        return None
    return _REMEMBERED.get(texture)
