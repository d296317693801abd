"""Whose turn it is, as the console says it: the prompt, the line after a confirmation, ``status``.

The console works nothing out about turns. The engine says what is to be done now and by whom
(:meth:`~companion.games.base.Game.what_now`), and who follows when naming them helps
(:func:`~companion.games.base.next_up`): the same facts the touchscreen's strip, the OLED and the
phone page word, so the prompt, ``status`` and every screen name the same player. Before, the
console read :class:`~companion.games.base.Turn` for itself, and its prompt could name Albert
while the game refused his build as "Birgit's turn".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.base import next_up
from companion.games.messages import Message, msg
from companion.i18n import text as phrase

if TYPE_CHECKING:
    from companion.service.session import AnySession


@dataclass(frozen=True)
class Now:
    """What the engine says is to be done now: by whom (``None``: the table), in its words, and who
    may follow at once (``None``: nobody worth naming)."""

    subject: str | None
    step: Message
    following: str | None


def now_for(session: AnySession) -> Now | None:
    """The engine's facts for the game in play, or ``None`` when it is over or says nothing."""
    game, state = session.game, session.state
    if game.is_finished(state):
        return None
    step = game.what_now(state)
    if step is None:
        return None
    subject = step.params.get("player")
    who = subject if isinstance(subject, str) else None
    return Now(who, step, next_up(game.turn(state), game.legal_moves(state), who))


def next_hint(session: AnySession) -> Message | None:
    """Where the game stands in one line: "Albert: place your 2-marker under a tower — next: Birgit"."""
    if session.game.is_finished(session.state):
        return msg("console.hint.over")
    now = now_for(session)
    if now is None:
        return None
    if now.following is not None:
        return msg("console.hint.now_next", now=now.step, next=now.following)
    return now.step


def with_hint(line: Message, session: AnySession) -> str:
    """``line`` and, after it, where the game stands (the catalogue joins the two)."""
    hint = next_hint(session)
    return phrase("console.with_hint", line=line, hint=hint) if hint is not None else str(line)


def prompt_for(session: AnySession | None) -> str:
    """The terminal's prompt: the player the engine says acts now ("Albert> "), with the one who may
    already follow ("Albert (next: Birgit)> "), the table when it must act, or a bare one without
    a game in play (or with two games at once on the table, each with its own player)."""
    if session is None:
        return phrase("console.prompt.none")
    now = now_for(session)
    if now is None:
        return phrase("console.prompt.none")
    who: str | Message | None = now.subject
    if who is None:
        turn = session.game.turn(session.state)
        if turn.player is None and turn.next is None and not turn.may:
            return phrase("console.prompt.none")  # several groups at once: nobody's turn is the game's
        who = msg("console.hint.the_table")
    if now.following is not None:
        return phrase("console.prompt.next", player=who, next=now.following)
    return phrase("console.prompt", player=who)
