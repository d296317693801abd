"""The area resolver: who gains what when an area is evaluated, and why (as a message).

A pure function of the area's kind, its yield (or tents, or the mine's silver),
the shields pointing into it and who plays which colour. The engine, the views
and ``companion castelli resolve`` all use it, so the table, the screen and the
CLI explain a tie the same way. Caps (5 per resource, the cards left in the
deck) are the engine's business: awards here are shares before any cap.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from companion.games.castelli import tables
from companion.games.castelli.words import amount as unit
from companion.games.castelli.words import kind as kind_word
from companion.games.castelli.words import who
from companion.games.messages import Message, msg

Shield = tuple[str, "int | str"]


@dataclass(frozen=True)
class Resolution:
    """The outcome of evaluating one area.

    ``evaluated`` is false when nobody has a shield point there (the rulebook:
    such an area is not evaluated). ``voided`` is true when a neutral colour
    leads (or, with ``neutral: void``, is among the leaders). ``awards`` maps
    players to their share before caps; ``explanation`` says why, as a message code
    with its parameters (the catalogues put it into words).
    """

    kind: str
    gain: str
    amount: int
    influence: dict[str, int]
    leaders: tuple[str, ...]
    awards: dict[str, int] = field(default_factory=dict)
    evaluated: bool = True
    voided: bool = False
    explanation: Message = field(default_factory=lambda: msg("castelli.evaluation.nobody"))


def shield_points(value: int | str) -> int:
    """A shield's points: its number, or 0 when covered by a card icon."""
    return value if isinstance(value, int) else 0


def influence_of(shields: Iterable[Shield]) -> dict[str, int]:
    """Sum of shield points per colour, only colours with points, in the table's colour order."""
    totals: dict[str, int] = {}
    for colour, value in shields:
        totals[colour] = totals.get(colour, 0) + shield_points(value)
    return {c: totals[c] for c in tables.COLORS if totals.get(c, 0) > 0}


def resolve(kind: str, amount: int, shields: Iterable[Shield],
            players_by_colour: Mapping[str, str], neutral: str = "void", seats: bool = False) -> Resolution:
    """Evaluate an area.

    ``amount`` is the yield (forest, field, rock), the tents (market) or the
    silver in the mine. ``players_by_colour`` maps each played colour to its
    player; every other colour is neutral. ``neutral`` is the record option:
    ``void`` (a neutral colour among the leaders voids the area) or ``split``
    (the tied colours share; neutral shares are lost). ``seats``: the players are named by their
    colours alone (the resolver without a game), so the explanation names each once.
    """
    gain = tables.AREA_GAIN[kind]
    influence = influence_of(shields)
    if not gain:
        return Resolution(kind, gain, amount, influence, (), evaluated=False,
                          explanation=msg("castelli.evaluation.gives_nothing", kind=kind_word(kind)))
    if not influence:
        return Resolution(kind, gain, amount, influence, (), evaluated=False,
                          explanation=msg("castelli.evaluation.nobody"))
    best = max(influence.values())
    leaders = tuple(c for c, v in influence.items() if v == best)
    ranking = sorted(influence.items(), key=lambda cv: -cv[1])
    others = [msg("castelli.who.points", who=who(c, players_by_colour.get(c), seats), points=v)
              for c, v in ranking if v < best]
    neutrals = [c for c in leaders if c not in players_by_colour]
    played = [c for c in leaders if c in players_by_colour]
    what = unit(gain, amount)

    def said(code: str, **params: object) -> Message:
        """The explanation ``code``, or its ``_beating`` form naming the colours behind the leaders."""
        if others:
            return msg(f"{code}_beating", best=best, others=others, **params)
        return msg(code, best=best, **params)

    if len(leaders) == 1:
        colour = leaders[0]
        if neutrals:
            return Resolution(kind, gain, amount, influence, leaders, voided=True,
                              explanation=said("castelli.evaluation.neutral_leads",
                                               who=who(colour, None)))
        player = players_by_colour[colour]
        return Resolution(kind, gain, amount, influence, leaders, {player: amount},
                          explanation=said("castelli.evaluation.leads",
                                           who=who(colour, player, seats), player=player, amount=what))
    tied = [who(c, players_by_colour.get(c), seats) for c in leaders]
    if neutrals and neutral == "void":
        return Resolution(kind, gain, amount, influence, leaders, voided=True,
                          explanation=said("castelli.evaluation.tie_void", tied=tied))
    if not played:
        return Resolution(kind, gain, amount, influence, leaders, voided=True,
                          explanation=said("castelli.evaluation.tie_neutral", tied=tied))
    share = amount // len(leaders)
    awards = {players_by_colour[c]: share for c in played}
    text = said("castelli.evaluation.tie_shared", tied=tied, amount=what, ways=len(leaders),
                each=unit(gain, share))
    if share * len(leaders) != amount:
        text = msg("castelli.evaluation.rounded_down", explanation=text)
    if neutrals:
        text = msg("castelli.evaluation.neutral_share_lost", explanation=text, count=len(neutrals))
    return Resolution(kind, gain, amount, influence, leaders, awards, explanation=text)
