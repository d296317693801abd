"""San Gimignano's move notation, in the words players see on the map: ``Ada: token Guild 2 on B``.

A space is its guild's name and the letter of its segment (the map draws each
segment's letter at its middle, :func:`geometry.labels`: ``A`` for the first
laid); a place for a new segment is a side of a segment already laid (``right
of B``), and the segment's turn is where its guilds lie (``Guild 4 top, Guild
1 right, Guild 3 left``). A tower names its space, and its group only when the
space lies in more than one group someone may build now. Record coordinates
(``token 0,1 guild-2``, the notation before issue 20) are read too, never
written: ids stay in records and ``--json``.

The words are data, per language, in :data:`WORDS` (issue 10 moves them into
the message catalogues); the default guild names are the catalogue's
(``san_gimignano.guild.default``, checked equal by the tests), a name the
table chose is written as it is, as are player names.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

from companion.games.notation import Vocabulary, after_word, number, reading, word
from companion.games.san_gimignano import geometry, groups
from companion.games.san_gimignano.state import State

WORDS: Vocabulary = {
    "token": {"en": "token", "hu": "korong"},
    "segment": {"en": "segment", "hu": "tábla"},
    "tower": {"en": "tower", "hu": "torony"},
    "group": {"en": "group", "hu": "csoport"},
    "pass": {"en": "pass", "hu": "passz"},
    # a space: its guild on the segment with this letter
    "space": {"en": "{guild} on {segment}", "hu": "{segment} tábla {guild}"},
    # a place for a segment: the side of a laid segment it lies on (edge 0 faces up-right, clockwise)
    "beside": {"en": "{side} of {segment}", "hu": "{segment} mellett {side}"},
    "side-0": {"en": "above right", "hu": "jobbra fent"},
    "side-1": {"en": "right", "hu": "jobbra"},
    "side-2": {"en": "below right", "hu": "jobbra lent"},
    "side-3": {"en": "below left", "hu": "balra lent"},
    "side-4": {"en": "left", "hu": "balra"},
    "side-5": {"en": "above left", "hu": "balra fent"},
    # where a segment's three guilds lie (one of them always at the top or the bottom)
    "top": {"en": "top", "hu": "fent"},
    "bottom": {"en": "bottom", "hu": "lent"},
    "right": {"en": "right", "hu": "jobbra"},
    "left": {"en": "left", "hu": "balra"},
    # the default guild names (the catalogue's san_gimignano.guild.default)
    "guild-1": {"en": "Guild 1", "hu": "1. céh"},
    "guild-2": {"en": "Guild 2", "hu": "2. céh"},
    "guild-3": {"en": "Guild 3", "hu": "3. céh"},
    "guild-4": {"en": "Guild 4", "hu": "4. céh"},
}

#: Where the guild over edges ``i`` and ``i + 1`` lies on the drawn segment, by ``i``.
WHERE = {0: "right", 1: "right", 2: "bottom", 3: "left", 4: "left", 5: "top"}


def guild_text(guild: str, lang: str) -> str:
    """A guild's name as players read it (a default name in ``lang``, a chosen one as it is)."""
    return word(WORDS, guild, lang)


def space_text(space: Sequence[Any], letters: Mapping[tuple[int, int], str], lang: str) -> str:
    """``Guild 2 on B``; a space off the board keeps its record coordinates (``3,4 guild-2``)."""
    letter = letters.get((space[0], space[1]))
    if letter is None:
        return coordinates(space)
    return word(WORDS, "space", lang).format(guild=guild_text(space[2], lang), segment=letter)


def place_text(at: Sequence[int], letters: Mapping[tuple[int, int], str], lang: str) -> str:
    """Where a new segment goes: the side of the first-laid segment it touches (``right of B``)."""
    beside = _beside(tuple(letters.items())).get((at[0], at[1]))
    if beside is None:
        return f"{at[0]},{at[1]}"
    edge, letter = beside
    return word(WORDS, "beside", lang).format(side=word(WORDS, f"side-{edge}", lang), segment=letter)


@lru_cache(maxsize=32)
def _beside(letters: tuple[tuple[tuple[int, int], str], ...]) -> dict[tuple[int, int], tuple[int, str]]:
    """Each place next to a laid segment with the side and letter of the first-laid one it touches."""
    found: dict[tuple[int, int], tuple[int, str]] = {}
    for laid, letter in letters:
        for edge in range(6):
            found.setdefault(geometry.neighbour(laid, edge), (edge, letter))
    return found


def turn_text(edges: Sequence[str], lang: str) -> str:
    """Where the segment's guilds lie: ``Guild 4 top, Guild 1 right, Guild 3 left`` (the one at the
    top or the bottom first, then clockwise)."""
    def clockwise(item: tuple[str, int]) -> int:
        first = item[1]
        return (first - (5 if first % 2 else 2)) % 6  # from the top (edges 5, 0) or the bottom (2, 3)

    lying = sorted(geometry.first_edges(edges).items(), key=clockwise)
    return ", ".join(f"{guild_text(guild, lang)} {word(WORDS, WHERE[edge], lang)}" for guild, edge in lying)


