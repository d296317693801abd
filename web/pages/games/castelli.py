"""Castelli's page: each player's score, resources, silver, cards and castles; every evaluation with
its explanation; the final scoring (or what it would give now); the board drawn as SVG with the
tiles revealed so far.

The figures are the engine's (``views.player_views``, ``views.preview_final``), the explanations its
messages (``views.evaluation_line``: the area by what it is and where it lies), the board its
``Board`` (areas and tile spaces on a grid of rows and columns, as the touchscreen draws it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from markupsafe import Markup

from companion.games.base import Game
from companion.games.castelli import tables
from companion.games.castelli.board import FRAME_PREFIX
from companion.games.castelli.state import State
from companion.games.castelli.views import evaluation_line, player_views, preview_final
from companion.games.castelli.words import kind as kind_word
from companion.games.castelli.words import resource as resource_word
from web.pages.games import WebPart
from web.pages.people import Person
from web.pages.svg import BACKGROUND, OUTLINE, badge, drawing, element, piece_hex, points, text_on
from web.pages.words import Words

#: A grid cell's size in the drawing's units (the drawing scales to the page's width).
CELL = 48.0
#: The areas' colours by kind (the touchscreen's board palette, ``ui/games/castelli/drawing.py``).
KIND_HEX = {"forest": "#19692b", "field": "#a78941", "rock": "#3f4352", "market": "#8d19bb",
            "mine": "#586783", "plain": "#645e58"}
#: A tile still face down.
FACE_DOWN = "#1b2f4a"
#: The frame's gifts by what they give (the touchscreen's palette), drawn as a bar beside the side
#: of a tile space that faces the frame.
GIFT_HEX = {"wood": "#7a472e", "grain": "#dca838", "stone": "#8a8b94", "silver": "#b7c0c9",
            "card": "#f2f4f7", "neutral": "#56585c"}
#: The room round the grid for the frame's bars, in the drawing's units.
FRAME = 14.0
#: A card drawn on a tile's side where the shield is a card (worth nothing), as the touchscreen draws it.
CARD_FILL = "#f2f4f7"


def _octagon(x: float, y: float, size: float) -> list[tuple[float, float]]:
    cut = size * (1 - 1 / (1 + math.sqrt(2))) / 2
    return [(x + cut, y), (x + size - cut, y), (x + size, y + cut), (x + size, y + size - cut),
            (x + size - cut, y + size), (x + cut, y + size), (x, y + size - cut), (x, y + cut)]


def _area(state: State, name: str, x: float, y: float, who: Mapping[str, Person]) -> list[Markup]:
    area = state.board.areas[name]
    fill = KIND_HEX.get(area.kind, "#645e58")
    pad = 2.0
    parts = [element("polygon", points=points(_octagon(x + pad, y + pad, CELL - 2 * pad)), fill=fill,
                     stroke=BACKGROUND, stroke_width="1",
                     opacity="0.55" if name in state.done and not state.finished else None)]
    figure = state.mine if area.kind == "mine" else area.amount
    if area.kind in ("forest", "field"):  # told apart by their sign, as on the touchscreen, not by colour
        for dx in (-0.3, 0.3):
            parts += sign(area.kind, x + CELL / 2 + dx * CELL, y + CELL / 2, CELL * 0.22, TINT[area.kind])
    if area.kind != "plain":
        parts.append(element("text", str(figure), x=f"{x + CELL / 2:.1f}", y=f"{y + CELL / 2 + 6:.1f}",
                             fill=text_on(fill), font_size="17", font_weight="bold", text_anchor="middle"))
    settlement = state.settlements.get(name)
    if settlement:
        count = tables.SETTLEMENT_POINTS.get(settlement, 1)
        for i in range(count):
            parts.append(element("rect", x=f"{x + CELL / 2 - 5 * count + 10 * i + 1:.1f}",
                                 y=f"{y + CELL / 2 - 6:.1f}", width="8", height="12", fill=OUTLINE,
                                 stroke=BACKGROUND, stroke_width="1"))
    stacks = state.castles.get(name, ())
    for i, stack in enumerate(stacks):
        if stack:
            top = who[stack[-1]]
            parts.append(badge((x + 12 + 18 * i, y + CELL - 12), 9, top.colour, top.tag, square=True))
    return parts


def _space(state: State, name: str, x: float, y: float) -> list[Markup]:
    shields = state.revealed.get(name)
    if shields is None:
        return [element("rect", x=f"{x + 3:.1f}", y=f"{y + 3:.1f}", width=f"{CELL - 6:.1f}",
                        height=f"{CELL - 6:.1f}", rx="3", fill=FACE_DOWN, stroke=OUTLINE, stroke_width="1")]
    c = (x + CELL / 2, y + CELL / 2)
    corners = [(x, y), (x + CELL, y), (x + CELL, y + CELL), (x, y + CELL)]
    parts = []
    for side, (colour, value) in enumerate(shields):  # N, E, S, W: each a triangle to the centre
        fill = piece_hex(colour)
        triangle = [corners[side], corners[(side + 1) % 4], c]
        parts.append(element("polygon", points=points(triangle), fill=fill, stroke=BACKGROUND,
                             stroke_width="1"))
        tx = sum(p[0] for p in triangle) / 3
        ty = sum(p[1] for p in triangle) / 3
        if value == tables.CARD_SHIELD:
            parts.append(element("rect", x=f"{tx - 4:.1f}", y=f"{ty - 6:.1f}", width="8", height="12",
                                 rx="1.5", fill=CARD_FILL, stroke=BACKGROUND, stroke_width="1.5"))
            continue
        parts.append(element("text", str(value), x=f"{tx:.1f}", y=f"{ty + 5:.1f}", fill=text_on(fill),
                             font_size="14", font_weight="bold", text_anchor="middle"))
    return parts


def board_svg(state: State, who: Mapping[str, Person], words: Words) -> Markup:
    """The board: each area an octagon in its kind's colour with its yield (the mine: its silver),
    settlements and the top castle of each stack; each tile space face down, or its four shields."""
    board = state.board
    top, left = board.origin
    cells = [a.at for a in board.areas.values()] + [s.at for s in board.spaces.values()]
    rows = max(r for r, _ in cells) - top + 1
    columns = max(c for _, c in cells) - left + 1
    parts: list[Markup] = []
    for name, area in board.areas.items():
        x, y = FRAME + (area.at[1] - left) * CELL, FRAME + (area.at[0] - top) * CELL
        parts += _area(state, name, x, y, who)
    for name, space in board.spaces.items():
        x, y = FRAME + (space.at[1] - left) * CELL, FRAME + (space.at[0] - top) * CELL
        parts += _space(state, name, x, y)
        parts += _gifts(space.sides, x, y)
    label = words("web.castelli.board", up=len(state.revealed), spaces=len(board.spaces))
    return drawing(columns * CELL + 2 * FRAME, rows * CELL + 2 * FRAME, parts, label)


def _gifts(sides: Sequence[str], x: float, y: float) -> list[Markup]:
    """A bar in the gift's colour beside each side of a space that faces the frame (N, E, S, W), with
    the gift's sign on a plate at its middle (stone, silver and a neutral piece are three greys)."""
    long, thick, gap = CELL * 0.5, 7.0, 2.0
    along = (CELL - long) / 2
    spots = ((x + along, y - gap - thick, long, thick), (x + CELL + gap, y + along, thick, long),
             (x + along, y + CELL + gap, long, thick), (x - gap - thick, y + along, thick, long))
    bars = []
    for side, (bx, by, width, height) in zip(sides, spots, strict=True):
        if side.startswith(FRAME_PREFIX):
            gift = side[len(FRAME_PREFIX):]
            fill = GIFT_HEX.get(gift, GIFT_HEX["neutral"])
            bars.append(element("rect", x=f"{bx:.1f}", y=f"{by:.1f}", width=f"{width:.1f}",
                                height=f"{height:.1f}", rx="2", fill=fill, stroke=BACKGROUND,
                                stroke_width="1"))
            cx, cy = bx + width / 2, by + height / 2
            bars.append(element("rect", x=f"{cx - GIFT_PLATE / 2:.1f}", y=f"{cy - GIFT_PLATE / 2:.1f}",
                                width=f"{GIFT_PLATE:.1f}", height=f"{GIFT_PLATE:.1f}", rx="2", fill=fill,
                                stroke=BACKGROUND, stroke_width="1"))
            bars += sign(gift, cx, cy, GIFT_PLATE * 0.8, text_on(fill))
    return bars


