"""The turn strip every game screen shows under its bar: who, what now, and who is next when it helps.

One answer for a glance from across the table: the acting player's badge and
name (36 px), one instruction sentence (20 px) in the touchscreen's words, and
"next: Birgit" only when that player may already move (or the table acts
first). The engine decides what is due (:meth:`~companion.games.base.Game.what_now`)
and who follows (:func:`~companion.games.base.next_up`); this module only words
it for touch: each engine code ``<game>.now.…`` has its touch words as
``ui.<game>.now.…`` in the board's own catalogue (a code without them keeps
the engine's words), so the strip and the board can never name two players.
When the game is over the strip names the winner, or says the win is shared.
It is pure (no Kivy), so the tests read it for any state without a window.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.base import Game, StateT, next_up
from companion.i18n import current_language, render_for, text

#: Where a board's touch words for an engine code live: ``ui.`` + the code.
BOARD_WORDS = "ui."
#: The move picker's words (a game without a board: the moves are listed below the strip).
PICKER_WORDS = "ui.pick."


@dataclass(frozen=True)
class Strip:
    """What the strip shows: whose badge (``None``: none), the headline at 36 px, the sentence and
    the "next" words (``""``: not shown)."""

    player: str | None
    headline: str
    sentence: str
    next: str = ""


def strip_for(game: Game[StateT, Any], state: StateT, surface: str = BOARD_WORDS) -> Strip:
    """The strip for ``state`` in the current language; ``surface`` chooses the board's touch
    words or the move picker's."""
    if game.is_finished(state):
        return _game_over(game, state)
    now = game.what_now(state)
    if now is None:  # a game that says nothing now: at least whose turn it is
        acting = game.turn(state).acting
        return Strip(acting, acting or text("ui.strip.table"), "")
    subject = now.params.get("player")
    following = next_up(game.turn(state), game.legal_moves(state), subject)
    return Strip(subject, subject or text("ui.strip.table"), render_for(now, surface, current_language()),
                 text("ui.strip.next", player=following) if following else "")


def _game_over(game: Game[StateT, Any], state: StateT) -> Strip:
    """The winner (or a shared win) and that the game is over, with the winning score and why."""
    outcome = game.outcome(state)
    winners = list(outcome.winners)
    best = outcome.standings[0].score if outcome.standings else 0
    if len(winners) == 1 and outcome.decided_by == "score":
        return Strip(winners[0], winners[0], text("ui.strip.won", player=winners[0], score=best))
    if len(winners) == 1:
        return Strip(winners[0], winners[0], text("ui.strip.won_tiebreak", player=winners[0], score=best,
                                                   tiebreak=outcome.tiebreak_words()))
    if winners:
        return Strip(None, text("ui.strip.shared"), text("ui.strip.shared_by", players=winners, score=best))
    return Strip(None, text("ui.strip.over"), "")
