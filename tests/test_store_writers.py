"""One writer per store: a second `companion run` is refused; readers never write; stale saves refused.

The two-process tests start real `companion` processes on one temporary data
directory. A child's output is read one way only: line by line with
``readline()`` on its standard output (standard error goes to a file), and
waits have generous time-outs; nothing asserts how fast anything is.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.console.display import shown_line
from companion.service.app import Companion
from companion.storage.migrations import MIGRATIONS
from companion.storage.paths import DB_FILENAME
from companion.storage.store import StaleLog, Store
from tests import helpers_campanile as camp

COMPANION = str(Path(sys.executable).parent / "companion")
TIMEOUT = 60


def said(text: str) -> str:
    """What the CLI prints for ``text``: one line, values too long cut (:mod:`companion.console.display`)."""
    return f"companion: {shown_line(text.removeprefix('companion: ').removesuffix(chr(10)))}\n"

# Sessions are built by the application service; these tests drive it over a real store.
def new_session(store: Store, game: str, players, options=None, setup=None) -> int:
    return Companion(store).start(game, players, options=options, setup=setup).id


def open_session(store: Store, session_id: int):
    return Companion(store).open_game(session_id).session



def companion(data: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([COMPANION, "--data-dir", str(data), *args], input=stdin, capture_output=True,
                          text=True, timeout=TIMEOUT, check=False)


class Console:
    """A `companion run --headless` child: write lines, read its answers line by line."""

    def __init__(self, data: Path, errors: Path) -> None:
        self._errors = errors.open("w")
        self.proc = subprocess.Popen([COMPANION, "--data-dir", str(data), "run", "--headless"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._errors,
                                     text=True, bufsize=1)

    def line(self) -> str:
        assert self.proc.stdout is not None
        text = self.proc.stdout.readline()  # blocks until the child answers (or ends: "")
        return text.rstrip("\n")

    def send(self, text: str) -> str:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()
        return self.line()

    def finish(self) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        rest = self.proc.stdout.read()
        code = self.proc.wait(timeout=TIMEOUT)
        self._errors.close()
        assert rest == "", rest
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=TIMEOUT)
        self._errors.close()


def move_json(move) -> str:
    return json.dumps(camp.engine().move_to_json(move))


def test_a_second_run_is_refused_naming_the_first_and_nothing_is_lost(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert companion(data, "new", "campanile", *camp.PLAYERS, "--setup",
                     f"towers={json.dumps(list(camp.SETUP['towers']))}").returncode == 0
    moves = camp.random_game(5, 4, finish=False)
    first = Console(data, tmp_path / "first.err")
    try:
        assert first.line().startswith("resuming session 1")
        assert first.send(move_json(moves[0])).startswith("ok 1: ")

        second = companion(data, "run", "--headless", stdin=move_json(moves[1]) + "\n")
        assert (second.returncode, second.stdout) == (2, "")
        assert second.stderr == said(
            f"the game store {data / DB_FILENAME} is in use by another companion "
            f"(process {first.proc.pid}: companion --data-dir {data} run --headless); only one may "
            "change it at a time: stop that one first (sessions, export, stats and replay still work "
            "meanwhile)")
        # so are the other writing commands
        assert companion(data, "new", "campanile", "X", "Y", "Z").returncode == 2
        assert companion(data, "import", str(Path(__file__).parent / "data" / "examples"
                                            / "campanile-3p.json")).returncode == 2

        # reading commands work meanwhile
        listed = companion(data, "sessions")
        assert listed.returncode == 0 and "Albert, Birgit, Franziska" in listed.stdout
        exported = companion(data, "export")
        assert exported.returncode == 0, exported.stderr
        assert json.loads(exported.stdout)["moves"] == [camp.engine().move_to_json(moves[0])]

        assert first.send(move_json(moves[1])).startswith("ok 2: ")
        assert first.finish() == 0
    finally:
        first.kill()
    with Store.open(data / DB_FILENAME, read_only=True) as store:
        stored, _ = store.stored_moves(1)
    assert stored == [camp.engine().move_to_json(m) for m in moves[:2]]
    # the lock went with its holder: a new writer is welcome
    assert companion(data, "run", "--headless", stdin=move_json(moves[2]) + "\n").returncode == 0


def test_a_killed_writer_leaves_no_lock_behind(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert companion(data, "new", "campanile", *camp.PLAYERS).returncode == 0
    console = Console(data, tmp_path / "err")
    try:
        assert console.line().startswith("resuming session 1")
    finally:
        console.kill()
    assert console.proc.returncode == -9
    again = companion(data, "run", "--headless", stdin="status\n")
    assert again.returncode == 0, again.stderr


def test_two_writers_in_one_process_are_refused_too(tmp_path: Path) -> None:
    path = tmp_path / DB_FILENAME
    with Store.open(path):
        with pytest.raises(Exception, match=r"is in use by another companion \(process \d+: "):
            Store.open(path)
        with Store.open(path, read_only=True) as reader:
            assert reader.list_sessions() == []


def test_a_stale_save_is_refused_never_merged(tmp_path: Path) -> None:
    with Store.open(tmp_path / DB_FILENAME) as store:
        sid = new_session(store, "campanile", camp.PLAYERS, {}, camp.SETUP)
        one, two = open_session(store, sid), open_session(store, sid)
        moves = camp.random_game(7, 3, finish=False)
        one.propose(moves[0])
        before = two.log
        with pytest.raises(StaleLog, match=rf"^session {sid} was changed elsewhere since this game was "
                                           "opened; this change was not saved: open the game again"):
            two.propose(moves[0])
        assert two.log == before
        assert store.stored_moves(sid)[0] == [camp.engine().move_to_json(moves[0])]
        one.propose(moves[1])  # the up-to-date session goes on
        assert len(store.stored_moves(sid)[0]) == 2


def test_a_save_checks_the_version_inside_its_transaction(tmp_path: Path) -> None:
    path = tmp_path / DB_FILENAME
    with Store.open(path) as store:
        sid = new_session(store, "campanile", camp.PLAYERS, {}, camp.SETUP)
        session = open_session(store, sid)
        moves = camp.random_game(8, 3, finish=False)
        session.propose(moves[0])
        # someone who ignores the lock rewrites the log behind the session's back
        rogue = sqlite3.connect(path)
        with rogue:
            rogue.execute("DELETE FROM moves")
            rogue.execute("UPDATE sessions SET log_version = log_version + 1")
        rogue.close()
        with pytest.raises(StaleLog):
            session.propose(moves[1])
        assert store.stored_moves(sid)[0] == []


def test_reading_commands_never_write(tmp_path: Path) -> None:
    """No migration, no WAL switch, no reconciling: the file's bytes stay as they are."""
    data = tmp_path / "data"
    data.mkdir()
    path = data / DB_FILENAME
    with Store.open(path, migrations=MIGRATIONS[:-1]) as old:  # an older schema ...
        sid = old.insert_session("campanile", camp.PLAYERS, {}, camp.SETUP)
    db = sqlite3.connect(path)  # ... in rollback-journal mode, a finished game not marked finished
    with db:
        db.executemany("INSERT INTO moves (session_id, idx, move) VALUES (?, ?, ?)",
                       [(sid, i, json.dumps(camp.engine().move_to_json(m)))
                        for i, m in enumerate(camp.random_game(3, 30))])
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()
    before = path.read_bytes()
    for command in (["sessions"], ["stats"], ["export"], ["export", "--bgstats"], ["board", "layouts"],
                    ["campanile", "flags"]):
        result = companion(data, *command)
        assert result.returncode in (0, 2), (command, result.stderr)
        assert result.stderr.count("\n") <= 1
    assert companion(data, "export").returncode == 0
    assert path.read_bytes() == before
    assert sorted(p.name for p in data.iterdir()) == [DB_FILENAME, DB_FILENAME + ".lock"]  # no -wal


def test_reading_commands_on_a_missing_data_dir_create_nothing(tmp_path: Path) -> None:
    data = tmp_path / "nowhere"
    for command in (["sessions"], ["stats"], ["board", "layouts"], ["campanile", "flags"]):
        assert companion(data, *command).returncode == 0, command
    assert companion(data, "sessions").stdout.startswith("No stored games yet.")
    assert companion(data, "export").stderr.startswith("companion: there are no stored games yet")
    assert not data.exists()
    created = companion(data, "new", "campanile", *camp.PLAYERS)
    assert created.returncode == 0
    assert created.stderr == f"companion: created the data directory {data}\n"
    assert (data / DB_FILENAME).is_file()
