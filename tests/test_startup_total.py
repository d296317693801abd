"""``companion run`` never ends on what the data directory holds (issue 34, "Start-up is total").

A real process, fed on standard input, over stores spoiled on purpose: a row of
each table whose text is not JSON, not a date, not UTF-8; a newer schema; a
file that is no store; a folder in its place; a change file beside no store;
a read-only medium and a read-only file (bind mounts in a user namespace:
``chattr +i`` needs a privilege the tests do not have, and root ignores file
modes). Each time it reaches its prompt, says what is wrong in one line with
the words that help, takes them, and ends with exit 0 at the end of its input.
Under systemd's notify socket it says READY and stays up until SIGTERM.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.service.app import Companion
from companion.storage.paths import DB_FILENAME
from companion.storage.store import Store

ROOT = Path(__file__).resolve().parent.parent
COMPANION = [sys.executable, "-m", "companion"]
GUARD = 120  # seconds: a hang fails the test instead of stalling the suite
BUILD = '{"type": "build", "player": "ann", "tower": "red", "stories": 1}'


def environment(data: Path, **more: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("STATE_DIRECTORY", "COMPANION_LANG")}
    env.update(COMPANION_DATA=str(data), PYTHONIOENCODING="utf-8", COMPANION_OLED="mock",
               COMPANION_BUTTONS="mock", **more)
    return env


def companion(data: Path, *args: str, stdin: str = "", wrap: list[str] | None = None,
              config: Path | None = None) -> subprocess.CompletedProcess[str]:
    command = [*COMPANION, *args, *(["--config", str(config)] if config else [])]
    return subprocess.run([*(wrap or []), *command], input=stdin, capture_output=True, text=True, cwd=ROOT,
                          env=environment(data), timeout=GUARD, check=False)


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A store with a Campanile game in progress (one move), and one with a championship whose
    first round is the game in progress; each test spoils a copy."""
    made = {}
    campanile = tmp_path_factory.mktemp("campanile")
    with Companion.open(campanile / DB_FILENAME) as app:
        live = app.start("campanile", ["Ann", "Bob", "Cid"])
        live.session.propose(live.session.game.parse_move(
            {"type": "build", "player": "Ann", "tower": "red", "stories": 1}))
        app.set_preferred_colour("Ann", "castelli", "blue")
        app.change_setting("table.name", "Kitchen")
    made["campanile"] = campanile
    round_ = tmp_path_factory.mktemp("championship")
    done = companion(round_, "championship", "new", "--variant", "2", "Ann", "Bob", "Cid", "Dan")
    assert done.returncode == 0, done.stderr
    made["championship"] = round_
    return made


def spoiled(templates: dict[str, Path], kind: str, target: Path, *sql: str) -> Path:
    """A copy of the ``kind`` template at ``target`` with ``sql`` run on it past every CHECK."""
    shutil.copytree(templates[kind], target)
    db = sqlite3.connect(target / DB_FILENAME)
    try:
        db.execute("PRAGMA ignore_check_constraints=ON")
        for statement in sql:
            db.execute(statement)
        db.commit()
    finally:
        db.close()
    return target


def not_utf8(hex_text: str) -> str:
    return f"CAST(X'{hex_text}' AS TEXT)"


BAD_MOVE = not_utf8("7B22747970ff223A226275696C64227D")  # {"typ\xff":"build"}, the issue's

