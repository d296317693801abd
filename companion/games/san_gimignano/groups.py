"""Groups of guild spaces: who can build a tower now, who still could, who is one token short.

The basic rules want four connected, tower-free spaces of four different
guilds, each holding one of the builder's tokens; the string variant wants a
connected run of such spaces that together show all four guilds (listed as
maximal connected sets). Every adjacency joins two different guilds (the
placement rule forbids equal guilds across an edge), and a player has at most
twenty tokens out, so plain set expansion is fast enough here.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping

from companion.games.san_gimignano import tables
from companion.games.san_gimignano.geometry import Space
from companion.games.san_gimignano.state import State

Group = frozenset[Space]
Adjacency = Mapping[Space, tuple[Space, ...]]


def player_spaces(state: State, player: str) -> set[Space]:
    """The tower-free spaces holding at least one of ``player``'s tokens."""
    return {space for space, owners in state.tokens.items()
            if player in owners and space not in state.towers}


def connected_fours(nodes: Iterable[Space], adjacency: Adjacency,
                    accept: Callable[[Group], bool] | None = None) -> list[Group]:
    """Every connected set of four ``nodes`` with four different guilds (``accept`` filters).

    Grows sets one neighbour at a time and drops any that repeats a guild;
    a set of distinct guilds has only distinct-guild subsets, so nothing
    valid is lost by pruning early.
    """
    allowed = set(nodes)
    level: set[Group] = {frozenset((space,)) for space in allowed}
    for _ in range(tables.GROUP_SIZE - 1):
        grown: set[Group] = set()
        for group in level:
            guilds = {space[2] for space in group}
            for member in group:
                for near in adjacency.get(member, ()):
                    if near in allowed and near not in group and near[2] not in guilds:
                        grown.add(group | {near})
        level = grown
    return [group for group in level if accept is None or accept(group)]


def components(nodes: Iterable[Space], adjacency: Adjacency) -> list[Group]:
    """The connected components of ``nodes`` under ``adjacency``."""
    remaining = set(nodes)
    result: list[Group] = []
    while remaining:
        seed = remaining.pop()
        part = {seed}
        stack = [seed]
        while stack:
            for near in adjacency.get(stack.pop(), ()):
                if near in remaining:
                    remaining.discard(near)
                    part.add(near)
                    stack.append(near)
        result.append(frozenset(part))
    return result


def shows_all_guilds(group: Iterable[Space]) -> bool:
    """Whether the spaces show all four guilds."""
    return len({space[2] for space in group}) >= tables.GUILD_COUNT


def is_connected(group: Iterable[Space], adjacency: Adjacency) -> bool:
    """Whether the spaces form one connected set."""
    spaces = set(group)
    return len(components(spaces, adjacency)) <= 1


def buildable(state: State, player: str) -> list[Group]:
    """Every group ``player`` could build a tower on now (string variant: maximal sets)."""
    key = ("buildable", player)
    if key not in state.derived:
        state.derived[key] = tuple(_buildable(state, player))
    return list(state.derived[key])


def _buildable(state: State, player: str) -> list[Group]:
    mine = player_spaces(state, player)
    if len(mine) < tables.GROUP_SIZE:
        return []
    if state.variant == tables.STRING:
        found = [part for part in components(mine, state.adjacency) if shows_all_guilds(part)]
    else:
        found = connected_fours(mine, state.adjacency)
    return sorted(found, key=sorted)


def can_build(state: State, player: str) -> bool:
    """Whether ``player`` has at least one buildable group."""
    mine = player_spaces(state, player)
    if len(mine) < tables.GROUP_SIZE or not shows_all_guilds(mine):
        return False
    return bool(buildable(state, player))


def _usable(state: State, player: str) -> dict[Space, int]:
    """Tower-free spaces ``player`` could use: cost 0 if it holds its token, 1 if it has room."""
    usable: dict[Space, int] = {}
    for space in state.adjacency:
        if space in state.towers:
            continue
        owners = state.tokens.get(space, ())
        if player in owners:
            usable[space] = 0
        elif len(owners) < tables.TOKENS_PER_SPACE:
            usable[space] = 1
    return usable


def _find_four(usable: Mapping[Space, int], adjacency: Adjacency, budget: int) -> bool:
    """Whether some connected four usable spaces of four guilds cost at most ``budget``.

    A depth-first search that stops at the first hit; each set is grown only
    from its first space in a fixed order, and cost and guilds prune early,
    so a crowded late board is searched quickly too.
    """
    order = {space: i for i, space in enumerate(sorted(usable))}

    def grow(group: list[Space], guilds: set[str], cost: int, low: int) -> bool:
        if len(group) == tables.GROUP_SIZE:
            return True
        for member in group:
            for near in adjacency.get(member, ()):
                rank = order.get(near)
                if rank is None or rank <= low or near in group or near[2] in guilds:
                    continue
                total = cost + usable[near]
                if total <= budget and grow([*group, near], guilds | {near[2]}, total, low):
                    return True
        return False

    return any(usable[seed] <= budget and grow([seed], {seed[2]}, usable[seed], order[seed])
               for seed in usable)


#: "Not reachable" in the subset programme: above any real token count.
_UNREACHABLE = 1 << 30


