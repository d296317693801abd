"""Damaged stores: a corrupt move row, overwritten pages, a truncated file, an empty file, a newer schema.

Each damage is made on a real store file (truncating it, overwriting one of
its pages, rewriting one move row with SQL) and met through the real
``companion`` command in-process; where the store is promised to be left
alone, its bytes are compared before and after.
"""

from __future__ import annotations

import io
import json
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.console.display import shown_line
from companion.games.campanile.descriptor import TWO_PLAYER_FLAGS as CAMPANILE_TWO_PLAYER_FLAGS
from companion.service.app import Companion
from companion.storage.migrations import MIGRATIONS
from companion.storage.paths import DB_FILENAME
from companion.storage.store import Store, StoreError, damaged_message
from tests import helpers_campanile as camp

PLAYERS = ", ".join(camp.PLAYERS)
#: (seed, moves, finished) of the stocked sessions 1..5, oldest first.
GAMES = [(1, 40, True), (2, 12, False), (3, 300, True), (4, 200, True), (5, 20, False)]

# Sessions are built by the application service; these tests drive it over a real store.
def new_session(store: Store, game: str, players, options=None, setup=None) -> int:
    return Companion(store).start(game, players, options=options, setup=setup).id


def open_session(store: Store, session_id: int):
    return Companion(store).open_game(session_id).session



