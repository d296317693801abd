"""Who is who on a page: each player's colour and initials, as the touchscreen shows them.

The colour comes by the core's one rule (:func:`companion.games.descriptor.seat_colours`: the
record's own colours, then the profiles' wishes the server passes, then the pieces by seat, then a
spare colour), the initials by :func:`companion.service.names.initials`. A badge is the initials on
the colour: identity is never colour alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.descriptor import seat_colours, with_spare_colours
from companion.registry import descriptor
from companion.service.names import initials


@dataclass(frozen=True)
class Person:
    """A player as a page draws them: the name, the initials and the colour's name (``None``: none)."""

    name: str
    tag: str
    colour: str | None

    @property
    def css(self) -> str:
        """The badge's class: ``pc-blue``; ``pc-none`` for a player without a colour."""
        return f"pc-{self.colour or 'none'}"


def people(game: str, players: Sequence[str], setup: Mapping[str, Any] | None = None,
           preferred: Mapping[str, str | None] | None = None) -> dict[str, Person]:
    """Each player of a ``game`` as a :class:`Person`, in seat order."""
    recorded = (setup or {}).get("colors")
    recorded = recorded if isinstance(recorded, Mapping) else None
    colours = with_spare_colours(seat_colours(descriptor(game).piece_colours, players, recorded, preferred),
                                 players)
    tags = initials(players)
    return {player: Person(player, tags[player], colours.get(player)) for player in players}
