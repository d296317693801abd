"""The :class:`SanGimignano` engine object the registry hands out.

A thin shell: parsing lives in :mod:`.moves` and :mod:`.state`, legality in
:mod:`.rules`, derived facts in :mod:`.groups`, :mod:`.turns` and :mod:`.views`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from companion.games.base import Game, Outcome, Turn, rank_players, turn_from
from companion.games.messages import Message, msg
from companion.games.san_gimignano import legal, moves, now, rules, tables, turns, views
from companion.games.san_gimignano.state import State, start_state
from companion.games.san_gimignano.summary import SanGimignanoSummary

#: The move types of :attr:`Turn.may` in words (the console's "Albert: place a marker?").
MAY_WORDS: dict[str, Message] = {
    "segment": Message("san_gimignano.may.segment"),
    "token": Message("san_gimignano.may.token"),
    "tower": Message("san_gimignano.may.tower"),
    "pass": Message("san_gimignano.may.pass"),
}


class SanGimignano(Game[State, moves.Move]):
    """Rules engine for San Gimignano (2–4 players)."""

    name: ClassVar[str] = "san-gimignano"
    title: ClassVar[str] = "San Gimignano"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def what_now(self, state: State) -> Message | None:
        if state.finished:
            return None
        templates = legal.legal_moves(state)  # once: the turn is read off the same templates
        return now.what_now(False, templates, turn_from(templates, *turns.in_progress(state)).acting,
                            turns.must_build(state))

    def may_word(self, move_type: str) -> Message:
        return MAY_WORDS.get(move_type) or super().may_word(move_type)

    def start(self, players: Sequence[str], options: Mapping[str, Any],
              setup: Mapping[str, Any]) -> State:
        state = start_state(players, options, setup)
        return replace(state, finished=rules.is_over(state))

    def parse_move(self, data: object) -> moves.Move:
        return moves.parse_move(data)

    def move_to_json(self, move: moves.Move) -> dict[str, Any]:
        return moves.move_to_json(move)

    def apply(self, state: State, move: moves.Move) -> State:
        return rules.apply(state, move)

    def summary(self, state: State) -> SanGimignanoSummary:
        return views.summary(state, self.name)

    def report(self, state: State) -> str:
        return views.report(state, self.title)

    def is_finished(self, state: State) -> bool:
        return state.finished

    def legal_moves(self, state: State) -> list[dict[str, Any]]:
        return legal.legal_moves(state)

    def turn(self, state: State) -> Turn:
        """A turn runs from its first move (the token, or the segment with ``clarified``) on."""
        if state.finished:
            return Turn(None, (), None)
        return turn_from(legal.legal_moves(state), *turns.in_progress(state))

    def notation_shapes(self, state: State, said: list[str]) -> Iterable[dict[str, Any]]:
        from companion.games.san_gimignano import notation  # not at start-up: replay never uses it

        # the legal moves given to anyone (in the words the map shows), and moves anywhere in record
        # coordinates: a move typed for the wrong player, or off the board, reaches apply's refusal
        legal_now = self.legal_moves(state)
        anyone = ({**move, "player": player} for move in legal_now for player in state.players
                  if move.get("player") != player)
        return itertools.chain(anyone, notation.shapes(state.players, state.guilds, said))

    def listing_group(self, state: State, template: Mapping[str, Any], lang: str) -> str | None:
        """A segment's places gather under the segment (its edges from the rotation that reads
        first), so the console lists a few segments rather than every place of each."""
        if template["type"] != "segment":
            return None
        from companion.games.san_gimignano import notation  # not at start-up: replay never uses it

        return notation.segment_heading(template, lang)

    def describe(self, state: State, move: Mapping[str, Any], lang: str = "en") -> str:
        from companion.games.san_gimignano import notation  # not at start-up: replay never uses it

        return notation.describe(state, move, lang)

    def notation_forms(self, state: State, move: Mapping[str, Any], lang: str) -> list[str]:
        """The words the map shows (:meth:`describe`), and the record coordinates players typed before
        the map had letters (``Ada: token 0,1 guild-2``), still read."""
        from companion.games.san_gimignano import notation  # not at start-up: replay never uses it

        return [notation.describe(state, move, lang), notation.record_form(move, lang)]

    def outcome(self, state: State) -> Outcome:
        return rank_players(state.players, state.tower_count, lambda p: state.on_board[p],
                            "tokens_on_board", state.finished,
                            words=msg("san_gimignano.tiebreak.tokens_on_board"))

    def to_move(self, state: State) -> str | None:
        return turns.to_move(state)

    def options_json(self, state: State) -> dict[str, Any]:
        return {"rules": state.setup.rules, "variant": state.setup.variant}

    def setup_json(self, state: State) -> dict[str, Any]:
        setup = state.setup
        result: dict[str, Any] = {
            "guilds": list(setup.guilds),
            "segments": [{"at": list(at), "edges": list(edges)} for at, edges in setup.segments],
        }
        if setup.rules == tables.RULEBOOK:
            result["hands"] = dict(setup.hands or ())
        else:
            result["pool"] = setup.pool
        return result
