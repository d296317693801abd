"""What is to be done now in a San Gimignano game, as one message code (:meth:`Game.what_now`).

A turn is a token and a segment (in the rule set's order), then a tower where
one can be built: owed under the rulebook whenever possible, optional under
the clarified rules, where a player may pass instead. The codes say which of
these is due; the front ends word them for the touchscreen and the OLED.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import kinds_for
from companion.games.messages import Alternatives, Message

#: A player's steps in the order they are said when several are open: the code when it is the
#: only one open, and its words in a list of several (spelled out, so that every code is found
#: where it is used).
STEPS = {
    "token": ("san_gimignano.now.token", "san_gimignano.now.do.token"),
    "segment": ("san_gimignano.now.segment", "san_gimignano.now.do.segment"),
    "tower": ("san_gimignano.now.tower", "san_gimignano.now.do.tower"),
    "pass": ("san_gimignano.now.pass", "san_gimignano.now.do.pass"),
}


def what_now(finished: bool, templates: Sequence[Mapping[str, Any]], acting: str | None,
             forced: str | None) -> Message | None:
    """The step due now for the acting player; ``forced`` is who the rulebook makes build a tower."""
    if finished or acting is None:
        return None
    if forced == acting:
        return Message("san_gimignano.now.must_build", {"player": acting})
    open_kinds = kinds_for(templates, acting)  # once, not once per step
    kinds = [kind for kind in STEPS if kind in open_kinds]
    if len(kinds) == 1:
        return Message(STEPS[kinds[0]][0], {"player": acting})
    if kinds:
        return Message("san_gimignano.now.steps", {
            "player": acting,
            "things": Alternatives(Message(STEPS[kind][1]) for kind in kinds)})
    return None
