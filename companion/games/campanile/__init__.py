"""Campanile (DDD Verlag 2009): towers, influence markers and two valuations."""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["Campanile"]


def __getattr__(name: str) -> Any:
    """``Campanile`` on first use (PEP 562): reading the game's descriptor does not import its rules."""
    if name == "Campanile":
        return getattr(import_module(f"{__name__}.game"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
