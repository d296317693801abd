"""Castelli's line on the game-over screen: what each player's score is made of.

The engine's summary holds the final scoring per player (cards, resources,
silver, and the modules' lines); the rest of the score was won during play
(castles, Kings). Each part is said with the engine's own words
(``castelli.final.*``), so game over explains the total rather than just
showing it.
"""

from __future__ import annotations

from typing import Any

from companion.games.messages import msg
from companion.i18n import text


def final_breakdown(summary: dict[str, Any], player: str) -> str | None:
    """``in play 5 · cards 1 · resources 3 · silver 4`` for ``player`` (the parts worth something); None
    before the end."""
    final = (summary.get("final") or {}).get(player)
    if final is None:
        return None
    during = summary["scores"][player] - sum(final.values())
    parts = [text("ui.castelli.final.play", points=during)] if during else []
    parts += [str(msg(f"castelli.final.{line}", points=points)) for line, points in final.items() if points]
    return " · ".join(parts) or text("ui.castelli.final.nothing")
