"""``companion export / import / sessions / stats / new / run`` against a store in a temp dir."""

from __future__ import annotations

import importlib.util
import io
import json
import sqlite3
from pathlib import Path

import pytest

from companion.registry import game_names
from companion.service.app import Companion
from companion.service.records import final_state, parse_record
from companion.storage.migrations import MIGRATIONS
from companion.storage.paths import DB_FILENAME
from companion.storage.store import Store
from tests import helpers_campanile as camp

EXAMPLES = Path(__file__).parent / "data" / "examples"
CAMPANILE = EXAMPLES / "campanile-3p.json"


def record() -> dict:
    return json.loads(CAMPANILE.read_text(encoding="utf-8"))


def summary_of(data: dict) -> dict:
    parsed = parse_record(data)
    return parsed.game.summary(final_state(parsed))


# -- import ----------------------------------------------------------------------------------

def test_import_stores_a_finished_record(cli, data_dir: Path) -> None:
    code, out, err = cli("import", str(CAMPANILE))
    assert (code, err) == (0, "")
    assert out == (f"imported {CAMPANILE} as session 1: Campanile, Albert, Birgit, Franziska, "
                   f"{len(record()['moves'])} moves, finished\n")
    assert (data_dir / DB_FILENAME).exists()


def test_import_of_the_same_record_twice_is_refused(cli) -> None:
    cli("import", str(CAMPANILE))
    assert cli("import", str(CAMPANILE)) == (2, "", "companion: this record is already stored as session 1\n")


@pytest.mark.parametrize(("change", "message"), [
    (lambda r: r["moves"][2].update(stories=7), "companion: move 3: stories must be 1, 2 or 3\n"),
    (lambda r: r["moves"][2].update(player="Albert"), "companion: move 3 (Albert): Albert has already built"),
    (lambda r: r.update(game="chess"), 'companion: game: unknown game "chess"; the companion knows '),
    (lambda r: r["players"].append("Albert"), 'companion: players[3]: duplicate name "Albert"\n'),
    (lambda r: r.update(format="x"),
     'companion: format: must be "companion-record/1" (this file says "x")\n'),
])
def test_import_refuses_bad_records_with_exit_2_and_the_records_message(cli, write_record, change,
                                                                        message) -> None:
    data = record()
    change(data)
    code, out, err = cli("import", write_record(data))
    assert code == 2 and out == ""
    assert err.startswith(message)
    assert err.count("\n") == 1
    assert cli("sessions")[1].startswith("No stored games yet")


