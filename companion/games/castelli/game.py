"""The Castelli engine: the :class:`Game` interface over the modules of this package."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.games.base import Game, IllegalMove, Outcome, RecordError, Turn, rank_players
from companion.games.castelli import championship, now, tables
from companion.games.castelli.board import Board, board_to_json
from companion.games.castelli.championship import Round
from companion.games.castelli.legal import legal_moves
from companion.games.castelli.moves import Move, move_to_json, parse_move
from companion.games.castelli.rules import apply_move, winners
from companion.games.castelli.setup import initial_state
from companion.games.castelli.state import Evaluation, Shortfall, State, Unevaluated
from companion.games.castelli.summary import (
    CastelliSummary,
    Explanation,
    FinalPart,
    RoundSummary,
    ShortfallJson,
    ShortfallPart,
)
from companion.games.castelli.views import evaluation_line, report
from companion.games.messages import Message, Words, msg


def explanation_json(board: Board, area: str, kind: str, explanation: Message) -> Explanation:
    """A summary's explanation: the area, the explanation's code and parameters, and its line.

    ``area`` is the record's name; ``text`` is the line as the readable report shows it (the area
    by what it is and where: ``forest, row 1, column 5: ...``), written out in
    English (``replay --json``), the same on every machine; ``code`` and ``params`` are the
    explanation's own, for front ends that say it in another language.
    """
    return {"area": area, "kind": kind, "code": explanation.code,
            "params": explanation.to_json()["params"],
            "text": Words((evaluation_line(board, area, explanation),))}


def shortfall_json(shortfall: Shortfall) -> ShortfallJson:
    """A summary's shortfall: who drew less than due from a card icon or a frame gift, and why."""
    return {"player": shortfall.player, "source": shortfall.source, "gained": shortfall.gained,
            "due": shortfall.due, "code": shortfall.explanation.code,
            "params": shortfall.explanation.to_json()["params"], "text": Words((shortfall.explanation,))}


def explained(board: Board, item: Evaluation | Unevaluated) -> Explanation:
    """:func:`explanation_json` of an evaluation or a note of a state (a new dict for each caller)."""
    return explanation_json(board, item.area, item.kind, item.explanation)


def _added(before: tuple[Any, ...], after: tuple[Any, ...]) -> tuple[Any, ...]:
    """What ``after`` has beyond ``before`` (none when it is not an extension of it: an undo)."""
    return after[len(before):] if after[:len(before)] == before else ()


#: The move types of :attr:`Turn.may` in words (the console's "Albert: place a marker?").
MAY_WORDS: dict[str, Message] = {
    "reveal": Message("castelli.may.reveal"),
    "build": Message("castelli.may.build"),
    "play": Message("castelli.may.play"),
    "sell": Message("castelli.may.sell"),
    "steward": Message("castelli.may.steward"),
    "guard": Message("castelli.may.guard"),
    "end": Message("castelli.may.end"),
}


#: A Castelli state: a base game's, or a Championship round's (two groups' games).
AnyState = State | Round


