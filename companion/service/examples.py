"""Whether a game is on an example board or layout, not the table's own: the one answer every front end
says (the console's ``new`` and ``status``, the touchscreen, the phone page).

The answer is the game's (:attr:`~companion.games.descriptor.GameDescriptor.example`), read from the
setup as the record keeps it, so that a game resumed tomorrow, imported, or followed on a phone is
said to be on an example exactly when it was started on one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import RecordError
from companion.games.descriptor import ExampleSetup, NewGame, SetupNeeded
from companion.games.messages import Message
from companion.registry import descriptor
from companion.service.app import Companion
from companion.service.session import AnySession


def example_setup(game: str, setup: Mapping[str, Any], options: Mapping[str, Any],
                  players: Sequence[str]) -> ExampleSetup | None:
    """The example ``game``'s ``setup`` is on, or ``None`` (also for a game not installed here)."""
    try:
        about = descriptor(game)
    except RecordError:
        return None
    return about.example(setup, options, players)


def session_example(session: AnySession) -> ExampleSetup | None:
    """The example an opened game is on, or ``None``."""
    game, state = session.game, session.state
    return example_setup(game.name, game.setup_json(state), game.options_json(state), session.players)


def example_sentence(session: AnySession, front_end: str) -> Message | None:
    """What ``front_end`` (``console``, ``touchscreen``, ``web``) says of an opened game on an example."""
    found = session_example(session)
    return None if found is None else found.said.get(front_end)


def new_game_example(app: Companion, game: str, players: Sequence[str], options: Mapping[str, Any],
                     setup: Mapping[str, Any]) -> ExampleSetup | None:
    """The example a game about to start would be on: ``setup`` as the players chose it so far, with
    what the table fills in (:meth:`Companion.start` fills it in the same way), for the new-game screen."""
    try:
        about = descriptor(game)
        new = NewGame(tuple(players), dict(options), dict(setup))
        options, filled = about.defaults(new, app.table_settings())
    except (RecordError, SetupNeeded):
        return None
    return about.example(filled, options, players)
