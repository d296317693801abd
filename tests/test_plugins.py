"""Games plug in through one registration: the entry-point group ``companion.games``.

- a game from another distribution (its own ``.dist-info`` on ``sys.path``, as ``pip install``
  leaves one) is found, replayed and listed with no line changed in the companion; one whose
  plug-in is broken is logged and left out, and every command still runs;
- the toy game, registered in one call, is played through the front ends the other toy tests do
  not reach: a seat panel, the phone page, and a record's ``replay`` and ``moves``;
- a stored game whose package is gone is "not installed": listed as such, never judged damaged,
  and a repair copies it untouched, so that it resumes when the game is installed again.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import registry
from companion.cli.main import main
from companion.service.app import Companion
from companion.service.table import Table
from companion.storage import doctor
from hardware.panel_pairing import Identity
from hardware.panels import SeatPanels
from tests.panel_helpers import PtyPanel, pump
from tests.toy_game import registered
from web.pages import game_page

ROOT = Path(__file__).resolve().parent.parent
TOY_MOVES = [{"type": "add", "player": "Ann", "points": 2}, {"type": "roll", "player": "Bob", "pips": 5},
             {"type": "add", "player": "Ann", "points": 2}]


@pytest.fixture
def toy() -> Iterator[None]:
    with registered():
        yield


def _toy_record(tmp_path: Path, moves: list[dict[str, Any]] = TOY_MOVES) -> Path:
    """A toy record as the service exports it (played through the service, not written by hand)."""
    with Companion.open(tmp_path / "made.sqlite3") as app:
        live = app.start("toy-tally", ["Ann", "Bob"], colours_by_seat=True)
        for data in moves:
            live.session.propose(live.session.game.parse_move(data))
        record = app.export_record(live.id)
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as done:  # --help: argparse exits once it has printed
            code = int(done.code or 0)
    return code, out.getvalue(), err.getvalue()


# -- the toy through the front ends -------------------------------------------------------------------

def test_the_toys_record_replays_and_lists_its_moves_through_the_command_line(
        toy: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # help on one line a field, so that a name is not wrapped
    path = _toy_record(tmp_path, TOY_MOVES[:2])
    code, out, err = _cli("replay", str(path), "--json")
    assert (code, err) == (0, "")
    summary = json.loads(out)
    assert summary["game"] == "toy-tally" and summary["scores"] == {"Ann": 2, "Bob": 1}
    code, out, err = _cli("moves", str(path), "--json")
    assert (code, err) == (0, "")
    assert {"type": "add", "player": "Ann", "points": 1} in json.loads(out)
    code, out, _ = _cli("moves", str(path))
    assert code == 0 and "Ann: +1" in out
    code, out, _ = _cli("--lang", "hu", "new", "--help")
    assert code == 0 and "toy-tally" in out  # the games a command takes come from the registry


def test_without_the_toy_its_record_is_refused_naming_the_game(tmp_path: Path) -> None:
    with registered():
        path = _toy_record(tmp_path)
    code, out, err = _cli("replay", str(path))
    assert code == 2 and out == "" and "toy-tally" in err and "campanile" in err  # what is known, listed


def test_the_phone_page_draws_the_toy_from_its_engine_alone(toy: None, tmp_path: Path) -> None:
    record = json.loads(_toy_record(tmp_path, TOY_MOVES[:1]).read_text(encoding="utf-8"))
    for language in ("en", "hu"):
        html = game_page(record, game_id=1, lang=language, token="t" * 22)
        assert "Toy Tally" in html and "Ann" in html and "Bob" in html
        assert "toy." not in html  # no message code reaches a phone: the toy's catalogues are read


def test_a_seat_panel_plays_the_toy_at_its_seat(toy: None, tmp_path: Path) -> None:
    with Companion.open(tmp_path / "store.sqlite3") as app:
        table = Table(app)
        table.start("toy-tally", ["Ann", "Bob"], colours_by_seat=True)
        panel = PtyPanel()
        panels = SeatPanels(table, [panel.name], first_retry=0.02, longest_retry=0.2, scan_every=0.05)
        panels.pairings.pair(Identity("toy-seat-1", port=panel.name), 1)  # no USB serial: on its port
        panels.start()
        try:
            pump(table, lambda: "1" in panel.got("HELLO"))
            panel.say("HELLO 1 1 toy-seat-1")
            pump(table, lambda: bool(panel.got("TURN")))
            assert panel.got("TURN")[-1] == "you Ann"
            panel.say("MOVE +2")  # the toy's notation, the seat's own name left out
            pump(table, lambda: bool(panel.got("ACCEPTED")))
            assert panel.got("ACCEPTED") == ["Ann: +2"]
            assert app.store.stored_moves(table.live.id)[0] == [{"type": "add", "player": "Ann", "points": 2}]
        finally:
            panels.close()
            panel.unplug()


# -- a game that is not installed ------------------------------------------------------------------------

@pytest.fixture
def stored_toy(tmp_path: Path) -> Path:
    """A store holding a finished Campanile-free toy game and one in progress, made while the toy was
    installed; the toy is gone again when the test body runs."""
    store = tmp_path / "companion.sqlite3"  # the store's name in a data directory
    with registered(), Companion.open(store) as app:
        for moves in (TOY_MOVES, TOY_MOVES[:1]):
            live = app.start("toy-tally", ["Ann", "Bob"], colours_by_seat=True)
            for data in moves:
                live.session.propose(live.session.game.parse_move(data))
    return store


def _rows(store: Path) -> dict[str, list[tuple[Any, ...]]]:
    with contextlib.closing(sqlite3.connect(store)) as db:
        return {table: db.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
                for table in ("sessions", "moves", "redo", "results")}


def test_a_game_not_installed_is_no_damage_and_a_repair_copies_it_untouched(stored_toy: Path) -> None:
    before = _rows(stored_toy)
    checkup = doctor.examine(stored_toy)
    assert checkup.is_good and [h.not_installed for h in checkup.sessions] == [True, True]
    report = doctor.repair(stored_toy)
    assert not any("set aside" in str(line) for line in report.lines)
    assert [line.code for line in report.lines] == ["doctor.repair.kept_not_installed"] * 2
    assert _rows(stored_toy) == before  # every row as it was
    code, out, _ = _cli("--data-dir", str(stored_toy.parent), "doctor")
    assert code == 0 and out.count("toy-tally is not installed here") == 2
    with registered(), Companion.open(stored_toy) as app:  # installed again: it resumes as it was
        live = app.resume()
        assert live is not None and len(live.session.log) == 1


def test_the_service_lists_a_game_not_installed_as_such_and_changes_nothing(stored_toy: Path) -> None:
    before = _rows(stored_toy)
    with Companion.open(stored_toy) as app:
        assert app.unfinished() == []
        assert "game not installed: toy-tally" in app.damaged_sessions[2]
        assert registry.title("toy-tally") == "toy-tally (not installed)"
        assert [row.game for row in app.store.list_sessions()] == ["toy-tally", "toy-tally"]
    assert _rows(stored_toy) == before


# -- another distribution's game, found by its entry point ---------------------------------------

PLUGIN_ENTRY_POINTS = """\
[companion.games]
toy-tally = tests.toy_game.descriptor:DESCRIPTOR
broken-game = no_such_module.anywhere:DESCRIPTOR
"""


def _plugin_site(tmp_path: Path) -> Path:
    """A folder as ``pip install`` leaves another distribution: its metadata with the entry points."""
    site = tmp_path / "site"
    info = site / "toy_tally_plugin-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-tally-plugin\nVersion: 1.0\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text(PLUGIN_ENTRY_POINTS, encoding="utf-8")
    return site


def _run(site: Path, *argv: str, data: Path) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)]), "COMPANION_LANG": "en",
               "COLUMNS": "200"}  # help on one line a field, so that no game's name is wrapped
    return subprocess.run([sys.executable, "-m", "companion", "--data-dir", str(data), *argv], cwd=ROOT,
                          env=environ, capture_output=True, text=True, timeout=120)


def test_a_game_another_package_declares_is_found_and_a_broken_one_is_left_out(tmp_path: Path) -> None:
    with registered():
        record = _toy_record(tmp_path)
    site, data = _plugin_site(tmp_path), tmp_path / "data"
    replayed = _run(site, "replay", str(record), "--json", data=data)
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["game"] == "toy-tally"
    helped = _run(site, "new", "--help", data=data)
    assert helped.returncode == 0 and "toy-tally" in helped.stdout and "broken-game" not in helped.stdout
    assert "broken-game" in helped.stderr and "left out" in helped.stderr  # logged, never stopping it
    started = _run(site, "new", "toy-tally", "Ann", "Bob", data=data)
    assert started.returncode == 0, started.stderr
    listed = _run(site, "sessions", data=data)
    assert listed.returncode == 0 and "Toy Tally" in listed.stdout
    without = _run(tmp_path / "empty", "sessions", data=data)  # the plug-in uninstalled
    assert without.returncode == 0 and "toy-tally (not installed)" in without.stdout


def test_a_broken_plugin_is_named_when_a_record_asks_for_it(tmp_path: Path) -> None:
    record = tmp_path / "broken.json"
    record.write_text(json.dumps({"format": "companion-record/1", "game": "broken-game",
                                  "players": ["A", "B"], "moves": []}), encoding="utf-8")
    replayed = _run(_plugin_site(tmp_path), "replay", str(record), data=tmp_path / "data")
    assert replayed.returncode == 2
    assert "broken-game is not installed here" in replayed.stderr.splitlines()[-1]
    assert textwrap.shorten(replayed.stderr, 2000).count("Traceback") <= 1  # the log's, not a crash


# -- refusals when a game's part is missing --------------------------------------------------------

def test_a_championship_without_a_game_that_plays_one_is_refused_in_words(tmp_path: Path) -> None:
    from companion.service.errors import AppError

    with registry.without("castelli"), Companion.open(tmp_path / "store.sqlite3") as app:
        with pytest.raises(AppError, match="no game installed here is played as a championship"):
            app.championships.new(1, ["Ann", "Bob", "Cid", "Dan"])
        assert app.championships.list() == []


def test_a_games_service_part_that_is_not_there_is_refused_in_words(tmp_path: Path) -> None:
    import dataclasses

    from companion.service.castelli import CastelliService
    from companion.service.errors import AppError

    partless = dataclasses.replace(registry.descriptor("castelli"), service=None)
    with (registry.replaced(partless), Companion.open(tmp_path / "store.sqlite3") as app,
          pytest.raises(AppError, match=r"castelli: .*\(its part of the service\) is not installed here")):
        CastelliService.of(app)
