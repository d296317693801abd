"""The shape of a Campanile summary (records.md, "Campanile"): what ``Campanile.summary`` returns.

Typed so that a front end reads ``summary["chips"]`` as ``dict[str, list[int]]``,
not as whatever a string key gives; the keys and their order are the
``replay --json`` output's.
"""

from __future__ import annotations

from typing import TypedDict

from companion.games.base import Summary
from companion.games.messages import Message, Words


class StackJson(TypedDict):
    """One player's markers on a tower, bottom first."""

    player: str
    markers: list[int]


class TowerJson(TypedDict):
    tower: str
    height: int
    stack: list[StackJson]


class AwardJson(TypedDict):
    player: str
    points: int


class FlagJson(TypedDict):
    """One tower's flag at a valuation: its rank, the flag's values, the influence and the points."""

    tower: str
    rank: int
    flag: list[int]
    influence: dict[str, int]
    awards: list[AwardJson]


class ValuationJson(TypedDict):
    phase: str
    flags: list[FlagJson]


class Explanation(TypedDict):
    """Why a flag went as it did: the sentences, and the same as one English text when written out."""

    phase: str
    tower: str
    text: Words
    sentences: list[Message]


class CampanileSummary(Summary):
    towers: list[TowerJson]
    chips: dict[str, list[int]]
    valuations: list[ValuationJson]
    phase: str
    markers_left: dict[str, dict[str, int]]
    display: list[str] | None
    explanations: list[Explanation]
    win_reason: Message | None
