"""The application service: the one core the console, buttons, seat panels and touchscreen drive.

Front ends never re-implement a rule, a setup step or a setting: they call
:class:`Companion`. It starts games (with the stored boards and the confirmed
2-player flag table written into them, so their records never need local
settings), rematches, lists and resumes unfinished games, abandons them,
keeps player profiles and settings, the boards and the flag-table library,
and exports BG Stats plays. The store under it keeps rows only; this module
builds the sessions and reads the engines' summaries (the results of a
finished game are written by a session listener installed here).

Every refusal is an :class:`AppError` (or the engine's :class:`RecordError`
naming the field) with one line in player words, and changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from companion.games.base import Game, RecordError
from companion.games.descriptor import GameDescriptor, NewGame, SetupNeeded, seat_colours, split_words
from companion.games.messages import Message, msg
from companion.i18n import LANGUAGES, catalogue, known_text
from companion.registry import descriptor, descriptors, find, get_game, looks_like_a_name
from companion.service import bgstats
from companion.service.championship import Championships
from companion.service.errors import AppError
from companion.service.live import LiveGame
from companion.service.names import check_distinct, name_problem
from companion.service.parts import build_part
from companion.service.records import ReplayError, check_players, final_state, parse_record, record_json
from companion.service.session import AnySession, Change, Session
from companion.service.settings import (
    SettingError,
    bgg_id_key,
    check_setting,
    effective_settings,
)
from companion.storage.store import Clock, GameLookup, Result, SessionRow, Store, StoreError, StoreJournal
from companion.system.clock import clock_is_sure

__all__ = ["PIECE_COLOURS", "AppError", "Companion", "LiveGame", "Profile"]


class _PieceColours(Mapping[str, "tuple[str, ...] | None"]):
    """Game name -> the colours of its pieces (:attr:`GameDescriptor.piece_colours`), read from the
    registry each time, so that a game registered later is in it too."""

    def __getitem__(self, game: str) -> tuple[str, ...] | None:
        for known in descriptors():
            if known.name == game:
                return known.piece_colours
        raise KeyError(game)

    def __iter__(self) -> Iterator[str]:
        return iter([known.name for known in descriptors()])

    def __len__(self) -> int:
        return len(descriptors())


#: The colours of each game's pieces, from the rulebooks' component lists; ``None``:
#: the rulebook does not name them, any name is taken.
PIECE_COLOURS: Mapping[str, tuple[str, ...] | None] = _PieceColours()


class _TableSettings:
    """The table's settings as a game's descriptor reads them for a new game's defaults."""

    def __init__(self, app: Companion) -> None:
        self._app = app

    def setting(self, key: str, default: Any = None) -> Any:
        simple = self._app.settings()
        if key in simple:
            return simple[key]
        return self._app.store.get_setting(key, default)

    def words(self, key: str) -> list[str]:
        return split_words(str(self.setting(key, "")))


@dataclass(frozen=True)
class Profile:
    """A player who sat at this table: the name, and the colour preferred per game."""

    name: str
    colours: Mapping[str, str]


def _colour_code(game: str, colour: str) -> str:
    """The message code of a game's piece colour (``<game>.colour.blue``; a dash in the name is ``_``)."""
    return f"{game.replace('-', '_')}.colour.{colour}"


def _colour_words(game: str, colour: str) -> list[str]:
    """Every language's word for a piece colour (none when the catalogues have no word for it)."""
    code = _colour_code(game, colour)
    return [word for word in (catalogue(language).lookup(code) for language in LANGUAGES) if word]


def colour_word(game: str, colour: str) -> str:
    """A piece colour in the table's language, or as the record spells it."""
    word = known_text(_colour_code(game, colour))
    return colour if word == _colour_code(game, colour) else word


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _profile_name(name: object) -> str:
    """A profile's name, trimmed, judged by the one name rule (:mod:`companion.games.naming`)."""
    cleaned = name.strip() if isinstance(name, str) else name
    refusal = name_problem(cleaned, "profile")
    if refusal is not None:  # a control or bidi character would reach every screen and terminal
        raise AppError(refusal)
    assert isinstance(cleaned, str)
    return cleaned


