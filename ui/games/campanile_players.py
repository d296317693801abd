"""Who is who on the Campanile screens: each player's marker colour and unique initials.

Player identity is colour *and* initials, never colour alone (ui.md): about
one man in twelve cannot tell the box's red from its yellow at a glance.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ui.games.campanile_style import MARKER_COLOURS


def initials(players: Sequence[str]) -> dict[str, str]:
    """The shortest prefixes (two letters or more) that tell the players apart: Al, An, Bi.

    One length for the whole table, so the badges line up; a name shorter than
    that length is shown whole. Case is ignored when comparing, as the names are.
    """
    longest = max((len(p) for p in players), default=2)
    for length in range(2, longest + 1):
        shown = {p: p[:length] for p in players}
        if len({s.casefold() for s in shown.values()}) == len(players):
            return {p: s[:1].upper() + s[1:] for p, s in shown.items()}
    return {p: p for p in players}


def marker_colours(players: Sequence[str],
                   preferred: Callable[[str], str | None] | Mapping[str, str | None] | None = None,
                   ) -> dict[str, str]:
    """Each player's marker colour: the profile's preferred one when no one else wants it,
    the rest in the box's order (blue, yellow, red, black, white) by seat."""
    if preferred is None:
        wanted: dict[str, str | None] = dict.fromkeys(players)
    elif isinstance(preferred, Mapping):
        wanted = {p: preferred.get(p) for p in players}
    else:
        wanted = {p: preferred(p) for p in players}
    counts: dict[str | None, int] = {}
    for colour in wanted.values():
        counts[colour] = counts.get(colour, 0) + 1
    chosen: dict[str, str] = {p: c for p, c in wanted.items()
                              if c in MARKER_COLOURS and counts[c] == 1}
    free = [c for c in MARKER_COLOURS if c not in chosen.values()]
    for player in players:
        if player not in chosen:
            chosen[player] = free.pop(0)
    return {p: chosen[p] for p in players}