#: (template, SQL) that ended ``run`` with exit 1 or 2 before (the issue's, and their kin in other
#: tables and columns).
SPOILS = [
    ("championship", "UPDATE championships SET decisions='not json'"),
    ("championship", "UPDATE championships SET options='[1,2]'"),
    ("championship", "UPDATE championships SET created='yesterday'"),
    ("championship", f"UPDATE championships SET players={not_utf8('5B22ff225D')}"),
    ("championship", f"UPDATE championships SET decisions={not_utf8('5Bff5D')}"),
    ("championship", "UPDATE sessions SET setup='{}' WHERE id = 1"),  # the round lost its groups
    ("campanile", "UPDATE sessions SET championship = 1, championship_round = 2"),  # item 5
    ("campanile", f"UPDATE moves SET move={BAD_MOVE}"),
    ("campanile", "UPDATE moves SET move='[1]'"),
    ("campanile", f"UPDATE sessions SET players={not_utf8('5B22416E6EFF225D')}"),
    ("campanile", "UPDATE sessions SET options='not json'"),
    ("campanile", "UPDATE sessions SET started='yesterday'"),
    ("campanile", f"UPDATE sessions SET game={not_utf8('ff')}"),
    ("campanile", f"UPDATE settings SET value={not_utf8('22ff22')}"),
    ("campanile", "UPDATE settings SET value='{not json'"),
    ("campanile", f"UPDATE players SET name={not_utf8('416eff')} WHERE name='Ann'"),
    ("campanile", f"UPDATE player_colours SET colour={not_utf8('ff')}"),
    ("campanile", "PRAGMA user_version=99"),
]


def _played_on_or_offered(done: subprocess.CompletedProcess[str]) -> list[str]:
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert "unexpected error" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize(("kind", "sql"), SPOILS, ids=[sql[:48] for _, sql in SPOILS])
def test_run_reaches_its_prompt_whatever_a_row_holds_and_offers_the_repair(
        templates: dict[str, Path], tmp_path: Path, kind: str, sql: str) -> None:
    data = spoiled(templates, kind, tmp_path / "data", sql)
    done = companion(data, "run", "--headless", stdin="status\nhelp\n")
    lines = _played_on_or_offered(done)
    offered = [line for line in lines if "`repair`" in line]
    assert offered, lines  # said, with the word that helps
    assert "status" in done.stdout and "repair / restore / fresh / backup" in done.stdout  # help names them


