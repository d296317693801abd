"""San Gimignano's numbers and names, in one place.

The rulebook's counts (tokens, towers, hands per player count) and the
record's option values live here so that the engine, the views and the tests
read them from one source rather than repeating literals.
"""

from __future__ import annotations

#: Tokens each family owns (rulebook: "80 tokens, twenty each in four colours").
TOKENS_PER_PLAYER = 20
#: Towers that end the game at once for the player who builds the last one.
TOWERS_TO_WIN = 10
#: Tokens one guild space holds at most, of any colours.
TOKENS_PER_SPACE = 2
#: Segments in one box.
SEGMENTS_IN_BOX = 16
#: Spaces in a group of the basic rules (four connected guilds).
GROUP_SIZE = 4

#: Rulebook preparations: players -> (segments laid out, segments in each hand).
RULEBOOK_SETUP: dict[int, tuple[int, int]] = {2: (2, 4), 3: (3, 3), 4: (4, 3)}
#: Clarified rules: the first four segments are laid before play, the rest form the pool.
CLARIFIED_LAID = 4
CLARIFIED_POOL = SEGMENTS_IN_BOX - CLARIFIED_LAID

#: The rulebook names no guilds; the companion's default names.
DEFAULT_GUILDS: tuple[str, ...] = ("guild-1", "guild-2", "guild-3", "guild-4")
GUILD_COUNT = 4
#: Guilds shown on one segment (each as a rhombus over two neighbouring edges).
GUILDS_PER_SEGMENT = 3

#: Values of the ``rules`` option: the printed rulebook or the author's clarifications.
RULEBOOK = "rulebook"
CLARIFIED = "clarified"
RULES: tuple[str, ...] = (RULEBOOK, CLARIFIED)
#: Values of the ``variant`` option: groups of four, or the continuous string.
FOUR = "four"
STRING = "string"
VARIANTS: tuple[str, ...] = (FOUR, STRING)


def default_hand(player_count: int) -> int:
    """Segments each player receives under the rulebook (4 with two players, else 3)."""
    return RULEBOOK_SETUP[player_count][1]