class Companion:
    """The service over one store. One per process, used from the session's thread.

    What only one game needs (its flag table, its boards) comes from that game's part of the
    service, named by its descriptor and built on first use (:meth:`part`).
    """

    def __init__(self, store: Store, *, games: GameLookup = get_game,
                 clock_sure: Callable[[], bool] = clock_is_sure,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self._games = games
        #: The clock a game's time is measured by (never the wall clock, which may jump when it is set).
        self._monotonic = monotonic
        #: Whether the wall clock can be trusted now (a Pi without network may not know the date).
        self._clock_sure = clock_sure
        #: Unfinished games left out of :meth:`unfinished` because they cannot be opened
        #: (a damaged row, a game this companion does not know): id -> the reason, to show.
        self.damaged_sessions: dict[int, str] = {}
        #: Why the store could not be opened or shown as it is (:mod:`companion.service.rescue`).
        self.trouble: Message | None = None
        #: The store is an empty stand-in in memory; the real file, at ``store.path``, waits.
        self.standing_in = False
        #: The championships (:mod:`companion.service.championship`): new, status, next round, decisions.
        self.championships = Championships(self)
        #: Each game's part of the service (:mod:`companion.service.parts`), built on first use.
        self._parts: dict[str, object | None] = {}
        #: In a club (docs/club.md): a finished game is queued for it with its finishing move.
        self.club_outbox = False

    def part(self, game: str) -> object | None:
        """``game``'s own part of the service (its descriptor's ``service``), built once; ``None``
        when it has none. :class:`AppError` for a game that is not installed."""
        if game not in self._parts:
            try:
                self._parts[game] = build_part(game, self)
            except RecordError as error:
                raise AppError(msg("app.game.unknown", game=repr(game), reason=error.message)) from None
        return self._parts[game]

    @classmethod
    def open(cls, path: str | Path, *, clock: Clock | None = None, games: GameLookup = get_game,
             clock_sure: Callable[[], bool] = clock_is_sure,
             monotonic: Callable[[], float] = time.monotonic) -> Companion:
        """The service over the store at ``path`` (created and migrated as needed)."""
        return cls(Store.open(path, clock=clock, games=games), games=games, clock_sure=clock_sure,
                   monotonic=monotonic)

    def close(self) -> None:
        self.store.close()

    def reopen(self) -> None:
        """Open the store file again after it was closed (and repaired): the same service, its
        callers' references still good; what was known of damaged games is forgotten."""
        old = self.store
        self.store = Store.open(old.path, clock=old._clock, games=old._games)
        self.damaged_sessions = {}

    def __enter__(self) -> Companion:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _engine(self, name: str, *, stored: bool = False) -> Game[Any, Any]:
        """The engine of ``name``; :class:`AppError` when there is none (for a ``stored`` game whose
        package is gone: that it is not installed, and kept as it is)."""
        try:
            return self._games(name)
        except RecordError as error:
            if stored and find(name) is None and looks_like_a_name(name):
                raise AppError(msg("app.game.not_installed", game=name)) from None
            raise AppError(msg("app.game.unknown", game=repr(name), reason=error.message)) from None

    def _row(self, session_id: int) -> SessionRow:
        try:
            return self.store.session(session_id)
        except StoreError as error:
            raise AppError(*error.args) from None

    # -- starting games ----------------------------------------------------------
    def start(self, game: str, players: Sequence[str], *, options: Mapping[str, Any] | None = None,
              setup: Mapping[str, Any] | None = None,
              colours: Mapping[str, str] | None = None, colours_by_seat: bool = False,
              championship: tuple[int, int] | None = None) -> LiveGame:
        """Store a new game and open it.

        ``players`` in seating order; ``colours`` (player → colour) for games
        whose setup records them (:attr:`GameDescriptor.colours_in_setup`),
        else taken from the players' profiles when each has a different
        preferred colour, else (``colours_by_seat``: the front ends that let
        the table play at once) by seat, as :func:`seat_colours` decides. Local
        settings go into the game here, once, as its descriptor's
        :attr:`~GameDescriptor.defaults` say (a stored board inline, the
        confirmed 2-player flag table, an offered layout with the table's
        names). ``championship``: the championship and round number the game is
        (:mod:`companion.service.championship`), stored with it in its one
        transaction. Bad players, options or setup: :class:`RecordError` naming the
        field; nothing is stored.
        """
        engine = self._engine(game)
        about = descriptor(engine.name)
        names = check_players(list(players), engine)
        check_distinct(names)  # "Ann" and "ANN" could not be told apart at the table
        setup = dict(setup or {})
        given = set(setup)
        if about.colours_in_setup and isinstance(setup.get("colors"), dict):
            # typed in the table's language or any case: the record keeps the box's names
            setup["colors"] = {player: self._check_colour(about.name, colour, f"setup.colors.{player}")
                               if isinstance(colour, str) else colour
                               for player, colour in setup["colors"].items()}
        if about.colours_in_setup:
            chosen = self._colours(about, names, colours, setup, by_seat=colours_by_seat)
            if chosen is not None:
                setup["colors"] = chosen
        elif colours:
            raise AppError(msg("app.colours.not_in_game", game=engine.title))
        try:
            options, setup = about.defaults(NewGame(tuple(names), dict(options or {}), setup),
                                            self.table_settings())
        except SetupNeeded as needed:
            raise AppError(needed.reason) from None
        initial = engine.start(names, options, setup)
        session_id = self.store.insert_session(engine.name, names, engine.options_json(initial),
                                               engine.setup_json(initial),
                                               date_unsure=not self._clock_sure(), championship=championship)
        return replace(self.resume(session_id),
                       assumed={key: value for key, value in setup.items() if key not in given},
                       notices=tuple(about.notices(NewGame(tuple(names), options, setup))))

    def confirm_date(self, session_id: int, started: datetime | None = None) -> None:
        """The players confirm a game's unsure date, or set when it started (an aware datetime)."""
        self._row(session_id)
        if started is not None and started.tzinfo is None:
            raise AppError(msg("app.date.needs_zone"))
        self.store.confirm_date(session_id, started)

    def _colours(self, about: GameDescriptor, players: Sequence[str], colours: Mapping[str, str] | None,
                 setup: Mapping[str, Any], *, by_seat: bool) -> dict[str, str] | None:
        """The players' colours from ``colours``, else their profiles, else by seat (``by_seat``);
        ``None`` to leave the setup's (the engine asks for missing ones)."""
        if colours is None:
            if "colors" in setup:
                return None
            if by_seat:
                seated = self.seat_colours(about.name, players)
                if all(seated.values()):
                    return {p: c for p, c in seated.items() if c}
            preferred = {p: c for p, c in ((p, self.preferred_colour(p, about.name)) for p in players) if c}
            if len(preferred) != len(players) or len(set(preferred.values())) != len(players):
                return None  # the engine asks for setup.colors
            return preferred
        unknown = [p for p in colours if p not in players]
        if unknown:
            raise AppError(msg("app.colours.not_a_player", player=unknown[0]))
        return {player: self._check_colour(about.name, colour, f"colours.{player}")
                for player, colour in colours.items()}

    def seat_colours(self, game: str, players: Sequence[str],
                     setup: Mapping[str, Any] | None = None) -> dict[str, str | None]:
        """Each player's colour at this table (:func:`seat_colours`): the game's record, then the
        profiles' preferred colours, then the game's pieces by seat. The one rule every front end shows."""
        recorded = (setup or {}).get("colors") or {}
        allowed = PIECE_COLOURS.get(game)
        return seat_colours(allowed, players, recorded, {p: self.preferred_colour(p, game) for p in players})

    def _check_colour(self, game: str, colour: object, where: str) -> str:
        """The piece colour ``colour`` names, as the record spells it: typed in any case and in any
        language the catalogues speak (``kék`` is ``blue``). :class:`AppError` naming ``where``
        and the colours, in the table's words, for anything else."""
        allowed = PIECE_COLOURS.get(game)
        if not isinstance(colour, str) or not colour.strip():
            raise AppError(msg("app.colours.not_a_word", where=where))
        problem = name_problem(colour.strip(), "colour")  # the one name rule, for a colour typed freely too
        if problem is not None:
            raise AppError(msg("records.at", path=where, reason=problem))
        if allowed is None:
            return colour.strip()
        typed = colour.strip().casefold()
        for known in allowed:
            if typed == known.casefold() or typed in (word.casefold() for word in _colour_words(game, known)):
                return known
        raise AppError(msg("app.colours.unknown", where=where, colour=colour, game=self._engine(game).title,
                           colours=", ".join(colour_word(game, known) for known in allowed)))

    def rematch(self, session_id: int, *, setup: Mapping[str, Any] | None = None) -> LiveGame:
        """A new game with the same players and options as ``session_id``.

        ``setup`` is the new table's setup (a board laid anew each game);
        without it the old game's setup is used again.
        """
        row = self._row(session_id)
        return self.start(row.game, row.players, options=row.options,
                          setup=row.setup if setup is None else setup)

    # -- listing, resuming, abandoning --------------------------------------------------
    def sessions(self) -> list[SessionRow]:
        """Every stored game, the most recent first."""
        return self.store.list_sessions()

    def unfinished(self) -> list[SessionRow]:
        """The games that can be resumed, the most recent first.

        A game whose stored log is in fact finished (the power went between the
        move and its results) is marked finished now and left out. A game that
        cannot be opened is left out and noted in :attr:`damaged_sessions`:
        one damaged game must not stop the others (nor the appliance's boot).
        """
        return [row for row, _ in self._unfinished(first_only=False)]

    def _unfinished(self, *, first_only: bool) -> list[tuple[SessionRow, LiveGame]]:
        """Resumable rows, each with its opened game."""
        found: list[tuple[SessionRow, LiveGame]] = []
        for row in self.store.resumable_sessions():
            if row.id in self.damaged_sessions:
                continue
            try:
                live = self.open_game(row.id)  # reconciles the finished mark
            except (AppError, StoreError, ValueError, TypeError, LookupError, sqlite3.Error) as error:
                # (sqlite3.Error: a column whose text is not UTF-8 cannot even be read)
                self.damaged_sessions[row.id] = str(error)
                continue
            if live.session.game.is_finished(live.session.state):
                continue
            found.append((self.store.session(row.id), live))
            if first_only:
                break
        return found

    def resume(self, session_id: int | None = None) -> LiveGame:
        """Open a stored game to play on: ``session_id``, or the most recent unfinished one.

        :class:`AppError` when there is none, or the game was abandoned.
        """
        if session_id is None:
            live = self.latest_unfinished()
            if live is None:
                raise AppError(msg("app.resume.none"))
            return live
        row = self._row(session_id)
        if row.abandoned is not None:
            raise AppError(msg("app.resume.abandoned", session=session_id))
        return self.open_game(session_id)

    def latest_unfinished(self) -> LiveGame | None:
        """The game ``companion run`` resumes at boot, or ``None``."""
        found = self._unfinished(first_only=True)
        if not found:
            return None
        return found[0][1]

    def abandon(self, session_id: int) -> None:
        """Stop offering ``session_id`` for resuming; its moves stay stored (and exportable)."""
        row = self._row(session_id)
        if row.is_finished:
            raise AppError(msg("app.abandon.finished", session=session_id))
        if row.abandoned is not None:
            raise AppError(msg("app.abandon.already", session=session_id))
        self.store.abandon_session(session_id)

    def open_game(self, session_id: int) -> LiveGame:
        """The stored game as a live session whose every change is stored (finished ones too).

        The log is replayed; the finished mark and results are reconciled with
        it; a listener keeps them up to date as the game goes on.
        """
        row = self._row(session_id)
        engine = self._engine(row.game, stored=True)
        try:
            initial = engine.start(row.players, row.options, row.setup)
        except RecordError as error:
            raise AppError(msg("app.open.setup", session=session_id, reason=error.as_message())) from None
        raw_moves, raw_redo = self.store.stored_moves(session_id)
        moves = self._parse_moves(session_id, engine, raw_moves, "app.open.move")
        redo = self._parse_moves(session_id, engine, raw_redo, "app.open.undone_move")
        journal = StoreJournal(self.store, session_id, clock=self._monotonic, outbox=self.club_outbox,
                               clock_sure=self._clock_sure)
        try:
            session = Session(engine, row.players, initial, moves, redo, journal=journal)
        except ReplayError as error:
            raise AppError(msg("app.open.replay", session=session_id, reason=error.message)) from None
        known = {"finished": self._sync_results(session_id, session, row.is_finished)}

        def keep_results(live: AnySession, change: Change) -> None:
            known["finished"] = self._sync_results(session_id, live, known["finished"])

        session.subscribe(keep_results, name=msg("app.listener.results"))
        return LiveGame(session_id, row, session, journal)

    def put_down(self, live: LiveGame) -> None:
        """The players leave ``live`` (another game opened, the app closed): the time it was open
        since its last change counts, unless it had ended (the time after the last move does not)."""
        if live.journal is None or live.session.game.is_finished(live.session.state):
            return
        live.journal.put_down()

    @staticmethod
    def _parse_moves(session_id: int, engine: Game[Any, Any], raw: Sequence[Any], code: str) -> list[Any]:
        parsed = []
        for index, data in enumerate(raw):
            try:
                parsed.append(engine.parse_move(data))
            except RecordError as error:
                raise AppError(Message(code, {"session": session_id, "number": index + 1,
                                              "reason": error.as_message()})) from None
        return parsed

    @staticmethod
    def results_of(engine: Game[Any, Any], players: Sequence[str], state: Any) -> list[Result] | None:
        """Each seat's score and whether it won, from the engine's summary; ``None`` while unfinished."""
        if not engine.is_finished(state):
            return None
        summary = engine.summary(state)
        scores = summary.get("scores", {})
        winners = set(summary.get("winners", []))
        return [Result(name, int(scores.get(name, 0)), name in winners) for name in players]

    def _sync_results(self, session_id: int, session: AnySession, known_finished: bool) -> bool:
        """Make the stored finished mark and results agree with the session; returns whether finished."""
        finished = session.game.is_finished(session.state)
        if finished != known_finished and not self.store.read_only:  # a reader never reconciles
            self.store.write_results(session_id, self.results_of(session.game, session.players,
                                                                 session.state))
        return finished

    # -- records ---------------------------------------------------------------
    def import_record(self, data: object) -> int:
        """Store a decoded ``companion-record/1`` as a session; returns its id.

        The record is parsed and replayed first (:class:`RecordError` /
        :class:`~companion.service.records.ReplayError` with the record's message); it
        is stored finished, with results, if its game is finished. A record of
        a game this store holds already — imported before, or played here and
        exported — is refused (:class:`AppError` naming the session).
        """
        record = parse_record(data)
        state = final_state(record)
        engine = record.game
        moves = [engine.move_to_json(m) for m in record.moves]
        options = engine.options_json(record.initial)
        setup = engine.setup_json(record.initial)
        digest = hashlib.sha256(_dumps([engine.name, list(record.players), options, setup, moves])
                                .encode()).hexdigest()
        known = self.store.session_with_hash(digest)
        if known is None:  # a game played here (or exported from here) has no hash: compare it
            known = self._stored_game(engine.name, record.players, options, setup, moves)
        if known is not None:
            raise AppError(msg("app.import.duplicate", session=known))
        return self.store.insert_session(engine.name, record.players, options, setup, moves=moves,
                                         results=self.results_of(engine, record.players, state),
                                         source="import", record_hash=digest)

    def _stored_game(self, game: str, players: Sequence[str], options: Mapping[str, Any],
                     setup: Mapping[str, Any], moves: Sequence[dict[str, Any]]) -> int | None:
        """The stored session that is this very game (game, players in order, options, setup, every
        move), if any: a record exported from this store and imported again is not a second game.

        The rows are compared as the store keeps them (the engine's complete JSON, written the same
        way by a new game and by an import); only a row that matches in all else has its moves read.
        """
        wanted = (_dumps(dict(options)), _dumps(dict(setup)))
        for row in self.store.list_sessions():
            if (row.game, row.players, row.moves) != (game, tuple(players), len(moves)):
                continue
            if (_dumps(row.options), _dumps(row.setup)) != wanted:
                continue
            if _dumps(self.store.stored_moves(row.id)[0]) == _dumps(list(moves)):
                return row.id
        return None

    def export_record(self, session_id: int) -> dict[str, Any]:
        """The game as a complete record (every option written out, boards inline)."""
        session = self.open_game(session_id).session
        return record_json(session.game, session.players, session.state_before(0), session.log)

    # -- profiles ----------------------------------------------------------------
    def profiles(self) -> list[Profile]:
        """Every player profile, the most recently seated first."""
        colours = self.store.player_colours()
        return [Profile(name, colours.get(name, {})) for name in self.store.players()]

    def add_profile(self, name: str) -> Profile:
        """Add a player profile; :class:`AppError` if the name is taken."""
        name = _profile_name(name)
        if not self.store.add_player(name):
            raise AppError(msg("app.profile.taken", name=name))
        return Profile(name, {})

    def remove_profile(self, name: str) -> None:
        """Forget a profile and its colours; the games it played keep the name."""
        if not self.store.remove_player(name):
            raise AppError(msg("app.profile.unknown", name=name))

    def preferred_colour(self, name: str, game: str) -> str | None:
        return self.store.player_colours().get(name, {}).get(game)

    def set_preferred_colour(self, name: str, game: str, colour: str | None) -> None:
        """The colour ``name`` likes to play ``game`` with (``None`` forgets it)."""
        engine = self._engine(game)
        if colour is not None:
            colour = self._check_colour(engine.name, colour, "colour")
        try:
            self.store.set_player_colour(name, engine.name, colour)
        except StoreError as error:
            raise AppError(*error.args) from None

    # -- settings ----------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """Every simple setting (see :mod:`companion.service.settings`), stored or default."""
        return effective_settings(self.store.settings())

    def table_settings(self) -> _TableSettings:
        """The table's settings as a game's descriptor reads them for a new game's defaults (what
        :meth:`start` fills in, and the new-game screen asks before a game starts)."""
        return _TableSettings(self)

    def change_setting(self, key: str, value: object) -> Any:
        """Store a setting after checking it; :class:`AppError` naming the key. Returns the stored value."""
        try:
            value = check_setting(key, value)
        except SettingError as error:
            raise AppError(*error.args) from None
        self.store.set_setting(key, value)
        return value

    # -- BG Stats ------------------------------------------------------------------
    def bgstats_plays(self, session_id: int) -> list[bgstats.Play]:
        """The finished game as BG Stats plays (local times; table name and BGG id from the settings):
        one, or for a game played as groups at once (a championship round's ``setup.groups``) one
        play per group, each of its own players only, since each group played a game of its own."""
        row = self._row(session_id)
        if row.finished is None:
            raise AppError(msg("app.bgstats.unfinished", session=session_id))
        if row.date_unsure:
            raise AppError(msg("app.date.unsure", session=session_id))
        session = self.open_game(session_id).session
        summary = session.game.summary(session.state)
        settings = self.settings()
        groups = [tuple(group) for group in row.setup.get("groups", [])] or [row.players]
        parts = summary.get("groups") if len(groups) > 1 else None
        plays = []
        for index, players in enumerate(groups):
            part = parts[index] if isinstance(parts, list) and index < len(parts) else summary
            key = f"{row.id}:{row.started.isoformat()}" + (f":{index + 1}" if len(groups) > 1 else "")
            plays.append(bgstats.Play(
                key=key, game=row.game, game_title=session.game.title, players=players,
                scores={p: int(summary["scores"].get(p, 0)) for p in players},
                winners=frozenset(p for p in part.get("winners", summary["winners"]) if p in players),
                started=row.started.astimezone(), finished=row.finished.astimezone(),
                bgg_id=int(settings[bgg_id_key(row.game)]), location=str(settings["table.name"]),
                played_seconds=row.played_seconds))
        return plays

    def bgstats_play(self, session_id: int, group: int | None = None) -> bgstats.Play:
        """One play of :meth:`bgstats_plays`: the game's, or of a round the group's (1 or 2), which
        must then be named (:class:`AppError` saying so)."""
        plays = self.bgstats_plays(session_id)
        if group is None and len(plays) > 1:
            raise AppError(msg("app.bgstats.name_group", session=session_id, groups=len(plays)))
        index = 1 if group is None else group
        if not 1 <= index <= len(plays):
            raise AppError(msg("app.bgstats.no_group", session=session_id, group=index, groups=len(plays)))
        return plays[index - 1]

    def bgstats_file(self, session_id: int, exported: datetime | None = None) -> dict[str, Any]:
        """The ``.bgsplay`` file of a finished game (a round's: both groups' plays)."""
        return bgstats.plays_file(self.bgstats_plays(session_id), exported or datetime.now().astimezone())

    def bgstats_link(self, session_id: int, group: int | None = None) -> str:
        """The push link that logs the finished game (a round: ``group``'s game) in BG Stats on a phone."""
        return bgstats.push_link(self.bgstats_play(session_id, group))

    def bgstats_scan_link(self, session_id: int, group: int | None = None) -> str:
        """The push link the game-over QR code carries: the full one, or the play without its optional
        fields when the full one would make a code too dense to read across the table (a round:
        ``group``'s game)."""
        return bgstats.scan_link(self.bgstats_play(session_id, group))
