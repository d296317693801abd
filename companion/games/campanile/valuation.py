"""Tower ranking and valuation: pure functions of the towers and their stacks.

The rulebook's order: rank the towers by height (at equal heights the tower
nearer to the general display counts as higher), flag the highest ones,
then value them lowest flag first. On each tower the players are ordered by
influence (the sum of their marker values), ties going to the group closer
to the base; the flag's values go to the first contenders in that order and
values left over when there are fewer contenders than values are not given.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.base import join_names
from companion.games.campanile.state import Award, FlagResult, Group


def ranking(heights: Sequence[int]) -> list[int]:
    """Tower indices from highest to lowest (row position breaks ties: nearer is higher)."""
    return sorted(range(len(heights)), key=lambda i: (-heights[i], i))


def contenders(stack: Sequence[Group]) -> list[Group]:
    """The groups under a tower, best first: most influence, then closest to the base."""
    return sorted(stack, key=lambda g: -g.influence)  # stable: equal influence keeps base order


def value_tower(tower: str, rank: int, flag: tuple[int, ...], stack: Sequence[Group]) -> FlagResult:
    """The awards of one flagged tower, with the reason in words."""
    ordered = contenders(stack)
    awards = tuple(Award(g.player, points) for g, points in zip(ordered, flag, strict=False))
    influence = tuple((g.player, g.influence) for g in stack)
    return FlagResult(tower, rank, flag, influence, awards, explain(tower, flag, stack, ordered))


def value_towers(towers: Sequence[str], heights: Sequence[int], stacks: Sequence[Sequence[Group]],
                 flags: Sequence[tuple[int, ...]]) -> tuple[FlagResult, ...]:
    """A whole valuation: every flagged tower, in the order they are valued (lowest flag first)."""
    order = ranking(heights)
    flagged = [(rank, order[rank - 1]) for rank in range(1, len(flags) + 1)]
    return tuple(value_tower(towers[i], rank, flags[rank - 1], stacks[i])
                 for rank, i in reversed(flagged))


def _flag_text(flag: Sequence[int]) -> str:
    return "/".join(str(v) for v in flag)


def explain(tower: str, flag: Sequence[int], stack: Sequence[Group], ordered: Sequence[Group]) -> str:
    """Why the flag on ``tower`` went as it did, in a sentence or three a player can check."""
    if not ordered:
        return f"Nobody has markers under the {tower} tower: its flag {_flag_text(flag)} is not given."
    sentences = []
    parts = [f"{g.player} {g.influence}" for g in ordered]
    sentences.append(f"{tower.capitalize()} tower, flag {_flag_text(flag)}: "
                     f"influence {', '.join(parts)}.")
    # One sentence per run of equal influence that mattered for the awards.
    start = 0
    while start < len(ordered):
        end = start
        while end + 1 < len(ordered) and ordered[end + 1].influence == ordered[start].influence:
            end += 1
        if end > start and start < len(flag):
            tied = [g.player for g in ordered[start:end + 1]]
            both = "both have" if len(tied) == 2 else "all have"
            sentences.append(f"{join_names(tied)} {both} {ordered[start].influence}; "
                             f"{tied[0]}'s markers are closer to the base"
                             + (f", then {join_names(tied[1:])}'s." if len(tied) > 2 else "."))
        start = end + 1
    winners = [f"{g.player} {points}" for g, points in zip(ordered, flag, strict=False)]
    sentences.append("Points: " + ", ".join(winners) + ".")
    if len(ordered) > len(flag):
        left_out = [g.player for g in ordered[len(flag):]]
        sentences.append(f"{join_names(left_out)} {'gets' if len(left_out) == 1 else 'get'} nothing.")
    elif len(flag) > len(ordered):
        spare = flag[len(ordered):]
        sentences.append(f"The {_flag_text(spare)} {'is' if len(spare) == 1 else 'are'} not given: "
                         f"only {len(ordered)} {'player has' if len(ordered) == 1 else 'players have'} "
                         f"markers here.")
    return " ".join(sentences)
