"""The club's outbox in the store (docs/club.md, "The outbox"): written in the very transaction of
the move that finishes a game, only while the club is configured, never for imports; stable ids
for games and championships; a move's path that never touches the network; the doctor's verdict
and a repair that keeps the outbox."""

from __future__ import annotations

import socket
import sqlite3
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from companion.service.app import Companion
from companion.storage import outbox
from companion.storage.doctor import examine, repair
from companion.storage.migrations import MIGRATIONS
from companion.storage.paths import DB_FILENAME
from companion.storage.store import Store
from tests.club_table_kit import companion, finish_a_game, open_table, write_config
from tests.helpers_campanile import PLAYERS, SETUP, random_game


def _statements(app: Companion) -> list[str]:
    said: list[str] = []
    app.store._db.set_trace_callback(said.append)
    return said


def _transactions(statements: list[str]) -> list[list[str]]:
    """The statements between each BEGIN and its COMMIT."""
    found: list[list[str]] = []
    for statement in statements:
        if statement.startswith("BEGIN"):
            found.append([])
        elif statement.startswith(("COMMIT", "ROLLBACK")):
            continue
        elif found:
            found[-1].append(statement)
    return found


def test_the_finishing_move_and_its_outbox_row_are_one_transaction(tmp_path: Path) -> None:
    app = open_table(tmp_path)
    live = app.start("campanile", list(PLAYERS), setup=SETUP)
    moves = random_game(3, 20)
    for move in moves[:-1]:
        live.session.propose(move)
    assert app.store.outbox() == []
    said = _statements(app)
    live.session.propose(moves[-1])  # Finito: the game is over
    app.store._db.set_trace_callback(None)
    first = _transactions(said)[0]
    assert any(s.startswith("INSERT INTO moves") for s in first)
    assert any(s.startswith("INSERT OR IGNORE INTO outbox") for s in first)
    [row] = app.store.outbox()
    assert (row.session_id, row.sent, row.clock_sure) == (live.id, None, True)
    assert row.uuid == app.store.stable_id("sessions", live.id)