#: A frame piece's plate for its sign, in the drawing's units.
GIFT_PLATE = 14.0
#: The signs on forests and fields: a shade of the area's own colour (as the touchscreen draws them).
TINT = {"forest": "#5e966b", "field": "#cab88d"}


def sign(kind: str, cx: float, cy: float, size: float, ink: str) -> list[Markup]:
    """The sign of a resource, a gift or an area kind, ``size`` tall centred on (cx, cy) in ``ink``: a
    fir tree (wood, forest), three ears (grain, field), a stone, "$" (silver), a card, a cross
    (nothing); the touchscreen's shapes (``ui/games/castelli/icons.py``), drawn with y downwards."""
    half = size / 2
    if kind in ("wood", "forest"):
        trunk = size * 0.14
        return [element("polygon", points=points([(cx - size * 0.38, cy + half * 0.45),
                                                  (cx + size * 0.38, cy + half * 0.45), (cx, cy - half)]),
                        fill=ink),
                element("rect", x=f"{cx - trunk / 2:.1f}", y=f"{cy + half * 0.45:.1f}", width=f"{trunk:.1f}",
                        height=f"{half * 0.55:.1f}", fill=ink)]
    if kind in ("grain", "field"):
        parts = []
        for offset in (-0.28, 0.0, 0.28):
            ex = cx + offset * size
            parts.append(element("line", x1=f"{ex:.1f}", y1=f"{cy + half:.1f}", x2=f"{ex:.1f}",
                                 y2=f"{cy:.1f}", stroke=ink, stroke_width=f"{max(1.0, size * 0.07):.1f}"))
            parts.append(element("ellipse", cx=f"{ex:.1f}", cy=f"{cy - half * 0.45:.1f}",
                                 rx=f"{size * 0.1:.1f}", ry=f"{size * 0.27:.1f}", fill=ink))
        return parts
    if kind == "stone":
        corners = ((0.95, 0.1), (0.55, 0.85), (-0.35, 0.9), (-0.95, 0.2), (-0.7, -0.75), (0.45, -0.85))
        outline = [(cx + dx * half, cy - dy * half * 0.8) for dx, dy in corners]
        return [element("polygon", points=points(outline), fill=ink)]
    if kind == "silver":
        return [element("text", "$", x=f"{cx:.1f}", y=f"{cy + size * 0.38:.1f}", fill=ink,
                        font_size=f"{size * 1.1:.1f}", font_weight="bold", text_anchor="middle")]
    if kind == "card":
        return [element("rect", x=f"{cx - size * 0.3:.1f}", y=f"{cy - half:.1f}", width=f"{size * 0.6:.1f}",
                        height=f"{size:.1f}", rx="1", fill="none", stroke=ink, stroke_width="1.2")]
    arm = size * 0.35
    return [element("path", d=f"M{cx - arm:.1f},{cy - arm:.1f}L{cx + arm:.1f},{cy + arm:.1f}"
                               f"M{cx + arm:.1f},{cy - arm:.1f}L{cx - arm:.1f},{cy + arm:.1f}",
                    stroke=ink, stroke_width="1.5")]


