"""What is to be done now in a Castelli game, as one message code (:meth:`Game.what_now`).

A turn starts with a tile revealed; after it the player may build, play a card
or sell (each optional), and the next player's reveal ends the turn. Once
every tile is face up the table ends the game. The codes say which of these
is due; the front ends word them for the touchscreen and the OLED.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import kinds_for
from companion.games.messages import Alternatives, Message

#: The optional steps of a turn (and the table's end), in the order they are said, each with its
#: words' code spelled out (so that the catalogue test finds every code where it is used).
STEPS: Mapping[str, str] = {
    "build": "castelli.now.do.build",
    "play": "castelli.now.do.play",
    "sell": "castelli.now.do.sell",
    "steward": "castelli.now.do.steward",
    "guard": "castelli.now.do.guard",
    "end": "castelli.now.do.end",
}


def what_now(finished: bool, templates: Sequence[Mapping[str, Any]], acting: str | None) -> Message | None:
    """The step due now: the acting player's reveal, else what they may still do (the table's end
    among it), else the table's end."""
    if finished:
        return None
    kinds = kinds_for(templates, acting) if acting is not None else ()
    table = kinds_for(templates, None)
    if "reveal" in kinds:
        return Message("castelli.now.reveal", {"player": acting})
    steps = [kind for kind in STEPS if kind in kinds or (kind == "end" and kind in table)]
    if kinds and steps:
        return Message("castelli.now.more", {
            "player": acting, "things": Alternatives(Message(STEPS[kind]) for kind in steps)})
    if "end" in table:
        return Message("castelli.now.end")
    return None