def describe(state: State, move: Mapping[str, Any], lang: str) -> str:
    """One move or template in the notation of ``lang``, in the words the map shows."""
    kind = move["type"]
    who = f"{move['player']}: "
    letters = _letters(tuple(state.segments))
    if kind == "token":
        return f"{who}{word(WORDS, 'token', lang)} {space_text(move['space'], letters, lang)}"
    if kind == "segment":
        return (f"{who}{word(WORDS, 'segment', lang)} {place_text(move['at'], letters, lang)}: "
                f"{turn_text(move['edges'], lang)}")
    if kind == "tower":
        said = f"{who}{word(WORDS, 'tower', lang)} {space_text(move['space'], letters, lang)}"
        if _group_needed(state, move):
            group = ", ".join(space_text(s, letters, lang) for s in move["group"])
            said += f"; {word(WORDS, 'group', lang)} {group}"
        return said
    return f"{who}{word(WORDS, 'pass', lang)}"


@lru_cache(maxsize=32)
def _letters(segments: tuple[tuple[int, int], ...]) -> dict[tuple[int, int], str]:
    """The segments' letters, worked out once per board (parsing describes every legal move)."""
    return geometry.labels(segments)


def _group_needed(state: State, move: Mapping[str, Any]) -> bool:
    """Whether the tower's space lies in some other group its builder could build on now (then the
    notation names the group too); a space in one group names the tower on its own."""
    space = tuple(move["space"])
    player = move["player"]
    if player not in state.players:
        return True
    mine = {frozenset(group) for group in groups.buildable(state, player) if space in group}
    return bool(mine - {frozenset(tuple(s) for s in move["group"])}) or not mine


def record_form(move: Mapping[str, Any], lang: str) -> str:
    """The move in record coordinates (``Ada: token 0,1 guild-2``): read, never written."""
    kind = move["type"]
    who = f"{move['player']}: "
    if kind == "token":
        return f"{who}{word(WORDS, 'token', lang)} {coordinates(move['space'])}"
    if kind == "segment":
        q, r = move["at"]
        return f"{who}{word(WORDS, 'segment', lang)} {q},{r} {' '.join(move['edges'])}"
    if kind == "tower":
        group = "; ".join(coordinates(s) for s in move["group"])
        return (f"{who}{word(WORDS, 'tower', lang)} {coordinates(move['space'])} "
                f"{word(WORDS, 'group', lang)} {group}")
    return f"{who}{word(WORDS, 'pass', lang)}"


def coordinates(space: Sequence[Any]) -> str:
    return f"{space[0]},{space[1]} {space[2]}"


def segment_heading(move: Mapping[str, Any], lang: str) -> str:
    """``Ada: segment Guild 1, Guild 2, Guild 3``: the segment whatever its place and turn (its
    guilds clockwise, from the turn that reads first)."""
    edges = list(move["edges"])
    turned = min(tuple(edges[i:] + edges[:i]) for i in range(len(edges)))
    seen: list[str] = []
    for guild in turned:
        if guild not in seen:
            seen.append(guild)
    return f"{move['player']}: {word(WORDS, 'segment', lang)} {', '.join(guild_text(g, lang) for g in seen)}"


def shapes(players: Sequence[str], guilds: Sequence[str], said: list[str]) -> Iterator[dict[str, Any]]:
    """Every well-formed move ``said`` could mean, legal or not, for the notation's refusals.

    Positions and spaces are read from the words in record coordinates (``q,r``
    and a guild of the setup), so a move anywhere on the table can be refused by its rule.
    """
    def space(words: list[str]) -> list[Any] | None:
        q, r = number(words[0]), number(words[1])
        guild = reading({}, words[2], tuple(guilds))
        return None if q is None or r is None or guild is None else [q, r, guild]

    found: list[dict[str, Any]] = []
    for rest in after_word(WORDS, said, "token"):
        if len(rest) == 3 and (at := space(rest)) is not None:
            found.append({"type": "token", "space": at})
    for rest in after_word(WORDS, said, "segment"):
        edges = [reading({}, w, tuple(guilds)) for w in rest[2:]]
        q, r = (number(rest[0]), number(rest[1])) if len(rest) == 8 else (None, None)
        if q is not None and r is not None and None not in edges:
            found.append({"type": "segment", "at": [q, r], "edges": edges})
    for rest in after_word(WORDS, said, "tower"):
        if len(rest) < 7 or (len(rest) - 4) % 3 or reading(WORDS, rest[3], ("group",)) is None:
            continue
        group = [space(rest[at:at + 3]) for at in range(4, len(rest), 3)]
        if (at := space(rest[:3])) is not None and None not in group:
            found.append({"type": "tower", "space": at, "group": group})
    for player in players:
        yield {"type": "pass", "player": player}
        yield from ({**move, "player": player} for move in found)
