"""The Castelli board as data: areas, tile spaces and settlements, with validation.

The real board's layout is not in the rulebook, so boards come from records
(inline) or from example layouts shipped in ``layouts/``. A board is checked
once, with messages that name the offending field, and then shared, unchanged,
by every state of a game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from typing import Any

from companion.games.base import RecordError
from companion.games.castelli import tables
from companion.games.castelli.words import kind as kind_word
from companion.games.fields import check_keys, get_int, require_object, type_name
from companion.games.messages import Message, msg

FRAME_PREFIX = "frame:"


@dataclass(frozen=True)
class Area:
    """One octagonal area: its kind, what evaluating it gives, and its ``[row, column]``."""

    name: str
    kind: str
    at: tuple[int, int]
    amount: int = 0  # yield (forest/field/rock) or tents (market); 0 for mine and plain
    spots: int = 0  # castle places (rock only)


@dataclass(frozen=True)
class Space:
    """One square tile space; ``sides`` names an area or ``frame:GIFT`` for N, E, S, W."""

    name: str
    at: tuple[int, int]
    sides: tuple[str, str, str, str]


@dataclass(frozen=True)
class Board:
    """A validated board. ``borders`` lists, per area, the (space, side index) pairs facing it."""

    areas: Mapping[str, Area]
    spaces: Mapping[str, Space]
    settlements: Mapping[str, str]
    borders: Mapping[str, tuple[tuple[str, int], ...]]
    name: str | None = None

    @property
    def mine(self) -> str | None:
        """The mine area's name (a board has at most one)."""
        for area in self.areas.values():
            if area.kind == "mine":
                return area.name
        return None

    @cached_property
    def origin(self) -> tuple[int, int]:
        """The first row and column the board uses: the top-left corner of the drawn board."""
        cells = [a.at for a in self.areas.values()] + [s.at for s in self.spaces.values()]
        return min(r for r, _ in cells), min(c for _, c in cells)

    def position(self, name: str) -> tuple[int, int]:
        """An area's or a space's row and column counted from 1 on the drawn board (top left).

        Players do not know the record's names (``a22``, ``s03``): every text
        names a place by what it is and where it lies, as they see it.
        """
        thing = self.areas.get(name) or self.spaces[name]
        top, left = self.origin
        return thing.at[0] - top + 1, thing.at[1] - left + 1

    @cached_property
    def at_position(self) -> Mapping[tuple[int, int], str]:
        """The area or space at each (row, column) of :meth:`position`: how a typed place is read."""
        return {self.position(name): name for name in (*self.areas, *self.spaces)}

    def where(self, name: str) -> Message:
        """Where a place lies, in words: "row 2, column 3"."""
        row, column = self.position(name)
        return msg("castelli.place.at", row=row, column=column)

    def place(self, name: str) -> Message:
        """An area by what it is and where ("the forest in row 2, column 3"), a space by where it lies."""
        if name not in self.areas:
            return self.where(name)
        return msg("castelli.place.area", kind=kind_word(self.areas[name].kind), at=self.where(name))

    def label(self, name: str) -> Message:
        """An area as a heading or a short line names it ("forest, row 2, column 3"); a space by where."""
        if name not in self.areas:
            return self.where(name)
        return msg("castelli.place.label", kind=kind_word(self.areas[name].kind), at=self.where(name))


def _position(value: object, path: str) -> tuple[int, int]:
    if (not isinstance(value, list) or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in value)):
        raise RecordError(msg("castelli.board.at"), path)
    return (value[0], value[1])


