"""The moves of a Campanile record, one small frozen dataclass each (records.md, Campanile)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.base import RecordError
from companion.games.campanile.tables import PHASES, STORY_CHOICES
from companion.games.fields import check_keys, check_player, get_int, get_str, get_text
from companion.games.messages import msg


@dataclass(frozen=True)
class Build:
    """Play a tower card: raise ``tower`` by ``stories`` (1–3). Starts the player's turn."""

    player: str
    tower: str
    stories: int


@dataclass(frozen=True)
class Influence:
    """Place a marker of this turn's story value under ``tower``."""

    player: str
    tower: str


@dataclass(frozen=True)
class Relocate:
    """The optional 2-player rule: move an own value-2 marker from one tower to another."""

    player: str
    source: str
    target: str


@dataclass(frozen=True)
class Take:
    """Take a face-up ``card`` (a tower style) from the general display."""

    player: str
    card: str


@dataclass(frozen=True)
class Reveal:
    """Turn the top card of the pile face up into the display."""

    card: str


@dataclass(frozen=True)
class Valuation:
    """The Intermezzo or Finito card was turned over."""

    phase: str


Move = Build | Influence | Relocate | Take | Reveal | Valuation

MOVE_TYPES = ("build", "influence", "relocate", "take", "reveal", "valuation")


def parse_move(data: Mapping[str, Any]) -> Move:
    """A move from its record JSON; :class:`RecordError` names the bad field."""
    kind = get_str(data, "type", choices=MOVE_TYPES, required=True)
    if kind == "build":
        check_keys(data, required=("type", "player", "tower", "stories"))
        stories = data["stories"]
        if isinstance(stories, bool) or stories not in STORY_CHOICES:
            raise RecordError(msg("campanile.build.stories"))
        return Build(check_player(data), get_text(data, "tower"), get_int(data, "stories"))  # type: ignore[arg-type]
    if kind == "influence":
        check_keys(data, required=("type", "player", "tower"))
        return Influence(check_player(data), get_text(data, "tower"))
    if kind == "relocate":
        check_keys(data, required=("type", "player", "from", "to"))
        return Relocate(check_player(data), get_text(data, "from"), get_text(data, "to"))
    if kind == "take":
        check_keys(data, required=("type", "player", "card"))
        return Take(check_player(data), get_text(data, "card"))
    if kind == "reveal":
        check_keys(data, required=("type", "card"))
        return Reveal(get_text(data, "card"))
    check_keys(data, required=("type", "phase"))
    return Valuation(get_text(data, "phase", choices=PHASES))


def move_to_json(move: Move) -> dict[str, Any]:
    """The record JSON of ``move``."""
    match move:
        case Build(player, tower, stories):
            return {"type": "build", "player": player, "tower": tower, "stories": stories}
        case Influence(player, tower):
            return {"type": "influence", "player": player, "tower": tower}
        case Relocate(player, source, target):
            return {"type": "relocate", "player": player, "from": source, "to": target}
        case Take(player, card):
            return {"type": "take", "player": player, "card": card}
        case Reveal(card):
            return {"type": "reveal", "card": card}
        case Valuation(phase):
            return {"type": "valuation", "phase": phase}
    raise TypeError(f"not a Campanile move: {move!r}")
