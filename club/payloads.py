"""What a table publishes, as the club's contract says it (docs/club.md): its live status, each
finished play with its record and summary, and each championship played at it.

Made from the one set of facts every front end shows: whose turn it is is the engine's
(:func:`companion.console.whose_turn.now_for`, as the console's prompt and the screens name it),
the last move is worded as the history words it (:func:`companion.service.move_words.move_words`,
in the table's language), a play's record is what ``companion export`` writes and its summary what
``companion replay --json`` prints (:meth:`Companion.export_record`, :func:`summary_json`).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from club.settings import ClubSettings
from club.topics import championship_topic, play_topic
from companion.console.whose_turn import now_for
from companion.i18n import LANGUAGES, summary_json
from companion.service.app import Companion
from companion.service.live import LiveGame
from companion.service.move_words import move_words
from companion.service.records import final_state, parse_record
from companion.service.settings import LANGUAGE
from companion.storage.outbox import OutboxRow

__all__ = ["OutboxRow"]
from companion.storage.store import SessionRow

VERSION = 1
#: The contract's bounds: a message larger than these is refused by the club server.
MAX_STATUS = 64 * 1024
MAX_PLAY = 1024 * 1024
MAX_CHAMPIONSHIP = 256 * 1024


def encoded(payload: Mapping[str, Any]) -> bytes:
    """A payload as it goes on the wire: compact UTF-8 JSON."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def local_time(moment: datetime) -> str:
    """A time as the club reads it: ISO 8601 with the table's UTC offset, seconds."""
    return moment.astimezone().isoformat(timespec="seconds")


def offline_status(settings: ClubSettings) -> dict[str, Any]:
    """The status the broker shows when the table is gone (its last will) or stopped cleanly."""
    return {"v": VERSION, "kind": "status", "club": settings.club, "table": settings.table, "online": False}


def table_language(app: Companion) -> str:
    """The table's language (its setting; English when it does not read)."""
    try:
        value = app.store.get_setting(LANGUAGE)
    except (ValueError, TypeError):
        return "en"
    return value if isinstance(value, str) and value in LANGUAGES else "en"


@dataclass(frozen=True)
class Facts:
    """What the status and Home Assistant say of the game on the table, in the table's language."""

    game: str | None
    title: str | None
    play: str | None
    players: list[dict[str, Any]]
    turn: str | None
    finished: bool
    last_move: dict[str, str | None] | None
    championship: dict[str, Any] | None
    #: The engine's winners once the game is over (its tie-break included).
    winners: tuple[str, ...] = ()

    @property
    def leader(self) -> str | None:
        """Who leads now: the highest score, shared ones joined; the engine's winners once it is over."""
        if self.winners:
            return ", ".join(self.winners)
        scores = [p["score"] for p in self.players if isinstance(p.get("score"), int)]
        if not scores:
            return None
        best = max(scores)
        return ", ".join(p["name"] for p in self.players if p.get("score") == best)


NO_GAME = Facts(None, None, None, [], None, False, None, None)


def on_the_table(app: Companion) -> SessionRow | None:
    """The game on the table: the latest one started at it (an imported record was not played here),
    unless it was abandoned (then none)."""
    row = next((row for row in app.store.list_sessions() if row.source == "table"), None)
    return None if row is None or row.abandoned is not None else row


def facts(app: Companion, language: str) -> Facts:
    """The facts of the game on the table (:data:`NO_GAME` when there is none)."""
    row = on_the_table(app)
    if row is None:
        return NO_GAME
    live = app.open_game(row.id)
    session = live.session
    game, state = session.game, session.state
    summary = game.summary(state)
    scores = summary.get("scores", {}) if isinstance(summary, Mapping) else {}
    colours = app.seat_colours(row.game, row.players, row.setup)
    players = [{"name": name, "colour": colours.get(name), "score": int(scores[name])
                if isinstance(scores.get(name), int) else None} for name in row.players]
    now = now_for(session)
    last = None
    if session.log:
        move = session.log[-1]
        before = session.state_before(len(session.log) - 1)
        last = {"player": game.actor(move),
                "text": move_words(game, before, game.move_to_json(move), language)}
    finished = game.is_finished(state)
    winners = summary.get("winners", []) if finished and isinstance(summary, Mapping) else []
    return Facts(row.game, game.title, app.store.stable_id("sessions", row.id), players,
                 None if now is None else now.subject, finished, last, _round_of(app, live),
                 tuple(str(w) for w in winners if isinstance(w, str)))