def _area(name: str, data: object, path: str) -> Area:
    data = require_object(data, path)
    kind = data.get("kind")
    if kind not in tables.AREA_KINDS:
        shown = json.dumps(kind) if kind is not None else msg("castelli.move.missing_value")
        raise RecordError(msg("castelli.board.kind", kinds=", ".join(tables.AREA_KINDS), shown=shown),
                          path)
    optional = ["yield"] if kind in ("forest", "field", "rock") else []
    if kind == "rock":
        optional.append("spots")
    if kind == "market":
        optional.append("tents")
    try:
        check_keys(data, required=("kind", "at"), optional=optional)
    except RecordError as error:
        raise RecordError(msg("castelli.board.field_for_kind", error=error.message,
                              kind=kind_word(kind)), path) from None
    at = _position(data["at"], f"{path}.at")
    amount = 0
    if kind in ("forest", "field", "rock"):
        amount = get_int(data, "yield", low=tables.YIELD_RANGE[0], high=tables.YIELD_RANGE[1],
                         default=tables.DEFAULT_YIELD, path=path) or 0
    elif kind == "market":
        amount = get_int(data, "tents", low=tables.TENTS_RANGE[0], high=tables.TENTS_RANGE[1],
                         default=tables.DEFAULT_TENTS, path=path) or 0
    spots = 0
    if kind == "rock":
        spots = get_int(data, "spots", low=tables.SPOTS_RANGE[0], high=tables.SPOTS_RANGE[1],
                        default=tables.DEFAULT_SPOTS, path=path) or 0
    return Area(name, kind, at, amount, spots)


def _space(name: str, data: object, areas: Mapping[str, Area], path: str) -> Space:
    data = require_object(data, path)
    check_keys(data, required=("at", "sides"), path=path)
    at = _position(data["at"], f"{path}.at")
    sides_data = require_object(data["sides"], f"{path}.sides")
    check_keys(sides_data, required=tables.SIDES, path=f"{path}.sides")
    sides = []
    for side in tables.SIDES:
        target = sides_data[side]
        where = f"{path}.sides.{side}"
        if not isinstance(target, str):
            raise RecordError(msg("castelli.board.side_type", type=type_name(target)), where)
        if target.startswith(FRAME_PREFIX):
            gift = target[len(FRAME_PREFIX):]
            if gift not in tables.FRAME_GIFTS:
                raise RecordError(msg("castelli.board.frame_gift", gifts=", ".join(tables.FRAME_GIFTS),
                                      gift=gift), where)
        elif target not in areas:
            raise RecordError(msg("castelli.board.no_area", area=target), where)
        sides.append(target)
    return Space(name, at, (sides[0], sides[1], sides[2], sides[3]))


def validate_board(data: object, name: str | None = None) -> Board:
    """A :class:`Board` from its inline JSON, or :class:`RecordError` with the field's path.

    Paths are relative to the board (``spaces.s12.sides.N``); callers put them
    under ``setup.board``. The store can call this before saving a layout.
    The checks run in a fixed order (areas, spaces, borders, settlements), so
    a board with several faults is always refused for the same one.
    """
    data = require_object(data, "")
    check_keys(data, required=("areas", "spaces"), optional=("settlements",))
    areas = _areas(data["areas"])
    spaces = _spaces(data["spaces"], areas)
    borders = _borders(areas, spaces)
    raw = data.get("settlements")
    settlements = _settlements(raw, areas) if raw is not None else {}
    return Board(areas, spaces, settlements, borders, name)


def _areas(raw: object) -> dict[str, Area]:
    """The board's areas, each checked, then checked together: at most one mine, one area per place."""
    areas_data = require_object(raw, "areas")
    if not areas_data:
        raise RecordError(msg("castelli.board.no_areas"), "areas")
    areas = {area_name: _area(area_name, area_data, f"areas.{area_name}")
             for area_name, area_data in areas_data.items()}
    mines = [a.name for a in areas.values() if a.kind == "mine"]
    if len(mines) > 1:
        raise RecordError(msg("castelli.board.mines", mines=mines), "areas")
    seen: dict[tuple[int, int], str] = {}
    for area in areas.values():
        if area.at in seen:
            raise RecordError(msg("castelli.board.area_at", area=area.name, at=str(list(area.at)),
                                  other=seen[area.at]), f"areas.{area.name}.at")
        seen[area.at] = area.name
    return areas


