"""The repair's promise: after ``doctor --repair`` exits 0 the companion starts, plays and reads again.

Issue 21, defects 1 and 2: a repair that kept a session which cannot be
replayed (its setup no longer parses) left ``run`` and ``new`` refusing the
store; a value written past a CHECK constraint was seen by the read-write
connection only, so the store was read-only with no damage named, and the
repair failed on the same constraint. Each damage is made on a real store
file with SQL and met through the real ``companion`` command in-process.
"""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest

from companion.service.app import Companion
from companion.storage import doctor
from companion.storage.paths import DB_FILENAME
from companion.storage.store import Store
from tests import helpers_campanile as camp
from tests.test_headless_appliance import appliance_starts
from tests.test_store_damage import GAMES, snapshot


@pytest.fixture
def data(stocked_copy: Path) -> Path:
    """The stocked store (tests/conftest.py), this test's own copy."""
    return stocked_copy


def write_past_checks(path: Path, sql: str, *params: object) -> None:
    """Change the store as a bit flip or another program could: past every CHECK constraint."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA ignore_check_constraints = ON")
    with db:
        db.execute(sql, params)
    db.close()


def plays_on(run_cli, data: Path, monkeypatch) -> None:
    """``run`` at a console, ``new``, ``rematch`` and reading commands work; a move is stored."""
    for stdin in ("status\n", ""):
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        code, out, err = run_cli("--data-dir", str(data), "run", "--headless")
        assert code == 0, (stdin, out, err)
    for command in (["new", "campanile", *camp.PLAYERS], ["sessions"], ["stats"], ["export"], ["doctor"]):
        code, out, err = run_cli("--data-dir", str(data), *command)
        assert code == 0, (command, out, err)
    with Companion.open(data / DB_FILENAME) as app:
        finished = [row for row in app.sessions() if row.is_finished]
        live = app.rematch(finished[0].id)
        live.session.propose(camp.legal_moves(live.session.state)[0])
        assert len(app.store.stored_moves(live.id)[0]) == 1


# -- defect 1: a session that cannot be replayed is set aside, never resumed ---------------------

@pytest.mark.parametrize("column, value", [
    ("setup", '{"towers": ["red", "bl'),  # the case: the setup no longer parses
    ("players", '"Albert"'),  # a variation: readable JSON, but no list of players
    ("options", '"two_player_move"'),  # a variation: readable JSON, but no object of options
])
def test_a_session_that_cannot_be_replayed_is_set_aside_and_play_resumes(run_cli, data: Path, monkeypatch,
                                                                          column: str, value: str) -> None:
    path = data / DB_FILENAME
    before = snapshot(path)
    write_past_checks(path, f"UPDATE sessions SET {column} = ? WHERE id = 1", value)
    code, out, _ = run_cli("--data-dir", str(data), "doctor")
    assert code == 3 and "session 1" in out

    code, out, err = run_cli("--data-dir", str(data), "doctor", "--repair")
    assert (code, err) == (0, ""), out
    assert "session 1: set aside, because " in out
    plays_on(run_cli, data, monkeypatch)
    if column == "setup":  # the case, as systemd meets it: no restart loop
        assert not any("damaged" in line for line in appliance_starts(data))
    code, out, err = run_cli("--data-dir", str(data), "doctor")
    assert (code, err) == (0, "")
    assert "session 1 was set aside by a repair" in out
    after = snapshot(path)
    assert 1 not in after["sessions"]
    for sid in range(2, len(GAMES) + 1):
        assert after["sessions"][sid] == before["sessions"][sid]
    # a second repair changes nothing the players see, and the session stays aside
    assert run_cli("--data-dir", str(data), "doctor", "--repair")[0] == 0
    assert snapshot(path)["sessions"] == after["sessions"]


def test_a_session_of_a_game_not_installed_is_kept_untouched_and_play_resumes(
        run_cli, data: Path, monkeypatch) -> None:
    """A game name no installed package declares (a game uninstalled, or a plug-in that fails to
    load) is not damage: the doctor names it, a repair copies it as it is, the other games play on."""
    path = data / DB_FILENAME
    write_past_checks(path, "UPDATE sessions SET game = ? WHERE id = 1", "campanille")
    before = snapshot(path)
    code, out, _ = run_cli("--data-dir", str(data), "doctor")
    assert code == 0 and "game 1: campanille is not installed here" in out
    code, out, err = run_cli("--data-dir", str(data), "doctor", "--repair")
    assert (code, err) == (0, ""), out
    assert "game 1: campanille is not installed here; copied untouched" in out
    assert snapshot(path)["sessions"] == before["sessions"]
    plays_on(run_cli, data, monkeypatch)


@pytest.mark.parametrize("value", [-1, "", "-1", "not json", "Campanile ", b"\x00"])
def test_a_game_column_that_is_no_name_is_damage_not_a_game_not_installed(data: Path, value: object) -> None:
    """Only what could be a game's name is "not installed"; a number, an empty or odd text, a blob
    where the name belongs is damage, and a repair sets that session aside as before."""
    path = data / DB_FILENAME
    write_past_checks(path, "UPDATE sessions SET game = ? WHERE id = 1", value)
    (health,) = [h for h in doctor.examine(path).sessions if h.id == 1]
    assert not health.not_installed and not health.is_good and not health.replayable


# -- defect 2: a value outside a CHECK constraint -------------------------------------------------

@pytest.mark.parametrize("sql", [
    "UPDATE sessions SET source = 'bogus' WHERE id = 2",  # the case
    "UPDATE results SET winner = 7 WHERE session_id = 1 AND seat = 0",  # a variation: another table
    "UPDATE moves SET idx = -1 WHERE session_id = 4 AND idx = 0",  # and another constraint
])
def test_a_value_outside_a_check_is_damage_to_every_connection_and_the_repair_mends_it(
        run_cli, data: Path, monkeypatch, sql: str) -> None:
    path = data / DB_FILENAME
    write_past_checks(path, sql)
    with Store.open(path) as writer:
        written = list(writer.damage)
    with Store.open(path, read_only=True) as reader:
        read = list(reader.damage)
    assert written and read == written  # judged the same by both connections

    code, out, err = run_cli("--data-dir", str(data), "doctor")
    assert code == 3, out
    code, out, err = run_cli("--data-dir", str(data), "doctor", "--repair")
    assert (code, err) == (0, ""), out
    assert not list(data.glob(f".{DB_FILENAME}.repairing*"))
    plays_on(run_cli, data, monkeypatch)


# -- the same promise after a restore ----------------------------------------------------------

def test_a_restored_backup_with_a_session_that_cannot_be_replayed_plays_on(
        run_cli, data: Path, tmp_path: Path, monkeypatch) -> None:
    backup = tmp_path / "backup.sqlite3"
    backup.write_bytes((data / DB_FILENAME).read_bytes())
    write_past_checks(backup, "UPDATE sessions SET setup = '{' WHERE id = 2")
    code, out, err = run_cli("--data-dir", str(data), "doctor", "--restore", str(backup))
    assert (code, err) == (0, ""), out
    assert "session 2: set aside, because " in out
    plays_on(run_cli, data, monkeypatch)
