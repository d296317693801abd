"""The :class:`Campanile` engine the registry hands out: the :class:`Game` interface over this package.

The rules live in :mod:`.rules`, the legal moves in :mod:`.legal`, what the
screens ask in :mod:`.views`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.games.base import Game, Outcome, rank_players, turn_from
from companion.games.base import Turn as TurnView
from companion.games.campanile import now, tables
from companion.games.campanile.legal import legal_moves
from companion.games.campanile.moves import (
    Move,
    move_to_json,
    parse_move,
)
from companion.games.campanile.report import report
from companion.games.campanile.rules import apply_move, turn_complete, win_reason, winners
from companion.games.campanile.setup import options_json, read_rules, setup_json
from companion.games.campanile.state import (
    CampanileState,
    FlagResult,
)
from companion.games.campanile.summary import CampanileSummary, Explanation, FlagJson
from companion.games.fields import require_object
from companion.games.messages import Message, Words

#: The tie-break's key (``Outcome.tiebreak``, ``decided_by``); its words are the catalogue's
#: ``common.tiebreak.highest_chip``. The report says why the winners won with ``rules.win_reason``.
TIEBREAK = "highest_chip"


def in_progress(state: CampanileState) -> tuple[str | None, str | None]:
    """``(player, next)``: the builder whose turn runs (to the next build or a valuation), who builds next."""
    turn = state.turn
    if state.phase == "finished":
        return None, None
    if turn is None:
        return None, state.players[0]
    following = state.players[(turn.player + 1) % len(state.players)]
    return (None if turn.ended else state.players[turn.player]), following


#: The move types of :attr:`Turn.may` in words (the console's "Albert: place a marker?").
MAY_WORDS: dict[str, Message] = {
    "build": Message("campanile.may.build"),
    "influence": Message("campanile.may.influence"),
    "relocate": Message("campanile.may.relocate"),
    "take": Message("campanile.may.take"),
    "reveal": Message("campanile.may.reveal"),
    "valuation": Message("campanile.may.valuation"),
}


class Campanile(Game[CampanileState, Move]):
    name = "campanile"
    title = "Campanile"
    min_players = tables.MIN_PLAYERS
    max_players = tables.MAX_PLAYERS

    # -- the record interface ---------------------------------------------

    def may_word(self, move_type: str) -> Message:
        return MAY_WORDS.get(move_type) or super().may_word(move_type)

    def start(self, players: Sequence[str], options: Mapping[str, Any],
              setup: Mapping[str, Any]) -> CampanileState:
        rules = read_rules(players, options, setup)
        markers = tuple(tables.MARKERS_PER_PLAYER[v] for v in (1, 2, 3))
        supply = () if rules.custom_flags else tuple(sorted(tables.CHIP_SUPPLY.items()))
        return CampanileState(
            rules=rules,
            heights=(0,) * len(rules.towers),
            stacks=((),) * len(rules.towers),
            markers_left=(markers,) * len(players),  # type: ignore[arg-type]
            chips=((),) * len(players),
            chip_supply=supply,
            display=rules.initial_display,
        )

    def parse_move(self, data: object) -> Move:
        return parse_move(require_object(data))

    def move_to_json(self, move: Move) -> dict[str, Any]:
        return move_to_json(move)

    def options_json(self, state: CampanileState) -> dict[str, Any]:
        return options_json(state.rules)

    def setup_json(self, state: CampanileState) -> dict[str, Any]:
        return setup_json(state.rules)

    def is_finished(self, state: CampanileState) -> bool:
        return state.phase == "finished"

    def to_move(self, state: CampanileState) -> str | None:
        """Who acts next: the player mid-turn, else the next one to build."""
        if state.phase == "finished":
            return None
        turn = state.turn
        if turn is None:
            return state.players[0]
        if state.rules.tracks_display and not turn_complete(state, turn):
            return state.players[turn.player]
        return state.players[(turn.player + 1) % len(state.players)]

    def legal_moves(self, state: CampanileState) -> list[dict[str, Any]]:
        return legal_moves(state)

    def turn(self, state: CampanileState) -> TurnView:
        """A turn runs from its build until the next build or a valuation.

        The display refill after a valuation is the table's move (``player`` ``None``).
        """
        if state.phase == "finished":
            return TurnView(None, (), None)
        return turn_from(legal_moves(state), *in_progress(state))

    def what_now(self, state: CampanileState) -> Message | None:
        if state.phase == "finished":
            return None
        templates = legal_moves(state)  # once: the turn is read off the same templates
        return now.what_now(state, templates, turn_from(templates, *in_progress(state)).acting)

    def notation_shapes(self, state: CampanileState, said: list[str]) -> Iterable[dict[str, Any]]:
        from companion.games.campanile import notation  # not at start-up: replay never uses it

        return notation.shapes(state)

    def notation_forms(self, state: CampanileState, move: Mapping[str, Any], lang: str) -> list[str]:
        from companion.games.campanile import notation  # not at start-up: replay never uses it

        return notation.forms(state, move, lang)

    def describe(self, state: CampanileState, move: Mapping[str, Any], lang: str = "en") -> str:
        from companion.games.campanile import notation  # not at start-up: replay never uses it

        return notation.describe(state, move, lang)

    def read_observed(self, state: CampanileState, template: Mapping[str, Any],
                      said: list[str]) -> dict[str, Any] | None:
        from companion.games.campanile import notation  # not at start-up: replay never uses it

        return notation.read_observed(state, template, said)

    def outcome(self, state: CampanileState) -> Outcome:
        return rank_players(state.players, state.scores,
                            lambda p: max(state.chips[state.player_index(p)], default=0),
                            TIEBREAK, state.phase == "finished",
                            words=Message("campanile.tiebreak.highest_chip"))

    # -- the rules ----------------------------------------------------------
    def apply(self, state: CampanileState, move: Move) -> CampanileState:
        return apply_move(state, move)

    # -- views --------------------------------------------------------------
    def summary(self, state: CampanileState) -> CampanileSummary:
        rules = state.rules
        scores = state.scores
        finished = state.phase == "finished"
        player, following = in_progress(state)
        return {
            "game": self.name,
            "players": list(rules.players),
            "finished": finished,
            "scores": scores,
            "winners": winners(state) if finished else [],
            "towers": [
                {"tower": tower, "height": height,
                 "stack": [{"player": g.player, "markers": list(g.markers)} for g in stack]}
                for tower, height, stack in zip(rules.towers, state.heights, state.stacks, strict=True)
            ],
            "chips": {p: sorted(c, reverse=True) for p, c in zip(rules.players, state.chips, strict=True)},
            "valuations": [
                {"phase": v.phase, "flags": [_flag_json(f) for f in v.flags]} for v in state.valuations
            ],
            "phase": state.phase,
            "to_move": self.to_move(state),
            "turn": {"player": player, "next": following},
            "markers_left": {p: {str(v): n for v, n in state.markers_of(p).items()} for p in rules.players},
            "display": list(state.display) if rules.tracks_display else None,
            "explanations": _explanations(state),
            "win_reason": win_reason(state) if finished else None,
        }

    def report(self, state: CampanileState) -> str:
        return report(state, self.summary(state))


def _explanations(state: CampanileState) -> list[Explanation]:
    """Why each flag went as it did: its sentences as messages, and the same as one text.

    Written out (``replay --json``) the same in every language: ``text`` is the
    English words of the sentences, and each sentence carries its code and
    parameters for a front end that says it in another.
    """
    return [{"phase": valuation.phase, "tower": flag.tower,
             "text": Words(tuple(flag.explanation)), "sentences": list(flag.explanation)}
            for valuation in state.valuations for flag in valuation.flags]


def _flag_json(result: FlagResult) -> FlagJson:
    return {
        "tower": result.tower,
        "rank": result.rank,
        "flag": list(result.flag),
        "influence": dict(result.influence),
        "awards": [{"player": a.player, "points": a.points} for a in result.awards],
    }
