"""Where segments lie and which guild spaces touch.

Segments are hexagons at axial coordinates ``(q, r)``; edge ``i`` faces the
neighbour at ``(q, r) + D[i]`` (clockwise from edge 0). A segment shows three
guilds, each a rhombus over two neighbouring edges, so its ``edges`` list is
three equal pairs of three different guilds. The three spaces of a segment
touch each other; the space on edge ``i`` touches the space on edge
``(i + 3) % 6`` of the neighbour. A space is ``(q, r, guild)``: one segment
never shows a guild twice, so this names it uniquely.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from itertools import permutations

from companion.games.messages import Message, msg
from companion.games.san_gimignano import tables

#: Axial offsets of the six neighbours, clockwise: edge i faces position + D[i].
D: tuple[tuple[int, int], ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))

Position = tuple[int, int]
Space = tuple[int, int, str]
Edges = tuple[str, str, str, str, str, str]


def neighbour(at: Position, edge: int) -> Position:
    """The position across edge ``edge`` of the segment at ``at``."""
    dq, dr = D[edge]
    return (at[0] + dq, at[1] + dr)


def opposite(edge: int) -> int:
    """The neighbour's edge that touches edge ``edge``."""
    return (edge + 3) % 6


def label(index: int) -> str:
    """The letter a segment is drawn with on the map and named by in every text: ``A`` for the
    first laid, ``Z`` for the 26th, then ``AA``, ``AB`` … (players see letters, not coordinates)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def labels(segments: Iterable[Position]) -> dict[Position, str]:
    """Each laid segment's letter, in the order laid (the state's ``segments`` keep that order):
    a segment keeps its letter for the rest of the game, so a history entry names it as the map does."""
    return {at: label(index) for index, at in enumerate(segments)}


#: The guilds' record names while the table kept the defaults, and the number each is shown with.
DEFAULT_GUILD_NUMBERS: dict[str, int] = {guild: n for n, guild in enumerate(tables.DEFAULT_GUILDS, 1)}


def guild_word(guild: str) -> Message | str:
    """A guild as players read it: a default name (``guild-2``) in the catalogue's words
    ("Guild 2", "2. céh"), a name the table chose as it is."""
    number = DEFAULT_GUILD_NUMBERS.get(guild)
    return msg("san_gimignano.guild.default", number=number) if number is not None else guild


def space_name(space: Space, segments: Iterable[Position] | None = None) -> Message:
    """A space as players read it in messages: its guild's name and the letter of its segment
    ("Guild 2 on B"), one wording everywhere. Without the segments (a record's field), or off
    the board, it is named by its record coordinates (``guild-2 at [1, 0]``)."""
    found = labels(segments) if segments is not None else {}
    letter = found.get((space[0], space[1]))
    if letter is None:
        return msg("san_gimignano.space", guild=space[2], q=space[0], r=space[1])
    return msg("san_gimignano.space.on", guild=guild_word(space[2]), segment=letter)


def group_name(group: Iterable[Sequence[object]], segments: Iterable[Position]) -> Message:
    """A group a tower may go on, as players read it: its guild and the letters of the segments its
    spaces lie on ("Guild 2 on B and C"; the summary's ``buildable`` groups, spaces as ``[q, r,
    guild]``), one wording on every front end."""
    found = labels(segments)
    spaces = [(int(str(s[0])), int(str(s[1])), str(s[2])) for s in group]
    letters = sorted({found.get((q, r), "?") for q, r, _ in spaces})
    guild = spaces[0][2] if spaces else ""
    return msg("san_gimignano.group.on", guild=guild_word(guild), segments=letters)


def edges_problem(edges: Sequence[str], field: str = "edges") -> Message | None:
    """Why ``edges`` is not a segment's outline (``None`` when it is one); ``field`` names it.

    Three equal pairs over neighbouring edges (``[a,a,b,b,c,c]`` or
    ``[c,a,a,b,b,c]``) of three different guilds; guild names are checked
    against the setup elsewhere because only the state knows them.
    """
    if len(edges) != 6:
        return msg("san_gimignano.edges.six", field=field)
    paired = any(all(edges[(start + 2 * k) % 6] == edges[(start + 2 * k + 1) % 6]
                     for k in range(3)) for start in (0, 1))
    if not paired:
        return msg("san_gimignano.edges.pairs", field=field)
    if len(set(edges)) != 3:
        return msg("san_gimignano.edges.three_guilds", field=field)
    return None


def first_edges(edges: Sequence[str]) -> dict[str, int]:
    """Each guild of a segment's outline with the first of the two neighbouring edges it covers
    (the map draws that guild's rhombus over edges ``i`` and ``i + 1``)."""
    found: dict[str, int] = {}
    for i in range(6):
        if edges[i] == edges[(i + 1) % 6] and edges[i] not in found:
            found[edges[i]] = i
    return found


def segment_spaces(at: Position, edges: Sequence[str]) -> tuple[Space, ...]:
    """The three spaces of a segment, in the order their guilds first appear from edge 0."""
    seen: list[str] = []
    for guild in edges:
        if guild not in seen:
            seen.append(guild)
    return tuple((at[0], at[1], guild) for guild in seen)


def edge_space(at: Position, edges: Sequence[str], edge: int) -> Space:
    """The space lying along edge ``edge`` of the segment at ``at``."""
    return (at[0], at[1], edges[edge])


def touching(segments: Mapping[Position, Sequence[str]], at: Position) -> int:
    """How many placed segments the position ``at`` touches."""
    return sum(1 for edge in range(6) if neighbour(at, edge) in segments)


def clash(segments: Mapping[Position, Sequence[str]], at: Position,
          edges: Sequence[str]) -> int | None:
    """The first edge of ``edges`` at ``at`` that meets the same guild across it, else ``None``."""
    for edge in range(6):
        other = segments.get(neighbour(at, edge))
        if other is not None and other[opposite(edge)] == edges[edge]:
            return edge
    return None


def fitting(segments: Mapping[Position, Sequence[str]], at: Position,
            outlines: Iterable[Edges]) -> list[Edges]:
    """The outlines that fit at ``at``: no edge meets the same guild across it.

    The same test as :func:`clash`, with the guild each edge faces looked up
    once for all outlines (a screen asks this for every open position).
    """
    facing = []
    for edge in range(6):
        other = segments.get(neighbour(at, edge))
        if other is not None:
            facing.append((edge, other[opposite(edge)]))
    return [edges for edges in outlines if all(edges[edge] != guild for edge, guild in facing)]


def open_positions(segments: Mapping[Position, Sequence[str]]) -> list[Position]:
    """Empty positions touching at least two placed segments, sorted (where a segment may go)."""
    found: set[Position] = set()
    for at in segments:
        for edge in range(6):
            spot = neighbour(at, edge)
            if spot not in segments and spot not in found and touching(segments, spot) >= 2:
                found.add(spot)
    return sorted(found)


def rotations(guilds: Sequence[str]) -> list[Edges]:
    """The six ways to lay a segment whose guilds read ``guilds`` clockwise.

    ``[a, b, c]`` gives ``[a,a,b,b,c,c]`` turned by 0 to 5 edges.
    """
    base = [guilds[0], guilds[0], guilds[1], guilds[1], guilds[2], guilds[2]]
    return [tuple(base[(i - turn) % 6] for i in range(6)) for turn in range(6)]  # type: ignore[misc]


def all_outlines(guild_names: Iterable[str]) -> list[Edges]:
    """Every outline a segment could have with these guilds (48 with four guilds).

    The records do not say which segments are in a hand, so "can this player
    still lay a segment" asks whether any outline fits anywhere.
    """
    return list(_outlines(tuple(guild_names)))


@cache
def _outlines(names: tuple[str, ...]) -> tuple[Edges, ...]:
    """The outlines for one set of guild names, worked out once (a game asks for them on every move)."""
    outlines: set[Edges] = set()
    for trio in permutations(names, 3):
        outlines.update(rotations(trio))
    return tuple(sorted(outlines))


def adjacency_with(adjacency: Mapping[Space, tuple[Space, ...]],
                   segments: Mapping[Position, Sequence[str]], at: Position,
                   edges: Sequence[str]) -> dict[Space, tuple[Space, ...]]:
    """A new adjacency map with the segment ``(at, edges)`` added (``segments`` excludes it).

    The input map is copied, never changed, so earlier states keep theirs.
    """
    result = dict(adjacency)
    own = segment_spaces(at, edges)
    for space in own:
        result[space] = tuple(other for other in own if other != space)
    for edge in range(6):
        near = neighbour(at, edge)
        other_edges = segments.get(near)
        if other_edges is None:
            continue
        mine = edge_space(at, edges, edge)
        theirs = edge_space(near, other_edges, opposite(edge))
        if theirs not in result[mine]:
            result[mine] = (*result[mine], theirs)
        if mine not in result[theirs]:
            result[theirs] = (*result[theirs], mine)
    return result
