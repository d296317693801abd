"""Castelli (Queen Games 2011, Günter Burkhardt): the rules engine.

Pure: standard library only, no I/O beyond reading the package's own layout
files. ``Castelli`` is the engine; ``validate_board`` and ``load_layout`` are
for the store and the CLI; ``resolve`` is the area resolver.

The names are loaded on first use (PEP 562), so that a command which only
needs ``tables`` (every ``companion`` start builds the CLI's parsers) does not
pay for importing the whole engine.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "Board": "board", "layout_names": "board", "load_layout": "board", "validate_board": "board",
    "Castelli": "game", "Resolution": "evaluation", "resolve": "evaluation",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    try:
        module = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    return getattr(import_module(f"{__name__}.{module}"), name)