class Castelli(Game[AnyState, Move]):
    """Castelli (Queen Games 2011): reveal tiles, win areas, build castles.

    A record whose setup names ``groups`` is a Championship round (:mod:`.championship`): its state is a
    :class:`~.championship.Round` holding each group's base-game :class:`State`; every method takes
    either. The front ends draw a round group by group through the per-group methods
    (:meth:`group_of`, :meth:`group_state`, :meth:`group_turn`, :meth:`group_what_now`,
    :meth:`group_legal_moves`), which treat a base game as a round of one group (group 1).
    """

    name = "castelli"
    title = "Castelli"
    min_players = 2
    max_players = 4

    # The per-group API ------------------------------------------------------------------------
    @staticmethod
    def is_round(state: AnyState) -> bool:
        """Whether ``state`` is a Championship round's (two groups) rather than one game's."""
        return isinstance(state, Round)

    @staticmethod
    def group_count(state: AnyState) -> int:
        """2 for a Championship round, 1 for a base game."""
        return championship.GROUPS if isinstance(state, Round) else 1

    @staticmethod
    def group_of(state: AnyState, player: str) -> int:
        """The group (1 or 2) ``player`` plays in (1 in a base game)."""
        return championship.group_of(state, player) if isinstance(state, Round) else 1

    @staticmethod
    def group_state(state: AnyState, group: int) -> State:
        """Group ``group``'s game as a base-game :class:`State` (the board, views, OLED pages draw it
        unchanged; its deck counts the other group's hands). A base game is its own group 1."""
        if isinstance(state, Round):
            return championship.group_state(state, group)
        if group != 1:
            raise ValueError(f"a Castelli game has one group, not {group!r}")
        return state

    def group_turn(self, state: AnyState, group: int) -> Turn:
        """Group ``group``'s turn: who plays, what they may do, who is next (the base game's turn)."""
        if isinstance(state, Round):
            return championship.group_turn(state, group)
        return now.game_turn(self.group_state(state, group))

    def group_what_now(self, state: AnyState, group: int) -> Message | None:
        """Group ``group``'s step due (a ``castelli.now.*`` code); ``None`` once its game ended."""
        if isinstance(state, Round):
            return championship.group_what_now(state, group)
        return now.game_what_now(self.group_state(state, group))

    def group_legal_moves(self, state: AnyState, group: int) -> list[dict[str, Any]]:
        """Group ``group``'s legal moves, each ready to propose (in a round its end names the group)."""
        if isinstance(state, Round):
            return championship.group_legal_moves(state, group)
        return legal_moves(self.group_state(state, group))

    # The Game contract ------------------------------------------------------------------------
    def what_now(self, state: AnyState) -> Message | None:
        if isinstance(state, Round):
            if state.finished:
                return None
            ended = msg("castelli.now.ended")
            return msg("castelli.now.round", one=championship.group_what_now(state, 1) or ended,
                       two=championship.group_what_now(state, 2) or ended)
        return now.game_what_now(state)

    def may_word(self, move_type: str) -> Message:
        return MAY_WORDS.get(move_type) or super().may_word(move_type)

    def effects(self, before: AnyState, after: AnyState) -> list[Message]:
        """Each area a reveal (or a build) evaluated, by what it is and where: who led and who gained
        what; each area that gave nothing, with why; each card the deck could not pay."""
        if isinstance(before, Round) and isinstance(after, Round):
            return [effect for old, new in zip(before.groups, after.groups, strict=True)
                    for effect in self.effects(old, new)]
        assert isinstance(before, State) and isinstance(after, State)
        added = (*_added(before.evaluations, after.evaluations), *_added(before.notes, after.notes))
        found = [msg("castelli.effect.area", area=after.board.label(item.area), explanation=item.explanation)
                 for item in added]
        return found + [short.explanation for short in _added(before.shortfalls, after.shortfalls)]

    def start(self, players: Sequence[str], options: Mapping[str, Any],
              setup: Mapping[str, Any]) -> AnyState:
        if championship.is_round_setup(setup):
            return championship.start_round(players, options, setup)
        return initial_state(players, options, setup)

    def parse_move(self, data: object) -> Move:
        return parse_move(data)

    def move_to_json(self, move: Move) -> dict[str, Any]:
        return move_to_json(move)

    def apply(self, state: AnyState, move: Move) -> AnyState:
        if isinstance(state, Round):
            return championship.apply_round(state, move)
        return apply_move(state, move)

    def is_finished(self, state: AnyState) -> bool:
        return state.finished

    def legal_moves(self, state: AnyState) -> list[dict[str, Any]]:
        if isinstance(state, Round):
            return championship.round_legal_moves(state)
        return legal_moves(state)

    def turn(self, state: AnyState) -> Turn:
        """From the reveal (or a card played or sold before it) until the next player's first move.

        A Steward's re-turn is another player's reaction: ``player`` stays the
        revealer. Once every tile is face up no turn follows (``end`` is the table's).
        In a Championship round both groups act at once: no player, nothing for the table
        (:meth:`group_turn` says each group's).
        """
        if isinstance(state, Round):
            return Turn(None, (), None)
        return now.game_turn(state)

    def _game_for(self, state: AnyState, move: Mapping[str, Any]) -> State | None:
        """The game ``move`` belongs to: ``state`` itself, or in a round its group's (``None``: none)."""
        if not isinstance(state, Round):
            return state
        group = championship.group_for_move(state, move)
        return None if group is None else state.groups[group - 1]

    def notation_shapes(self, state: AnyState, said: list[str]) -> Iterable[dict[str, Any]]:
        from companion.games.castelli import notation  # not at start-up: replay never uses it

        if isinstance(state, Round):
            return championship.shapes_of_round(state, said)
        return notation.shapes(state, said)

    def notation_forms(self, state: AnyState, move: Mapping[str, Any], lang: str) -> list[str]:
        from companion.games.castelli import notation  # not at start-up: replay never uses it

        game = self._game_for(state, move)
        if game is None or (isinstance(state, Round) and move.get("type") == "end"):
            return [self.describe(state, move, lang)]
        return notation.forms(game, move, lang)

    def describe(self, state: AnyState, move: Mapping[str, Any], lang: str = "en") -> str:
        from companion.games.castelli import notation  # not at start-up: replay never uses it

        game = self._game_for(state, move)
        if game is None:  # a player nobody plays: the notation as far as it goes, without a board
            game = state.groups[0] if isinstance(state, Round) else state
        return notation.describe(game, move, lang)

    def record_words(self, state: AnyState, move: Mapping[str, Any], lang: str) -> list[tuple[str, Message]]:
        """A card by its name on the card (the catalogue's "Robber baron", "Tolvaj Báró") in place of
        the notation's word for it (``robber-baron``, ``tolvaj-báró``); a Championship round's group
        ending (the notation's ``end 1``) as "Group 1's game ends"."""
        from companion.games.castelli import notation  # not at start-up: replay never uses it
        from companion.games.castelli.words import card as card_words
        from companion.games.notation import word

        group = move.get("group")
        if move.get("type") == "end" and isinstance(group, int) and isinstance(state, Round):
            return [(self.describe(state, move, lang), msg("castelli.history.group_end", group=group))]
        card = move.get("card")
        if not isinstance(card, str) or card not in notation.WORDS:
            return []
        return [(word(notation.WORDS, card, lang), card_words(card))]

    def observed_problem(self, state: AnyState, template: Mapping[str, Any],
                         said: list[str]) -> Message | None:
        from companion.games.castelli import notation  # not at start-up: replay never uses it

        return notation.observed_problem(template, said)

    def refusal_before_observed(self, state: AnyState, template: Mapping[str, Any]) -> Message | None:
        """A reveal's refusal that no tile could change (not this player's turn, a second reveal,
        a space already face up): tried with one well-formed tile."""
        if template.get("type") != "reveal" or template in self.legal_moves(state):
            return None
        any_tile = {side: [colour, 1] for side, colour in zip(tables.SIDES, tables.COLORS, strict=True)}
        try:
            self.apply(state, self.parse_move({**template, "shields": any_tile, "silver": 0}))
        except IllegalMove as refused:
            return refused.reason if isinstance(refused.reason, Message) else None
        except RecordError:
            return None
        return None

    def read_observed(self, state: AnyState, template: Mapping[str, Any],
                      said: list[str]) -> dict[str, Any] | None:
        from companion.games.castelli import notation  # not at start-up: replay never uses it

        game = self._game_for(state, template)
        return None if game is None else notation.read_observed(game, template, said)

    def outcome(self, state: AnyState) -> Outcome:
        if isinstance(state, Round):
            return championship.groups_outcome((self.outcome(game) for game in state.groups), state.finished)
        return rank_players(state.players, state.score, lambda p: state.castles_built[p],
                            "castles_built", state.finished, words=msg("castelli.tiebreak.castles_built"))

    def to_move(self, state: AnyState) -> str | None:
        if isinstance(state, Round) or state.finished:
            return None  # a round: both groups act at once
        if state.all_revealed():
            return state.players[state.current or 0]
        return state.players[state.next_index()]

    def summary(self, state: AnyState) -> CastelliSummary | RoundSummary:
        if isinstance(state, Round):
            return self._round_summary(state)
        return self._game_summary(state)

    def _game_summary(self, state: State) -> CastelliSummary:
        players = state.players
        player, following = now.in_progress(state)
        final: FinalPart = ({"final": {p: dict(state.final[p]) for p in players}}
                            if state.finished and state.final is not None else {})
        shortfalls: ShortfallPart = ({"shortfalls": [shortfall_json(s) for s in state.shortfalls]}
                                     if state.shortfalls else {})
        return {
            "game": self.name,
            "players": list(players),
            "finished": state.finished,
            "scores": {p: state.score[p] for p in players},
            "winners": winners(state),
            "resources": {p: dict(zip(tables.RESOURCES, state.resources[p], strict=True))
                          for p in players},
            "silver": {**{p: state.silver[p] for p in players}, "mine": state.mine},
            "cards": {p: state.cards[p] for p in players},
            "castles": {p: state.castles_built[p] for p in players},
            "evaluations": [e.to_json() for e in state.evaluations],
            **final,  # only once the game is over, in its place in the output
            "explanations": [explained(state.board, e) for e in state.evaluations],
            "not_evaluated": [explained(state.board, n) for n in state.notes],
            **shortfalls,  # only when the deck could not pay a card icon or a frame gift
            "to_move": self.to_move(state),
            "turn": {"player": player, "next": following},
        }

    def _round_summary(self, state: Round) -> RoundSummary:
        groups = [self._game_summary(game) for game in state.groups]
        by_player = {p: s for s in groups for p in s["players"]}
        return {
            "game": self.name,
            "players": list(state.players),
            "finished": state.finished,
            "scores": {p: by_player[p]["scores"][p] for p in state.players},
            # each group's winners once both have ended (until then in the group's own summary)
            "winners": [p for s in groups for p in s["winners"]] if state.finished else [],
            "groups": groups,
            "deck": state.deck(),
            "to_move": None,
            "turn": None,
        }

    def options_json(self, state: AnyState) -> dict[str, Any]:
        opts = state.options
        out: dict[str, Any] = {"modules": [m for m in tables.MODULES if m in opts.modules],
                               "neutral": opts.neutral, "silver_tie": opts.silver_tie}
        if isinstance(state, Round):
            out["spares"] = state.spares
        return out

    def setup_json(self, state: AnyState) -> dict[str, Any]:
        if isinstance(state, Round):
            return {"colors": {p: c for game in state.groups for p, c in game.colors.items()},
                    "groups": [list(game.players) for game in state.groups],
                    "boards": [board_to_json(game.board) for game in state.groups],
                    "mines": [game.mine_start for game in state.groups]}
        return {"colors": dict(state.colors), "board": board_to_json(state.board),
                "mine": state.mine_start}

    def report(self, state: AnyState) -> str:
        if isinstance(state, Round):
            parts = [str(msg("castelli.report.deck", deck=state.deck()))]
            for number, game in enumerate(state.groups, start=1):
                parts += ["", str(msg("castelli.report.group", group=number, players=list(game.players))),
                          self.report(game)]
            return "\n".join(parts)
        return report(state, self.to_move(state), winners(state), self.outcome(state).decided_by)