def test_import_refuses_missing_and_non_json_files(cli, tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    assert cli("import", str(missing)) == (2, "", f"companion: no such file: {missing}\n")
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": ', encoding="utf-8")
    code, out, err = cli("import", str(broken))
    assert (code, out) == (2, "")
    assert err.startswith(f"companion: {broken} is not valid JSON (line 1, column 12")
    assert cli("import", str(tmp_path)) == (
        2, "", f"companion: {tmp_path} is a directory, not a file\n")


# -- export ----------------------------------------------------------------------------------

def test_export_writes_a_complete_record_that_replays_the_same(cli, tmp_path: Path) -> None:
    cli("import", str(CAMPANILE))
    code, out, err = cli("export")
    assert (code, err) == (0, "")
    exported = json.loads(out)
    assert exported["options"] == {"two_player_move": False, "flags": {
        "intermezzo": [[4, 2], [3, 1], [2], [1]], "finito": [[6, 4, 2], [5, 3, 1], [4, 2], [3, 1], [2]]}}
    assert summary_of(exported) == summary_of(record())
    target = tmp_path / "out.json"
    code, out, err = cli("export", "1", "-o", str(target))
    assert (code, out) == (0, "")
    assert err == f"wrote session 1 (Campanile) as a record to {target}\n"
    assert json.loads(target.read_text(encoding="utf-8")) == exported


def test_export_errors(cli, tmp_path: Path) -> None:
    assert cli("export") == (2, "", "companion: there are no stored games yet (start one with "
                                    "`companion new`, or `companion import FILE`)\n")
    assert cli("export", "--bgstats") == (2, "", "companion: there is no finished game to export\n")
    cli("import", str(CAMPANILE))
    assert cli("export", "9") == (2, "", "companion: there is no session 9 (see `companion sessions`)\n")
    code, _, err = cli("export", "x")
    assert code == 2 and '"x" is not an id' in err
    nowhere = tmp_path / "no" / "such" / "dir" / "out.json"
    code, _, err = cli("export", "1", "-o", str(nowhere))
    assert code == 2 and err.startswith(f"companion: cannot write {nowhere}: No such file or directory")
    cli("new", "campanile", "Ann", "Bob", "Cid")
    assert cli("export", "--bgstats", "2") == (
        2, "", "companion: session 2 is not finished; BG Stats takes finished games only\n")


def test_export_bgstats_of_the_latest_finished_game(cli) -> None:
    cli("import", str(CAMPANILE))
    cli("new", "campanile", "Ann", "Bob", "Cid")  # newer, unfinished: not the default
    code, out, err = cli("export", "--bgstats")
    assert (code, err) == (0, "")
    data = json.loads(out)
    expected = summary_of(record())
    (play,) = data["plays"]
    names = {p["id"]: p["name"] for p in data["players"]}
    assert [names[s["playerRefId"]] for s in play["playerScores"]] == ["Albert", "Birgit", "Franziska"]
    assert {names[s["playerRefId"]]: int(s["score"]) for s in play["playerScores"]} == expected["scores"]
    assert [names[s["playerRefId"]] for s in play["playerScores"] if s["winner"]] == expected["winners"]
    assert [s["startPlayer"] for s in play["playerScores"]] == [True, False, False]
    assert data["games"][0]["name"] == "Campanile"
    assert isinstance(play["durationMin"], int) and len(play["playDate"]) == 19


# -- sessions and stats -------------------------------------------------------------------------

def test_sessions_lists_every_game_newest_first(cli) -> None:
    assert cli("sessions") == (0, "No stored games yet. Start one with `companion new GAME PLAYER...`.\n", "")
    cli("import", str(CAMPANILE))
    cli("new", "campanile", "Ann", "Bob", "Cid")
    code, out, err = cli("sessions")
    assert (code, err) == (0, "")
    header, newest, oldest = out.splitlines()
    assert header.split() == ["id", "game", "players", "moves", "started", "state"]
    assert newest.split()[:6] == ["2", "Campanile", "Ann,", "Bob,", "Cid", "0"]
    assert newest.endswith("in progress")
    assert oldest.split()[:4] == ["1", "Campanile", "Albert,", "Birgit,"]
    assert f" {len(record()['moves'])} " in oldest and "(imported)" in oldest and "finished 20" in oldest


def test_stats_per_player_and_game(cli, write_record) -> None:
    assert cli("stats") == (0, "No finished games yet.\n", "")
    cli("import", str(CAMPANILE))
    second = camp.random_game(77, 30)
    data = {"format": "companion-record/1", "game": "campanile", "players": list(camp.PLAYERS),
            "setup": camp.SETUP, "moves": [camp.engine().move_to_json(m) for m in second]}
    cli("import", write_record(data))
    code, out, err = cli("stats", "--json")
    assert (code, err) == (0, "")
    rows = {r["player"]: r for r in json.loads(out)}
    first, other = summary_of(record()), summary_of(data)
    for player in camp.PLAYERS:
        scores = [first["scores"][player], other["scores"][player]]
        assert rows[player]["played"] == 2
        assert rows[player]["won"] == (player in first["winners"]) + (player in other["winners"])
        assert rows[player]["best"] == max(scores)
        assert rows[player]["average"] == pytest.approx(sum(scores) / 2)
    code, out, _ = cli("stats")
    assert out.splitlines()[0] == "Campanile"
    assert out.splitlines()[1].split() == ["player", "played", "won", "average", "best"]


def test_a_database_from_a_newer_companion_is_an_exit_2(cli, data_dir: Path) -> None:
    cli("campanile", "flags", "--forget")  # a writing command creates the store
    db = sqlite3.connect(data_dir / DB_FILENAME)
    db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 2}")
    db.close()
    code, out, err = cli("sessions")
    assert (code, out) == (2, "")
    assert (f"was written by a newer version of the companion (database schema {len(MIGRATIONS) + 2}; "
            f"this version reads up to {len(MIGRATIONS)}); update the companion to open it\n") in err


# -- new ------------------------------------------------------------------------------------------

def test_new_checks_its_input(cli) -> None:
    assert cli("new", "campanile", "Ann") == (
        2, "", "companion: players: Campanile is for 2 to 5 players, not 1\n")
    code, _, err = cli("new", "chess", "Ann", "Bob")
    assert code == 2 and err.startswith('companion: game: unknown game "chess"')
    assert cli("new", "campanile", "Ann", "Bob", "--option", "flags") == (
        2, "", "companion: --option 'flags': write it as KEY=VALUE\n")
    code, _, err = cli("new", "campanile", "Ann", "Bob")
    assert code == 2 and err.startswith("companion: ") and "flags" in err and err.count("\n") == 1
    code, _, err = cli("new", "campanile", "Ann", "Bob", "Cid", "--setup", "towers=[\"red\"]")
    assert code == 2 and err.startswith("companion: setup.towers")
    assert cli("sessions")[1].startswith("No stored games yet")


