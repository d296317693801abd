"""Backups: daily automatic copies kept N days, `companion backup DIR` during play, `doctor --restore`."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.console.display import shown_line
from companion.service.app import Companion
from companion.service.records import final_state, parse_record
from companion.storage.backup import BACKUPS_KEPT, DEFAULT_KEPT, daily_backup
from companion.storage.paths import DB_FILENAME
from companion.storage.store import Store, StoreError
from tests import helpers_campanile as camp
from tests.test_store_writers import Console, companion, move_json


# Sessions are built by the application service; these tests drive it over a real store.
def new_session(store: Store, game: str, players, options=None, setup=None) -> int:
    return Companion(store).start(game, players, options=options, setup=setup).id


def open_session(store: Store, session_id: int):
    return Companion(store).open_game(session_id).session


def said(text: str) -> str:
    """What the CLI prints for ``text``: one line, values too long cut (:mod:`companion.console.display`)."""
    return f"companion: {shown_line(text.removeprefix('companion: ').removesuffix(chr(10)))}\n"


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def daily_files(data: Path) -> list[str]:
    return sorted(p.name for p in (data / "backups").iterdir())


def test_one_backup_per_day_of_play_and_the_last_n_kept(tmp_path: Path) -> None:
    clock = Clock()
    with Store.open(tmp_path / DB_FILENAME, clock=clock) as store:
        store.set_setting(BACKUPS_KEPT, 3)
        days = []
        for _ in range(5):
            sid = new_session(store, "campanile", camp.PLAYERS, {}, camp.SETUP)
            written = daily_backup(store)
            assert written is not None
            days.append(written.name)
            assert daily_backup(store) is None  # once a day
            with Store.open(written, read_only=True) as copy:
                assert copy.latest_session().id == sid
            clock.now += timedelta(days=1)
        local = [(datetime(2024, 5, 1, 12, tzinfo=UTC) + timedelta(days=d)).astimezone() for d in range(5)]
        assert days == [f"companion-{n:04d}-{moment:%Y-%m-%d}.sqlite3" for n, moment in enumerate(local, 1)]
        assert daily_files(tmp_path) == days[-3:]

        store.set_setting(BACKUPS_KEPT, 0)  # turned off
        assert daily_backup(store) is None
        assert daily_files(tmp_path) == days[-3:]
        store.set_setting(BACKUPS_KEPT, "many")
        with pytest.raises(StoreError, match=r"^the setting backups\.kept must be a whole number of days, "
                                             r"0 or more, not 'many'$"):
            daily_backup(store)
        store.delete_setting(BACKUPS_KEPT)
        assert DEFAULT_KEPT == 7 and daily_backup(store) is not None


def test_the_oldest_backup_goes_first_even_when_the_clock_went_back(tmp_path: Path) -> None:
    """A Pi without a battery clock may boot on a date before its last backup: the backups are counted,
    so the one made then is the newest and the oldest by count goes, not the one with the latest date;
    files named before backups were numbered count as the oldest of all."""
    clock = Clock()
    with Store.open(tmp_path / DB_FILENAME, clock=clock) as store:
        store.set_setting(BACKUPS_KEPT, 2)
        folder = tmp_path / "backups"
        folder.mkdir()
        (folder / "companion-2030-01-01.sqlite3").write_bytes(b"named before the count")
        first = daily_backup(store)  # 2024-05-01
        clock.now += timedelta(days=3)
        second = daily_backup(store)  # 2024-05-04
        clock.now -= timedelta(days=10)  # the clock went back: 2024-04-24
        third = daily_backup(store)
        assert first is not None and second is not None and third is not None
        assert [p.name[:len("companion-0000")] for p in (first, second, third)] == [
            "companion-0001", "companion-0002", "companion-0003"]
        assert daily_files(tmp_path) == sorted([second.name, third.name])  # 0001 and the old one went
        assert daily_backup(store) is None  # once a day, whatever the count


def test_run_writes_todays_backup(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert companion(data, "new", "campanile", *camp.PLAYERS).returncode == 0
    before = datetime.now().astimezone()
    assert companion(data, "run", "--headless", stdin="status\n").returncode == 0
    after = datetime.now().astimezone()
    names = {f"companion-0001-{moment:%Y-%m-%d}.sqlite3" for moment in (before, after)}
    assert len(set(daily_files(data)) & names) == 1 and len(daily_files(data)) == 1


def test_backup_during_play_then_restore_replays_equal(tmp_path: Path) -> None:
    data, usb, other = tmp_path / "data", tmp_path / "usb", tmp_path / "other"
    usb.mkdir()
    assert companion(data, "new", "campanile", *camp.PLAYERS, "--setup",
                     f"towers={json.dumps(list(camp.SETUP['towers']))}").returncode == 0
    moves = camp.random_game(12, 10, finish=False)
    console = Console(data, tmp_path / "err")
    try:
        assert console.line().startswith("resuming session 1")
        for number, move in enumerate(moves[:6], start=1):
            assert console.send(move_json(move)).startswith(f"ok {number}: ")
        backup = companion(data, "backup", str(usb))  # while the game is open for play
        assert (backup.returncode, backup.stderr) == (0, "")
        (copy,) = usb.iterdir()
        assert backup.stdout == f"backed up the game store to {copy}\n"
        for number, move in enumerate(moves[6:], start=7):
            assert console.send(move_json(move)).startswith(f"ok {number}: ")
        assert console.finish() == 0
    finally:
        console.kill()

    restored = companion(other, "doctor", "--restore", str(copy))
    assert (restored.returncode, restored.stderr) == (0, "")
    assert restored.stdout == f"restored {copy} as the game store {other / DB_FILENAME}\n"
    record_file = tmp_path / "restored.json"
    assert companion(other, "export", "-o", str(record_file)).returncode == 0
    record = json.loads(record_file.read_text())
    game = camp.engine()
    assert record["moves"] == [game.move_to_json(m) for m in moves[:6]]
    replayed = companion(other, "replay", str(record_file), "--json")
    parsed = parse_record(record)
    assert json.loads(replayed.stdout) == json.loads(json.dumps(game.summary(final_state(parsed))))

    # restored over the played store: that one is copied aside first, and the game resumes at move 6
    again = companion(data, "doctor", "--restore", str(copy))
    assert again.returncode == 0
    (aside,) = [p for p in data.iterdir() if p.name.startswith(f"{DB_FILENAME}.before-restore-")]
    assert again.stdout.endswith(f"the store it replaced was copied to {aside}\n")
    with Store.open(aside, read_only=True) as old:
        assert len(old.stored_moves(1)[0]) == 10
    resumed = companion(data, "run", "--headless", stdin="status\n")
    assert resumed.stdout.startswith("resuming session 1: Campanile, Albert, Birgit, Franziska, 6 moves")


def test_restore_refuses_what_is_not_a_backup_and_changes_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert companion(data, "new", "campanile", *camp.PLAYERS).returncode == 0
    before = (data / DB_FILENAME).read_bytes()
    notes = tmp_path / "notes.txt"
    notes.write_text("milk, eggs " * 100)
    cases = {str(tmp_path / "missing.sqlite3"): f"there is no backup file {tmp_path / 'missing.sqlite3'}",
             str(notes): f"{notes} is not a companion backup (file is not a database)"}
    for file, message in cases.items():
        assert companion(data, "doctor", "--restore", file).stderr == said(message)
    with Store.open(tmp_path / "copy.sqlite3") as source:
        new_session(source, "campanile", camp.PLAYERS, {}, camp.SETUP)
    with Store.open(data / DB_FILENAME):  # the app is running
        busy = companion(data, "doctor", "--restore", str(tmp_path / "copy.sqlite3"))
    assert busy.returncode == 2 and "is in use by another companion (process " in busy.stderr
    assert (data / DB_FILENAME).read_bytes() == before
    assert not any(p.name.startswith(f"{DB_FILENAME}.before-restore-") for p in data.iterdir())


def test_backup_needs_a_directory_and_something_to_back_up(tmp_path: Path) -> None:
    data = tmp_path / "data"
    nothing = companion(data, "backup", str(tmp_path))
    assert (nothing.returncode, nothing.stderr) == (2, said(f"there are no stored games in {data} to "
                                                            "back up yet"))
    assert companion(data, "new", "campanile", *camp.PLAYERS).returncode == 0
    missing = companion(data, "backup", str(tmp_path / "stick"))
    assert missing.stderr == said(f"{tmp_path / 'stick'} is not a directory (give the folder to write "
                                  "the backup into)")
