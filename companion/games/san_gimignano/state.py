"""The state of a San Gimignano game, and how a record's options and setup make the first one.

A state is a frozen dataclass holding plain dicts and tuples; the engine never
changes one in place but builds the next with fresh copies of the parts a move
touches, so a kept state is an exact undo point.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import RecordError
from companion.games.fields import check_keys, get_int, get_list, get_str, type_name
from companion.games.messages import msg
from companion.games.naming import check_name
from companion.games.san_gimignano import geometry, tables
from companion.games.san_gimignano.descriptor import OPTION_KEYS, SETUP_KEYS, SETUP_REQUIRED
from companion.games.san_gimignano.geometry import Edges, Position, Space
from companion.games.san_gimignano.moves import read_edges, read_position

#: Turn stages in the order each rule set plays them.
STAGE_TOKEN = "token"
STAGE_SEGMENT = "segment"
STAGE_TOWER = "tower"
STAGES: dict[str, tuple[str, ...]] = {
    tables.RULEBOOK: (STAGE_TOKEN, STAGE_SEGMENT, STAGE_TOWER),
    tables.CLARIFIED: (STAGE_SEGMENT, STAGE_TOKEN, STAGE_TOWER),
}


@dataclass(frozen=True)
class Setup:
    """What the record's options and setup said, kept for export (defaults written out)."""

    rules: str
    variant: str
    guilds: tuple[str, ...]
    segments: tuple[tuple[Position, Edges], ...]
    hands: tuple[tuple[str, int], ...] | None
    pool: int | None


@dataclass(frozen=True)
class State:
    """One moment of a game.

    ``turn`` is the seat index of the player whose turn it is (``None`` before
    the first move) and ``stage`` how far that turn has got: the index into
    :data:`STAGES` of the next stage still open (3 = all done). ``passed``
    says the turn began with a pass.
    """

    players: tuple[str, ...]
    setup: Setup
    segments: dict[Position, Edges]
    adjacency: dict[Space, tuple[Space, ...]]
    tokens: dict[Space, tuple[str, ...]]
    towers: dict[Space, str]
    hands: dict[str, int]
    pool: int
    tower_count: dict[str, int]
    on_board: dict[str, int]
    turn: int | None = None
    stage: int = 0
    passed: bool = False
    finished: bool = False
    #: Facts derived from this very state (buildable groups, the end test), computed once:
    #: a screen asks for them several times per move. Never copied to the next state.
    derived: dict[tuple[str, str], Any] = field(default_factory=dict, init=False, compare=False,
                                                repr=False)

    @property
    def rules(self) -> str:
        return self.setup.rules

    @property
    def variant(self) -> str:
        return self.setup.variant

    @property
    def guilds(self) -> tuple[str, ...]:
        return self.setup.guilds

    @property
    def current(self) -> str | None:
        """The player whose turn it is (the last to move), ``None`` before the first move."""
        return None if self.turn is None else self.players[self.turn]

    @property
    def next_seat(self) -> int:
        """The seat of the player who starts the next turn."""
        return 0 if self.turn is None else (self.turn + 1) % len(self.players)

    def in_hand(self, player: str) -> int:
        """Tokens ``player`` still holds."""
        return tables.TOKENS_PER_PLAYER - self.on_board[player]

    def segments_left(self, player: str) -> int:
        """Segments ``player`` may still place: its hand (rulebook) or the shared pool."""
        return self.hands.get(player, 0) if self.rules == tables.RULEBOOK else self.pool

    def all_segments_placed(self) -> bool:
        """Whether no segment is left to place by anyone."""
        if self.rules == tables.RULEBOOK:
            return not any(self.hands.values())
        return self.pool == 0

    def spaces(self) -> list[Space]:
        """Every guild space on the board, segment by segment in placement order.

        Worked out once per state (:attr:`derived`): the summary's board, the legal tokens and
        the screens each walk the spaces after every move.
        """
        key = ("spaces", "")
        if key not in self.derived:
            found: list[Space] = []
            for at, edges in self.segments.items():
                found.extend(geometry.segment_spaces(at, edges))
            self.derived[key] = tuple(found)
        return list(self.derived[key])


def read_options(options: Mapping[str, Any]) -> tuple[str, str]:
    """``(rules, variant)`` from the record's options, defaults filled in."""
    check_keys(options, optional=OPTION_KEYS, path="options", listed=True)
    rules = get_str(options, "rules", choices=tables.RULES, default=tables.RULEBOOK, path="options")
    variant = get_str(options, "variant", choices=tables.VARIANTS, default=tables.FOUR,
                      path="options")
    assert rules is not None and variant is not None
    return rules, variant


