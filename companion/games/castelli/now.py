"""What is to be done now in a Castelli game, as one message code (:meth:`Game.what_now`).

A turn starts with a tile revealed; after it the player may build, play a card
or sell (each optional), and the next player's reveal ends the turn. Once
every tile is face up the table ends the game. The codes say which of these
is due; the front ends word them for the touchscreen and the OLED.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import Turn, kinds_for, turn_from
from companion.games.castelli.legal import legal_moves
from companion.games.castelli.state import State
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


def in_progress(state: State) -> tuple[str | None, str | None]:
    """``(player, next)``: whose turn is in progress and who starts the next (both ``None`` at the end)."""
    if state.finished:
        return None, None
    players = state.players
    following = None if state.all_revealed() else players[
        0 if state.current is None else (state.current + 1) % len(players)]
    return (None if state.current is None else players[state.current]), following


def game_turn(state: State) -> Turn:
    """The turn of one Castelli game (a base game, or one group of a Championship round).

    From the reveal (or a card played or sold before it) until the next player's first move.
    A Steward's re-turn is another player's reaction: ``player`` stays the revealer. Once every
    tile is face up no turn follows (``end`` is the table's).
    """
    if state.finished:
        return Turn(None, (), None)
    return turn_from(legal_moves(state), *in_progress(state))


def game_what_now(state: State) -> Message | None:
    """:func:`what_now` of one Castelli game (a base game, or one group of a round)."""
    if state.finished:
        return None
    templates = legal_moves(state)  # once: the turn is read off the same templates
    return what_now(False, templates, turn_from(templates, *in_progress(state)).acting)
