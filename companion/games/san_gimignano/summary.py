"""The shape of a San Gimignano summary (records.md, "San Gimignano"): what ``views.summary`` returns.

Typed so that a front end reads ``summary["buildable"]`` as each player's
groups, not as whatever a string key gives; the keys and their order are the
``replay --json`` output's.
"""

from __future__ import annotations

from typing import Any, TypedDict

from companion.games.base import Summary


class SpaceJson(TypedDict):
    """A space (``[q, r, guild]``), its tokens in placement order and its tower's owner."""

    space: list[Any]
    tokens: list[str]
    tower: str | None


class SanGimignanoSummary(Summary):
    towers: dict[str, int]
    tokens: dict[str, int]
    #: Each player's groups they could build a tower on now, each a sorted list of spaces.
    buildable: dict[str, list[list[list[Any]]]]
    must_build: list[str]
    board: list[SpaceJson]
    segments_left: dict[str, int]