def _read_guilds(setup: Mapping[str, Any]) -> tuple[str, ...]:
    raw = get_list(setup, "guilds", path="setup")
    if raw is None:
        return tables.DEFAULT_GUILDS
    if len(raw) != tables.GUILD_COUNT:
        raise RecordError(msg("san_gimignano.setup.guild_count", count=tables.GUILD_COUNT),
                          "setup.guilds")
    for index, name in enumerate(raw):  # the one name rule: shown on every screen and the phone page
        check_name(name, "guild", f"setup.guilds[{index}]")
    if len(set(raw)) != len(raw):
        raise RecordError(msg("san_gimignano.setup.guilds_repeat"), "setup.guilds")
    return tuple(raw)


def _read_segments(setup: Mapping[str, Any], guilds: Sequence[str]) -> dict[Position, Edges]:
    raw = get_list(setup, "segments", required=True, path="setup")
    assert raw is not None
    if not raw:
        raise RecordError(msg("san_gimignano.setup.no_segments"), "setup.segments")
    placed: dict[Position, Edges] = {}
    for index, item in enumerate(raw):
        path = f"setup.segments[{index}]"
        if not isinstance(item, dict):
            raise RecordError(msg("san_gimignano.setup.segment_kind", kind=type_name(item)), path)
        check_keys(item, required=("at", "edges"), path=path)
        try:
            at = read_position(item["at"])
        except RecordError as error:
            raise RecordError(error.message, f"{path}.at") from None
        try:
            edges = read_edges(item["edges"])
        except RecordError as error:
            raise RecordError(error.message, f"{path}.edges") from None
        for guild in edges:
            if guild not in guilds:
                raise RecordError(msg("san_gimignano.guild.unknown", guild=guild, guilds=list(guilds)),
                                  f"{path}.edges")
        if at in placed:
            raise RecordError(msg("san_gimignano.segment.occupied", q=at[0], r=at[1]), f"{path}.at")
        if geometry.clash(placed, at, edges) is not None:
            raise RecordError(msg("san_gimignano.segment.same_guild"), f"{path}.edges")
        placed[at] = edges
    return placed


def _read_hands(setup: Mapping[str, Any], players: Sequence[str]) -> dict[str, int]:
    default = tables.default_hand(len(players))
    raw = setup.get("hands")
    if raw is None:
        return {player: default for player in players}
    if not isinstance(raw, dict):
        raise RecordError(msg("san_gimignano.setup.hands_kind", kind=type_name(raw)), "setup.hands")
    for name in raw:
        if name not in players:
            raise RecordError(msg("common.player.not_playing", player=name), "setup.hands")
    hands = {}
    for player in players:
        hands[player] = get_int(raw, player, low=0, default=default, path="setup.hands")
    return hands  # type: ignore[return-value]


def start_state(players: Sequence[str], options: Mapping[str, Any],
                setup: Mapping[str, Any]) -> State:
    """The state before the first move (see :meth:`Game.start`)."""
    rules, variant = read_options(options)
    check_keys(setup, required=SETUP_REQUIRED, optional=SETUP_KEYS, path="setup", listed=True)
    guilds = _read_guilds(setup)
    segments = _read_segments(setup, guilds)
    players = tuple(players)
    if rules == tables.RULEBOOK:
        if setup.get("pool") is not None:
            raise RecordError(msg("san_gimignano.setup.pool_with_rulebook"), "setup.pool")
        hands = _read_hands(setup, players)
        pool = 0
    else:
        if setup.get("hands") is not None:
            raise RecordError(msg("san_gimignano.setup.hands_with_clarified"), "setup.hands")
        hands = {}
        read = get_int(setup, "pool", low=0, default=tables.CLARIFIED_POOL, path="setup")
        assert read is not None
        pool = read
    adjacency: dict[Space, tuple[Space, ...]] = {}
    built: dict[Position, Edges] = {}
    for at, edges in segments.items():
        adjacency = geometry.adjacency_with(adjacency, built, at, edges)
        built[at] = edges
    kept = Setup(rules, variant, guilds, tuple(segments.items()),
                 tuple(hands.items()) if rules == tables.RULEBOOK else None,
                 pool if rules == tables.CLARIFIED else None)
    return State(players=players, setup=kept, segments=built, adjacency=adjacency, tokens={},
                 towers={}, hands=hands, pool=pool, tower_count=dict.fromkeys(players, 0),
                 on_board=dict.fromkeys(players, 0))