def test_the_issues_championship_row_is_repaired_or_set_aside_from_the_console(
        templates: dict[str, Path], tmp_path: Path) -> None:
    """Item 1: after `fresh` the old file is kept aside untouched and a new game is played."""
    data = spoiled(templates, "championship", tmp_path / "data",
                   "UPDATE championships SET decisions='not json'")
    before = (data / DB_FILENAME).read_bytes()
    done = companion(data, "run", "--headless",
                     stdin=f"fresh\nnew campanile Ann Bob Cid\n{BUILD}\nstatus\n")
    lines = _played_on_or_offered(done)
    assert any("A new, empty game store was started" in line for line in lines), lines
    assert "ok 1: Ann: red +1" in lines
    aside = sorted(data.glob(f"{DB_FILENAME}.damaged-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == before
    with Store.open(data / DB_FILENAME) as store:
        assert [row.game for row in store.list_sessions()] == ["campanile"]


def test_the_issues_move_that_is_not_utf8_is_repaired_from_the_console(
        templates: dict[str, Path], tmp_path: Path) -> None:
    """Item 3, in Hungarian words: `javít` repairs, and the game is played on."""
    data = spoiled(templates, "campanile", tmp_path / "data", f"UPDATE moves SET move={BAD_MOVE}")
    done = subprocess.run([*COMPANION, "--lang", "hu", "run", "--headless"], input="állás\njavít\nállás\n",
                          capture_output=True, text=True, cwd=ROOT, env=environment(data), timeout=GUARD,
                          check=False)
    lines = _played_on_or_offered(done)
    assert any("`javít`" in line and "`friss`" in line for line in lines), lines
    assert any(line.startswith("Megjavítva") for line in lines), lines
    assert "unexpected" not in done.stdout
    again = companion(data, "run", "--headless", stdin=f"{BUILD}\n")
    assert _played_on_or_offered(again)[-1] == "ok 1: Ann: red +1"  # the repair kept the game


@pytest.mark.parametrize("what", ["garbage", "folder", "stray-wal", "empty"])
def test_run_reaches_its_prompt_over_a_file_that_is_no_store(tmp_path: Path, what: str) -> None:
    data = tmp_path / "data"
    data.mkdir()
    store = data / DB_FILENAME
    if what == "garbage":
        store.write_bytes(os.urandom(8192))
    elif what == "folder":
        store.mkdir()
    elif what == "empty":
        store.write_bytes(b"")
    else:  # the store moved away, its -wal left holding pages
        (data / f"{DB_FILENAME}-wal").write_bytes(b"\x37\x7f\x06\x82" + os.urandom(4092))
    before = store.read_bytes() if store.is_file() else None
    stick = tmp_path / "stick"
    stick.mkdir()
    config = tmp_path / "companion.toml"
    config.write_text(f'[backup]\nstick = "{stick}"\n')
    done = companion(data, "run", "--headless", config=config,
                     stdin=f"status\n{BUILD}\nbackup\nfresh\nnew campanile Ann Bob Cid\n{BUILD}\n")
    lines = _played_on_or_offered(done)
    assert any("`fresh`" in line for line in lines), lines
    copies = list(stick.glob("companion-*.sqlite3"))
    if before is None:  # no store file to copy
        assert any(line.startswith("`backup` cannot help now") for line in lines), lines
        assert copies == []
    else:  # what the card holds is copied as it is, byte for byte
        assert any("the stick is safe to remove" in line for line in lines), lines
        assert [copy.read_bytes() for copy in copies] == [before]
    assert lines[-1] == "ok 1: Ann: red +1"  # a fresh store, and play goes on
    assert list(data.glob("*.damaged-*"))  # the old one kept aside


def _can_bind_read_only(tmp_path: Path) -> bool:
    probe = tmp_path / "probe"
    probe.mkdir()
    done = subprocess.run(["unshare", "-rm", "sh", "-c",
                           f"mount --bind {probe} {probe} && mount -o remount,bind,ro {probe} && "
                           f"! touch {probe}/x"], capture_output=True, timeout=GUARD, check=False)
    return done.returncode == 0


def read_only(target: Path) -> list[str]:
    """A command prefix that runs its command with ``target`` read-only (a card remounted read-only)."""
    return ["unshare", "-rm", "sh", "-c",
            f'mount --bind "{target}" "{target}" && mount -o remount,bind,ro "{target}" && exec "$0" "$@"']


@pytest.mark.parametrize("part", ["folder", "file"])
def test_a_read_only_card_or_file_is_said_and_offers_the_backup(templates: dict[str, Path], tmp_path: Path,
                                                                 part: str) -> None:
    """Item 4: the games can be looked at; a move is refused saying why; `backup` copies to the stick."""
    if shutil.which("unshare") is None or not _can_bind_read_only(tmp_path):
        pytest.skip("no user namespaces here to mount a folder read-only")
    data = tmp_path / "data"
    shutil.copytree(templates["campanile"], data)
    stick = tmp_path / "stick"
    stick.mkdir()
    config = tmp_path / "companion.toml"
    config.write_text(f'[backup]\nstick = "{stick}"\n')
    target = data if part == "folder" else data / DB_FILENAME
    done = companion(data, "run", "--headless", stdin=f"status\n{BUILD}\nbackup\n", config=config,
                     wrap=read_only(target))
    lines = _played_on_or_offered(done)
    assert lines[0].startswith("resuming session 1: Campanile, Ann, Bob, Cid, 1 move")  # still read
    said = "read-only" if part == "folder" else "write-protected"
    assert any(said in line and "`backup`" in line for line in lines), lines
    assert any(line.startswith("refused:") for line in lines), lines  # the move: nothing is saved
    assert any("safe to remove" in line for line in lines), lines
    copies = list(stick.glob("companion-*.sqlite3"))
    assert len(copies) == 1
    with Store.open(copies[0], read_only=True) as copy:
        assert len(copy.stored_moves(1)[0]) == 1


def test_restore_from_the_stick_puts_its_newest_backup_in_place(templates: dict[str, Path],
                                                                tmp_path: Path) -> None:
    data = spoiled(templates, "campanile", tmp_path / "data", "UPDATE sessions SET options='not json'")
    stick = tmp_path / "stick"
    stick.mkdir()
    shutil.copy(templates["campanile"] / DB_FILENAME, stick / "companion-0002-2026-01-02-100000.sqlite3")
    (stick / "companion-0001-2026-01-03-100000.sqlite3").write_bytes(b"older, and no store")
    config = tmp_path / "companion.toml"
    config.write_text(f'[backup]\nstick = "{stick}"\n')
    done = companion(data, "run", "--headless", stdin=f"restore\n{BUILD.replace('ann', 'bob')}\n",
                     config=config)
    lines = _played_on_or_offered(done)
    assert any("companion-0002-2026-01-02-100000.sqlite3" in line for line in lines), lines
    assert lines[-1] == "ok 2: Bob: red +1"  # the restored game, played on


@pytest.mark.parametrize("spoil", ["row", "read-only card", "garbage"])
def test_under_systemd_a_spoiled_store_says_ready_and_stays_up(templates: dict[str, Path],
                                                               tmp_path: Path, spoil: str) -> None:
    """The unit never loops: READY, the watchdog's pings from the loop, and SIGTERM ends it with 0."""
    from tests.notify_kit import notify_socket, receive

    data = spoiled(templates, "championship", tmp_path / "data",
                   "UPDATE championships SET decisions='not json'")
    wrap: list[str] = []
    if spoil == "read-only card":
        if shutil.which("unshare") is None or not _can_bind_read_only(tmp_path):
            pytest.skip("no user namespaces here to mount a folder read-only")
        wrap = read_only(data)
    elif spoil == "garbage":
        (data / DB_FILENAME).write_bytes(os.urandom(4096))
    notify = notify_socket(tmp_path / "notify")
    env = environment(data, NOTIFY_SOCKET=str(tmp_path / "notify"), WATCHDOG_USEC="200000")
    with open(os.devnull, "rb") as null:
        child = subprocess.Popen([*wrap, *COMPANION, "run", "--headless"], stdin=null,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
    try:
        heard = [receive(notify, GUARD) for _ in range(3)]
        assert heard[0].startswith("READY=1")
        assert heard[1:] == ["WATCHDOG=1", "WATCHDOG=1"]
        assert child.poll() is None
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=GUARD) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        notify.close()



def test_a_game_marked_as_a_round_is_refused_in_words_by_championship_status(
        templates: dict[str, Path], tmp_path: Path) -> None:
    """Item 5: a Campanile game marked as round 2 of a championship ("list index out of range")."""
    data = spoiled(templates, "championship", tmp_path / "data")
    with Companion.open(data / DB_FILENAME) as app:
        app.start("campanile", ["Ann", "Bob", "Cid"])
    db = sqlite3.connect(data / DB_FILENAME)
    with db:
        db.execute("UPDATE sessions SET championship = 1, championship_round = 2 WHERE id = 2")
    db.close()
    for args in (("championship", "status"), ("championship", "status", "1"), ("championship", "next")):
        done = companion(data, *args)
        assert done.returncode == 2, (args, done.returncode, done.stderr)
        assert done.stderr == ("companion: session 2 is marked as round 2 of championship 1, but it is not a "
                               "round (it has no two groups of players); `companion doctor` says more\n")
    done = companion(data, "run", "--headless", stdin="status\n")
    lines = _played_on_or_offered(done)
    assert any("is not a round" in line and "`repair`" in line for line in lines), lines


def test_the_consoles_status_says_the_game_when_its_championship_does_not_read(tmp_path: Path) -> None:
    """The console's ``status`` of a round whose standings fail says the game, then why, and goes on."""
    import io

    from companion.console.loop import headless_loop

    with Companion.open(tmp_path / DB_FILENAME) as app:
        live = app.start("campanile", ["Ann", "Bob", "Cid"])

        def standings() -> str | None:
            return [][1]  # what the issue's round 2 met: "list index out of range"

        out = io.StringIO()
        headless_loop(live.session, ["status", BUILD], out, also_status=standings)
    lines = out.getvalue().splitlines()
    assert "0 moves; Ann: build 1, 2 or 3 stories on a tower" in lines
    assert ("the championship of this round cannot be read (list index out of range); "
            "`companion doctor` says more") in lines
    assert lines[-1] == "ok 1: Ann: red +1"  # and the console goes on


def test_a_full_card_is_said_and_what_it_holds_is_backed_up(templates: dict[str, Path],
                                                            tmp_path: Path) -> None:
    """A data directory on a card with no room left (a 256 kB tmpfs, filled): the app says the card
    is full, and `backup` copies the store to the stick as it is."""
    if shutil.which("unshare") is None or not _can_bind_read_only(tmp_path):
        pytest.skip("no user namespaces here to mount a small file system")
    data = tmp_path / "data"
    data.mkdir()
    stick = tmp_path / "stick"
    stick.mkdir()
    config = tmp_path / "companion.toml"
    config.write_text(f'[backup]\nstick = "{stick}"\n')
    source = templates["campanile"] / DB_FILENAME
    prepare = (f'mount -t tmpfs -o size=256k tmpfs "{data}" && cp "{source}" "{data}/" && '
               f'(dd if=/dev/zero of="{data}/filler" bs=4k 2>/dev/null; true) && exec "$0" "$@"')
    done = companion(data, "run", "--headless", stdin=f"status\n{BUILD}\nbackup\n", config=config,
                     wrap=["unshare", "-rm", "sh", "-c", prepare])
    lines = _played_on_or_offered(done)
    assert any("is full" in line for line in lines), lines
    assert any("the stick is safe to remove" in line for line in lines), lines
    (copy,) = stick.glob("companion-*.sqlite3")
    with Store.open(copy, read_only=True) as store:
        assert len(store.stored_moves(1)[0]) == 1  # the game, whole


@pytest.mark.parametrize("shm", [True, False])
def test_a_read_only_card_with_changes_still_in_the_wal_is_copied_to_the_stick_as_it_is(
        templates: dict[str, Path], tmp_path: Path, shm: bool) -> None:
    """A card that turned read-only before SQLite moved its ``-wal`` into the store: the changes
    in the ``-wal`` reach the stick's copy, read through its ``-shm``; without one nothing reads
    the store in place, so the app stands in and copies both files as they are."""
    if shutil.which("unshare") is None or not _can_bind_read_only(tmp_path):
        pytest.skip("no user namespaces here to mount a folder read-only")
    data = tmp_path / "data"
    shutil.copytree(templates["campanile"], data)
    left = ("import os, sqlite3, sys; db = sqlite3.connect(sys.argv[1]);"
            "db.execute('PRAGMA wal_autocheckpoint=0');"
            "db.execute(\"UPDATE settings SET updated = 'later'\"); db.commit(); os._exit(0)")
    subprocess.run([sys.executable, "-c", left, str(data / DB_FILENAME)], check=True, timeout=GUARD)
    wal = data / f"{DB_FILENAME}-wal"
    assert wal.stat().st_size > 0
    if not shm:
        (data / f"{DB_FILENAME}-shm").unlink()
    stick = tmp_path / "stick"
    stick.mkdir()
    config = tmp_path / "companion.toml"
    config.write_text(f'[backup]\nstick = "{stick}"\n')
    done = companion(data, "run", "--headless", stdin="status\nrepair\nbackup\n", config=config,
                     wrap=read_only(data))
    lines = _played_on_or_offered(done)
    assert any("read-only" in line and "`backup`" in line and "`repair`" not in line for line in lines), lines
    assert any(line.startswith("`repair` cannot help now") for line in lines), lines
    (copy,) = stick.glob("companion-*.sqlite3")
    assert copy.with_name(copy.name + "-wal").exists() is not shm  # copied as it is: with its -wal
    db = sqlite3.connect(copy)
    try:
        assert {row[0] for row in db.execute("SELECT updated FROM settings")} == {"later"}  # from the -wal
        assert db.execute("SELECT count(*) FROM moves").fetchone()[0] == 1
    finally:
        db.close()
