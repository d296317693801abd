"""The application service driven as the screens will drive it: a real store on a temporary file."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.games.base import RecordError
from companion.service.app import AppError, Companion, LiveGame
from companion.service.campanile import CampanileService
from companion.service.castelli import CastelliService
from companion.service.settings import SETTINGS
from companion.storage.migrations import MIGRATIONS
from companion.storage.store import Store
from tests import helpers_campanile as camp

EXAMPLES = Path(__file__).parent / "data" / "examples"


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2024, 5, 1, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)  # every stamp is later than the one before
        return self.now


@pytest.fixture
def app(tmp_path: Path):
    with Companion.open(tmp_path / "companion.sqlite3", clock=Clock()) as opened:
        yield opened


def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def castelli_setup() -> dict:
    return {"board": "example-4p"}


# -- starting, rematch ------------------------------------------------------------------------

def test_start_stores_the_complete_game_and_opens_it(app: Companion) -> None:
    live = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    assert live.session.players == camp.PLAYERS and live.session.log == ()
    row = app.store.session(live.id)
    assert row.options["flags"]["finito"] == [[6, 4, 2], [5, 3, 1], [4, 2], [3, 1], [2]]
    assert row.setup["towers"] == camp.SETUP["towers"]
    live.session.propose(camp.random_game(1, 1, state=live.session.state)[0])
    assert len(app.store.stored_moves(live.id)[0]) == 1  # the session writes through the store


def test_a_bad_start_names_the_field_and_stores_nothing(app: Companion) -> None:
    with pytest.raises(RecordError, match=r'players\[1\]: duplicate name "A"'):
        app.start("campanile", ["A", "A", "B"])
    with pytest.raises(AppError, match='cannot play \'chess\''):
        app.start("chess", ["A", "B"])
    with pytest.raises(RecordError, match=r"setup\.towers"):
        app.start("campanile", camp.PLAYERS, setup={"towers": ["red"]})
    assert app.sessions() == []


def test_castelli_colours_come_from_the_call_or_else_from_the_profiles(app: Companion) -> None:
    players = ["Ann", "Bob", "Cid"]
    with pytest.raises(RecordError, match='setup: "colors" is missing'):
        app.start("castelli", players, setup=castelli_setup())  # nobody has chosen a colour yet
    for name, colour in zip(players, ["red", "blue", "green"], strict=True):
        app.add_profile(name)
        app.set_preferred_colour(name, "castelli", colour)
    live = app.start("castelli", players, setup=castelli_setup())
    assert app.store.session(live.id).setup["colors"] == {"Ann": "red", "Bob": "blue", "Cid": "green"}
    chosen = app.start("castelli", players, setup=castelli_setup(),
                       colours={"Ann": "yellow", "Bob": "blue", "Cid": "green"})
    assert app.store.session(chosen.id).setup["colors"]["Ann"] == "yellow"
    with pytest.raises(AppError, match=r'colours.Ann: "black" is not a colour of Castelli'):
        app.start("castelli", players, setup=castelli_setup(),
                  colours={"Ann": "black", "Bob": "blue", "Cid": "green"})
    with pytest.raises(AppError, match="record has no player colours"):
        app.start("campanile", players, colours={"Ann": "red"})
    assert len(app.sessions()) == 2


def test_two_profiles_wanting_the_same_colour_leave_the_choice_to_the_players(app: Companion) -> None:
    for name in ("Ann", "Bob"):
        app.add_profile(name)
        app.set_preferred_colour(name, "castelli", "red")
    with pytest.raises(RecordError, match='setup: "colors" is missing'):
        app.start("castelli", ["Ann", "Bob"], setup={"board": "example-2p"})


def test_a_stored_board_goes_inline_into_the_game(app: Companion) -> None:
    board = json.loads((Path(__file__).parent.parent / "companion" / "games" / "castelli" / "layouts"
                        / "example-2p.json").read_text(encoding="utf-8"))
    board.pop("comment", None)
    assert CastelliService.of(app).save_board("kitchen", board) is False
    assert CastelliService.of(app).save_board("kitchen", board) is True  # replaced
    live = app.start("castelli", ["Ann", "Bob"], setup={"board": "kitchen",
                                                        "colors": {"Ann": "red", "Bob": "blue"}})
    assert app.store.session(live.id).setup["board"]["areas"] == board["areas"]
    CastelliService.of(app).forget_board("kitchen")
    assert [b.name for b in CastelliService.of(app).boards() if not b.shipped] == []
    assert app.store.session(live.id).setup["board"]["areas"] == board["areas"]  # the game keeps it


def test_the_board_library_refuses_bad_boards_and_shipped_names(app: Companion) -> None:
    with pytest.raises(RecordError):
        CastelliService.of(app).save_board("broken", {"areas": {}})
    with pytest.raises(AppError, match="layout the companion ships"):
        CastelliService.of(app).save_board("example-2p", {})
    with pytest.raises(AppError, match="a board's name may not be empty"):
        CastelliService.of(app).save_board("  ", {})
    with pytest.raises(AppError, match='no stored board "nowhere"'):
        CastelliService.of(app).forget_board("nowhere")
    boards = CastelliService.of(app).boards()
    assert all(b.shipped for b in boards) and len(boards) >= 2


def test_the_flag_table_is_confirmed_without_players_and_used_by_two_player_games(app: Companion) -> None:
    with pytest.raises(AppError, match="2-player flag cards"):
        app.start("campanile", ["Ann", "Bob"])
    bad = {"intermezzo": [[4, 2], [3, 1], [2], [1]], "finito": [[6, 4, 2], [5, 3, 1], [4, 2], [1, 3], [2]]}
    with pytest.raises(RecordError, match=r"^finito\[3\]: a flag's values go best first"):
        CampanileService.of(app).confirm_flag_table(bad)
    with pytest.raises(RecordError, match=r"finito.*exactly 5 flags"):
        flags = CampanileService.of(app)
        flags.confirm_flag_table({"intermezzo": bad["intermezzo"], "finito": bad["finito"][:4]})
    assert CampanileService.of(app).flag_table() is None  # nothing stored by a refusal
    assert CampanileService.of(app).confirm_flag_table(camp.TWO_PLAYER_FLAGS) == camp.TWO_PLAYER_FLAGS
    live = app.start("campanile", ["Ann", "Bob"])
    assert app.store.session(live.id).options["flags"] == camp.TWO_PLAYER_FLAGS
    CampanileService.of(app).forget_flag_table()
    assert CampanileService.of(app).flag_table() is None
    assert app.store.session(live.id).options["flags"] == camp.TWO_PLAYER_FLAGS  # the game keeps it


def test_rematch_keeps_players_and_options_and_takes_a_new_setup(app: Companion) -> None:
    CampanileService.of(app).confirm_flag_table(camp.TWO_PLAYER_FLAGS)
    first = app.start("campanile", ["Ann", "Bob"], options={"two_player_move": True}, setup=camp.SETUP)
    again = app.rematch(first.id)
    other = app.rematch(first.id, setup={"towers": ["grey", "brown", "red", "blue", "yellow"]})
    rows = {sid: app.store.session(sid) for sid in (first.id, again.id, other.id)}
    assert len(rows) == 3
    assert {r.players for r in rows.values()} == {("Ann", "Bob")}
    assert {json.dumps(r.options, sort_keys=True) for r in rows.values()} == {
        json.dumps(rows[first.id].options, sort_keys=True)}
    assert rows[again.id].setup == rows[first.id].setup
    assert rows[other.id].setup["towers"][0] == "grey"
    with pytest.raises(AppError, match="there is no session 99"):
        app.rematch(99)


# -- unfinished games: list, resume, abandon --------------------------------------------------

def test_resume_a_chosen_game_among_several(app: Companion) -> None:
    first = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    moves = camp.random_game(5, 4, state=first.session.state, finish=False)
    for move in moves:
        first.session.propose(move)
    second = app.start("campanile", ["Dora", "Emil", "Fritz"])
    assert [r.id for r in app.unfinished()] == [second.id, first.id]
    assert app.latest_unfinished().id == second.id
    resumed = app.resume(first.id)
    assert resumed.session.log == tuple(moves) and resumed.session.state == first.session.state


def test_abandon_hides_a_game_from_resuming_but_keeps_it(app: Companion) -> None:
    live = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    live.session.propose(camp.random_game(2, 1, state=live.session.state)[0])
    app.abandon(live.id)
    assert app.unfinished() == [] and app.latest_unfinished() is None
    with pytest.raises(AppError, match=f"session {live.id} was abandoned"):
        app.resume(live.id)
    with pytest.raises(AppError, match="there is no game in progress"):
        app.resume()
    assert len(app.export_record(live.id)["moves"]) == 1  # still stored and exportable
    assert app.store.session(live.id).abandoned is not None


def test_a_game_that_cannot_be_opened_is_left_out_and_the_others_go_on(app: Companion) -> None:
    older = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    older.session.propose(camp.random_game(6, 1, state=older.session.state)[0])
    newer = app.start("campanile", ["Dora", "Emil", "Fritz"]).id
    app.store._save_log(newer, 0, [{"type": "build", "player": "Emil", "tower": "red", "stories": 1}], [])
    assert [r.id for r in app.unfinished()] == [older.id]
    assert app.latest_unfinished().id == older.id
    assert list(app.damaged_sessions) == [newer]
    assert "move 1 (Emil): it is Dora's turn to build" in app.damaged_sessions[newer]
    with pytest.raises(AppError, match=f"session {newer} cannot be replayed"):
        app.resume(newer)


def test_a_finished_game_cannot_be_abandoned(app: Companion) -> None:
    sid = app.import_record(example("campanile-3p"))
    with pytest.raises(AppError, match="is finished"):
        app.abandon(sid)


def _one_move_before_the_end(app: Companion) -> tuple[int, LiveGame, dict]:
    """The Campanile example stored and resumed without its final move; returns (id, game, that move)."""
    record = example("campanile-3p")
    last = record["moves"][-1]
    record["moves"] = record["moves"][:-1]
    sid = app.import_record(record)
    return sid, app.resume(sid), last


def test_finishing_writes_the_results_and_undo_takes_them_back(app: Companion) -> None:
    sid, live, last = _one_move_before_the_end(app)
    live.session.propose(live.session.game.parse_move(last))
    assert app.store.session(sid).is_finished and len(app.store.results()) == 3
    assert app.unfinished() == []
    live.session.undo()
    assert not app.store.session(sid).is_finished and app.store.results() == []
    assert [r.id for r in app.unfinished()] == [sid]


# -- the honest confirmation: a stored move stays stored when its results cannot be written ------

def _refuse_results(store: Store) -> None:
    store._db.execute("CREATE TRIGGER no_results BEFORE INSERT ON results "
                      "BEGIN SELECT RAISE(ABORT, 'the results table refuses'); END")


def test_a_failing_results_write_does_not_turn_the_stored_final_move_into_a_refusal(app: Companion) -> None:
    sid, live, last = _one_move_before_the_end(app)
    heard: list[str] = []
    live.session.subscribe(lambda s, change: heard.append(change.kind))
    _refuse_results(app.store)
    live.session.propose(live.session.game.parse_move(last))  # no exception: the move is stored
    assert app.store.stored_moves(sid)[0][-1] == last
    assert heard == ["move"]  # the listener after the failing one still heard of it
    (fault,) = live.session.last_faults
    assert str(fault.listener) == "the results" and "the results table refuses" in str(fault)
    assert not app.store.session(sid).is_finished
    app.store._db.execute("DROP TRIGGER no_results")
    assert app.unfinished() == []  # reopening reconciles the mark and the results
    assert app.store.session(sid).is_finished and len(app.store.results()) == 3


# -- profiles and settings ----------------------------------------------------------------------

def test_profiles_round_trip(app: Companion, tmp_path: Path) -> None:
    app.add_profile("  Ann ")
    app.add_profile("Bob")
    with pytest.raises(AppError, match='already a player "Ann"'):
        app.add_profile("Ann")
    with pytest.raises(AppError, match="may not be empty"):
        app.add_profile(" ")
    app.set_preferred_colour("Ann", "castelli", "green")
    app.set_preferred_colour("Ann", "campanile", "black")
    app.set_preferred_colour("Bob", "san-gimignano", "purple")  # the rulebook names no colours
    with pytest.raises(AppError, match='colour: "black" is not a colour of Castelli'):
        app.set_preferred_colour("Bob", "castelli", "black")
    with pytest.raises(AppError, match='no player profile "Zed"'):
        app.set_preferred_colour("Zed", "castelli", "red")
    app.set_preferred_colour("Ann", "campanile", None)
    path = app.store.path
    app.close()
    with Companion.open(path) as again:
        profiles = {p.name: dict(p.colours) for p in again.profiles()}
        assert profiles == {"Ann": {"castelli": "green"}, "Bob": {"san-gimignano": "purple"}}
        again.remove_profile("Ann")
        with pytest.raises(AppError, match='no player "Ann"'):
            again.remove_profile("Ann")
        assert [p.name for p in again.profiles()] == ["Bob"]


def test_settings_round_trip_and_refusals_name_the_key(app: Companion) -> None:
    assert app.settings() == {key: s.default for key, s in SETTINGS.items()}
    app.change_setting("language", "hu")
    app.change_setting("table.name", " Kitchen table ")
    app.change_setting("bgg_id.campanile", 298047)
    app.change_setting("oled.timeout", 0)
    for key, value, message in [("language", "de", "language: must be one of en, hu"),
                                ("oled.brightness", 0, "oled.brightness: must be from 1 to 100"),
                                ("backups.kept", True, "backups.kept: must be a whole number"),
                                ("table.name", "a\nb", "table.name: the table's name may not hold the "
                                 "invisible or control character U\\+000A LINE FEED"),
                                ("colour", "red", 'there is no setting "colour"')]:
        with pytest.raises(AppError, match=message):
            app.change_setting(key, value)
    path = app.store.path
    app.close()
    with Companion.open(path) as again:
        settings = again.settings()
        assert (settings["language"], settings["table.name"], settings["bgg_id.campanile"],
                settings["oled.timeout"], settings["oled.brightness"]) == (
                    "hu", "Kitchen table", 298047, 0, 100)


def test_a_version_1_store_is_migrated_keeping_its_players_and_games(tmp_path: Path) -> None:
    path = tmp_path / "v1.sqlite3"
    with Store.open(path, migrations=MIGRATIONS[:1]) as old:
        sid = old.insert_session("campanile", camp.PLAYERS, {}, camp.SETUP)
        assert old.schema_version == 1
    with Companion.open(path) as app:
        assert app.store.schema_version == len(MIGRATIONS)
        assert sorted(p.name for p in app.profiles()) == sorted(camp.PLAYERS)
        app.set_preferred_colour("Albert", "campanile", "white")
        assert [r.id for r in app.unfinished()] == [sid]
        assert app.resume(sid).session.players == camp.PLAYERS


# -- records ---------------------------------------------------------------------------------

def test_import_refuses_a_record_stored_before(app: Companion) -> None:
    sid = app.import_record(example("castelli"))
    with pytest.raises(AppError, match=f"already stored as session {sid}"):
        app.import_record(example("castelli"))
    assert len(app.sessions()) == 1


def test_the_store_module_builds_no_session_and_reads_no_summary() -> None:
    source = (Path(__file__).parent.parent / "companion" / "storage" / "store.py").read_text(encoding="utf-8")
    for needle in ("Session(", ".summary(", "game.start(", "replay(", "parse_record("):
        assert needle not in source, needle
    assert sqlite3.sqlite_version  # the store is SQLite from the standard library


# -- the console is a thin front end over the service ------------------------------------------------

def _console(live, lines: list[str]) -> list[str]:
    import io

    from companion.console.loop import headless_loop

    out = io.StringIO()
    headless_loop(live.session, lines, out)
    return out.getvalue().splitlines()


def test_the_console_confirms_a_stored_final_move_even_when_its_results_fail(app: Companion) -> None:
    sid, live, last = _one_move_before_the_end(app)
    number = len(live.session.log) + 1
    _refuse_results(app.store)
    lines = _console(live, [json.dumps(last)])
    assert last == {"type": "valuation", "phase": "finito"}
    assert lines[0] == (f"ok {number}: finito "
                        "(stored; but the results could not be updated: the results table refuses)")
    assert app.store.stored_moves(sid)[0][-1] == last


def test_the_console_never_confirms_a_move_that_was_not_stored(app: Companion) -> None:
    live = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    app.store._db.execute("CREATE TRIGGER no_moves BEFORE INSERT ON moves "
                          "BEGIN SELECT RAISE(ABORT, 'the disk is full'); END")
    move = live.session.game.move_to_json(camp.random_game(8, 1, state=live.session.state)[0])
    lines = _console(live, [json.dumps(move)])
    assert lines == ["refused: the move could not be saved: the disk is full"]
    assert app.store.stored_moves(live.id) == ([], []) and live.session.log == ()


def test_run_resumes_the_game_it_is_given(run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    with Companion.open(data / "companion.sqlite3") as app:
        first = app.start("campanile", camp.PLAYERS, setup=camp.SETUP).id
        app.start("campanile", ["Dora", "Emil", "Fritz"])
        gone = app.start("campanile", ["Gus", "Hal", "Ida"]).id
        app.abandon(gone)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, err = run_cli("--data-dir", str(data), "run", "--headless", "--game", str(first))
    assert (code, err) == (0, "")
    assert out.startswith(f"resuming session {first}: Campanile, Albert, Birgit, Franziska, 0 moves")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, err = run_cli("--data-dir", str(data), "run", "--headless")
    assert code == 0 and out.startswith("resuming session 2: Campanile, Dora, Emil, Fritz")
    assert run_cli("--data-dir", str(data), "run", "--headless", "--game", "9") == (
        2, "", "companion: there is no session 9 (see `companion sessions`)\n")
    code, out, err = run_cli("--data-dir", str(data), "run", "--headless", "--game", str(gone))
    assert (code, out) == (2, "") and f"session {gone} was abandoned" in err


def test_a_san_gimignano_game_without_a_layout_starts_on_the_offered_one_with_the_tables_guilds(app):
    from companion.games.san_gimignano.layout import default_setup

    app.change_setting("san_gimignano.guilds", "bankers, weavers, masons, bakers")
    live = app.start("san-gimignano", ["Ada", "Bo", "Cy"])
    stored = app.store.list_sessions()[0].setup
    offered = default_setup(["Ada", "Bo", "Cy"], {}, ["bankers", "weavers", "masons", "bakers"])
    assert stored["guilds"] == offered["guilds"] and stored["segments"] == offered["segments"]
    assert live.session.game.legal_moves(live.session.state)
    # a layout that is given is kept as it is (nothing offered over it)
    given = {"guilds": offered["guilds"], "segments": offered["segments"][:2]}
    again = app.start("san-gimignano", ["Ada", "Bo"], setup=given)
    assert app.store.session(again.id).setup["segments"] == given["segments"]


def test_the_whole_number_settings_say_their_limits_and_keep_to_them() -> None:
    from companion.service.settings import DAY, WholeNumber, whole_number

    assert whole_number("oled.brightness") == WholeNumber(1, 100)
    assert whole_number("oled.timeout").clamp(DAY + 60) == DAY
    assert whole_number("backups.kept").clamp(-1) == 0
    for key, setting in SETTINGS.items():
        if isinstance(setting.check, WholeNumber):
            assert setting.check(setting.default) is None, key
            assert setting.check(setting.check.low - 1) is not None, key
    with pytest.raises(TypeError):
        whole_number("table.name")
