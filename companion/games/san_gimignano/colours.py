"""The colours San Gimignano's guilds are drawn in, by the names the guild-colours setting uses
(:data:`~companion.games.san_gimignano.descriptor.GUILD_PALETTE`).

One table for both front ends: the touchscreen turns the codes into Kivy's
floats (``ui/games/san_gimignano/widgets.py``'s ``GUILD_RGB``), the live page
writes them as they are. Muted, spread in lightness so that colour-blind eyes
tell them apart too (the earlier blue and purple, red and brown were one colour
to a protanope or deuteranope); the rule is in ``ui/theme.py`` and
``tests/test_colour_vision.py`` keeps it. Data only, no drawing.
"""

from __future__ import annotations

from types import MappingProxyType

#: Each guild colour's ``#rrggbb`` code, by its name.
GUILD_HEX = MappingProxyType({
    "red": "#a53003",
    "blue": "#7f8bbf",
    "green": "#3f6b51",
    "yellow": "#baaa45",
    "purple": "#833aa9",
    "orange": "#ad7421",
    "brown": "#473122",
    "grey": "#888383",
})
#: The colour a guild is drawn in when nothing gives it one.
FALLBACK = "grey"