def test_a_failing_outbox_write_rolls_the_finishing_move_back(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A crash between the move and its row cannot happen: when the row cannot be written, the move
    is not stored either (and the session refuses it, as for a full disk)."""
    app = open_table(tmp_path)
    live = app.start("campanile", list(PLAYERS), setup=SETUP)
    moves = random_game(3, 20)
    for move in moves[:-1]:
        live.session.propose(move)

    def broken(*args: Any) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(outbox, "queue", broken)
    with pytest.raises(sqlite3.OperationalError):
        live.session.propose(moves[-1])
    monkeypatch.undo()
    assert len(app.store.stored_moves(live.id)[0]) == len(moves) - 1 == len(live.session.log)
    assert app.store.outbox() == []
    live.session.propose(moves[-1])  # the same move again, now that the disk is well
    assert [row.session_id for row in app.store.outbox()] == [live.id]


def test_no_row_without_the_club_for_imports_or_twice(tmp_path: Path) -> None:
    app = open_table(tmp_path, club=False)
    first = finish_a_game(app)
    assert app.store.outbox() == []
    record = app.export_record(first)  # the record goes to another table, in a club
    other = open_table(tmp_path / "other")
    imported = other.import_record(record)
    assert other.store.session(imported).is_finished and other.store.outbox() == []
    app.club_outbox = True
    second = finish_a_game(app, seed=5)
    assert [row.session_id for row in app.store.outbox()] == [second]


def test_a_record_imported_unfinished_and_ended_at_the_table_is_queued(tmp_path: Path) -> None:
    """Its end was at this table (a game carried over from another table, or set up from a
    record's deal, as the appliance checks do): queued when its last move is made here."""
    app = open_table(tmp_path / "first", club=False)
    record = app.export_record(finish_a_game(app))
    app.close()
    table = open_table(tmp_path / "table")
    started = table.import_record({**record, "moves": record["moves"][:-1]})
    assert table.store.outbox() == []
    live = table.open_game(started)
    live.session.propose(live.session.game.parse_move(record["moves"][-1]))
    assert live.session.game.is_finished(live.session.state)
    assert [row.session_id for row in table.store.outbox()] == [started]
    table.close()
    assert examine(table.store.path).is_good  # the doctor takes its row as a finished game's


def test_undo_withdraws_an_unsent_row_and_redo_queues_it_again(tmp_path: Path) -> None:
    app = open_table(tmp_path)
    session = finish_a_game(app)
    live = app.open_game(session)
    live.session.undo()
    assert app.store.outbox() == []
    live.session.redo()
    assert [row.session_id for row in app.store.outbox()] == [session]
    outbox.mark_sent(app.store.path, [session], datetime.now(UTC))
    live.session.undo()  # a play the club has: it stays sent, it is not sent twice
    assert [row.sent is not None for row in app.store.outbox()] == [True]


def test_every_game_and_championship_has_a_stable_id(tmp_path: Path) -> None:
    app = open_table(tmp_path)
    session = finish_a_game(app)
    ident = app.store.stable_id("sessions", session)
    assert ident is not None and str(uuid.UUID(ident)) == ident
    championship = app.store.insert_championship(1, ["A", "B", "C", "D"], {})
    assert app.store.stable_id("championships", championship) not in (None, ident)
    app.close()
    with Store.open(tmp_path / DB_FILENAME) as again:
        assert again.stable_id("sessions", session) == ident


def test_the_migration_gives_the_games_of_an_older_store_their_ids(tmp_path: Path) -> None:
    path = tmp_path / DB_FILENAME
    with Store.open(path, migrations=MIGRATIONS[:8]) as old:
        ids = [old.insert_session("campanile", PLAYERS, {}, SETUP) for _ in range(3)]
    with Store.open(path) as store:
        assert store.schema_version == 9
        found = [store.stable_id("sessions", sid) for sid in ids]
        assert all(found) and len(set(found)) == 3 and store.outbox() == []


def test_queue_since_adds_finished_table_games_only(tmp_path: Path) -> None:
    app = open_table(tmp_path, club=False)
    finished = finish_a_game(app)
    unfinished = app.start("campanile", list(PLAYERS), setup=SETUP).id
    app.abandon(unfinished)
    other = open_table(tmp_path / "b", club=False)
    imported = app.import_record(other.export_record(finish_a_game(other, seed=7)))
    path = app.store.path
    assert outbox.queue_since(path, datetime.now(UTC) + timedelta(days=1)) == 0
    assert outbox.queue_since(path, datetime.now(UTC) - timedelta(days=1)) == 1
    assert [row.session_id for row in app.store.outbox()] == [finished] != [imported]
    assert outbox.queue_since(path, datetime.now(UTC) - timedelta(days=1)) == 0  # once


def test_moves_never_open_a_socket_with_the_club_configured(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A move's path is unchanged with the broker gone: no connection is even tried (the publisher
    is a process of its own)."""
    tried: list[Any] = []
    real = socket.socket.connect

    def recorded(self: socket.socket, address: Any) -> Any:
        tried.append(address)
        return real(self, address)

    monkeypatch.setattr(socket.socket, "connect", recorded)
    monkeypatch.setattr(socket.socket, "connect_ex", recorded)
    app = open_table(tmp_path)
    finish_a_game(app)
    finish_a_game(app, seed=5)
    assert len(app.store.outbox()) == 2 and tried == []


def test_the_doctor_names_a_stray_row_and_the_repair_keeps_the_outbox(tmp_path: Path) -> None:
    app = open_table(tmp_path)
    sent = finish_a_game(app)
    waiting = finish_a_game(app, seed=5)
    outbox.mark_sent(app.store.path, [sent], datetime.now(UTC))
    ids = {sid: app.store.stable_id("sessions", sid) for sid in (sent, waiting)}
    path = app.store.path
    app.close()
    assert examine(path).is_good
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO outbox (session_id, queued, sure) VALUES (99, '2026-01-01T00:00', 1)")
    checkup = examine(path)
    assert not checkup.is_good
    assert [m.code for m in checkup.unreadable] == ["club.table.doctor.stray"]
    repair(path)
    assert examine(path).is_good
    with Store.open(path) as store:
        rows = {row.session_id: row for row in store.outbox()}
        assert set(rows) == {sent, waiting}
        assert rows[sent].sent is not None and rows[waiting].sent is None
        assert {sid: store.stable_id("sessions", sid) for sid in rows} == ids


def test_the_doctor_names_a_shared_id_and_the_repair_gives_a_new_one(tmp_path: Path) -> None:
    app = open_table(tmp_path)
    first, second = finish_a_game(app), finish_a_game(app, seed=5)
    path = app.store.path
    kept = app.store.stable_id("sessions", first)
    app.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE sessions SET uuid = ? WHERE id = ?", (kept, second))
        db.execute("UPDATE outbox SET sent = x'00ff' WHERE session_id = ?", (first,))  # not a time
    codes = sorted(m.code for m in examine(path).unreadable)
    assert codes == ["club.table.doctor.same_id", "doctor.rows.bad_value"]
    repair(path)
    with Store.open(path) as store:
        assert store.stable_id("sessions", first) == kept
        assert store.stable_id("sessions", second) not in (None, kept)
        assert [row.session_id for row in store.outbox()] == [second]  # the unreadable row left out


def _typed_to_the_end(tmp_path: Path, config: Path | None) -> list[outbox.OutboxRow]:
    """A game started here, then finished at ``companion run --headless`` (the console), typed."""
    data = tmp_path / "data"
    app = open_table(data, club=False)
    live = app.start("campanile", list(PLAYERS), setup=SETUP)
    game, state = live.session.game, live.session.state
    lines = []
    for move in random_game(3, 20):
        lines.append(game.describe(state, game.move_to_json(move), "en"))
        state = game.apply(state, move)
    app.close()
    options = ["--config", str(config)] if config else []
    done = companion(data, "run", "--headless", *options, input="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    with Store.open(data / DB_FILENAME, read_only=True) as store:
        assert store.session(live.id).is_finished
        return store.outbox()


def test_companion_run_queues_a_game_finished_at_it_only_in_a_club(tmp_path: Path) -> None:
    assert _typed_to_the_end(tmp_path / "alone", None) == []
    config = write_config(tmp_path, "mqtt://127.0.0.1:1")  # no broker there: the table plays on
    [row] = _typed_to_the_end(tmp_path / "club", config)
    assert row.sent is None
