"""The area resolver: who gains what when an area is evaluated, and why, in words.

A pure function of the area's kind, its yield (or tents, or the mine's silver),
the shields pointing into it and who plays which colour. The engine, the views
and ``companion castelli resolve`` all use it, so the table, the screen and the
CLI explain a tie the same way. Caps (5 per resource, the cards left in the
deck) are the engine's business: awards here are shares before any cap.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from companion.games.base import join_names
from companion.games.castelli import tables

Shield = tuple[str, "int | str"]


@dataclass(frozen=True)
class Resolution:
    """The outcome of evaluating one area.

    ``evaluated`` is false when nobody has a shield point there (the rulebook:
    such an area is not evaluated). ``voided`` is true when a neutral colour
    leads (or, with ``neutral: void``, is among the leaders). ``awards`` maps
    players to their share before caps; ``explanation`` says why in words.
    """

    kind: str
    gain: str
    amount: int
    influence: dict[str, int]
    leaders: tuple[str, ...]
    awards: dict[str, int] = field(default_factory=dict)
    evaluated: bool = True
    voided: bool = False
    explanation: str = ""


def shield_points(value: int | str) -> int:
    """A shield's points: its number, or 0 when covered by a card icon."""
    return value if isinstance(value, int) else 0


def influence_of(shields: Iterable[Shield]) -> dict[str, int]:
    """Sum of shield points per colour, only colours with points, in the table's colour order."""
    totals: dict[str, int] = {}
    for colour, value in shields:
        totals[colour] = totals.get(colour, 0) + shield_points(value)
    return {c: totals[c] for c in tables.COLORS if totals.get(c, 0) > 0}


def _who(colour: str, players_by_colour: Mapping[str, str]) -> str:
    player = players_by_colour.get(colour)
    return f"{player} ({colour})" if player else f"neutral {colour}"



def _unit(gain: str, n: int) -> str:
    if gain == "cards":
        return "1 card" if n == 1 else f"{n} cards"
    return f"{n} {gain}"


def resolve(kind: str, amount: int, shields: Iterable[Shield],
            players_by_colour: Mapping[str, str], neutral: str = "void") -> Resolution:
    """Evaluate an area.

    ``amount`` is the yield (forest, field, rock), the tents (market) or the
    silver in the mine. ``players_by_colour`` maps each played colour to its
    player; every other colour is neutral. ``neutral`` is the record option:
    ``void`` (a neutral colour among the leaders voids the area) or ``split``
    (the tied colours share; neutral shares are lost).
    """
    gain = tables.AREA_GAIN[kind]
    influence = influence_of(shields)
    if not gain:
        return Resolution(kind, gain, amount, influence, (), evaluated=False,
                          explanation=f"a {kind} area gives nothing and is not evaluated")
    if not influence:
        return Resolution(kind, gain, amount, influence, (), evaluated=False,
                          explanation="nobody has a shield point here: the area is not evaluated")
    best = max(influence.values())
    leaders = tuple(c for c, v in influence.items() if v == best)
    ranking = sorted(influence.items(), key=lambda cv: -cv[1])
    others = [f"{_who(c, players_by_colour)} {v}" for c, v in ranking if v < best]
    beaten = f", beating {join_names(others)}" if others else ""
    neutrals = [c for c in leaders if c not in players_by_colour]
    played = [c for c in leaders if c in players_by_colour]
    what = _unit(gain, amount)
    if len(leaders) == 1:
        colour = leaders[0]
        if neutrals:
            return Resolution(kind, gain, amount, influence, leaders, voided=True,
                              explanation=f"neutral {colour} has the most ({best}){beaten}: "
                                          "nobody gains anything here")
        player = players_by_colour[colour]
        return Resolution(kind, gain, amount, influence, leaders, {player: amount},
                          explanation=f"{_who(colour, players_by_colour)} has the most ({best})"
                                      f"{beaten}: {player} gains {what}")
    tied = join_names([_who(c, players_by_colour) for c in leaders])
    if neutrals and neutral == "void":
        return Resolution(kind, gain, amount, influence, leaders, voided=True,
                          explanation=f"{tied} tie with {best}{beaten}; a neutral colour is among "
                                      "the leaders, so nobody gains anything here")
    if not played:
        return Resolution(kind, gain, amount, influence, leaders, voided=True,
                          explanation=f"{tied} tie with {best}{beaten}: only neutral colours lead, "
                                      "so nobody gains anything here")
    share = amount // len(leaders)
    awards = {players_by_colour[c]: share for c in played}
    rounding = "" if share * len(leaders) == amount else ", rounded down"
    text = (f"{tied} tie with {best}{beaten}: {what} shared {len(leaders)} ways, "
            f"{_unit(gain, share)} each{rounding}")
    if neutrals:
        text += f"; the neutral share{'s are' if len(neutrals) > 1 else ' is'} lost"
    return Resolution(kind, gain, amount, influence, leaders, awards, explanation=text)
