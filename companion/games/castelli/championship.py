"""A Castelli Championship round: two 2-player games at once on one table, one character deck.

The rulebook's module "Castelli bajnokság" (docs/rules.md, "Championship"): four players, two
groups of two, each group playing its own 2-player game on its own half of the board with its
own mine, all four sharing the score track, the resource board and the one deck of cards. A
round is one record (docs/records.md, "A Championship round"): ``setup.groups`` and
``setup.boards``, the moves of both groups interleaved in the order they were entered.

Each group's game is a base-game :class:`State`, so everything that reads a Castelli state (the
board, its views, what now, the OLED pages) reads a group unchanged. The one thing a group
cannot know alone is what the other group holds: its :attr:`State.sharing` carries the other
group's cards in hand (so :meth:`State.deck` counts all four hands) and the villages and towns
on the other board (the spare pieces are one supply by default). This module keeps both
groups' sharing up to date after every move, and routes a move to its player's group.

The per-group API the front ends use (also on :class:`~.game.Castelli`, which accepts a base
state as a round of one group):

- :func:`group_of` — the group (1 or 2) of a player;
- :func:`group_state` — that group's 2-player game as a base-game :class:`State`;
- :func:`group_turn` and :func:`group_what_now` — that group's turn and step due;
- :func:`group_legal_moves` — the legal moves of one group (its end as ``{"type": "end",
  "group": n}``), each ready to propose to the round.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.games.base import IllegalMove, Outcome, RecordError, Standing, Turn, require_player, turn_from
from companion.games.castelli import now, tables
from companion.games.castelli.board import Board
from companion.games.castelli.legal import legal_moves
from companion.games.castelli.moves import Build, End, Move, Play
from companion.games.castelli.rules import apply_move
from companion.games.castelli.setup import fresh_state, parse_board, parse_colors, parse_options
from companion.games.castelli.state import Options, Sharing, State
from companion.games.fields import check_keys, type_name
from companion.games.messages import Message, msg

#: The number of groups of a round, and of players in each.
GROUPS = 2
GROUP_SIZE = 2
#: ``options.spares``: the spare villages and towns are one supply for both groups (the default),
#: or each group has one of each.
SPARES_CHOICES: tuple[str, ...] = ("shared", "split")
#: Silver in each group's mine at the start: the rulebook's 22, split evenly (``setup.mines``).
DEFAULT_MINES: tuple[int, int] = (11, 11)


@dataclass(frozen=True)
class Round:
    """Everything a Championship round has after some moves: the two groups' games, frozen.

    ``players`` are the record's four in its order; ``groups`` each group's game (group 1
    first); ``spares`` the option of how the spare villages and towns are shared.
    """

    players: tuple[str, ...]
    groups: tuple[State, State]
    spares: str = SPARES_CHOICES[0]

    @property
    def finished(self) -> bool:
        """Both groups have ended their games."""
        return self.groups[0].finished and self.groups[1].finished

    @property
    def options(self) -> Options:
        return self.groups[0].options

    def deck(self) -> int:
        """Cards left to draw from the one deck (every hand of both groups counted)."""
        return self.groups[0].deck()


# The per-group API -----------------------------------------------------------------------------

def group_of(state: Round, player: str) -> int:
    """The group (1 or 2) ``player`` plays in; a name nobody plays is refused as in any game."""
    for number, group in enumerate(state.groups, start=1):
        if player in group.players:
            return number
    require_player(state.players, player)
    raise AssertionError(player)  # every player of the round is in a group


def group_state(state: Round, group: int) -> State:
    """Group ``group``'s 2-player game as a base-game state (its deck limited by the shared deck)."""
    return state.groups[_index(group)]


def group_legal_moves(state: Round, group: int) -> list[dict[str, Any]]:
    """What group ``group`` may enter now: its game's templates, its end naming the group (each a
    new dict, as a base game's are: the kept list is never handed out to be changed)."""
    return [dict(template) for template in _templates(state, group)]


def group_turn(state: Round, group: int) -> Turn:
    """Whose turn is in progress in group ``group`` and who starts its next (the base game's turn)."""
    game = group_state(state, group)
    if game.finished:
        return Turn(None, (), None)
    return turn_from(_templates(state, group), *now.in_progress(game))


def group_what_now(state: Round, group: int) -> Message | None:
    """The step due in group ``group`` (the base game's ``castelli.now.*`` codes), ``None`` once it ended."""
    game = group_state(state, group)
    if game.finished:
        return None
    templates = _templates(state, group)
    return now.what_now(False, templates, turn_from(templates, *now.in_progress(game)).acting)