def test_new_uses_options_setup_and_the_confirmed_two_player_flags(cli, data_dir: Path) -> None:
    code, out, _ = cli("new", "campanile", "Ann", "Bob", "Cid", "--setup",
                       'towers=["red","blue","yellow","brown","grey"]')
    assert code == 0 and out.startswith("started session 1: Campanile, Ann, Bob, Cid\n")
    flags = {"intermezzo": [[3], [2], [1], [1]], "finito": [[5, 3], [4, 2], [3], [2], [1]]}
    with Store.open(data_dir / DB_FILENAME) as store:
        assert store.session(1).setup["towers"] == ["red", "blue", "yellow", "brown", "grey"]
        store.set_setting("campanile.flags.2p", flags)
    code, out, _ = cli("new", "campanile", "Ann", "Bob", "--option", "two_player_move=true")
    assert code == 0 and "session 1, Campanile, stays unfinished" in out
    with Store.open(data_dir / DB_FILENAME) as store:
        options = store.session(2).options
    assert options == {"two_player_move": True, "flags": flags}


def test_new_like_a_record_takes_its_options_and_setup(cli, data_dir: Path) -> None:
    assert cli("new", "campanile", "X", "Y", "Z", "--like", str(CAMPANILE))[0] == 0
    with Store.open(data_dir / DB_FILENAME) as store:
        assert store.session(1).setup["towers"] == record()["setup"]["towers"]


# -- run ------------------------------------------------------------------------------------------

def feed(monkeypatch: pytest.MonkeyPatch, *lines: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))


def test_run_without_a_game_says_how_to_start_one_and_starts_it(cli, monkeypatch, data_dir: Path) -> None:
    feed(monkeypatch, '{"type": "build", "player": "Ann", "tower": "red", "stories": 1}',
         "new campanile Ann Bob", "new chess Ann Bob", "help",
         "new campanile Ann Bob Cid",
         '{"type": "build", "player": "Ann", "tower": "red", "stories": 1}')
    code, out, _ = cli("run", "--headless")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == ("no game in progress; start one by typing `new GAME PLAYER...` "
                        f"(games: {', '.join(game_names())}; `help` lists every command)")
    assert lines[1] == "refused: no game in progress; start one with `new GAME PLAYER...`"
    assert lines[2].startswith("refused: a 2-player Campanile game needs the values of your 2-player")
    assert lines[3].startswith('refused: game: unknown game "chess"')
    assert lines[4] == "commands, one per line:"
    assert "started Campanile: Ann, Bob, Cid; Ann: build 1, 2 or 3 stories on a tower" in lines
    assert lines[-1] == 'ok 1: Ann: red +1'
    with Store.open(data_dir / DB_FILENAME) as store:
        assert [row.players for row in store.list_sessions()] == [("Ann", "Bob", "Cid")]
        assert store.stored_moves(1)[0] == [
            {"type": "build", "player": "Ann", "tower": "red", "stories": 1}]


def test_run_headless_plays_undoes_redoes_and_persists(cli, monkeypatch, data_dir: Path) -> None:
    cli("new", "campanile", "Ann", "Bob", "Cid")
    feed(monkeypatch,
         '{"type": "build", "player": "Ann", "tower": "red", "stories": 2}',
         '{"type": "influence", "player": "Bob", "tower": "red"}',
         '{"type": "influence", "player": "Ann", "tower": "red"}',
         "undo", "redo", "redo", "",
         '{"type": "build", "player": "Bob", "tower": "blue", "stories": 9}',
         "[1, 2]", "hello",
         '{"type": "build", "player": "Bob", "tower": "blue", "stories": 1}',
         "status")
    code, out, err = cli("run", "--headless")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:9] == [
        "resuming session 1: Campanile, Ann, Bob, Cid, 0 moves; Ann: build 1, 2 or 3 stories on a tower",
        'ok 1: Ann: red +2',
        "refused: move 2 (Bob): it is Ann's turn, not Bob's",
        'ok 2: Ann: marker 2 under red',
        'undone 2: Ann: marker 2 under red',
        'redone 2: Ann: marker 2 under red',
        "refused: there is nothing to redo",
        "refused: move 3: stories must be 1, 2 or 3",
        "refused: move 3: a move is typed in the notation (Albert: brown +3), as a number from the list "
        "(moves) or as a JSON object; help lists the commands",
    ]
    assert lines[9] == "refused: `hello` is not a command; did you mean `help`?"
    assert lines[10] == 'ok 3: Bob: blue +1'
    # Bob's turn goes on until Cid builds
    assert lines[-1] == "3 moves; Bob: place your 1-marker under a tower — next: Cid"
    with Store.open(data_dir / DB_FILENAME) as store:
        moves, redo = store.stored_moves(1)
    assert [m["type"] for m in moves] == ["build", "influence", "build"] and redo == []
    # a second run resumes where the first stopped
    feed(monkeypatch, '{"type": "influence", "player": "Bob", "tower": "blue"}')
    code, out, _ = cli("run", "--headless")
    assert out.splitlines() == ["resuming session 1: Campanile, Ann, Bob, Cid, 3 moves; "
                                "Bob: place your 1-marker under a tower — next: Cid",
                                'ok 4: Bob: marker 1 under blue']


