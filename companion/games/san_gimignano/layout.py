"""The segments laid out before play when the players do not say which.

The rulebook lays one segment per player (two with two), the clarified rules
four; which ones is up to the table. So that a game can start without a
layout typed in (the console's ``new``, the OLED menu, the touchscreen's
form before anyone changes it), the companion offers one: a different kind
of segment on each start position, each turned to fit what lies already.
The touchscreen's setup form starts from it and lets the players match
their table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from companion.games.san_gimignano import geometry, tables
from companion.games.san_gimignano.geometry import Edges, Position

#: Where the laid segments go, in order: a row of two, then the two below (a rhombus of four).
START_POSITIONS: tuple[Position, ...] = ((0, 0), (1, 0), (0, 1), (1, 1))


def segment_types(guilds: Sequence[str]) -> list[tuple[str, str, str]]:
    """The eight kinds of segment: three of the four guilds, read clockwise in one of two turns.

    A kind is its three guilds clockwise from the first in setup order, so that
    the six rotations of one kind (``geometry.rotations``) never belong to another.
    """
    found = []
    for trio in combinations(guilds, 3):
        found.append((trio[0], trio[1], trio[2]))
        found.append((trio[0], trio[2], trio[1]))
    return found


def laid_count(rules: str, player_count: int) -> int:
    """How many segments are laid before play: the rulebook's one per player (two at least), or the
    clarified rules' four."""
    if rules == tables.CLARIFIED:
        return tables.CLARIFIED_LAID
    return max(2, min(player_count, len(START_POSITIONS)))


def default_layout(guilds: Sequence[str], count: int) -> dict[Position, Edges]:
    """``count`` segments on the start positions, each of another kind, each fitting those before it."""
    kinds = segment_types(guilds)
    laid: dict[Position, Edges] = {}
    for index, at in enumerate(START_POSITIONS[:count]):
        for shift in range(len(kinds)):
            kind = kinds[(index * 3 + shift) % len(kinds)]
            fitting = geometry.fitting(laid, at, geometry.rotations(kind))
            if fitting:
                laid[at] = fitting[0]
                break
    return laid


def default_setup(players: Sequence[str], options: Mapping[str, Any],
                  guilds: Sequence[str] = tables.DEFAULT_GUILDS) -> dict[str, Any]:
    """A record's ``setup`` for a new game of ``players`` under ``options``: ``guilds`` and the
    default layout (hands or the pool are the engine's own defaults)."""
    rules = options.get("rules", tables.RULEBOOK)
    layout = default_layout(guilds, laid_count(rules, len(players)))
    return {"guilds": list(guilds),
            "segments": [{"at": list(at), "edges": list(edges)} for at, edges in layout.items()]}
