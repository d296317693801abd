"""San Gimignano (Piatnik 2002): the rules engine.

The engine keeps the board of hexagonal segments, the tokens and towers, and
checks each move against the rulebook or the author's clarifications (option
``rules``) with groups of four or the continuous-string variant (option
``variant``), as fixed by ``docs/records.md``.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["SanGimignano"]


def __getattr__(name: str) -> Any:
    """``SanGimignano`` on first use (PEP 562): reading the game's descriptor does not import its rules."""
    if name == "SanGimignano":
        return getattr(import_module(f"{__name__}.game"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