def _cheapest_string(usable: Mapping[Space, int], adjacency: Adjacency) -> int | None:
    """Fewest tokens to add so some connected set of usable spaces shows all four guilds.

    A group Steiner tree over four guild classes with 0/1 node costs, solved by
    the Dreyfus-Wagner style subset dynamic programme (16 masks, small board).
    Only run when no cheap set of four settles the question. ``best[mask][v]``
    is the cheapest connected set that holds space ``v`` and shows the guilds
    of ``mask``; each mask is built from its smaller ones in two steps.
    """
    nodes = list(usable)
    bits = _guild_bits(nodes)
    if bits is None:
        return None
    index = {space: i for i, space in enumerate(nodes)}
    cost = [usable[space] for space in nodes]
    links = [[index[near] for near in adjacency.get(space, ()) if near in index] for space in nodes]
    full = (1 << tables.GUILD_COUNT) - 1
    best = [[_UNREACHABLE] * len(nodes) for _ in range(full + 1)]
    for v in range(len(nodes)):
        best[0][v] = cost[v]
        best[bits[v]][v] = cost[v]
    for mask in range(1, full + 1):
        _join_at_each_space(best, mask, bits, cost)
        _extend_along_links(best[mask], links, cost)
    answer = min(best[full]) if nodes else _UNREACHABLE
    return None if answer >= _UNREACHABLE else answer


def _guild_bits(nodes: list[Space]) -> list[int] | None:
    """Each space's guild as one bit of a four-bit mask; None when the spaces miss a guild."""
    guild_bit: dict[str, int] = {}
    for space in nodes:
        guild_bit.setdefault(space[2], 1 << len(guild_bit))
    if len(guild_bit) < tables.GUILD_COUNT:
        return None
    return [guild_bit[space[2]] for space in nodes]


def _join_at_each_space(best: list[list[int]], mask: int, bits: list[int], cost: list[int]) -> None:
    """``best[mask]`` from sets meeting at one space: the space's own guild, or two smaller masks joined.

    A space shared by the two joined sets is paid once (hence ``- cost[v]``).
    """
    row = best[mask]
    for v in range(len(row)):
        if mask & bits[v]:
            row[v] = min(row[v], best[mask & ~bits[v]][v])
        sub = (mask - 1) & mask
        while sub:
            value = best[sub][v] + best[mask ^ sub][v] - cost[v]
            if value < row[v]:
                row[v] = value
            sub = (sub - 1) & mask


def _extend_along_links(row: list[int], links: list[list[int]], cost: list[int]) -> None:
    """Lower ``row`` by walking out from each space (Dijkstra with node costs): a set may grow a path."""
    heap = [(row[v], v) for v in range(len(row)) if row[v] < _UNREACHABLE]
    heapq.heapify(heap)
    while heap:
        value, v = heapq.heappop(heap)
        if value > row[v]:
            continue
        for u in links[v]:
            if value + cost[u] < row[u]:
                row[u] = value + cost[u]
                heapq.heappush(heap, (row[u], u))


def could_still_build(state: State, player: str) -> bool:
    """The end-of-game test for one player (rules/README.md).

    A connected set of four tower-free spaces of four different guilds where
    each space holds one of the player's tokens or has room for one, with
    enough tokens in hand to fill the gaps; with the string variant, any
    connected set of such spaces that shows all four guilds.
    """
    key = ("could_still_build", player)
    if key not in state.derived:
        state.derived[key] = _could_still_build(state, player)
    return bool(state.derived[key])


def _could_still_build(state: State, player: str) -> bool:
    if can_build(state, player):
        return True
    hand = state.in_hand(player)
    if hand == 0:
        return False
    usable = _usable(state, player)
    if _find_four(usable, state.adjacency, hand):
        return True
    if state.variant != tables.STRING:
        return False
    for part in components(usable, state.adjacency):
        if shows_all_guilds(part):
            needed = _cheapest_string({space: usable[space] for space in part}, state.adjacency)
            if needed is not None and needed <= hand:
                return True
    return False


def one_short(state: State, player: str) -> list[tuple[Group, Space]]:
    """Hints: groups ``player`` could build after one more token, with the space it needs.

    Only spaces with room count, and only while the player holds a token.
    With the string variant the group is the connected set the token would make.
    """
    if state.in_hand(player) < 1:
        return []
    usable = _usable(state, player)
    mine = {space for space, cost in usable.items() if cost == 0}
    if state.variant == tables.STRING:
        room = {space for space, cost in usable.items() if cost == 1}
        return _one_short_strings(state, mine, room)
    return _one_short_fours(state, usable, mine)


def _one_short_strings(state: State, mine: set[Space], room: set[Space]) -> list[tuple[Group, Space]]:
    """String variant: a token on a space with room next to the player's that makes a new string.

    The string must be new: the set it joins showed all four guilds in no part before.
    """
    hints: list[tuple[Group, Space]] = []
    for space in sorted(room):
        if not any(near in mine for near in state.adjacency.get(space, ())):
            continue
        for part in components(mine | {space}, state.adjacency):
            if space in part and shows_all_guilds(part):
                before = [p for p in components(part - {space}, state.adjacency)
                          if shows_all_guilds(p)]
                if len(before) == 0:
                    hints.append((part, space))
    return hints


def _one_short_fours(state: State, usable: Mapping[Space, int],
                     mine: set[Space]) -> list[tuple[Group, Space]]:
    """Basic rules: connected fours of four guilds with the player's tokens on all spaces but one."""
    def one_gap(group: Group) -> bool:
        return sum(usable[space] for space in group) == 1

    hints: list[tuple[Group, Space]] = []
    for group in connected_fours(usable, state.adjacency, one_gap):
        gap = next(space for space in group if usable[space] == 1)
        if all(space in mine or space == gap for space in group):
            hints.append((group, gap))
    return hints
