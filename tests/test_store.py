"""The SQLite store: schema, pragmas, migrations, settings, records, results and resume."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.games.base import RecordError
from companion.registry import GAMES
from companion.service.app import AppError, Companion
from companion.service.records import ReplayError, final_state, parse_record
from companion.service.stats import player_stats
from companion.storage.migrations import MIGRATIONS
from companion.storage.store import Store, StoreError
from tests import helpers_campanile as camp

EXAMPLE = Path(__file__).parent / "data" / "examples" / "campanile-3p.json"


class FakeClock:
    def __init__(self) -> None:
        self.now = datetime(2024, 5, 1, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, minutes: int) -> None:
        self.now += timedelta(minutes=minutes)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(tmp_path: Path, clock: FakeClock):
    with Store.open(tmp_path / "companion.sqlite3", clock=clock) as opened:
        yield opened


def example() -> dict:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


def play(session, moves) -> None:
    for move in moves:
        session.propose(move)


# Sessions are built by the application service; these tests drive it over a real store.
def new_session(store: Store, game: str, players, options=None, setup=None) -> int:
    return Companion(store).start(game, players, options=options, setup=setup).id


def open_session(store: Store, session_id: int):
    return Companion(store).open_game(session_id).session


def unfinished(store: Store):
    rows = Companion(store).unfinished()
    return rows[0] if rows else None


# -- schema and pragmas ---------------------------------------------------------------

def test_schema_is_created_with_every_table(store: Store) -> None:
    tables = {name for (name,) in store._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"players", "sessions", "moves", "redo", "settings", "results"} <= tables
    assert store.schema_version == len(MIGRATIONS)


def test_wal_synchronous_full_and_foreign_keys_are_set(store: Store) -> None:
    assert store.pragma("journal_mode") == "wal"
    assert store.pragma("synchronous") == 2  # FULL
    assert store.pragma("foreign_keys") == 1


def test_pragmas_hold_on_reopen(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    Store.open(path).close()
    with Store.open(path) as again:
        assert again.pragma("journal_mode") == "wal"
        assert again.pragma("synchronous") == 2


def test_foreign_keys_cascade_when_a_session_is_deleted(store: Store) -> None:
    sid = new_session(store, "campanile", camp.PLAYERS, {}, camp.SETUP)
    play(open_session(store, sid), camp.random_game(3, 20))
    store.delete_session(sid)
    assert store._db.execute("SELECT COUNT(*) FROM moves").fetchone()[0] == 0
    assert store._db.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 0
    with pytest.raises(sqlite3.IntegrityError):
        store._db.execute("INSERT INTO moves (session_id, idx, move) VALUES (999, 0, '{}')")


# -- migrations -------------------------------------------------------------------------

def test_an_old_database_is_migrated_in_order_keeping_its_data(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with Store.open(path, migrations=MIGRATIONS[:1]) as old:
        sid = old.insert_session("campanile", camp.PLAYERS, {}, camp.SETUP)
        old.set_setting("language", "de")
        assert old.schema_version == 1

    applied: list[int] = []

    def add_location(db: sqlite3.Connection) -> None:
        applied.append(db.execute("PRAGMA user_version").fetchone()[0])
        db.execute("ALTER TABLE sessions ADD COLUMN location TEXT")

    with Store.open(path, migrations=[*MIGRATIONS, add_location]) as new:
        assert new.schema_version == len(MIGRATIONS) + 1
        assert applied == [len(MIGRATIONS)]
        columns = {row[1] for row in new._db.execute("PRAGMA table_info(sessions)")}
        assert "location" in columns
        assert new.session(sid).players == camp.PLAYERS
        assert new.get_setting("language") == "de"
    with Store.open(path, migrations=[*MIGRATIONS, add_location]):
        assert applied == [len(MIGRATIONS)]  # not applied twice


def test_an_empty_file_is_outside_damage_named_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "v0.sqlite3"
    sqlite3.connect(path).close()  # SQLite would take a 0-byte file for a new, empty database
    for read_only in (False, True):
        with pytest.raises(StoreError, match=rf"^the game store {path} is empty \(0 bytes\), so it holds no "
                                             r"games; it was left as it is: restore a backup with "
                                             r"`companion doctor --restore FILE`$"):
            Store.open(path, read_only=read_only)
    assert path.read_bytes() == b""


def test_a_new_store_is_created_whole_under_a_temporary_name(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    leftover = tmp_path / ".companion.sqlite3.creating"
    leftover.write_bytes(b"half")  # what a crash during creation leaves
    with Store.open(path) as store:
        assert store.schema_version == len(MIGRATIONS)
    assert not leftover.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["companion.sqlite3", "companion.sqlite3.lock"]


def test_a_failing_migration_leaves_the_old_version(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    Store.open(path).close()

    def broken(db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE half (x)")
        raise RuntimeError("disk says no")

    with pytest.raises(RuntimeError):
        Store.open(path, migrations=[*MIGRATIONS, broken])
    with Store.open(path) as store:
        assert store.schema_version == len(MIGRATIONS)
        tables = {n for (n,) in store._db.execute("SELECT name FROM sqlite_master")}
        assert "half" not in tables


def test_a_database_from_a_newer_companion_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    Store.open(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    db.close()
    newer = len(MIGRATIONS) + 1
    with pytest.raises(StoreError, match=rf"newer version of the companion \(database schema {newer}; "
                                         rf"this version reads up to {len(MIGRATIONS)}\); "
                                         r"update the companion"):
        Store.open(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) + 1
    db.close()


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("shopping list: milk, eggs, bread and a lot more text " * 20)
    with pytest.raises(StoreError, match="is not a usable companion database"):
        Store.open(path)


# -- settings ----------------------------------------------------------------------------

def test_settings_round_trip_json_values(store: Store, tmp_path: Path) -> None:
    assert store.get_setting("campanile.flags.2p") is None
    assert store.get_setting("language", "en") == "en"
    store.set_setting("campanile.flags.2p", camp.TWO_PLAYER_FLAGS)
    store.set_setting("language", "it")
    store.set_setting("guilds", ["Lana", "Seta", "Pietra", "Oro"])
    store.set_setting("language", "de")
    path = store.path
    store.close()
    with Store.open(path) as again:
        assert again.get_setting("campanile.flags.2p") == camp.TWO_PLAYER_FLAGS
        assert again.get_setting("language") == "de"
        assert again.settings() == {"campanile.flags.2p": camp.TWO_PLAYER_FLAGS, "guilds":
                                    ["Lana", "Seta", "Pietra", "Oro"], "language": "de"}
        again.delete_setting("language")
        assert again.get_setting("language") is None


# -- sessions, moves, resume -------------------------------------------------------------

def test_new_session_stores_complete_options_and_setup(store: Store) -> None:
    sid = new_session(store, "campanile", camp.PLAYERS, {}, {})
    row = store.session(sid)
    assert row.game == "campanile" and row.players == camp.PLAYERS
    assert row.options["two_player_move"] is False
    assert row.options["flags"]["finito"] == [[6, 4, 2], [5, 3, 1], [4, 2], [3, 1], [2]]
    assert row.setup["towers"] == ["grey", "brown", "red", "blue", "yellow"]
    assert row.started == datetime(2024, 5, 1, 18, 0, tzinfo=UTC)
    assert row.finished is None and row.moves == 0
    assert store.players() == sorted(camp.PLAYERS)


def test_new_session_refuses_bad_input_with_the_engines_message(store: Store) -> None:
    with pytest.raises(RecordError, match=r'players\[1\]: duplicate name "A"'):
        new_session(store, "campanile", ["A", "A", "B"])
    with pytest.raises(AppError, match='cannot play \'chess\': unknown game "chess"'):
        new_session(store, "chess", ["A", "B"])
    with pytest.raises(AppError, match="2-player flag cards"):
        new_session(store, "campanile", ["A", "B"])  # 2 players need the confirmed flags
    assert store.list_sessions() == []


def test_moves_undo_and_redo_are_stored_as_they_happen(store: Store) -> None:
    sid = new_session(store, "campanile", camp.PLAYERS, {}, camp.SETUP)
    session = open_session(store, sid)
    moves = camp.random_game(5, 12, finish=False)
    play(session, moves)
    session.undo()
    session.undo()
    stored, redo = store.stored_moves(sid)
    game = session.game
    assert stored == [game.move_to_json(m) for m in moves[:-2]]
    assert redo == [game.move_to_json(moves[-1]), game.move_to_json(moves[-2])]
    session.redo()
    stored, redo = store.stored_moves(sid)
    assert len(stored) == len(moves) - 1 and redo == [game.move_to_json(moves[-1])]
    reopened = open_session(store, sid)
    assert reopened.log == session.log and reopened.redo_stack == session.redo_stack
    assert reopened.state == session.state


def test_amend_rewrites_the_stored_tail(store: Store) -> None:
    sid = new_session(store, "campanile", camp.PLAYERS, {}, camp.SETUP)
    session = open_session(store, sid)
    game = session.game
    first = game.parse_move({"type": "build", "player": "Albert", "tower": "red", "stories": 1})
    second = game.parse_move({"type": "build", "player": "Birgit", "tower": "red", "stories": 2})
    play(session, [first, second])
    session.amend(0, game.parse_move({"type": "build", "player": "Albert", "tower": "blue", "stories": 3}))
    stored, _ = store.stored_moves(sid)
    assert stored[0] == {"type": "build", "player": "Albert", "tower": "blue", "stories": 3}
    assert stored[1]["player"] == "Birgit"
    assert open_session(store, sid).state == session.state


def test_a_failed_write_leaves_the_session_and_the_store_unchanged(store: Store) -> None:
    sid = new_session(store, "campanile", camp.PLAYERS, {}, camp.SETUP)
    session = open_session(store, sid)
    moves = camp.random_game(9, 6, finish=False)
    play(session, moves[:5])
    store._db.execute("CREATE TRIGGER no_more BEFORE INSERT ON moves BEGIN SELECT RAISE(ABORT, 'full'); END")
    before = (session.log, session.state)
    with pytest.raises(sqlite3.IntegrityError):
        session.propose(moves[5])
    assert (session.log, session.state) == before
    assert len(store.stored_moves(sid)[0]) == 5
    assert store._db.in_transaction is False


def test_resume_picks_the_latest_unfinished_session(store: Store, clock: FakeClock) -> None:
    assert unfinished(store) is None
    older = new_session(store, "campanile", camp.PLAYERS, {}, camp.SETUP)
    clock.advance(60)
    done = new_session(store, "campanile", camp.PLAYERS, {}, camp.SETUP)
    play(open_session(store, done), camp.random_game(2, 20))
    clock.advance(60)
    play(open_session(store, older), camp.random_game(2, 7, finish=False))
    row = unfinished(store)
    assert row is not None and row.id == older and row.moves == 7
    assert store.session(done).is_finished
    clock.advance(60)
    newest = new_session(store, "campanile", camp.PLAYERS, {}, camp.SETUP)
    assert unfinished(store).id == newest


def test_resume_marks_a_game_that_ended_before_its_mark_was_written(store: Store) -> None:
    sid = new_session(store, "campanile", camp.PLAYERS, {}, camp.SETUP)
    moves = camp.random_game(4, 30)
    # the moves of a finished game, written as the journal would, but no finished mark
    # (the power went off between the move's transaction and the result's)
    store._save_log(sid, 0, [camp.engine().move_to_json(m) for m in moves], [])
    assert store.latest_session(finished=False).id == sid
    assert unfinished(store) is None
    assert store.session(sid).is_finished
    assert {r.player for r in store.results() if r.session_id == sid} == set(camp.PLAYERS)


# -- results and stats --------------------------------------------------------------------

def test_finishing_writes_results_and_undo_takes_them_back(store: Store, clock: FakeClock) -> None:
    sid = new_session(store, "campanile", camp.PLAYERS, {}, camp.SETUP)
    session = open_session(store, sid)
    moves = camp.random_game(11, 40)
    play(session, moves[:-1])
    assert store.results() == [] and not store.session(sid).is_finished
    clock.advance(45)
    play(session, moves[-1:])
    summary = session.game.summary(session.state)
    rows = store.results()
    assert [(r.player, r.score, r.winner) for r in rows] == [
        (p, summary["scores"][p], p in summary["winners"]) for p in camp.PLAYERS]
    assert store.session(sid).finished == datetime(2024, 5, 1, 18, 45, tzinfo=UTC)
    session.undo()
    assert store.results() == [] and not store.session(sid).is_finished
    session.redo()
    assert len(store.results()) == 3


def test_stats_numbers_from_finished_games(store: Store) -> None:
    for seed in (21, 22, 23):
        sid = new_session(store, "campanile", camp.PLAYERS, {}, camp.SETUP)
        play(open_session(store, sid), camp.random_game(seed, 35))
    unfinished = new_session(store, "campanile", camp.PLAYERS, {}, camp.SETUP)
    play(open_session(store, unfinished), camp.random_game(24, 10, finish=False))

    expected: dict[str, list[tuple[int, bool]]] = {p: [] for p in camp.PLAYERS}
    for row in store.list_sessions():
        if row.is_finished:
            session = open_session(store, row.id)
            summary = session.game.summary(session.state)
            for player in camp.PLAYERS:
                expected[player].append((summary["scores"][player], player in summary["winners"]))
    stats = {s.player: s for s in player_stats(store.results(), ["campanile"])}
    assert set(stats) == set(camp.PLAYERS)
    for player, games in expected.items():
        assert len(games) == 3
        assert stats[player].played == 3
        assert stats[player].won == sum(w for _, w in games)
        assert stats[player].best == max(s for s, _ in games)
        assert stats[player].average == pytest.approx(sum(s for s, _ in games) / 3)


def test_player_stats_on_hand_made_rows() -> None:
    class Row:
        def __init__(self, sid: int, game: str, player: str, score: int, winner: bool) -> None:
            self.session_id, self.game, self.player = sid, game, player
            self.score, self.winner = score, winner

    rows = [Row(1, "campanile", "A", 20, True), Row(1, "campanile", "B", 20, True),
            Row(2, "campanile", "A", 10, False), Row(2, "campanile", "B", 15, True),
            Row(3, "castelli", "A", 30, True)]
    stats = player_stats(rows, ["campanile", "castelli"])
    assert [(s.game, s.player, s.played, s.won, s.average, s.best) for s in stats] == [
        ("campanile", "B", 2, 2, 17.5, 20), ("campanile", "A", 2, 1, 15.0, 20),
        ("castelli", "A", 1, 1, 30.0, 30)]


# -- import and export ----------------------------------------------------------------------

def test_import_export_round_trip_replays_to_the_same_summary(store: Store) -> None:
    original = example()
    sid = Companion(store).import_record(original)
    row = store.session(sid)
    assert row.source == "import" and row.moves == len(original["moves"]) and row.is_finished
    exported = Companion(store).export_record(sid)
    assert exported["format"] == "companion-record/1"
    assert exported["options"]["flags"]["intermezzo"] == [[4, 2], [3, 1], [2], [1]]
    assert "two_player_move" in exported["options"]
    assert exported["setup"]["towers"] == original["setup"]["towers"]
    a, b = parse_record(original), parse_record(exported)
    assert a.game.summary(final_state(a)) == b.game.summary(final_state(b))
    assert len(store.results()) == 3


def test_import_of_an_unfinished_record_is_resumable(store: Store) -> None:
    data = example()
    data["moves"] = data["moves"][:9]
    sid = Companion(store).import_record(data)
    assert not store.session(sid).is_finished and store.results() == []
    assert unfinished(store).id == sid
    session = open_session(store, sid)
    assert len(session.log) == 9
    session.propose(camp.legal_moves(session.state)[0])
    assert store.session(sid).moves == 10


def test_import_refuses_bad_records_and_stores_nothing(store: Store) -> None:
    bad = example()
    bad["moves"][2]["stories"] = 7
    with pytest.raises(RecordError, match="move 3: stories must be 1, 2 or 3"):
        Companion(store).import_record(bad)
    illegal = example()
    illegal["moves"][2]["player"] = "Albert"
    with pytest.raises(ReplayError, match=r"^move 3 \(Albert\): "):
        Companion(store).import_record(illegal)
    assert store.list_sessions() == []


def test_the_same_record_is_not_imported_twice(store: Store) -> None:
    sid = Companion(store).import_record(example())
    with pytest.raises(AppError, match=f"already stored as session {sid}"):
        Companion(store).import_record(example())
    assert len(store.list_sessions()) == 1


def test_export_of_a_played_session_replays_identically(store: Store) -> None:
    sid = new_session(store, "campanile", camp.PLAYERS, {}, {})
    session = open_session(store, sid)
    play(session, camp.random_game(31, 25, state=session.state))
    record = parse_record(Companion(store).export_record(sid))
    assert final_state(record) == session.state


def test_a_stored_log_this_companion_cannot_replay_is_a_clear_error(store: Store) -> None:
    sid = new_session(store, "campanile", camp.PLAYERS, {}, camp.SETUP)
    store._save_log(sid, 0, [{"type": "build", "player": "Albert", "tower": "red", "stories": 1},
                             {"type": "build", "player": "Albert", "tower": "red", "stories": 1}], [])
    with pytest.raises(AppError, match=r"^session 1 cannot be replayed by this companion: "
                                         r"move 2 \(Albert\): Albert has already built"):
        open_session(store, sid)
    store._save_log(sid, 0, [{"type": "build", "player": "Albert", "tower": "red", "stories": 5}], [])
    with pytest.raises(AppError, match=r"^session 1: stored move 1 is not readable by this companion: "
                                         r"stories must be 1, 2 or 3"):
        open_session(store, sid)


@pytest.mark.parametrize("game", GAMES)
def test_every_games_example_survives_import_and_export(store: Store, game: str) -> None:
    path = EXAMPLE.parent / f"{game}.json" if game != "campanile" else EXAMPLE
    original = json.loads(path.read_text(encoding="utf-8"))
    sid = Companion(store).import_record(original)
    exported = Companion(store).export_record(sid)
    assert exported["game"] == game and exported["players"] == original["players"]
    a, b = parse_record(original), parse_record(exported)
    assert a.game.summary(final_state(a)) == b.game.summary(final_state(b))
    assert store.session(sid).is_finished == a.game.is_finished(final_state(a))
    again = Store.open(store.path, read_only=True)  # a second connection sees the committed session
    assert again.session(sid).moves == len(original["moves"])
    again.close()
