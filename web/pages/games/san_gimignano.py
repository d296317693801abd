"""San Gimignano's page: the map drawn as SVG (the segments with their letters, the guild spaces,
tokens and towers), each player's towers, tokens and segments, and every group a player could
build a tower on now.

The map follows the engine's geometry (:mod:`companion.games.san_gimignano.geometry`): segments
are pointy-topped hexagons at axial ``(q, r)``, edge ``i`` faces ``(q, r) + D[i]`` clockwise from
the upper right, and a guild's space is the rhombus over its two edges, as the touchscreen draws
it. The groups are the engine's summary's ``buildable``, named as every text names a space
("Guild 2 on B").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup

from companion.games.base import Game
from companion.games.descriptor import split_words
from companion.games.san_gimignano import colours, tables
from companion.games.san_gimignano.descriptor import DESCRIPTOR, GUILD_COLOURS
from companion.games.san_gimignano.drawing import View
from companion.games.san_gimignano.geometry import first_edges, guild_word, labels, space_name
from companion.games.san_gimignano.state import State
from companion.games.san_gimignano.views import summary as summary_of
from web.pages.games import WebPart
from web.pages.people import Person
from web.pages.svg import BACKGROUND, OUTLINE, badge, drawing, element, points, text_on
from web.pages.words import Words

#: A segment's circumradius in the drawing's units (the drawing scales to the page's width).
SIZE = 60.0
#: Where the map draws: the core's geometry with SVG's ``y`` growing downwards, ``(0, 0)`` at the origin.
VIEW = View(SIZE, (0.0, 0.0), y_up=False)
#: The guilds' colours in setup order: the table's default guild colours (the setting's default,
#: red, blue, green, yellow), from the core's one table the touchscreen draws with too.
GUILD_HEX = tuple(colours.GUILD_HEX[name] for name in split_words(
    next(setting.default for setting in DESCRIPTOR.settings if setting.key == GUILD_COLOURS)))

Point = tuple[float, float]


def _towards(centre: Point, corner: Point, factor: float) -> Point:
    """``corner`` moved towards ``centre`` (a ring drawn inside its space, not over the neighbours)."""
    return (centre[0] + (corner[0] - centre[0]) * factor, centre[1] + (corner[1] - centre[1]) * factor)


def guild_colours(guilds: Sequence[str]) -> dict[str, str]:
    """Each guild (in setup order) with the colour it is drawn in."""
    return {guild: GUILD_HEX[index % len(GUILD_HEX)] for index, guild in enumerate(guilds)}


#: The two tones of the ring round a space someone could build on (the touchscreen's RING_LIGHT and
#: RING_DARK: on every guild colour one of them stands out).
RING = ("#000000", "#ffd978")


def map_svg(state: State, who: Mapping[str, Person], words: Words,
            buildable: frozenset[tuple[int, int, str]] = frozenset()) -> Markup:
    """The laid segments with their guild spaces, tokens and towers, and each segment's letter;
    the spaces of ``buildable`` (the groups someone could build on now) ringed."""
    drawn = guild_colours(state.setup.guilds)
    numbers = {guild: index + 1 for index, guild in enumerate(state.setup.guilds)}
    letters = labels(state.segments)
    shapes: list[Markup] = []
    rings: list[Markup] = []
    pieces: list[Markup] = []
    for at, edges in state.segments.items():
        for guild, first in first_edges(edges).items():
            fill = drawn.get(guild, colours.GUILD_HEX[colours.FALLBACK])
            rhombus = VIEW.rhombus(at, first)
            shapes.append(element("polygon", points=points(rhombus), fill=fill, stroke=BACKGROUND,
                                  stroke_width="2"))
            space = (at[0], at[1], guild)
            if space in buildable:
                inner = points(_towards(VIEW.centre(at), corner, 0.88) for corner in rhombus)
                rings += [element("polygon", points=inner, fill="none", stroke=tone, stroke_width=width)
                          for tone, width in zip(RING, ("7", "3.5"), strict=True)]
            tower = state.towers.get(space)
            tokens = state.tokens.get(space, ())
            if tower is not None:
                (x, y), = VIEW.space_spots(at, first, 1)
                pieces.append(badge((x, y), 16, who[tower].colour, who[tower].tag, square=True))
            elif tokens:
                for (x, y), player in zip(VIEW.space_spots(at, first, len(tokens)), tokens, strict=True):
                    pieces.append(badge((x, y), 14, who[player].colour, who[player].tag))
            else:
                (x, y), = VIEW.space_spots(at, first, 1)
                pieces.append(element("text", str(numbers.get(guild, "")), x=f"{x:.1f}", y=f"{y + 6:.1f}",
                                      fill=text_on(fill), font_size="17", font_weight="bold",
                                      text_anchor="middle"))
        cx, cy = VIEW.centre(at)
        pieces.append(element("circle", cx=f"{cx:.1f}", cy=f"{cy:.1f}", r="10", fill=BACKGROUND,
                              stroke=OUTLINE, stroke_width="1"))
        pieces.append(element("text", letters[at], x=f"{cx:.1f}", y=f"{cy + 5:.1f}", fill=OUTLINE,
                              font_size="14", font_weight="bold", text_anchor="middle"))
    every = [corner for at in state.segments for corner in VIEW.hexagon(at)] or [(0.0, 0.0)]
    left, top = min(x for x, _ in every) - 4, min(y for _, y in every) - 4
    right, bottom = max(x for x, _ in every) + 4, max(y for _, y in every) + 4
    moved = (Markup(f'<g transform="translate({-left:.1f} {-top:.1f})">')
             + Markup("").join(shapes + rings + pieces) + Markup("</g>"))
    label = words("web.san_gimignano.map", segments=len(state.segments))
    return drawing(right - left, bottom - top, [moved], label, natural=True)


def context(game: Game[Any, Any], state: State, states: Sequence[Any],
            who: Mapping[str, Person], words: Words) -> dict[str, Any]:
    """The map, the guilds' colours, each player's figures and the groups each could build on."""
    summary = summary_of(state, game.name)
    segments = list(state.segments)
    groups = {player: [", ".join(words.say(space_name(tuple(space), segments)) for space in group)
                       for group in found]
              for player, found in summary["buildable"].items()}
    by_hand = state.rules == tables.RULEBOOK
    ringed = frozenset((int(s[0]), int(s[1]), str(s[2])) for found in summary["buildable"].values()
                       for group in found for s in group)
    return {
        "map": map_svg(state, who, words, ringed),
        "guilds": [(colour, words.say(guild_word(guild)))
                   for guild, colour in guild_colours(state.setup.guilds).items()],
        "players": [{"person": who[p], "towers": summary["towers"][p], "tokens": summary["tokens"][p],
                     "hand": state.segments_left(p) if by_hand else None,
                     "groups": groups.get(p, []), "must_build": p in summary["must_build"]}
                    for p in state.players],
        "pool": None if by_hand else state.pool,
    }


PART = WebPart("games/san_gimignano.html", context)
