"""The shape of a Castelli summary (records.md, "Castelli"): what ``Castelli.summary`` returns.

Typed so that a front end reads ``summary["resources"]`` as a player's
``wood``/``grain``/``stone`` counts, not as whatever a string key gives; the
keys and their order are the ``replay --json`` output's (``final`` only once
the game is over).
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from companion.games.base import Summary
from companion.games.messages import Words


class Explanation(TypedDict):
    """An evaluated (or noted) area: the explanation's code and parameters, and its English line."""

    area: str
    kind: str
    code: str
    params: dict[str, Any]
    text: Words


class FinalPart(TypedDict, total=False):
    """The final scoring's lines per player: in a summary only once the game is over."""

    final: dict[str, dict[str, int]]


class ShortfallJson(TypedDict):
    """A card icon or frame gift the deck could not pay in full: who, from what, how many of how many."""

    player: str
    source: str
    gained: int
    due: int
    code: str
    params: dict[str, Any]
    text: Words


class ShortfallPart(TypedDict, total=False):
    """The shortfalls of a game: in a summary only when the deck ever ran short of a card due."""

    shortfalls: list[ShortfallJson]


class CastelliSummary(Summary):
    resources: dict[str, dict[str, int]]
    #: Each player's silver, and the mine's under ``"mine"``.
    silver: dict[str, int]
    cards: dict[str, int]
    castles: dict[str, int]
    evaluations: list[dict[str, Any]]
    #: The final scoring's lines per player, once the game is over.
    final: NotRequired[dict[str, dict[str, int]]]
    explanations: list[Explanation]
    not_evaluated: list[Explanation]
    #: Card icons and frame gifts the deck could not pay in full, when there were any.
    shortfalls: NotRequired[list[ShortfallJson]]


class RoundSummary(Summary):
    """A Championship round's summary (records.md, "Castelli Championship"): the fields every summary
    has over all four players (``winners``: each group's; ``turn``: ``None``, both groups act at
    once), each group's own summary, and the cards left in the one deck."""

    groups: list[CastelliSummary]
    deck: int