@runtime_checkable
class Rounds(Protocol):
    """The engine's Championship round, as the page draws it: group by group, each group's game an
    ordinary game's state (docs/architecture.md, "the per-group API")."""

    def is_round(self, state: Any) -> bool: ...
    def group_count(self, state: Any) -> int: ...
    def group_state(self, state: Any, group: int) -> State: ...


def context(game: Game[Any, Any], state: Any, states: Sequence[Any],
            who: Mapping[str, Person], words: Words) -> dict[str, Any]:
    """The game's section: one for a game, one a group for a Championship round (each titled with
    its group and players), with the cards left in the one deck."""
    common = {"resources": [(key, words.say(resource_word(key))) for key in tables.RESOURCES],
              "kinds": [(KIND_HEX[k], words.say(kind_word(k))) for k in tables.AREA_KINDS],
              "gifts": [(GIFT_HEX[g], words(f"web.castelli.gift.{g}")) for g in tables.FRAME_GIFTS]}
    if isinstance(game, Rounds) and game.is_round(state):
        groups = [game.group_state(state, group) for group in range(1, game.group_count(state) + 1)]
        return {**common, "deck": groups[0].deck(), "sections": [
            {"title": words("web.castelli.group", number=number, players=list(group.players)),
             **section(group, who, words)} for number, group in enumerate(groups, 1)]}
    return {**common, "deck": None, "sections": [{"title": "", **section(state, who, words)}]}


def section(state: State, who: Mapping[str, Person], words: Words) -> dict[str, Any]:
    """One game's players' figures, board, evaluations (and what gave nothing, and where the deck
    ran short), and the final scoring (or what it would give now)."""
    views = player_views(state)
    final = preview_final(state)
    return {
        "players": [{"person": who[p], **views[p]} for p in state.players],
        "mine": state.mine,
        "face_down": len(state.board.spaces) - len(state.revealed),
        "spaces": len(state.board.spaces),
        "board": board_svg(state, who, words),
        "evaluations": [words.say(evaluation_line(state.board, e.area, e.explanation))
                        for e in reversed(state.evaluations)],
        "not_evaluated": [words.say(evaluation_line(state.board, n.area, n.explanation))
                          for n in reversed(state.notes)],
        "shortfalls": [words.say(s.explanation) for s in getattr(state, "shortfalls", ())],
        "final_done": state.finished,
        "final": [(who[p], [words(f"castelli.final.{line}", points=points)
                            for line, points in final[p].items()],
                   sum(final[p].values())) for p in state.players if p in final],
    }


PART = WebPart("games/castelli.html", context)
