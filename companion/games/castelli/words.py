"""Castelli's things as words a message can carry: colours, resources, area kinds, cards, amounts.

A refusal or an explanation names a colour or a card as a nested message
(``castelli.colour.blue``), never as an English word built in code, so the
catalogue of each language says it its own way (kék, Grófnő). The keys are
the record's (``tables``); every key has a code in both catalogues
(``tests/games/castelli/test_castelli_messages.py`` checks it).
"""

from __future__ import annotations

from companion.games.messages import Message, msg


def colour(key: str) -> Message:
    """A shield colour (``blue``) in words."""
    return msg(f"castelli.colour.{key}")


def resource(key: str) -> Message:
    """A resource (``wood``, ``grain``, ``stone``) in words."""
    return msg(f"castelli.resource.{key}")


def kind(key: str) -> Message:
    """An area kind (``forest``, ``rock``, ``plain`` ...) in words."""
    return msg(f"castelli.kind.{key}")


def card(key: str) -> Message:
    """A character card (``master-builder``) by its name on the card."""
    return msg(f"castelli.card.{key}")


def settlement(key: str) -> Message:
    """A ``village`` or a ``town`` in words."""
    return msg(f"castelli.settlement.{key}")


def amount(gain: str, count: int) -> Message:
    """``count`` of a gain (``wood``, ``cards``, ``silver`` ...): "2 wood", "1 card"."""
    return msg(f"castelli.amount.{'cards' if gain == 'card' else gain}", count=count)


def who(colour_key: str, player: str | None, seats: bool = False) -> Message:
    """The owner of a colour: "Anna (blue)", or "neutral yellow" for a colour nobody plays.

    ``seats``: the players have no names but their colours (the resolver without a game), so a
    player is "yellow player", never "yellow player (yellow)"."""
    if player is None:
        return msg("castelli.who.neutral", colour=colour(colour_key))
    if seats:
        return msg("castelli.who.seat", colour=colour(colour_key))
    return msg("castelli.who.player", player=player, colour=colour(colour_key))
