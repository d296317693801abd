"""The service's refusal, :class:`AppError`: its own module, so that each game's service part raises it."""

from __future__ import annotations


class AppError(Exception):
    """A request the players can fix (no such game, a colour taken twice ...); one line, nothing changed."""
