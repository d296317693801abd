"""The Campanile board's look, until the lead merges it into ``ui/theme.py``.

Constants only (colours as Kivy's RGBA tuples of 0..1, sizes in px), the same
numbers as ``shared/spec/ui.md``: a dark calm background, white text, one
accent for "your action" (amber) and one for "refused" (red), figures of at
least 36 px, labels of at least 20 px, touch targets of at least 48 px kept
8 px apart. The towers and the markers keep the box's own colours; a marker's
colour is always shown with the player's initials (never colour alone).
"""

from __future__ import annotations

from ui import theme

Colour = tuple[float, float, float, float]


def rgb(hex_code: str, alpha: float = 1.0) -> Colour:
    """``"#15171c"`` as a Kivy colour."""
    value = hex_code.lstrip("#")
    return (int(value[0:2], 16) / 255, int(value[2:4], 16) / 255, int(value[4:6], 16) / 255, alpha)


BACKGROUND = rgb("#15171c")
#: Panels and buttons sit on this.
SURFACE = rgb("#252b35")
TEXT = rgb("#f2f4f7")
#: Secondary text; still 7:1 on BACKGROUND and SURFACE.
TEXT_QUIET = rgb("#c3cad4")
#: Text of what is not tappable now: dimmed, never hidden.
DIMMED = rgb("#7d8794")
#: "Your action": what the player whose turn it is may tap now.
ACCENT = rgb("#ffc857")
ON_ACCENT = rgb("#15171c")
#: A refused tap flashes in this colour.
REFUSED = rgb("#ff5c5c")

FONT_FIGURE = 36
FONT_LABEL = 20
TOUCH = 48
SPACING = 8
LONG_PRESS_SECONDS = 0.8
#: How long a refused tap's flash lasts, in seconds (the words stay in the shell's banner).
FLASH_SECONDS = 0.6

#: The five tower styles of the box (a setup may name others: they get NEUTRAL_TOWER).
TOWER_COLOURS: dict[str, Colour] = {
    "grey": rgb("#9aa0a6"),
    "brown": rgb("#9a6332"),
    "red": rgb("#d7263d"),
    "blue": rgb("#2f6fdb"),
    "yellow": rgb("#f2c500"),
}
NEUTRAL_TOWER = rgb("#5b6673")

#: The markers' colours, in the order seats get them when the profiles choose none. Deeper than
#: the towers' bands so that the initials written on them keep 7:1 contrast.
MARKER_COLOURS: dict[str, Colour] = {name: theme.PIECE_COLOURS[name]
                                     for name in ("blue", "yellow", "red", "black", "white")}
#: A black marker on the dark background needs an outline to be seen at all.
MARKER_OUTLINE = rgb("#c3cad4")


def tower_colour(name: str) -> Colour:
    return TOWER_COLOURS.get(name, NEUTRAL_TOWER)


def marker_colour(name: str | None) -> Colour:
    """A marker's colour: the same as the player's badge in the shell."""
    return theme.piece_colour(name)


def text_on(colour: Colour) -> Colour:
    """Dark or white text, whichever reads better on ``colour`` (initials on a marker)."""
    return ON_ACCENT if luminance(colour) > 0.35 else TEXT


def luminance(colour: Colour) -> float:
    """WCAG relative luminance."""
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Colour, b: Colour) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