def _round_of(app: Companion, live: LiveGame) -> dict[str, Any] | None:
    row = live.row
    if row.championship is None:
        return None
    groups = row.setup.get("groups") if isinstance(row.setup, Mapping) else None
    return {"id": app.store.stable_id("championships", row.championship), "round": row.championship_round,
            "groups": [list(group) for group in groups] if isinstance(groups, list) else []}


def status(settings: ClubSettings, found: Facts, *, language: str, sent_at: datetime,
           clock_sure: bool) -> dict[str, Any]:
    """The table's live status (online)."""
    return {"v": VERSION, "kind": "status", "club": settings.club, "table": settings.table, "online": True,
            "sent_at": local_time(sent_at), "clock_sure": clock_sure, "language": language,
            "game": found.game, "play": found.play, "players": found.players, "turn": found.turn,
            "finished": found.finished, "last_move": found.last_move, "championship": found.championship}


def home(found: Facts) -> dict[str, Any]:
    """What Home Assistant's four sensors show (:mod:`club.discovery`), in the table's language."""
    return {"game": found.title or "", "turn": found.turn or "", "leader": found.leader or "",
            "last_move": found.last_move["text"] if found.last_move else ""}


def group_play_id(play: str, group: int) -> str:
    """The id of a championship round's group's play: derived from the round's own stable id, so it
    is the same every time it is sent (the club keeps plays by id)."""
    return str(uuid.uuid5(uuid.UUID(play), f"group-{group}"))


@dataclass(frozen=True)
class Outgoing:
    """One message to publish: its topic and payload, and the outbox row it settles (if any)."""

    topic: str
    payload: dict[str, Any]
    settles: int | None = None


def play_messages(app: Companion, settings: ClubSettings, row: OutboxRow) -> list[Outgoing]:
    """The messages that send one finished game of the outbox: the play (a championship round's: one
    per group, each with the whole round's record and summary and its group's number), and, for a
    round, its championship first. The last message settles the row."""
    record = app.export_record(row.session_id)
    summary = summary_json(_summary(record))
    stored = app.store.session(row.session_id)
    finished_at = local_time(datetime.fromisoformat(row.queued))
    base = {"v": VERSION, "kind": "play", "club": settings.club, "table": settings.table,
            "finished_at": finished_at, "clock_sure": row.clock_sure, "record": record, "summary": summary}
    messages: list[Outgoing] = []
    if stored.championship is None:
        messages.append(Outgoing(play_topic(settings.club, row.uuid), {**base, "id": row.uuid,
                                                                       "championship": None}))
    else:
        championship = app.store.stable_id("championships", stored.championship)
        messages.append(championship_message(app, settings, stored.championship))
        groups = stored.setup.get("groups") if isinstance(stored.setup, Mapping) else None
        for number in range(1, (len(groups) if isinstance(groups, list) else 1) + 1):
            play = group_play_id(row.uuid, number)
            messages.append(Outgoing(play_topic(settings.club, play), {
                **base, "id": play,
                "championship": {"id": championship, "round": stored.championship_round, "group": number}}))
    last = messages.pop()
    return [*messages, Outgoing(last.topic, last.payload, row.session_id)]


def _summary(record: dict[str, Any]) -> Any:
    parsed = parse_record(record)
    return parsed.game.summary(final_state(parsed))


def championship_message(app: Companion, settings: ClubSettings, championship_id: int) -> Outgoing:
    """The championship as the club keeps it: variant, options and decisions as the store keeps them,
    each round's play ids, and whether it is over."""
    row = app.store.championship(championship_id)
    found = app.championships.status(championship_id)
    ident = app.store.stable_id("championships", championship_id) or ""
    rounds = []
    game = None
    for stored in app.store.championship_rounds(championship_id):
        game = stored.game
        play = app.store.stable_id("sessions", stored.id)
        groups = stored.setup.get("groups") if isinstance(stored.setup, Mapping) else None
        count = len(groups) if isinstance(groups, list) else 1
        rounds.append({"round": stored.championship_round,
                       "plays": [group_play_id(play, n) for n in range(1, count + 1)] if play else []})
    return Outgoing(championship_topic(settings.club, ident), {
        "v": VERSION, "kind": "championship", "id": ident, "club": settings.club, "table": settings.table,
        "game": game, "variant": row.variant, "players": list(row.players), "options": dict(row.options),
        "decisions": list(row.decisions), "rounds": rounds, "finished": found.over})
