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

from companion.games.campanile.state import Award, Explanation, FlagResult, Group
from companion.games.campanile.words import tower as tower_word
from companion.games.messages import msg


def ranking(heights: Sequence[int]) -> list[int]:
    """Tower indices from highest to lowest (row position breaks ties: nearer is higher)."""
    return sorted(range(len(heights)), key=lambda i: (-heights[i], i))


def contenders(stack: Sequence[Group]) -> list[Group]:
    """The groups under a tower, best first: most influence, then closest to the base."""
    return sorted(stack, key=lambda g: -g.influence)  # stable: equal influence keeps base order


def value_tower(tower: str, rank: int, flag: tuple[int, ...], stack: Sequence[Group]) -> FlagResult:
    """The awards of one flagged tower, with the reason (as messages)."""
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
    """A flag's values as on the card, best first: ``6/4/2`` (figures, the same in every language)."""
    return "/".join(str(v) for v in flag)


def explain(tower: str, flag: Sequence[int], stack: Sequence[Group],
            ordered: Sequence[Group]) -> Explanation:
    """Why the flag on ``tower`` went as it did: a few sentences a player can check, as messages.

    The influence of everyone under the tower, every tie that decided an
    award and how the base broke it, the points given, and who got nothing
    or which values were left over.
    """
    said = tower_word(tower)
    if not ordered:
        return Explanation((msg("campanile.explain.nobody", tower=said, flag=_flag_text(flag)),))
    sentences = [msg("campanile.explain.influence", tower=said, flag=_flag_text(flag),
                     influence=[msg("campanile.explain.player_figure", player=g.player, figure=g.influence)
                                for g in ordered])]
    # One sentence per run of equal influence that mattered for the awards.
    start = 0
    while start < len(ordered):
        end = start
        while end + 1 < len(ordered) and ordered[end + 1].influence == ordered[start].influence:
            end += 1
        if end > start and start < len(flag):
            tied = [g.player for g in ordered[start:end + 1]]
            if len(tied) == 2:
                sentences.append(msg("campanile.explain.tie_two", first=tied[0], second=tied[1],
                                     influence=ordered[start].influence))
            else:
                sentences.append(msg("campanile.explain.tie_many", players=tied, first=tied[0],
                                     rest=tied[1:], influence=ordered[start].influence))
        start = end + 1
    sentences.append(msg("campanile.explain.points", awards=[
        msg("campanile.explain.player_figure", player=g.player, figure=points)
        for g, points in zip(ordered, flag, strict=False)]))
    if len(ordered) > len(flag):
        left_out = [g.player for g in ordered[len(flag):]]
        sentences.append(msg("campanile.explain.nothing", players=left_out, count=len(left_out)))
    elif len(flag) > len(ordered):
        spare = flag[len(ordered):]
        sentences.append(msg("campanile.explain.unclaimed", values=_flag_text(spare), count=len(spare),
                             why=msg("campanile.explain.contenders", count=len(ordered))))
    return Explanation(sentences)
