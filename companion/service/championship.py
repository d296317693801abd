"""Championships in the service: four players, rounds of two 2-player games at once, standings.

A championship is a row of its own in the store (variant, players in the
order named, readings, decisions); each round is a stored game like any
other, started through :meth:`Companion.start <companion.service.app.Companion.start>`
with ``setup.groups`` built from the pairings (:mod:`companion.service.championship_rules`)
and marked with its championship and number in the same transaction. So a
round is resumed after a power cut as every game is, and nothing about the
championship is kept that the rounds' logs do not already say, except the
players' decisions. Standings are worked out from the rounds each time they
are asked for.

The front ends use :class:`Championships` through ``Companion.championships``:

- :meth:`~Championships.new` — a new championship, its round 1 started (the :class:`LiveGame`);
- :meth:`~Championships.status` — where it stands (:class:`ChampionshipStatus`), optionally with the
  round being played given as its live game, so nothing is replayed for it;
- :meth:`~Championships.next_round` — start the next round with the pairings the variant asks;
- :meth:`~Championships.decide` — record who advances after a shared win (variant 1);
- :meth:`~Championships.of_game` — the championship a stored game is a round of, if any;
- :meth:`~Championships.abandon` — stop going on with one (the game of its round being played with it);
- :meth:`~Championships.export` / :meth:`~Championships.import_data` — ``companion-championship/1``.

A round's game and its championship go together (docs/championship.md, "Abandoning"): a round
whose game is abandoned (``companion abandon``, the touchscreen) leaves its championship abandoned,
its finished rounds kept; abandoning the championship abandons its round being played. While one
championship is being played, a new one is refused naming it, so the older one never lingers
behind an id only ``companion sessions`` shows.

Every refusal is an :class:`AppError` in player words (message codes
``championship.*``), and changes nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from companion.games.base import IllegalMove, RecordError
from companion.games.messages import msg
from companion.registry import get_game
from companion.service.championship_import import FORMAT, ReadChampionship, read_championship
from companion.service.championship_rules import (
    OPTIONS,
    ROUNDS,
    VARIANTS,
    ChampionshipError,
    Decision,
    GroupResult,
    Groups,
    Pending,
    Standing,
    check_decision,
    check_options,
    group_results,
    is_over,
    next_groups,
    pending_decision,
    standings,
)
from companion.service.errors import AppError
from companion.service.live import LiveGame
from companion.service.names import check_distinct
from companion.service.parts import championship_game
from companion.service.records import check_players
from companion.storage.store import ChampionshipRow, SessionRow, Store, StoreError

__all__ = ["FORMAT", "ChampionshipStatus", "Championships", "RoundStatus"]



class Host(Protocol):
    """What :class:`Championships` asks of the service it is part of (the :class:`Companion`)."""

    store: Store

    def start(self, game: str, players: Sequence[str], *, options: Mapping[str, Any] | None = None,
              setup: Mapping[str, Any] | None = None, colours: Mapping[str, str] | None = None,
              colours_by_seat: bool = False, championship: tuple[int, int] | None = None) -> LiveGame: ...

    def export_record(self, session_id: int) -> dict[str, Any]: ...

    def part(self, game: str) -> object | None: ...

    def results_of(self, engine: Any, players: Sequence[str], state: Any) -> Any: ...


@runtime_checkable
class BoardShelf(Protocol):
    """What the championship's game's part of the service offers when the rounds are played on the
    table's own boards: the boards it knows, by name."""

    def boards(self) -> Sequence[Named]: ...


class Named(Protocol):
    @property
    def name(self) -> str: ...


def _board_shelf(part: object | None) -> BoardShelf:
    """The championship's game's part as a :class:`BoardShelf`; :class:`AppError` when it keeps no boards."""
    if not isinstance(part, BoardShelf):
        raise AppError(msg("championship.option.boards"))
    return part


@dataclass(frozen=True)
class RoundStatus:
    """One round as it stands: its number, its stored game, its two groups' results."""

    number: int
    session_id: int
    groups: tuple[GroupResult, GroupResult]
    #: Cards left in the shared deck (``None``: the round's summary does not say).
    deck: int | None

    @property
    def finished(self) -> bool:
        return all(group.finished for group in self.groups)