def _templates(state: Round, group: int) -> list[dict[str, Any]]:
    """Group ``group``'s legal moves, worked out once per round state: after a move the screens ask
    for the round's moves, its step and each group's (its board, its turn strip), and each asked
    the same generators again (a round's state is frozen, so what it allows never changes)."""
    kept: dict[int, list[dict[str, Any]]] | None = state.__dict__.get("_templates")
    if kept is None:
        kept = {}
        object.__setattr__(state, "_templates", kept)
    found = kept.get(group)
    if found is None:
        found = [({"type": "end", "group": group} if template["type"] == "end" else template)
                 for template in legal_moves(group_state(state, group))]
        kept[group] = found
    return found


def _index(group: int) -> int:
    if group not in (1, 2):
        raise ValueError(f"a round has groups 1 and 2, not {group!r}")
    return group - 1


# Starting a round ------------------------------------------------------------------------------

def is_round_setup(setup: Mapping[str, Any]) -> bool:
    """Whether a record's setup is a Championship round's (it names the groups)."""
    return "groups" in setup


def parse_groups(players: Sequence[str], value: object) -> tuple[tuple[str, str], tuple[str, str]]:
    """``setup.groups``: two pairs of the record's players, every player in exactly one."""
    if not isinstance(value, list) or len(value) != GROUPS or not all(
            isinstance(pair, list) and len(pair) == GROUP_SIZE for pair in value):
        raise RecordError(msg("castelli.round.groups_shape", type=type_name(value)), "setup.groups")
    seen: list[str] = []
    for g, pair in enumerate(value):
        for k, name in enumerate(pair):
            if name not in players:
                raise RecordError(msg("castelli.round.groups_not_player", name=str(name)),
                                  f"setup.groups[{g}][{k}]")
            if name in seen:
                raise RecordError(msg("castelli.round.groups_twice", name=name), f"setup.groups[{g}][{k}]")
            seen.append(name)
    return (value[0][0], value[0][1]), (value[1][0], value[1][1])


def parse_mines(value: object) -> tuple[int, int]:
    """``setup.mines``: the silver in each group's mine at the start (default 11 and 11)."""
    if value is None:
        return DEFAULT_MINES
    if (not isinstance(value, list) or len(value) != GROUPS
            or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in value)):
        raise RecordError(msg("castelli.round.mines_shape"), "setup.mines")
    return value[0], value[1]


def start_round(players: Sequence[str], options: Mapping[str, Any], setup: Mapping[str, Any]) -> Round:
    """The opening state of a round record (``setup.groups``, ``setup.boards``, ``setup.mines``)."""
    if len(players) != GROUPS * GROUP_SIZE:
        raise RecordError(msg("castelli.round.players", count=len(players)), "players")
    spares = options.get("spares", SPARES_CHOICES[0])
    if spares not in SPARES_CHOICES:
        raise RecordError(msg("castelli.round.spares", choices=", ".join(SPARES_CHOICES),
                              shown=f'"{spares}"' if isinstance(spares, str) else type_name(spares)),
                          "options.spares")
    opts = parse_options({k: v for k, v in options.items() if k != "spares"})
    check_keys(setup, required=("colors", "groups", "boards"), optional=("mines",), path="setup")
    colors = parse_colors(players, setup["colors"])
    pairs = parse_groups(players, setup["groups"])
    boards_data = setup["boards"]
    if not isinstance(boards_data, list) or len(boards_data) != GROUPS:
        raise RecordError(msg("castelli.round.boards_shape", type=type_name(boards_data)), "setup.boards")
    boards: list[Board] = []
    for g, data in enumerate(boards_data):
        try:
            board = parse_board(data)
        except RecordError as error:
            path = error.path.replace("setup.board", f"setup.boards[{g}]", 1)
            raise RecordError(error.message, path) from None
        if board.mine is None:
            raise RecordError(msg("castelli.round.board_mine", group=g + 1), f"setup.boards[{g}]")
        boards.append(board)
    mines = parse_mines(setup.get("mines"))
    games = [fresh_state(pair, {p: colors[p] for p in pair}, board, mine, opts)
             for pair, board, mine in zip(pairs, boards, mines, strict=True)]
    return Round(tuple(players), _first_sharing(games, spares), spares)


def _placed(settlements: Mapping[str, str]) -> dict[str, int]:
    """How many villages and towns stand in ``settlements``."""
    counts = dict.fromkeys(tables.SETTLEMENT_KINDS, 0)
    for kind in settlements.values():
        counts[kind] += 1
    return counts


