"""Campanile's numbers, in one place: flags, chips, markers, defaults.

Everything here is copied from the rulebook (DDD Verlag 2009). The 2-player
flag cards are deliberately absent: the rulebook does not print their values,
so they come from the players (confirmed once on the appliance, carried in
every 2-player record) and are never invented here.
"""

from __future__ import annotations

from collections import Counter

#: Flag values for 3–5 players, index 0 for the highest tower, best value first.
INTERMEZZO_FLAGS: tuple[tuple[int, ...], ...] = ((4, 2), (3, 1), (2,), (1,))
FINITO_FLAGS: tuple[tuple[int, ...], ...] = ((6, 4, 2), (5, 3, 1), (4, 2), (3, 1), (2,))

#: How many towers each valuation flags.
FLAGGED_TOWERS = {"intermezzo": 4, "finito": 5}

#: The 17 victory point chips (4×1, 5×2, 3×3, 3×4, 1×5, 1×6): exactly the 3–5 player flags.
CHIP_SUPPLY: Counter[int] = Counter({1: 4, 2: 5, 3: 3, 4: 3, 5: 1, 6: 1})

#: Each player's influence markers by value: 1 large (3), 3 middle (2), 5 small (1).
MARKERS_PER_PLAYER: dict[int, int] = {3: 1, 2: 3, 1: 5}

#: The default row of towers, nearest to the general display first.
DEFAULT_TOWERS: tuple[str, ...] = ("grey", "brown", "red", "blue", "yellow")

TOWER_COUNT = 5
DISPLAY_SIZE = 3
STORY_CHOICES = (1, 2, 3)
#: The story count that allows the optional 2-player relocation.
RELOCATE_STORIES = 2

MIN_PLAYERS = 2
MAX_PLAYERS = 5

PHASES = ("intermezzo", "finito")

# The supply covers both default valuations exactly; checked at import.
assert Counter(v for flag in INTERMEZZO_FLAGS + FINITO_FLAGS for v in flag) == CHIP_SUPPLY