@dataclass(frozen=True)
class ChampionshipStatus:
    """A championship as it stands: what every screen and command shows of it."""

    id: int
    variant: int
    players: tuple[str, ...]
    options: Mapping[str, Any]
    rounds: tuple[RoundStatus, ...]
    decisions: tuple[Decision, ...]
    #: Best first; a place is ``None`` until the games that settle it are played.
    standings: tuple[Standing, ...]
    #: The decision the players must make before the next round (variant 1 after a shared win).
    pending: Pending | None
    #: The groups of the round :meth:`Championships.next_round` would start now (``None``: none can).
    next_groups: Groups | None
    over: bool
    abandoned: bool

    @property
    def current(self) -> RoundStatus | None:
        """The round being played (the last one, while it is unfinished)."""
        return self.rounds[-1] if self.rounds and not self.rounds[-1].finished else None

    @property
    def rounds_total(self) -> int:
        return ROUNDS[self.variant]


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _refused(error: ChampionshipError) -> AppError:
    return AppError(error.message)


def _decisions(row: ChampionshipRow) -> list[Decision]:
    return [Decision(int(d["round"]), int(d["group"]), str(d["advances"])) for d in row.decisions]


def _groups(setup: Mapping[str, Any]) -> list[list[str]]:
    """A round's two groups of players, as its setup names them (fewer: not a round's setup)."""
    found = setup.get("groups", []) if isinstance(setup, Mapping) else []
    return [list(pair) for pair in found if isinstance(pair, list | tuple)] if isinstance(found, list) else []


