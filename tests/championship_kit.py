"""Championship rounds played to a chosen end, for the championship's tests.

A round's two groups are played by :func:`round_moves`: each player reveals
tiles in turn from the engine's own legal moves, and the tiles' faces are
chosen (they are what the table observes, so a record may say anything a real
tile shows) so that nobody gains anything from the board: every frame side
shows a colour nobody plays in that group, every area side shows the players'
colours at 1 and the others' at 6, so a colour nobody plays in the group has
the most everywhere and the area gives nothing. The one difference between the
two players is the silver on the tiles: a group's chosen winner finds 1 silver
on its first tile (the most silver is worth 4 points at the end), and a group
with no chosen winner ends level, a shared win. The moves are worked out on the
engine alone (fast), then entered as the table enters them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.base import Game

COLOURS = ("blue", "yellow", "red", "green")


def _frame_sides(board: Any, space: str) -> int:
    return sum(side.startswith("frame:") for side in board.spaces[space].sides)


def _faces(board: Any, space: str, players: set[str], others: list[str],
           covered: set[str]) -> dict[str, list[Any]]:
    """The faces of the tile for ``space``: ``others`` (colours nobody in the group plays) on the frame,
    then towards the areas no such colour faces yet (``covered``: those that have one)."""
    sides = board.spaces[space].sides
    frame = [i for i, side in enumerate(sides) if side.startswith("frame:")]
    inner = sorted((i for i in range(4) if i not in frame), key=lambda i: sides[i] in covered)
    order = [*frame, *inner]
    colours = [*others, *sorted(players)]
    faces = {index: [colour, 1 if colour in players else 6]
             for index, colour in zip(order, colours, strict=True)}
    covered.update(sides[i] for i in inner if faces[i][0] in others)
    return {"NESW"[i]: faces[i] for i in range(4)}


def round_moves(game: Game[Any, Any], state: Any, winners: Sequence[str | None]) -> list[dict[str, Any]]:
    """Every move of a round from ``state`` to both groups' ends, the groups' moves interleaved;
    ``winners[g]``: the player who wins group ``g + 1``'s game, or ``None`` for a shared win."""
    moves: list[dict[str, Any]] = []
    silver_given: set[str] = set()
    covered: list[set[str]] = [set(), set()]
    ended = [False, False]
    while not all(ended):
        for index in (0, 1):
            if ended[index]:
                continue
            move = _next_move(game, state, index, winners[index], silver_given, covered[index])
            if move["type"] == "end":
                ended[index] = True
            state = game.apply(state, game.parse_move(move))
            moves.append(move)
    return moves


def _next_move(game: Game[Any, Any], state: Any, index: int, winner: str | None,
               silver_given: set[str], covered: set[str]) -> dict[str, Any]:
    group = state.groups[index]
    players = set(group.players)
    reveals = [m for m in game.legal_moves(state)
               if m["type"] == "reveal" and m["player"] in players and not m.get("swap")]
    # the tiles with fewer frame sides first, so a corner's neutral colours are not all on its frame
    # while an area beside it has none
    reveal = min(reveals, key=lambda m: (_frame_sides(group.board, m["space"]), m["space"]), default=None)
    if reveal is None:
        return {"type": "end", "group": index + 1}
    colours = {group.colors[p] for p in players}
    others = [c for c in COLOURS if c not in colours]
    silver = 1 if reveal["player"] == winner and winner not in silver_given else 0
    if silver:
        silver_given.add(winner or "")
    return {"type": "reveal", "player": reveal["player"], "space": reveal["space"],
            "shields": _faces(group.board, reveal["space"], colours, others, covered), "silver": silver}
