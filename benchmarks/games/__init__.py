"""Long legal games for the benchmarks, one module per game (``benchmarks/games/<game>.py``).

Each game's module has ``games(quick)``, the benchmark games as :class:`Spec`;
:mod:`benchmarks.legal_games` finds them through the registry's descriptors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

FORMAT = "companion-record/1"


@dataclass(frozen=True)
class Spec:
    """One benchmark game: a label for people and the record."""

    label: str
    record: dict[str, Any]