def _spaces(raw: object, areas: Mapping[str, Area]) -> dict[str, Space]:
    """The board's tile spaces, each checked against the areas, one space per place."""
    spaces_data = require_object(raw, "spaces")
    if not spaces_data:
        raise RecordError(msg("castelli.board.no_spaces"), "spaces")
    spaces: dict[str, Space] = {}
    seen: dict[tuple[int, int], str] = {}
    for space_name, space_data in spaces_data.items():
        space = _space(space_name, space_data, areas, f"spaces.{space_name}")
        if space.at in seen:
            raise RecordError(msg("castelli.board.space_at", space=space_name, at=str(list(space.at)),
                                  other=seen[space.at]), f"spaces.{space_name}.at")
        seen[space.at] = space_name
        spaces[space_name] = space
    return spaces


def _borders(areas: Mapping[str, Area],
             spaces: Mapping[str, Space]) -> dict[str, tuple[tuple[str, int], ...]]:
    """Per area, the (space, side) pairs facing it; every area but a plain needs one to be evaluated."""
    borders: dict[str, list[tuple[str, int]]] = {a: [] for a in areas}
    for space in spaces.values():
        for index, target in enumerate(space.sides):
            if target in borders:
                borders[target].append((space.name, index))
    for area in areas.values():
        if area.kind != "plain" and not borders[area.name]:
            raise RecordError(msg("castelli.board.unbordered", kind=kind_word(area.kind)),
                              f"areas.{area.name}")
    return {a: tuple(b) for a, b in borders.items()}


def _settlements(raw: object, areas: Mapping[str, Area]) -> dict[str, str]:
    """The printed villages and towns: each on a plain, no more of a kind than the box holds."""
    raw = require_object(raw, "settlements")
    settlements: dict[str, str] = {}
    for area_name, kind in raw.items():
        where = f"settlements.{area_name}"
        if area_name not in areas:
            raise RecordError(msg("castelli.board.no_area", area=area_name), where)
        if areas[area_name].kind != "plain":
            raise RecordError(msg("castelli.board.settlement_not_plain", area=area_name,
                                  kind=kind_word(areas[area_name].kind)), where)
        if kind not in tables.SETTLEMENT_KINDS:
            raise RecordError(msg("castelli.board.settlement_kind", shown=json.dumps(kind)), where)
        settlements[area_name] = kind
    for kind, supply in tables.SETTLEMENT_SUPPLY.items():
        count = sum(1 for k in settlements.values() if k == kind)
        if count > supply and kind == "village":
            raise RecordError(msg("castelli.board.too_many_villages", supply=supply, count=count),
                              "settlements")
        if count > supply:
            raise RecordError(msg("castelli.board.too_many_towns", supply=supply, count=count),
                              "settlements")
    return settlements


def board_to_json(board: Board) -> dict[str, Any]:
    """The inline JSON of a board, every default written out (``validate_board`` reads it back)."""
    areas: dict[str, Any] = {}
    for area in board.areas.values():
        entry: dict[str, Any] = {"kind": area.kind, "at": list(area.at)}
        if area.kind in ("forest", "field", "rock"):
            entry["yield"] = area.amount
        if area.kind == "rock":
            entry["spots"] = area.spots
        if area.kind == "market":
            entry["tents"] = area.amount
        areas[area.name] = entry
    spaces = {s.name: {"at": list(s.at), "sides": dict(zip(tables.SIDES, s.sides, strict=True))}
              for s in board.spaces.values()}
    return {"areas": areas, "spaces": spaces, "settlements": dict(board.settlements)}


def layout_names() -> tuple[str, ...]:
    """The board layouts the package ships (example layouts; the real board is not published)."""
    folder = resources.files("companion.games.castelli").joinpath("layouts")
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json")))


@cache
def load_layout(name: str) -> Board:
    """A shipped layout by name, validated; :class:`RecordError` for an unknown name."""
    if name not in layout_names():
        raise RecordError(msg("castelli.board.unknown_layout", name=name, layouts=list(layout_names())))
    text = resources.files("companion.games.castelli").joinpath(f"layouts/{name}.json").read_text(
        encoding="utf-8")
    data = json.loads(text)
    data.pop("comment", None)
    try:
        return validate_board(data, name)
    except RecordError as error:
        raise error.within(f"layout {name}") from None
