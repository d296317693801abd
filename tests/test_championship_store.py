"""The store's championships: the schema migration, rows in and out, and a repair that keeps them.

Rows only: the store knows nothing of pairings or standings (tests/test_championship_rules.py,
tests/test_championship.py). The rounds here are stored as any game's rows would be.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.service.app import Companion
from companion.storage.doctor import examine, repair
from companion.storage.migrations import MIGRATIONS
from companion.storage.store import Result, Store
from tests import helpers_campanile as camp

FOUR = ("Ann", "Bob", "Cid", "Dan")


def test_a_store_from_before_championships_migrates_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "v6.sqlite3"
    with Store.open(path, migrations=MIGRATIONS[:6]) as old:
        sid = old.insert_session("campanile", camp.PLAYERS, {}, camp.SETUP)
    with Store.open(path, read_only=True) as reader:  # a reader reads the old schema as it is
        assert reader.schema_version == 6
        assert reader.session(sid).championship is None
        assert reader.list_championships() == []
    with Store.open(path) as store:
        assert store.schema_version == len(MIGRATIONS)
        row = store.session(sid)
        assert (row.players, row.championship, row.championship_round) == (camp.PLAYERS, None, None)
        assert store.list_championships() == []


def test_a_championship_and_its_rounds_are_stored_together_and_read_back(tmp_path: Path) -> None:
    with Store.open(tmp_path / "c.sqlite3") as store:
        first = store.insert_championship(1, FOUR, {"advance": "players"})
        # a round is a session started with its championship and number, in the one transaction
        round_1 = store.insert_session("campanile", camp.PLAYERS, {}, camp.SETUP, championship=(first, 1))
        with pytest.raises(sqlite3.IntegrityError):  # round 1 of one championship is one game
            store.insert_session("campanile", camp.PLAYERS, {}, camp.SETUP, championship=(first, 1))
        with pytest.raises(sqlite3.IntegrityError):  # ... of a championship that exists
            store.insert_session("campanile", camp.PLAYERS, {}, camp.SETUP, championship=(first + 9, 1))
        assert [r.id for r in store.championship_rounds(first)] == [round_1]
        store.set_championship_decisions(first, [{"round": 1, "group": 1, "advances": "Bob"}])
        row = store.championship(first)
        assert (row.variant, row.players, row.source) == (1, FOUR, "table")
        assert row.options == {"advance": "players"}
        assert row.decisions == [{"round": 1, "group": 1, "advances": "Bob"}]
        # an import stores the championship and every round at once, the rounds numbered in order
        games = [{"game": "campanile", "players": camp.PLAYERS, "options": {}, "setup": camp.SETUP,
                  "moves": [], "results": [Result(p, 3, p == camp.PLAYERS[0]) for p in camp.PLAYERS]},
                 {"game": "campanile", "players": camp.PLAYERS, "options": {}, "setup": camp.SETUP}]
        second = store.insert_championship(2, FOUR, {}, source="import", record_hash="h", rounds=games)
        rounds = store.championship_rounds(second)
        assert [(r.championship_round, r.is_finished, r.source) for r in rounds] == [
            (1, True, "import"), (2, False, "import")]
        assert store.championship_with_hash("h") == second
        assert [c.id for c in store.list_championships()] == [second, first]
        # a championship that never got its first round goes; one with a round stays
        empty = store.insert_championship(2, FOUR, {})
        store.delete_championship(empty)
        store.delete_championship(first)
        assert [c.id for c in store.list_championships()] == [second, first]
        store.abandon_championship(first)
        assert store.championship(first).abandoned is not None


def test_a_repair_keeps_the_championships_and_which_game_is_which_round(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    with Companion.open(path) as app:  # a real round: a game played as a championship, its groups set
        live = app.championships.new(2, list(FOUR), {"tie_break": "scores"})
        cid, sid = app.championships.of_game(live.id), live.id
        app.store.set_championship_decisions(cid, [{"x": 1}])
        options = app.store.championship(cid).options
    report = repair(path)
    assert report.checkup.is_good
    with Store.open(path) as store:
        assert store.championship(cid).options == options
        assert store.championship(cid).decisions == [{"x": 1}]
        assert [(r.id, r.championship_round) for r in store.championship_rounds(cid)] == [(sid, 1)]


def test_a_game_not_played_as_a_championship_is_no_round_and_the_repair_keeps_it_on_its_own(
        tmp_path: Path) -> None:
    """Issue 34 (5): a Campanile game marked as round 2 was "all good" to the doctor."""
    path = tmp_path / "r.sqlite3"
    with Companion.open(path) as app:
        live = app.championships.new(2, list(FOUR))
        cid, real = app.championships.of_game(live.id), live.id
        other = app.start("campanile", camp.PLAYERS, setup=camp.SETUP).id
    db = sqlite3.connect(path)
    db.execute("UPDATE sessions SET championship = ?, championship_round = 2 WHERE id = ?", (cid, other))
    db.commit()
    db.close()
    checkup = examine(path)
    assert not checkup.is_good
    assert [(m.session, m.problem.code) for m in checkup.rounds] == [(other, "doctor.round.game")]
    repair(path)
    assert examine(path).is_good  # converges
    with Store.open(path) as store:
        assert [r.id for r in store.championship_rounds(cid)] == [real]
        assert store.session(other).championship is None  # kept, as a game on its own