def _supply(boards: Sequence[Board], index: int, spares: str) -> dict[str, int]:
    """The villages and towns group ``index`` may have on the board(s) it counts: its board's (both
    boards', when the spares are shared) at the start, plus the spare pieces it may use."""
    own = _placed(boards[index].settlements)
    if spares == "split":
        return {kind: own[kind] + tables.SPARE_SETTLEMENTS[kind] // GROUPS for kind in own}
    other = _placed(boards[1 - index].settlements)
    return {kind: own[kind] + other[kind] + tables.SPARE_SETTLEMENTS[kind] for kind in own}


def _first_sharing(games: Sequence[State], spares: str) -> tuple[State, State]:
    """Both groups' opening games, each told what the other holds and which pieces it may use."""
    boards = [game.board for game in games]
    shared = [game.with_(sharing=Sharing(0, {} if spares == "split" else _placed(games[1 - i].settlements),
                                         _supply(boards, i, spares)))
              for i, game in enumerate(games)]
    return shared[0], shared[1]


def _with_sharing(game: State, sharing: Sharing) -> State:
    """``game`` told what the other group now holds (also in a pending Steward's or Guard's base,
    which a later move of this group may return to)."""
    pending = game.pending
    if pending is not None:
        pending = replace(pending, base=pending.base.with_(sharing=sharing))
    return game.with_(sharing=sharing, pending=pending)


def _shared(state: Round, index: int, game: State) -> Round:
    """The round with group ``index``'s game replaced by ``game``, the other group told what changed
    of this group's hands and villages and towns (a move shares every table it left alone, so an
    unchanged table is the same object)."""
    before = state.groups[index]
    other = state.groups[1 - index]
    if game.cards is not before.cards or (game.settlements is not before.settlements
                                          and state.spares != "split"):
        sharing = other.sharing
        assert sharing is not None
        cards = sum(game.cards.values())
        settlements = sharing.settlements if state.spares == "split" else _placed(game.settlements)
        if cards != sharing.cards or settlements != sharing.settlements:
            other = _with_sharing(other, replace(sharing, cards=cards, settlements=settlements))
    games = (game, other) if index == 0 else (other, game)
    return Round(state.players, games, state.spares)


# Moves -----------------------------------------------------------------------------------------

def apply_round(state: Round, move: Move) -> Round:
    """The round after ``move``, checked against its own group; :class:`IllegalMove` otherwise.

    A group's refusal names the group ("group 1: ..."); a card aimed at a player of the other
    group is refused (every card acts only within its group); an ``end`` must name its group.
    """
    if state.finished:
        raise IllegalMove(msg("castelli.game.over"))
    if isinstance(move, End):
        if move.group is None:
            raise IllegalMove(msg("castelli.round.end_group"))
        index, move = move.group - 1, End()
    else:
        index = group_of(state, move.player) - 1
        _check_reach(state, index, move)
    try:
        game = apply_move(state.groups[index], move)
    except IllegalMove as refusal:
        raise IllegalMove(msg("castelli.round.refused", group=index + 1, reason=refusal.reason)) from None
    return _shared(state, index, game)


def _check_reach(state: Round, index: int, move: Move) -> None:
    """Refuse a Traitor or a build on top naming a player of the other group."""
    aimed = move.target if isinstance(move, Play) else move.on if isinstance(move, Build) else None
    if aimed is None or aimed in state.groups[index].players:
        return
    require_player(state.players, aimed)
    raise IllegalMove(msg("castelli.round.other_group", player=move.player, other=aimed,
                          group=index + 1))


def round_legal_moves(state: Round) -> list[dict[str, Any]]:
    """Both groups' legal moves (each group's end naming it), each a new dict."""
    return [dict(template) for group in (1, 2) for template in _templates(state, group)]


def group_for_move(state: Round, move: Mapping[str, Any]) -> int | None:
    """The group a move (record JSON or template) belongs to: its ``group``, else its player's;
    ``None`` when it names neither (or a player nobody plays)."""
    group = move.get("group")
    if isinstance(group, int) and group in (1, 2):
        return group
    player = move.get("player")
    for number, game in enumerate(state.groups, start=1):
        if player in game.players:
            return number
    return None


def groups_outcome(outcomes: Iterable[Outcome], finished: bool) -> Outcome:
    """One outcome of both groups: each group's standings (ranks within its group), both groups'
    winners, and how they were decided (``shared`` if either group's win is shared, else the
    tie-break if it decided either, else ``score``); each group's own in :attr:`Outcome.groups`,
    which is what a front end says per group."""
    parts = tuple(outcomes)
    standings: tuple[Standing, ...] = tuple(s for o in parts for s in o.standings)
    if not finished:
        return Outcome(standings, (), None, parts[0].tiebreak, parts[0].words, groups=parts)
    decided = [o.decided_by for o in parts]
    by = "shared" if "shared" in decided else next((d for d in decided if d != "score"), "score")
    return Outcome(standings, tuple(p for o in parts for p in o.winners), by, parts[0].tiebreak,
                   parts[0].words, groups=parts)


def shapes_of_round(state: Round, said: list[str]) -> Iterator[dict[str, Any]]:
    """The notation's well-formed moves of both groups (each group's end naming it)."""
    from companion.games.castelli import notation  # not at start-up: replay never uses it

    for number, game in enumerate(state.groups, start=1):
        for shape in notation.shapes(game, said):
            yield {"type": "end", "group": number} if shape["type"] == "end" else shape