def test_run_finishing_the_game_prints_the_result(cli, monkeypatch, write_record) -> None:
    data = record()
    finito = data["moves"].pop()
    assert finito == {"type": "valuation", "phase": "finito"}
    cli("import", write_record(data))
    feed(monkeypatch, json.dumps(finito))
    code, out, _ = cli("run", "--headless")
    assert code == 0
    assert "ok 64: " in out and "Campanile — finished" in out
    assert "finished 20" in cli("sessions")[1].splitlines()[1]


def test_run_without_headless_falls_back_with_a_note(cli, monkeypatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # no display, whatever the machine running the tests has
    cli("new", "campanile", "Ann", "Bob", "Cid")
    feed(monkeypatch)
    code, out, err = cli("run")
    assert code == 0 and out.startswith("resuming session 1")
    assert err.endswith("running headless (one move per line on standard input)\n")
    assert err.count("\n") == 1


def test_run_without_headless_says_why_no_touchscreen_starts(cli, monkeypatch, tmp_path: Path) -> None:
    """The note names the ui extra while Kivy is missing; once it is found, that no display is available."""
    for variable in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(variable, raising=False)
    cli("new", "campanile", "Ann", "Bob", "Cid")
    feed(monkeypatch)
    _, _, err = cli("run")
    kivy_installed = importlib.util.find_spec("kivy") is not None
    assert ("the ui extra (Kivy), which is not installed" in err) is not kivy_installed
    (tmp_path / "kivy").mkdir()
    (tmp_path / "kivy" / "__init__.py").write_text("raise ImportError('only found, never imported')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    feed(monkeypatch)
    code, _, err = cli("run")
    assert code == 0
    assert err == ("companion: no display is available for the touchscreen; running headless "
                   "(one move per line on standard input)\n")


def test_run_config_errors_and_data_dir(run_cli, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("COMPANION_DATA", raising=False)
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    bad = tmp_path / "bad.toml"
    bad.write_text("data_dir = \n", encoding="utf-8")
    code, _, err = run_cli("run", "--headless", "--config", str(bad))
    assert code == 2 and err.startswith(f"companion: {bad}: is not valid TOML: ")
    missing = tmp_path / "missing.toml"
    assert run_cli("run", "--config", str(missing)) == (
        2, "", f"companion: {missing}: no such configuration file\n")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text("data_dir = 3\n", encoding="utf-8")
    assert run_cli("run", "--config", str(wrong)) == (
        2, "", f"companion: {wrong}: data_dir: must be a text (a directory), not a whole number\n")
    good = tmp_path / "good.toml"
    target = tmp_path / "from-config"
    good.write_text(f'data_dir = "{target}"\n', encoding="utf-8")
    feed(monkeypatch)
    code, out, _ = run_cli("run", "--headless", "--config", str(good))
    assert code == 0 and out.startswith("no game in progress")
    assert (target / DB_FILENAME).exists()


def test_run_reports_a_game_it_cannot_replay_in_one_line(cli, monkeypatch, data_dir: Path) -> None:
    cli("new", "campanile", "Ann", "Bob", "Cid")
    with Store.open(data_dir / DB_FILENAME) as store:
        store._save_log(1, 0, [{"type": "build", "player": "Bob", "tower": "red", "stories": 1}], [])
    feed(monkeypatch)
    code, out, err = cli("run", "--headless")  # only that game is damaged: the app goes on without it
    assert (code, err) == (0, "companion: session 1 is damaged and left as it is (session 1 cannot be "
                              "replayed by this companion: move 1 (Bob): it is Ann's turn to build, not "
                              "Bob's); `companion doctor --repair` keeps its moves before the damage\n")
    assert out.startswith("no game in progress")
    assert cli("new", "campanile", "Ann", "Bob", "Cid")[0] == 0  # a new game is still possible


def test_headless_reports_a_move_that_could_not_be_saved(data_dir: Path, tmp_path: Path) -> None:
    from companion.console.loop import headless_loop

    with Store.open(tmp_path / "x.sqlite3") as store:
        session = Companion(store).start("campanile", ["Ann", "Bob", "Cid"]).session
        store._db.execute("CREATE TRIGGER full BEFORE INSERT ON moves "
                          "BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        out = io.StringIO()
        headless_loop(session, ['{"type": "build", "player": "Ann", "tower": "red", "stories": 1}'], out)
        assert out.getvalue() == "refused: the move could not be saved: disk full\n"
        assert session.log == ()
