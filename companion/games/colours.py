"""The pieces' colours as the companion draws them, by the names records and profiles use.

One table for every front end: the touchscreen turns the codes into Kivy's
floats (:data:`ui.theme.PIECE_COLOURS`), the live page writes them as they are
(:data:`web.pages.svg.PIECE_HEX`). Blue and red are deeper than the boxes' so
that initials written on them keep 7:1 contrast. Data only, no drawing.
"""

from __future__ import annotations

from types import MappingProxyType

#: Each piece colour's ``#rrggbb`` code, by its name.
PIECE_HEX = MappingProxyType({
    "blue": "#1d4ea6",
    "yellow": "#f2c500",
    "red": "#a3162a",
    "black": "#0b0b0b",
    "white": "#f5f5f5",
    "green": "#2e9e4f",
    "brown": "#8b5a2b",
    "grey": "#9aa0a6",
    "orange": "#f28c28",
    "purple": "#8e44ad",
})
#: A player without a colour (a game whose pieces have none, a profile without one).
NO_COLOUR = "#5b6673"
