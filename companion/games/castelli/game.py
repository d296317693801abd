"""The Castelli engine: the :class:`Game` interface over the modules of this package."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.games.base import Game, IllegalMove, Outcome, RecordError, Turn, rank_players, turn_from
from companion.games.castelli import now, tables
from companion.games.castelli.board import Board, board_to_json, load_layout, validate_board
from companion.games.castelli.legal import legal_moves
from companion.games.castelli.moves import Move, move_to_json, parse_move
from companion.games.castelli.rules import apply_move, winners
from companion.games.castelli.state import Options, State
from companion.games.castelli.summary import CastelliSummary, Explanation, FinalPart
from companion.games.castelli.views import evaluation_line, report
from companion.games.fields import check_keys, get_int, get_list, get_str, require_object, type_name
from companion.games.messages import Message, Words, msg


def parse_options(options: Mapping[str, Any]) -> Options:
    """The rule options of a record (``options``), defaults filled in."""
    check_keys(options, optional=("modules", "neutral", "silver_tie"), path="options")
    modules = get_list(options, "modules", path="options") or []
    chosen: list[str] = []
    for index, module in enumerate(modules):
        if module not in tables.MODULES:
            shown = f'"{module}"' if isinstance(module, str) else type_name(module)
            raise RecordError(msg("castelli.options.module_unknown", choices=", ".join(tables.MODULES),
                                  shown=shown), f"options.modules[{index}]")
        if module in chosen:
            raise RecordError(msg("castelli.options.module_twice", module=module),
                              f"options.modules[{index}]")
        chosen.append(module)
    neutral = get_str(options, "neutral", choices=tables.NEUTRAL_CHOICES,
                      default=tables.NEUTRAL_CHOICES[0], path="options")
    silver_tie = get_str(options, "silver_tie", choices=tables.SILVER_TIE_CHOICES,
                         default=tables.SILVER_TIE_CHOICES[0], path="options")
    return Options(frozenset(chosen), neutral or "void", silver_tie or "shared")


def parse_board(value: Any) -> Board:
    """``setup.board``: a shipped layout's name or an inline board."""
    if isinstance(value, str):
        try:
            return load_layout(value)
        except RecordError as error:
            raise RecordError(error.message, "setup.board") from None
    if not isinstance(value, dict):
        raise RecordError(msg("castelli.setup.board_type", type=type_name(value)), "setup.board")
    try:
        return validate_board(value)
    except RecordError as error:
        raise error.within("setup.board") from None


def parse_colors(players: Sequence[str], value: Any) -> dict[str, str]:
    """``setup.colors``: every player exactly one of the four colours, no colour twice."""
    data = require_object(value, "setup.colors")
    for name in data:
        if name not in players:
            raise RecordError(msg("castelli.setup.colors_not_player", name=name), "setup.colors")
    colors: dict[str, str] = {}
    for player in players:
        colour = data.get(player)
        if colour is None:
            raise RecordError(msg("castelli.setup.no_colour", player=player), "setup.colors")
        if colour not in tables.COLORS:
            shown = f'"{colour}"' if isinstance(colour, str) else f"{type_name(colour)} {colour!r}"
            raise RecordError(msg("castelli.setup.colour_unknown", choices=", ".join(tables.COLORS),
                                  shown=shown), f"setup.colors.{player}")
        if colour in colors.values():
            other = next(p for p, c in colors.items() if c == colour)
            raise RecordError(msg("castelli.setup.colour_taken", colour=colour, other=other),
                              f"setup.colors.{player}")
        colors[player] = colour
    return colors


def initial_state(players: Sequence[str], options: Mapping[str, Any],
                  setup: Mapping[str, Any]) -> State:
    """The state before the first move, from a record's players, options and setup."""
    opts = parse_options(options)
    check_keys(setup, required=("colors", "board"), optional=("mine",), path="setup")
    colors = parse_colors(players, setup["colors"])
    board = parse_board(setup["board"])
    mine = get_int(setup, "mine", low=0, default=tables.MINE_SILVER[len(players)], path="setup")
    assert mine is not None
    names = tuple(players)
    zero = dict.fromkeys(names, 0)
    return State(
        board=board, players=names, colors=colors, options=opts, mine_start=mine, mine=mine,
        resources=dict.fromkeys(names, (0, 0, 0)), silver=dict(zero), cards=dict(zero),
        score=dict(zero), castles_built=dict(zero), castles={}, settlements=dict(board.settlements),
        revealed={}, done=frozenset(),
        holds_own_tile=dict.fromkeys(names, True) if opts.dilemma else {})


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


def explained(board: Board, item: Any) -> Explanation:
    """:func:`explanation_json` of an evaluation or a note of a state (a new dict for each caller)."""
    return explanation_json(board, item.area, item.kind, item.explanation)


