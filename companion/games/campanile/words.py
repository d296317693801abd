"""The words inside Campanile's messages that are data: the box's tower colours and JSON kinds.

A tower named after one of the box's five styles is said in the player's
language: it goes into a message as a nested message the catalogue renders
(``campanile.colour.brown``), never as an English word. Any other tower name
comes from the record and is shown as it is, like a player's name.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.games.messages import Message, msg

#: The box's tower styles, each as the message that says its colour.
COLOURS: dict[str, Message] = {
    "grey": msg("campanile.colour.grey"),
    "brown": msg("campanile.colour.brown"),
    "red": msg("campanile.colour.red"),
    "blue": msg("campanile.colour.blue"),
    "yellow": msg("campanile.colour.yellow"),
}


def tower(name: str) -> Message | str:
    """A tower (or a card of its style) for a message: the colour's word, or the record's name."""
    return COLOURS.get(name, name)


def towers(names: Iterable[str]) -> list[Message | str]:
    """Several towers for a list parameter (the catalogue joins them)."""
    return [tower(name) for name in names]


def kind(value: object) -> Message:
    """What kind of JSON value ``value`` is, for "must be a list, not ..." in a record error."""
    if value is None:
        return msg("campanile.kind.null")
    if isinstance(value, bool):
        return msg("campanile.kind.boolean")
    if isinstance(value, dict):
        return msg("campanile.kind.object")
    if isinstance(value, list):
        return msg("campanile.kind.list")
    if isinstance(value, str):
        return msg("campanile.kind.text")
    return msg("campanile.kind.number")