class Clock:
    def __init__(self) -> None:
        self.now = datetime(2024, 5, 1, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


def stock(data: Path) -> dict[int, list[dict]]:
    """A store with five games (two unfinished) and two settings; returns each session's moves."""
    data.mkdir(exist_ok=True)
    logs: dict[int, list[dict]] = {}
    with Store.open(data / DB_FILENAME, clock=Clock()) as store:
        store.set_setting("language", "it")
        store.set_setting(CAMPANILE_TWO_PLAYER_FLAGS, camp.TWO_PLAYER_FLAGS)
        for seed, length, finished in GAMES:
            sid = new_session(store, "campanile", camp.PLAYERS, {}, camp.SETUP)
            session = open_session(store, sid)
            for move in camp.random_game(seed, length, finish=finished):
                session.propose(move)
            assert session.game.is_finished(session.state) == finished
            logs[sid] = store.stored_moves(sid)[0]
    return logs


def snapshot(path: Path) -> dict:
    """Everything a repair must keep: per session its moves, finished mark and results; the settings."""
    with Store.open(path, read_only=True) as store:
        results = {}
        for row in store.results():
            results.setdefault(row.session_id, []).append((row.player, row.score, row.winner))
        return {"sessions": {row.id: (store.stored_moves(row.id)[0], row.is_finished, results.get(row.id))
                             for row in store.list_sessions()},
                "settings": store.settings(), "players": store.players()}


def files(data: Path) -> dict[str, bytes]:
    """The bytes of the store's files (not the lock, the -shm, or an empty -wal a reader opens beside it)."""
    return {p.name: p.read_bytes() for p in sorted(data.iterdir()) if p.is_file()
            and not p.name.endswith((".lock", "-shm"))
            and not (p.name.endswith("-wal") and not p.stat().st_size)}


def one_line(err: str) -> bool:
    return err.startswith("companion: ") and err.count("\n") == 1


def said(text: str) -> str:
    """What the CLI prints for ``text``: one line, values too long cut (:mod:`companion.console.display`)."""
    return f"companion: {shown_line(text.removeprefix('companion: ').removesuffix(chr(10)))}\n"


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


# -- a damaged row in sound pages ------------------------------------------------------------


def run_starts_saying(run_cli, data: Path, words: str) -> None:
    """``companion run`` starts all the same (issue 34: never on the store's content), says ``words``
    with the ways out, and ends with 0 at the end of its input, writing nothing to the store."""
    code, out, _ = run_cli("--data-dir", str(data), "run", "--headless")
    assert code == 0
    assert words in out and "`repair`" in out, out


def test_a_corrupt_move_row_damages_only_its_session(run_cli, data: Path, monkeypatch) -> None:
    logs = stock(data)
    before = snapshot(data / DB_FILENAME)
    db = sqlite3.connect(data / DB_FILENAME)
    with db:
        db.execute("UPDATE moves SET move = '{\"type\": \"bui' WHERE session_id = 5 AND idx = 5")
    db.close()
    with Store.open(data / DB_FILENAME) as store:
        assert store.damage == [] and not store.read_only  # the pages are sound

    code, out, err = run_cli("--data-dir", str(data), "doctor")
    assert (code, err) == (3, "")
    lines = out.splitlines()
    assert lines[0] == "pages: sound"
    assert lines[1:5] == [f"session {sid}, Campanile, {PLAYERS}: good, {len(logs[sid])} moves, "
                          f"{'finished' if done else 'in progress'}"
                          for sid, (_, _, done) in zip(range(1, 5), GAMES, strict=False)]
    assert lines[5].startswith(f"session 5, Campanile, {PLAYERS}: damaged: move 6 is not readable (")
    assert lines[5].endswith("; moves 1-5 replay")
    assert lines[6] == ("damaged: 1 of 5 sessions; `companion doctor --repair` keeps every good session "
                        "and the moves before the damage")

    # the other games go on: the older unfinished one is resumed, new ones start
    monkeypatch.setattr("sys.stdin", io.StringIO("status\n"))
    code, out, err = run_cli("--data-dir", str(data), "run", "--headless")
    assert code == 0
    assert out.startswith(f"resuming session 2: Campanile, {PLAYERS}, 12 moves")
    assert err.startswith("companion: session 5 is damaged and left as it is (")
    assert err.endswith("`companion doctor --repair` keeps its moves before the damage\n")
    assert one_line(err)
    assert run_cli("--data-dir", str(data), "new", "campanile", *camp.PLAYERS)[0] == 0

    code, out, err = run_cli("--data-dir", str(data), "doctor", "--repair")
    assert (code, err) == (0, "")
    lost = len(logs[5]) - 5  # counted from what every save kept of the log, never "whole"
    said = f"session 5 (campanile): kept moves 1-5; saved moves lost: {lost}, because move 6 is not readable"
    assert said in out
    after = snapshot(data / DB_FILENAME)
    assert after["sessions"][5] == (logs[5][:5], False, None)
    for sid in range(1, 5):
        assert after["sessions"][sid] == before["sessions"][sid]
    assert after["settings"] == before["settings"] and after["players"] == before["players"]
    assert run_cli("--data-dir", str(data), "doctor")[0] == 0


# -- damaged pages ---------------------------------------------------------------------------

def _moves_leaf_pages(path: Path) -> list[int]:
    db = sqlite3.connect(path)
    try:
        return [n for (n,) in db.execute(
            "SELECT pageno FROM dbstat WHERE name = 'moves' AND pagetype = 'leaf' ORDER BY pageno")]
    finally:
        db.close()


def overwrite_page(path: Path, page: int) -> None:
    with open(path, "r+b") as handle:
        handle.seek((page - 1) * 4096)
        handle.write(bytes(range(256)) * 16)


def truncate(path: Path) -> None:
    """Cut the file after the first half of the move log's leaf pages (a share of the whole file would
    cut a different amount of the log each time the schema grows by a table or an index)."""
    leaves = _moves_leaf_pages(path)
    with open(path, "r+b") as handle:
        handle.truncate(leaves[len(leaves) // 2] * 4096)


def _assert_repair_keeps_prefixes(data: Path, logs: dict[int, list[dict]], before: dict, out: str) -> int:
    """Every session keeps a prefix of its log; the whole ones equal the original. Returns how many whole."""
    after = snapshot(data / DB_FILENAME)
    whole = 0
    for sid, (moves, finished, results) in after["sessions"].items():
        assert moves == logs[sid][:len(moves)], sid
        if moves == logs[sid]:
            whole += 1
            assert (finished, results) == before["sessions"][sid][1:], sid
            assert f"session {sid}: kept whole, {len(moves)} moves" in out
        else:
            assert not finished and results is None
            lost = len(logs[sid]) - len(moves)  # the count the repair reports is the truth
            some = f"session {sid} (campanile): kept moves 1-{len(moves)}; saved moves lost: {lost}, because "
            none = f"session {sid} (campanile): kept without its moves; saved moves lost: {lost}, because "
            assert some in out or none in out
    assert after["settings"] == before["settings"]
    return whole


@pytest.mark.parametrize("damage", ["overwritten page", "truncated"])
def test_damaged_pages_open_read_only_and_the_repair_keeps_what_reads(run_cli, data: Path, damage,
                                                                      monkeypatch) -> None:
    logs = stock(data)
    path = data / DB_FILENAME
    before = snapshot(path)
    if damage == "truncated":
        truncate(path)
    else:
        leaves = _moves_leaf_pages(path)
        overwrite_page(path, leaves[len(leaves) // 2])
    damaged = files(data)

    with Store.open(path) as store:
        assert store.damage and store.read_only
        with pytest.raises(StoreError, match=r"^the game store .* is damaged .*; it is open for reading"):
            store.set_setting("language", "de")
        message = str(damaged_message(path, store.damage))  # in words: a message code with its parameters
    # every writing command says so in one line and writes nothing
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    for command in (["new", "campanile", *camp.PLAYERS],
                    ["import", str(Path(__file__).parent / "data" / "examples" / "campanile-3p.json")],
                    ["campanile", "flags", "--forget"]):
        code, out, err = run_cli("--data-dir", str(data), *command)
        assert (code, out, err) == (2, "", said(message)), command
    run_starts_saying(run_cli, data, "database disk image is malformed")  # issue 34: run starts
    for command in (["sessions"], ["stats"], ["doctor"]):
        code, _, err = run_cli("--data-dir", str(data), *command)
        assert code in (0, 2, 3) and err.count("\n") <= 1, command
    assert files(data) == damaged

    code, out, err = run_cli("--data-dir", str(data), "doctor")
    assert (code, err) == (3, "")
    assert out.startswith("pages: damaged: ")

    code, out, err = run_cli("--data-dir", str(data), "doctor", "--repair")
    assert (code, err) == (0, "")
    (aside,) = [p for p in data.iterdir() if p.name.startswith(f"{DB_FILENAME}.damaged-")]
    assert aside.read_bytes() == damaged[DB_FILENAME]
    assert out.startswith(f"copied the damaged store to {aside}\n")
    whole = _assert_repair_keeps_prefixes(data, logs, before, out)
    assert whole >= (1 if damage == "truncated" else len(GAMES) - 2)
    with Store.open(path) as store:
        assert store.damage == [] and store.pragma("integrity_check") == "ok"
    assert run_cli("--data-dir", str(data), "doctor")[0] == 0


def test_a_repair_is_refused_while_the_app_holds_the_store(run_cli, data: Path) -> None:
    stock(data)
    with Store.open(data / DB_FILENAME):
        code, out, err = run_cli("--data-dir", str(data), "doctor", "--repair")
    assert (code, out) == (2, "")
    assert "is in use by another companion (process " in err and one_line(err)
    assert not any(p.name.startswith(f"{DB_FILENAME}.damaged-") for p in data.iterdir())


# -- outside damage: an empty or unreadable file -------------------------------------------------

def _empty_with_wal(data: Path, moves: int) -> list[dict]:
    """A store whose main file was lost (0 bytes) while its -wal survived (copied from a live store)."""
    live = data.parent / "live"
    live.mkdir()
    store = Store.open(live / DB_FILENAME)
    store.set_setting("language", "it")
    sid = new_session(store, "campanile", camp.PLAYERS, {}, camp.SETUP)
    session = open_session(store, sid)
    for move in camp.random_game(3, moves, finish=False):
        session.propose(move)
    data.mkdir()
    shutil.copyfile(live / f"{DB_FILENAME}-wal", data / f"{DB_FILENAME}-wal")  # while it is open
    logs = store.stored_moves(sid)[0]
    store.close()
    (data / DB_FILENAME).write_bytes(b"")
    return logs


def test_an_empty_store_file_is_left_untouched_and_its_wal_recovered(run_cli, data: Path,
                                                                     monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    logs = _empty_with_wal(data, 25)
    untouched = files(data)
    path = data / DB_FILENAME
    empty = (f"the game store {path} is empty (0 bytes), so it holds no games; it was left as it is: "
             "`companion doctor --repair` recovers what its -wal file still holds")
    for command in (["sessions"], ["new", "campanile", *camp.PLAYERS], ["export"]):
        code, out, err = run_cli("--data-dir", str(data), *command)
        assert (code, out, err) == (2, "", said(empty)), command
    run_starts_saying(run_cli, data, "is empty (0 bytes), so it holds no games")
    code, out, err = run_cli("--data-dir", str(data), "doctor")
    assert (code, out, err) == (3, "", said(f"the game store {path} is empty (0 bytes); it was left as "
                                            "it is: `companion doctor --repair` recovers what its -wal file "
                                            "still holds"))
    assert files(data) == untouched

    code, out, err = run_cli("--data-dir", str(data), "doctor", "--repair")
    assert (code, err) == (0, "")
    assert " (and its -wal)\n" in out
    recovered = snapshot(path)
    assert recovered["sessions"][1][0] == logs
    assert recovered["settings"] == {"language": "it"}


def test_an_empty_store_file_without_a_wal_names_the_restore(run_cli, data: Path) -> None:
    data.mkdir()
    (data / DB_FILENAME).write_bytes(b"")
    code, out, err = run_cli("--data-dir", str(data), "doctor", "--repair")
    assert (code, out) == (3, "")
    assert err == said(f"the game store {data / DB_FILENAME} is empty (0 bytes), so it holds no "
                       "games, and there is no -wal file to recover from: restore a backup with "
                       "`companion doctor --restore FILE`")
    assert (data / DB_FILENAME).read_bytes() == b""


def test_a_file_that_is_not_a_store_is_named_and_left_alone(run_cli, data: Path, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    data.mkdir()
    (data / DB_FILENAME).write_bytes(b"holiday photos " * 500)
    before = files(data)
    for command in (["sessions"], ["doctor"]):
        code, _, err = run_cli("--data-dir", str(data), *command)
        assert code == (3 if command == ["doctor"] else 2) and one_line(err), command
        assert shown_line(str(data / DB_FILENAME)) in err and "not a database" in err
    run_starts_saying(run_cli, data, "not a database")
    assert files(data) == before


# -- a newer schema ----------------------------------------------------------------------------

def test_a_newer_schema_is_refused_and_the_file_not_touched(run_cli, data: Path, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    stock(data)
    path = data / DB_FILENAME
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=DELETE")  # a newer companion might not use WAL
    db.execute("PRAGMA user_version = 99")
    db.close()
    before = files(data)
    text = (f"{path} was written by a newer version of the companion (database schema 99; "
            f"this version reads up to {len(MIGRATIONS)}); update the companion to open it")
    expected = said(text)
    for command in (["sessions"], ["new", "campanile", *camp.PLAYERS], ["stats"], ["export"]):
        assert run_cli("--data-dir", str(data), *command) == (2, "", expected), command
    run_starts_saying(run_cli, data, "was written by a newer version of the companion")
    code, out, err = run_cli("--data-dir", str(data), "doctor")
    assert (code, out) == (2, "") and err == said(text.replace("to open it", "to check it"))
    assert files(data) == before
    assert before[DB_FILENAME][18:20] == b"\x01\x01"  # still a rollback-journal file: no WAL switch


def test_doctor_on_a_data_dir_with_nothing_stored(run_cli, data: Path) -> None:
    code, out, err = run_cli("--data-dir", str(data), "doctor")
    assert (code, out, err) == (0, f"no games are stored in {data} yet; nothing to check\n", "")
    assert not data.exists()


def test_doctor_says_all_good(run_cli, data: Path) -> None:
    logs = stock(data)
    code, out, err = run_cli("--data-dir", str(data), "doctor")
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == f"all good: {len(logs)} sessions"
    assert json.dumps(snapshot(data / DB_FILENAME))  # readable after the check


# -- property: a corrupt move anywhere costs exactly the moves from it on --------------------------

@pytest.fixture(scope="module")
def small_store(tmp_path_factory) -> tuple[Path, dict[int, list[dict]]]:
    data = tmp_path_factory.mktemp("small") / "data"
    data.mkdir()
    logs = {}
    with Store.open(data / DB_FILENAME, clock=Clock()) as store:
        store.set_setting("language", "it")
        for seed in (41, 42, 43):
            sid = new_session(store, "campanile", camp.PLAYERS, {}, camp.SETUP)
            session = open_session(store, sid)
            for move in camp.random_game(seed, 15, finish=False):
                session.propose(move)
            logs[sid] = store.stored_moves(sid)[0]
    (data / f"{DB_FILENAME}.lock").unlink()
    return data / DB_FILENAME, logs


def _replayable_prefix(log: list[str]) -> int:
    """How many moves, from the first, the engine reads and accepts (the test's own oracle)."""
    game = camp.engine()
    state = camp.initial()
    for count, text in enumerate(log):
        try:
            state = game.apply(state, game.parse_move(json.loads(text)))
        except Exception:  # any refusal at all ends the good prefix
            return count
    return len(log)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(session=st.integers(1, 3), index=st.integers(0, 14),
       kind=st.sampled_from(["not JSON", "unknown move", "repeated move", "other player"]))
def test_repair_keeps_every_move_before_a_corrupt_one(small_store, tmp_path_factory, session, index,
                                                     kind) -> None:
    template, logs = small_store
    path = tmp_path_factory.mktemp("case") / DB_FILENAME
    shutil.copyfile(template, path)
    texts = [json.dumps(m) for m in logs[session]]
    corrupt = {"not JSON": '{"type": "bui',
               "unknown move": '{"type": "teleport", "player": "Albert"}',
               "repeated move": texts[index - 1] if index else texts[1],
               "other player": json.dumps(dict(logs[session][index], player="Nobody"))}[kind]
    texts[index] = corrupt
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE moves SET move = ? WHERE session_id = ? AND idx = ?", (corrupt, session, index))
    db.close()
    expected = _replayable_prefix(texts)

    from companion.storage.doctor import examine, repair

    checkup = examine(path)
    health = {h.id: h for h in checkup.sessions}
    assert health[session].good == expected
    assert health[session].is_good == (expected == len(texts))
    repair(path)
    after = snapshot(path)
    for sid, log in logs.items():
        assert after["sessions"][sid][0] == (log[:expected] if sid == session else log)
    assert after["settings"] == {"language": "it"}