def _added(before: tuple[Any, ...], after: tuple[Any, ...]) -> tuple[Any, ...]:
    """What ``after`` has beyond ``before`` (none when it is not an extension of it: an undo)."""
    return after[len(before):] if after[:len(before)] == before else ()


def in_progress(state: State) -> tuple[str | None, str | None]:
    """``(player, next)``: whose turn is in progress and who starts the next (both ``None`` at the end)."""
    if state.finished:
        return None, None
    players = state.players
    following = None if state.all_revealed() else players[
        0 if state.current is None else (state.current + 1) % len(players)]
    return (None if state.current is None else players[state.current]), following


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


class Castelli(Game[State, Move]):
    """Castelli (Queen Games 2011): reveal tiles, win areas, build castles."""

    name = "castelli"
    title = "Castelli"
    min_players = 2
    max_players = 4

    def what_now(self, state: State) -> Message | None:
        if state.finished:
            return None
        templates = legal_moves(state)  # once: the turn is read off the same templates
        return now.what_now(False, templates, turn_from(templates, *in_progress(state)).acting)

    def may_word(self, move_type: str) -> Message:
        return MAY_WORDS.get(move_type) or super().may_word(move_type)

    def effects(self, before: State, after: State) -> list[Message]:
        """Each area a reveal (or a build) evaluated, by what it is and where: who led and who gained
        what; and each area that gave nothing, with why."""
        added = (*_added(before.evaluations, after.evaluations), *_added(before.notes, after.notes))
        return [msg("castelli.effect.area", area=after.board.label(item.area), explanation=item.explanation)
                for item in added]

    def start(self, players: Sequence[str], options: Mapping[str, Any],
              setup: Mapping[str, Any]) -> State:
        return initial_state(players, options, setup)

    def parse_move(self, data: Any) -> Move:
        return parse_move(data)

    def move_to_json(self, move: Move) -> dict[str, Any]:
        return move_to_json(move)

    def apply(self, state: State, move: Move) -> State:
        return apply_move(state, move)

    def is_finished(self, state: State) -> bool:
        return state.finished

    def legal_moves(self, state: State) -> list[dict[str, Any]]:
        return legal_moves(state)

    def turn(self, state: State) -> Turn:
        """From the reveal (or a card played or sold before it) until the next player's first move.

        A Steward's re-turn is another player's reaction: ``player`` stays the
        revealer. Once every tile is face up no turn follows (``end`` is the table's).
        """
        if state.finished:
            return Turn(None, (), None)
        return turn_from(legal_moves(state), *in_progress(state))

    def notation_shapes(self, state: State, said: list[str]) -> Iterable[dict[str, Any]]:
        from companion.games.castelli import notation  # not at start-up: replay never uses it

        return notation.shapes(state, said)

    def notation_forms(self, state: State, move: Mapping[str, Any], lang: str) -> list[str]:
        from companion.games.castelli import notation  # not at start-up: replay never uses it

        return notation.forms(state, move, lang)

    def describe(self, state: State, move: Mapping[str, Any], lang: str = "en") -> str:
        from companion.games.castelli import notation  # not at start-up: replay never uses it

        return notation.describe(state, move, lang)

    def observed_problem(self, state: State, template: Mapping[str, Any], said: list[str]) -> Message | None:
        from companion.games.castelli import notation  # not at start-up: replay never uses it

        return notation.observed_problem(template, said)

    def refusal_before_observed(self, state: State, template: Mapping[str, Any]) -> Message | None:
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

    def read_observed(self, state: State, template: Mapping[str, Any],
                      said: list[str]) -> dict[str, Any] | None:
        from companion.games.castelli import notation  # not at start-up: replay never uses it

        return notation.read_observed(state, template, said)

    def outcome(self, state: State) -> Outcome:
        return rank_players(state.players, state.score, lambda p: state.castles_built[p],
                            "castles_built", state.finished)

    def to_move(self, state: State) -> str | None:
        if state.finished:
            return None
        if state.all_revealed():
            return state.players[state.current or 0]
        return state.players[state.next_index()]

    def summary(self, state: State) -> CastelliSummary:
        players = state.players
        player, following = in_progress(state)
        final: FinalPart = ({"final": {p: dict(state.final[p]) for p in players}}
                            if state.finished and state.final is not None else {})
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
            "to_move": self.to_move(state),
            "turn": {"player": player, "next": following},
        }

    def options_json(self, state: State) -> dict[str, Any]:
        opts = state.options
        return {"modules": [m for m in tables.MODULES if m in opts.modules],
                "neutral": opts.neutral, "silver_tie": opts.silver_tie}

    def setup_json(self, state: State) -> dict[str, Any]:
        return {"colors": dict(state.colors), "board": board_to_json(state.board),
                "mine": state.mine_start}

    def report(self, state: State) -> str:
        return report(state, self.to_move(state), winners(state), self.outcome(state).decided_by)