class Championships:
    """The championship part of the service; one per :class:`Companion`, as ``app.championships``."""

    def __init__(self, host: Host) -> None:
        self._host = host

    @property
    def _store(self) -> Store:
        return self._host.store

    def _row(self, championship_id: int | None) -> ChampionshipRow:
        if championship_id is None:
            found = self.latest()
            if found is None:
                raise AppError(msg("championship.none"))
            return found
        try:
            return self._store.championship(championship_id)
        except StoreError as error:
            raise AppError(*error.args) from None

    # -- what is stored ------------------------------------------------------------
    def list(self) -> list[ChampionshipRow]:
        """Every championship, the most recent first."""
        return self._store.list_championships()

    def latest(self) -> ChampionshipRow | None:
        """The championship ``status`` and ``next`` mean when none is named: the most recent one not
        abandoned (``None`` when there is none)."""
        return next((row for row in self.list() if not self._abandoned(row)), None)

    def _abandoned(self, row: ChampionshipRow) -> bool:
        """Whether the championship was abandoned, or the game of a round not finished was: a round
        whose game is abandoned cannot be finished, so the championship cannot go on."""
        if row.abandoned is not None:
            return True
        return any(game.abandoned is not None and game.finished is None
                   for game in self._store.championship_rounds(row.id))

    def running(self) -> ChampionshipStatus | None:
        """The championship being played (neither over nor abandoned), the most recent first; ``None``
        when there is none."""
        for row in self.list():
            if not self._abandoned(row):
                status = self._status(row, None)
                if not status.over:
                    return status
        return None

    def of_game(self, session_id: int) -> int | None:
        """The championship the stored game ``session_id`` is a round of (``None``: a game on its own)."""
        try:
            return self._store.session(session_id).championship
        except StoreError as error:
            raise AppError(*error.args) from None

    # -- starting ------------------------------------------------------------------
    def new(self, variant: int, players: Sequence[str], options: Mapping[str, Any] | None = None) -> LiveGame:
        """A new championship of ``variant`` (1 or 2) for four players in the order named, with its
        readings (``options``: :data:`~companion.service.championship_rules.OPTIONS`, and ``game``:
        the options every round's game is started with); its round 1 is started and returned.

        :class:`AppError` for a variant, a player count, a name or a reading that does not do;
        nothing is stored then. The championship's row and its round 1 are two transactions: a
        power cut between them leaves a championship without a round, whose ``next_round``
        starts round 1.
        """
        if variant not in VARIANTS:
            raise AppError(msg("championship.variant", variant=str(variant)))
        going = self.running()
        if going is not None:  # a second one would leave this one behind an id nobody is told
            raise AppError(msg("championship.still_running", championship=going.id,
                               played=len(going.rounds), rounds=going.rounds_total))
        typed = [str(p).strip() if isinstance(p, str) else p for p in players]
        if len(typed) != 4:
            raise AppError(msg("championship.players.four", count=len(typed)))
        engine = get_game(championship_game())
        names = check_players(typed, engine)
        check_distinct(names)
        readings = dict(options or {})
        game_options = readings.pop("game", {})
        if not isinstance(game_options, dict):
            raise AppError(msg("championship.option.game"))
        halves = self._halves(readings.pop("boards", None))
        try:
            checked: dict[str, Any] = {**check_options(readings), "game": game_options}
        except ChampionshipError as error:
            raise _refused(error) from None
        if halves is not None:
            checked["boards"] = [*halves]
        championship_id = self._store.insert_championship(variant, names, checked)
        try:
            return self.next_round(championship_id)
        except BaseException:
            self._store.delete_championship(championship_id)  # no championship without its first round
            raise

    def next_round(self, championship_id: int | None = None) -> LiveGame:
        """Start the next round with the pairings the variant asks for, and return it.

        :class:`AppError` while the last round is being played, a decision is awaited, or the
        championship is over or abandoned.
        """
        row = self._row(championship_id)
        if self._abandoned(row):
            raise AppError(msg("championship.abandoned", championship=row.id))
        status = self._status(row, None)
        if status.over:
            raise AppError(msg("championship.over", championship=row.id))
        if status.current is not None:
            raise AppError(msg("championship.round_unfinished", number=status.current.number,
                               session=status.current.session_id))
        if status.pending is not None:
            raise AppError(msg("championship.decide.needed", group=status.pending.group,
                               players=list(status.pending.players)))
        groups = status.next_groups
        if groups is None:  # (every case above says why; kept so a future variant cannot start nothing)
            raise AppError(msg("championship.over", championship=row.id))
        number = len(status.rounds) + 1
        setup: dict[str, Any] = {"groups": [list(groups[0]), list(groups[1])]}
        if row.options.get("boards"):  # the table's own two halves, by name (inline once started)
            setup["boards"] = list(row.options["boards"])
        colours = self._colours(status)
        return self._host.start(championship_game(), [*groups[0], *groups[1]],
                                options=dict(row.options.get("game", {})), setup=setup,
                                colours=colours, colours_by_seat=True, championship=(row.id, number))

    def _halves(self, given: Any) -> Sequence[str] | None:
        """The two board halves every round is played on (group 1's, then group 2's), by the name of
        a shipped layout or a board entered here; ``None``: each round gets the default halves.

        Checked when the championship starts, so that no round can fail to start later for a board
        that does not exist."""
        if given is None:
            return None
        if (not isinstance(given, (list, tuple)) or len(given) != 2
                or not all(isinstance(name, str) for name in given)):
            raise AppError(msg("championship.option.boards"))
        known = [board.name for board in _board_shelf(self._host.part(championship_game())).boards()]
        for name in given:
            if name not in known:
                raise AppError(msg("app.board.unknown", name=name))
        return [str(name) for name in given]

    def _colours(self, status: ChampionshipStatus) -> dict[str, str] | None:
        """Every player keeps the colour of round 1 (``None`` for round 1: by profile, else by seat)."""
        if not status.rounds:
            return None
        colours = self._store.session(status.rounds[0].session_id).setup.get("colors")
        return dict(colours) if isinstance(colours, dict) else None

    def decide(self, player: str, championship_id: int | None = None) -> ChampionshipStatus:
        """Record the players' decision that ``player`` advances, for the decision awaited now
        (variant 1, after a shared win with the ``advance`` reading ``players``)."""
        row = self._row(championship_id)
        status = self._status(row, None)
        typed = str(player).strip().casefold()
        chosen = next((p for p in row.players if p.casefold() == typed), str(player))
        try:
            decision = check_decision(row.variant, [r.groups for r in status.rounds], row.options,
                                      status.decisions, chosen)
        except ChampionshipError as error:
            raise _refused(error) from None
        self._store.set_championship_decisions(row.id, [*row.decisions, decision.to_json()])
        return self.status(row.id)

    def abandon(self, championship_id: int | None = None) -> ChampionshipStatus:
        """Stop going on with a championship (the one being played when none is named), and return it
        as it stands now; its rounds stay stored (and exportable), and the game of its round being
        played is abandoned with it, so ``companion run`` no longer resumes it."""
        row = self._row(championship_id)
        if row.abandoned is not None:
            raise AppError(msg("championship.abandoned", championship=row.id))
        self._store.abandon_championship(row.id)
        for game in self._store.championship_rounds(row.id):
            if game.finished is None and game.abandoned is None:
                self._store.abandon_session(game.id)
        return self.status(row.id)

    # -- where it stands -------------------------------------------------------------
    def status(self, championship_id: int | None = None, live: LiveGame | None = None) -> ChampionshipStatus:
        """The championship as it stands (the most recent one not abandoned when none is named).

        ``live``: the round being played, as the front end has it open; its
        groups are read from its state rather than replayed from the store.
        """
        return self._status(self._row(championship_id), live)

    def _status(self, row: ChampionshipRow, live: LiveGame | None) -> ChampionshipStatus:
        rounds = tuple(self._round(game, live) for game in self._store.championship_rounds(row.id))
        return self._assess(row.id, row.variant, row.players, row.options, rounds, tuple(_decisions(row)),
                            abandoned=self._abandoned(row))

    @staticmethod
    def _assess(championship_id: int, variant: int, players: Sequence[str], options: Mapping[str, Any],
                rounds: tuple[RoundStatus, ...], decisions: tuple[Decision, ...], *,
                abandoned: bool) -> ChampionshipStatus:
        results = [r.groups for r in rounds]
        readings = {name: str(options.get(name, values[0])) for name, values in OPTIONS.items()}
        return ChampionshipStatus(
            championship_id, variant, tuple(players), dict(options), rounds, decisions,
            tuple(standings(variant, players, results, readings, decisions)),
            pending_decision(variant, results, readings, decisions),
            None if abandoned else next_groups(variant, players, results, readings, decisions),
            is_over(variant, results), abandoned)

    def _round(self, game: SessionRow, live: LiveGame | None) -> RoundStatus:
        """A stored round's groups as its log leaves them (the live game's state when it is that one)."""
        groups = _groups(game.setup)
        if len(groups) < 2 or any(len(pair) < 2 for pair in groups[:2]):  # a game marked as a round
            raise AppError(msg("championship.not_a_round", session=game.id, championship=game.championship,
                               number=game.championship_round))
        engine = get_game(game.game)
        state = live.session.state if live is not None and live.id == game.id else self._replay(game)
        summary = engine.summary(state)
        deck = summary.get("deck")
        return RoundStatus(int(game.championship_round or 0), game.id,
                           group_results(_groups(game.setup), summary),
                           deck if isinstance(deck, int) else None)

    def _replay(self, game: SessionRow) -> Any:
        engine = get_game(game.game)
        try:
            state = engine.start(game.players, game.options, game.setup)
            for data in self._store.stored_moves(game.id)[0]:
                state = engine.apply(state, engine.parse_move(data))
        except (RecordError, IllegalMove) as error:
            raise AppError(msg("app.open.replay", session=game.id, reason=str(error))) from None
        return state

    # -- export and import -------------------------------------------------------------
    def export(self, championship_id: int | None = None) -> dict[str, Any]:
        """The championship as one ``companion-championship/1`` object: its rounds as complete records."""
        row = self._row(championship_id)
        status = self._status(row, None)
        return {"format": FORMAT, "variant": row.variant, "players": list(row.players),
                "options": dict(row.options),
                "rounds": [self._host.export_record(r.session_id) for r in status.rounds],
                "decisions": [d.to_json() for d in status.decisions],
                "standings": [s.to_json() for s in status.standings]}

    def _stored(self, read: ReadChampionship) -> int | None:
        """The stored championship that is this very one (variant, players, readings, decisions, and
        every round's game and moves), if any: one exported from here is not a second championship."""
        wanted = _dumps([read.variant, read.players, read.options, read.decisions])
        for row in self.list():
            if _dumps([row.variant, list(row.players), row.options, row.decisions]) != wanted:
                continue
            rounds = self._store.championship_rounds(row.id)
            if len(rounds) == len(read.rounds) and all(
                    _dumps([game.game, list(game.players), game.options, game.setup,
                            self._store.stored_moves(game.id)[0]])
                    == _dumps([r["game"], r["players"], r["options"], r["setup"], r["moves"]])
                    for game, r in zip(rounds, read.rounds, strict=True)):
                return row.id
        return None

    def import_data(self, data: object) -> int:
        """Store a decoded ``companion-championship/1`` with its rounds; returns its id.

        Every field is checked (:class:`RecordError` naming it): the rounds replay,
        each pairs the players as the variant asks, the decisions are the ones the
        rounds called for, and the standings are the ones the rounds give. A
        championship stored here already — imported before, or played here and
        exported — is refused (:class:`AppError` naming it).
        """
        read = read_championship(data, self._host.results_of)
        digest = hashlib.sha256(_dumps([read.variant, read.players, read.options, read.decisions,
                                        [r["fingerprint"] for r in read.rounds]]).encode()).hexdigest()
        known = self._store.championship_with_hash(digest) or self._stored(read)
        if known is not None:
            raise AppError(msg("championship.import.duplicate", championship=known))
        return self._store.insert_championship(
            read.variant, read.players, read.options, decisions=read.decisions, source="import",
            record_hash=digest, rounds=[self._round_to_store(r) for r in read.rounds])

    def _round_to_store(self, read: Mapping[str, Any]) -> dict[str, Any]:
        """A read round as the store takes it: the game stored on its own already when that round was
        imported alone before (``{"session": id}``: it becomes the round, so the round is not stored
        twice), else the round's own rows."""
        alone = self._store.session_with_hash(read["fingerprint"])  # an import_record's hash: the same
        if alone is not None and self._store.session(alone).championship is None:
            return {"session": alone}
        return {key: value for key, value in read.items() if key != "fingerprint"}

