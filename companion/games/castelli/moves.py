"""Castelli's moves: small frozen dataclasses, one per record move type, and their JSON.

``parse_move`` checks structure only (fields, types, ranges); whether a move is
legal now is the engine's job. ``move_to_json`` writes every field back, so a
move survives a round trip unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.base import RecordError
from companion.games.castelli import tables
from companion.games.fields import (
    check_keys,
    check_player,
    get_bool,
    get_int,
    get_str,
    get_text,
    require_object,
    type_name,
)
from companion.games.messages import Message, msg

Shields = tuple[tuple[str, "int | str"], ...]


@dataclass(frozen=True)
class Reveal:
    """P turns a tile face up on ``space``; ``shields`` in N, E, S, W order."""

    player: str
    space: str
    shields: Shields
    silver: int = 0
    swap: bool = False


@dataclass(frozen=True)
class Steward:
    """Q turns the tile just revealed by another player; ``shields`` as they now lie."""

    player: str
    shields: Shields


@dataclass(frozen=True)
class Build:
    """P builds a castle in ``area`` (on top of ``on``'s castle with Battle)."""

    player: str
    area: str
    silver_for: str | None = None
    card: str | None = None
    on: str | None = None


@dataclass(frozen=True)
class Guard:
    """Battle: Q's Guard cancels the build on top of Q's castle that just happened."""

    player: str


@dataclass(frozen=True)
class Play:
    """P plays a character card in its own turn; ``value``/``target``/``area`` as the card needs."""

    player: str
    card: str
    value: int | None = None
    target: str | None = None
    area: str | None = None


@dataclass(frozen=True)
class Sell:
    """P sells ``cards`` cards to the mine for 2 silver each."""

    player: str
    cards: int


@dataclass(frozen=True)
class End:
    """The table ends the game after the last tile's turn: the mine, then final scoring.

    ``group`` (1 or 2) names the game of a Championship round that ends; ``None`` in a base game.
    """

    player: None = None
    group: int | None = None


Move = Reveal | Steward | Build | Guard | Play | Sell | End

#: The record's move types, as ``type`` names them.
MOVE_TYPES: tuple[str, ...] = ("reveal", "steward", "build", "guard", "play", "sell", "end")

#: The extra field each played card needs (None: none).
CARD_FIELD = {"king": "value", "traitor": "target", "peasant": "area", "prince": "area",
              "arsonist": "area"}


def parse_shields(data: Mapping[str, Any], key: str = "shields") -> Shields:
    """The four shields of a tile, checked: each ``[colour, 1–6 or "card"]``, four colours."""
    raw = data.get(key)
    if raw is None:
        raise RecordError(msg("castelli.shields.missing", key=key))
    if not isinstance(raw, dict):
        raise RecordError(msg("castelli.shields.not_object", key=key, type=type_name(raw)))
    check_keys(raw, required=tables.SIDES, path=key)
    shields = []
    for side in tables.SIDES:
        item = raw[side]
        ok = (isinstance(item, list) and len(item) == 2 and item[0] in tables.COLORS
              and ((isinstance(item[1], int) and not isinstance(item[1], bool)
                    and item[1] in tables.SHIELD_VALUES) or item[1] == tables.CARD_SHIELD))
        if not ok:
            raise RecordError(msg("castelli.shields.side", key=key, side=side,
                                  colours=", ".join(tables.COLORS)))
        shields.append((item[0], item[1]))
    colours = [c for c, _ in shields]
    if len(set(colours)) != 4:
        raise RecordError(msg("castelli.shields.colours", key=key, colours=", ".join(colours)))
    return tuple(shields)


def shields_json(shields: Shields) -> dict[str, list[Any]]:
    """The record form of a tile's shields."""
    return {side: [colour, value] for side, (colour, value) in zip(tables.SIDES, shields, strict=True)}


def parse_move(data: object) -> Move:
    """A move from its record JSON; :class:`RecordError` names the bad field."""
    data = require_object(data)
    kind = data.get("type")
    parse = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parse is None:
        raise RecordError(msg("castelli.move.type", types=", ".join(MOVE_TYPES), shown=_shown(kind)))
    return parse(data)


def _reveal(data: Mapping[str, Any]) -> Reveal:
    check_keys(data, required=("type", "player", "space", "shields"), optional=("silver", "swap"))
    return Reveal(check_player(data), get_text(data, "space"), parse_shields(data),
                  get_int(data, "silver", low=0, high=2, default=0) or 0,
                  get_bool(data, "swap"))


def _steward(data: Mapping[str, Any]) -> Steward:
    check_keys(data, required=("type", "player", "shields"))
    return Steward(check_player(data), parse_shields(data))


def _build(data: Mapping[str, Any]) -> Build:
    """A build; the card it uses must be a build card (a top-build card when built ``on`` a castle)."""
    check_keys(data, required=("type", "player", "area"), optional=("silver_for", "card", "on"))
    on = get_str(data, "on")
    cards = tables.TOP_BUILD_CARDS if on is not None else tables.BUILD_CARDS
    card = data.get("card")
    if card is not None and card not in cards:
        if on is not None:
            raise RecordError(msg("castelli.move.build_card_on", cards=", ".join(cards),
                                  shown=_shown(card)))
        raise RecordError(msg("castelli.move.build_card", cards=", ".join(cards), shown=_shown(card)))
    return Build(check_player(data), get_text(data, "area"),
                 get_str(data, "silver_for", choices=tables.RESOURCES), card, on)


def _guard(data: Mapping[str, Any]) -> Guard:
    check_keys(data, required=("type", "player"))
    return Guard(check_player(data))


def _play(data: Mapping[str, Any]) -> Play:
    """A card played in a turn, with the one field its card needs (a King's value is checked here)."""
    card = _played_card(data.get("card"))
    extra = CARD_FIELD.get(card)
    required = ("type", "player", "card") + ((extra,) if extra else ())
    check_keys(data, required=required)
    player = check_player(data)
    if card == "king":
        value = get_int(data, "value", required=True)
        if value not in tables.KING_VALUES:
            raise RecordError(msg("castelli.move.king_value",
                                  values=", ".join(map(str, tables.KING_VALUES)), value=value))
        return Play(player, card, value=value)
    if card == "traitor":
        return Play(player, card, target=get_text(data, "target"))
    if extra == "area":
        return Play(player, card, area=get_text(data, "area"))
    return Play(player, card)


def _played_card(card: object) -> str:
    """``card`` if it is played on its own; a card that is its own move or goes with a build says so."""
    if card in tables.PLAY_CARDS:
        return str(card)
    choices = ", ".join(tables.PLAY_CARDS)
    if card == "steward" or card == "guard":
        raise RecordError(msg("castelli.move.play_card_own_move", cards=choices,
                              shown=_shown(card), card=card))
    if card in tables.BUILD_CARDS or card in tables.TOP_BUILD_CARDS:
        raise RecordError(msg("castelli.move.play_card_with_build", cards=choices,
                              shown=_shown(card), card=card))
    raise RecordError(msg("castelli.move.play_card", cards=choices, shown=_shown(card)))


def _sell(data: Mapping[str, Any]) -> Sell:
    check_keys(data, required=("type", "player", "cards"))
    return Sell(check_player(data), get_int(data, "cards", low=1, required=True) or 1)


def _end(data: Mapping[str, Any]) -> End:
    check_keys(data, required=("type",), optional=("group",))
    return End(group=get_int(data, "group", low=1, high=2))


#: The reader of each move type, by the record's ``type``.
_PARSERS: dict[str, Callable[[Mapping[str, Any]], Move]] = {
    "reveal": _reveal, "steward": _steward, "build": _build, "guard": _guard,
    "play": _play, "sell": _sell, "end": _end,
}


def move_to_json(move: Move) -> dict[str, Any]:
    """The record JSON of a move, every field written out."""
    if isinstance(move, Reveal):
        return {"type": "reveal", "player": move.player, "space": move.space,
                "shields": shields_json(move.shields), "silver": move.silver, "swap": move.swap}
    if isinstance(move, Steward):
        return {"type": "steward", "player": move.player, "shields": shields_json(move.shields)}
    if isinstance(move, Build):
        return {"type": "build", "player": move.player, "area": move.area,
                "silver_for": move.silver_for, "card": move.card, "on": move.on}
    if isinstance(move, Guard):
        return {"type": "guard", "player": move.player}
    if isinstance(move, Play):
        out: dict[str, Any] = {"type": "play", "player": move.player, "card": move.card}
        extra = CARD_FIELD.get(move.card)
        if extra:
            out[extra] = getattr(move, extra)
        return out
    if isinstance(move, Sell):
        return {"type": "sell", "player": move.player, "cards": move.cards}
    if isinstance(move, End):
        return {"type": "end"} if move.group is None else {"type": "end", "group": move.group}
    raise TypeError(f"not a Castelli move: {move!r}")


def _shown(value: object) -> str | Message:
    """A value quoted from a record for a message: a text in quotes, else its type or "missing"."""
    if value is None:
        return msg("castelli.move.missing_value")
    return f'"{value}"' if isinstance(value, str) else type_name(value)
