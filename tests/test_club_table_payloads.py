"""What a table publishes, without a broker: the status's fields as the club's contract names them
(docs/club.md), made of the facts every front end shows, in the table's language; a play's record
and summary exactly as ``companion export`` and ``companion replay --json`` give them."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from club import payloads
from club.settings import ClubSettings
from companion.console.whose_turn import now_for
from companion.service.app import Companion
from companion.service.move_words import move_words
from tests.club_table_kit import companion, finish_a_game, open_table
from tests.helpers_campanile import PLAYERS, SETUP, random_game

SETTINGS = ClubSettings("mqtt://h", "h", 1883, False, "Club", "Table 1")
STATUS_KEYS = {"v", "kind", "club", "table", "online", "sent_at", "clock_sure", "language", "game", "play",
               "players", "turn", "finished", "last_move", "championship"}


def _status(app: Companion, language: str = "en") -> dict[str, Any]:
    return payloads.status(SETTINGS, payloads.facts(app, language), language=language,
                           sent_at=datetime.now(UTC), clock_sure=False)


def test_the_status_names_the_contracts_fields_and_the_engines_facts(tmp_path: Path) -> None:
    app = open_table(tmp_path)
    assert _status(app)["game"] is None and _status(app)["players"] == []
    live = app.start("campanile", list(PLAYERS), setup=SETUP)
    moves = random_game(3, 20)
    for move in moves[:5]:
        live.session.propose(move)
    status = _status(app, "hu")
    assert set(status) == STATUS_KEYS and status["clock_sure"] is False and status["language"] == "hu"
    now = now_for(live.session)
    assert status["turn"] == (now.subject if now else None)
    game = live.session.game
    said = move_words(game, live.session.state_before(4), game.move_to_json(moves[4]), "hu")
    assert status["last_move"] == {"player": game.actor(moves[4]), "text": said}
    scores = game.summary(live.session.state)["scores"]
    assert [(p["name"], p["score"]) for p in status["players"]] == [(p, scores[p]) for p in PLAYERS]
    assert len(payloads.encoded(status)) <= payloads.MAX_STATUS
    app.abandon(live.id)
    assert _status(app)["game"] is None  # an abandoned game is no longer on the table


def test_an_imported_record_is_not_the_game_on_the_table(tmp_path: Path) -> None:
    app = open_table(tmp_path)
    live = app.start("campanile", list(PLAYERS), setup=SETUP)
    other = open_table(tmp_path / "other")
    app.import_record(other.export_record(finish_a_game(other)))
    assert _status(app)["play"] == app.store.stable_id("sessions", live.id)


def test_a_plays_record_and_summary_are_what_export_and_replay_give(tmp_path: Path) -> None:
    app = open_table(tmp_path)
    session = finish_a_game(app)
    [row] = app.store.outbox()
    [message] = payloads.play_messages(app, SETTINGS, row)
    app.close()
    exported = companion(tmp_path, "export", str(session), "-o", str(tmp_path / "record.json"))
    assert exported.returncode == 0, exported.stderr
    replayed = companion(tmp_path, "replay", "--json", str(tmp_path / "record.json"))
    assert message.payload["record"] == json.loads((tmp_path / "record.json").read_text())
    assert message.payload["summary"] == json.loads(replayed.stdout)
    assert message.payload["id"] == row.uuid and message.settles == session
    assert set(message.payload) == {"v", "kind", "id", "club", "table", "finished_at", "clock_sure", "record",
                                    "summary", "championship"}
    assert datetime.fromisoformat(message.payload["finished_at"]).utcoffset() is not None
