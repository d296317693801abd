"""The one theme of the touchscreen: dark, calm, high contrast (docs/ui.md).

Constants only, so that every screen (and the game boards written apart from
the shell) draws with the same numbers. Colours are RGBA tuples of 0..1 as
Kivy takes them. The text colours keep at least 7:1 contrast against
:data:`BACKGROUND` and :data:`SURFACE` (checked in ``tests/test_ui_theme.py``).
"""

from __future__ import annotations

from companion.games.colours import NO_COLOUR as NO_COLOUR_HEX
from companion.games.colours import PIECE_HEX

Colour = tuple[float, float, float, float]


def rgb(hex_code: str, alpha: float = 1.0) -> Colour:
    """``"#1e2630"`` as a Kivy colour."""
    value = hex_code.lstrip("#")
    return (int(value[0:2], 16) / 255, int(value[2:4], 16) / 255, int(value[4:6], 16) / 255, alpha)


#: The window's background: near black, a little blue (less glare at an evening table).
BACKGROUND = rgb("#12161c")
#: Bars, panels and buttons sit on this.
SURFACE = rgb("#232b36")
#: Text and figures.
TEXT = rgb("#f2f4f7")
#: Secondary text (labels beside figures); still 7:1 on both backgrounds.
TEXT_QUIET = rgb("#c3cad4")
#: What is not tappable now: dimmed, never hidden.
DIMMED = rgb("#6b7480")
#: The one accent: "your action" (the acting player's banner, the button to press, the ring round what
#: may be tapped). A light amber: the earlier #ffc857 and the refusal colour looked alike to a tritanope.
ACCENT = rgb("#ffd978")
#: Text on the accent.
ON_ACCENT = rgb("#12161c")
#: The one colour of a refusal.
REFUSED = rgb("#f79e9d")
#: Text on the refusal colour.
ON_REFUSED = rgb("#12161c")
#: A place lit up on a board because a player asked where a recorded move took place (History's
#: "show on the board"): drawn over a dark edge (BACKGROUND), so it reads on every area and piece
#: colour, and unlike the accent it does not say "tap here".
SHOWN = rgb("#7fdcff")

#: The figures players look for (scores, heights, whose turn), in px.
FONT_LARGE = 36
#: The winner's name on game over, in px: larger than every other figure.
FONT_WINNER = 48
#: Labels and explanations, in px.
FONT_SMALL = 20
#: Smallest touch target, in px (9 mm on the 7" panel).
TOUCH = 48
#: Space between targets, in px.
SPACING = 8
#: The window on a laptop, in px (the 7" panel's size).
WINDOW = (800, 480)
#: How long a refusal stays at least, in seconds (and until the next tap).
REFUSAL_SECONDS = 4.0
#: How long to hold a button that ends, abandons or deletes something, in seconds.
LONG_PRESS_SECONDS = 0.8
#: How long a refused tap's flash lasts on a board, in seconds (the words stay in the refusal banner).
FLASH_SECONDS = 0.6

#: The pieces' colours, by the names the records and profiles use: the badges and the boards' markers
#: alike. The codes are the core's one table (:mod:`companion.games.colours`), which the live page
#: draws with too; blue and red are deeper than the boxes' so that initials on them keep 7:1 contrast.
PIECE_COLOURS: dict[str, Colour] = {name: rgb(code) for name, code in PIECE_HEX.items()}
#: A player without a colour (a game whose pieces have none, a profile without one).
NO_COLOUR = rgb(NO_COLOUR_HEX)


#: A black piece on the dark background needs an outline to be seen at all.
MARKER_OUTLINE = rgb("#c3cad4")

# The colours the companion chooses for what is not a piece (a game's board palettes live beside its
# board: the guild shades, the area kinds, the frame gifts): any two of a palette stay CIEDE2000 12 or
# more apart for normal vision and under simulated protanopia, deuteranopia and tritanopia, also from
# the ring (ACCENT), the refusal flash and the background they are drawn on
# (tests/test_colour_vision.py, docs/ui.md "Colours"). Marks on them use text_on(), so a palette may
# hold light and dark shades: lightness is what stays apart when hues do not.

#: A highlight ring on a board (a place to tap, a place a history entry shows) is two tones side by
#: side: the light one (the accent) stands out from the dark background (at least 3:1), and on every
#: colour of a board's palette one of the two does (at least 3:1: the dark one on light shades, the
#: light one on dark ones), so that no colour a ring crosses swallows it (an amber ring alone was
#: 1.6:1 on a yellow board colour). Checked in the boards' tests.
RING_LIGHT = ACCENT
RING_DARK = rgb("#000000")


def piece_colour(name: str | None) -> Colour:
    """The colour for a piece colour's name; :data:`NO_COLOUR` for none or an unknown one."""
    return PIECE_COLOURS.get(name or "", NO_COLOUR)


def text_on(colour: Colour) -> Colour:
    """Black or white, whichever reads better on ``colour`` (initials on a marker)."""
    return max((ON_ACCENT, TEXT), key=lambda text: contrast(text, colour))


def _luminance(colour: Colour) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first: Colour, second: Colour) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    high, low = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)
