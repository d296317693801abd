"""Import knows its own exports: a record of a game this store already holds is not stored twice.

Issue 21, defect 11 (its last point): importing a record exported from this
very store made a second session of the same game, and the statistics
counted it twice; the duplicate check knew only files imported before (by
their hash). A record is now the same game as a stored session when the
game, the players in their order, the options, the setup and every move are
the same, however the session came to be (played here, imported, rematched).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.service.app import AppError, Companion
from companion.service.records import parse_record
from tests import helpers_campanile as camp

EXAMPLES = Path(__file__).parent / "data" / "examples"


def _played_here(data_dir: Path, moves: int, finish: bool = True) -> int:
    """A Campanile game played at this table (not imported): about ``moves`` random legal moves."""
    with Companion.open(data_dir / "companion.sqlite3") as app:
        live = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
        for move in camp.random_game(11, moves, finish=finish):
            live.session.propose(move)
        app.put_down(live)
        return live.id


def _example_played_here(data_dir: Path) -> int:
    """The example record's finished game, played move by move at this table (not imported)."""
    record = parse_record(json.loads((EXAMPLES / "campanile-3p.json").read_text(encoding="utf-8")))
    with Companion.open(data_dir / "companion.sqlite3") as app:
        live = app.start("campanile", record.players, options=record.options, setup=record.setup)
        for move in record.moves:
            live.session.propose(move)
        assert live.session.game.is_finished(live.session.state)
        app.put_down(live)
        return live.id


def test_a_game_played_here_exported_and_imported_again_is_reported_not_stored(cli, data_dir, tmp_path):
    session = _example_played_here(data_dir)  # a finished game: it counts in the statistics
    stats_before = cli("stats")
    exported = tmp_path / "game.json"
    assert cli("export", str(session), "--output", str(exported))[0] == 0

    code, out, err = cli("import", str(exported))
    assert (code, out) == (2, "")
    assert err == f"companion: this record is already stored as session {session}\n"
    assert cli("stats") == stats_before  # counted once
    assert len(cli("sessions")[1].strip().splitlines()) == 2  # the header and the one game


def test_an_unfinished_game_and_a_rematch_are_known_too_and_another_game_is_not(data_dir, tmp_path):
    """The variation: through the service, an unfinished game, a game that went on after its export,
    and a rematch with the same players and setup but no moves yet."""
    session = _played_here(data_dir, 7, finish=False)
    with Companion.open(data_dir / "companion.sqlite3") as app:
        record = app.export_record(session)
        with pytest.raises(AppError, match=f"already stored as session {session}"):
            app.import_record(json.loads(json.dumps(record)))  # as read back from a file

        rematch = app.rematch(session)  # the same players and setup, no moves: a game of its own
        app.put_down(rematch)
        opening = {**record, "moves": []}
        with pytest.raises(AppError, match=f"already stored as session {rematch.id}"):
            app.import_record(opening)

        live = app.resume(session)  # the game goes on after it was exported ...
        live.session.propose(camp.random_game(5, 1, finish=False, state=live.session.state)[0])
        app.put_down(live)
        stored = app.import_record(record)  # ... so the record is another game now
        assert stored not in (session, rematch.id)
        with pytest.raises(AppError, match=f"already stored as session {stored}"):
            app.import_record(record)


def test_other_players_or_another_setup_make_another_game(data_dir) -> None:
    session = _played_here(data_dir, 5, finish=False)
    with Companion.open(data_dir / "companion.sqlite3") as app:
        record = app.export_record(session)
        renamed = json.loads(json.dumps(record).replace("Franziska", "Frida"))
        assert app.import_record(renamed) != session
        towers = list(reversed(record["setup"]["towers"]))
        reordered = {**record, "setup": {**record["setup"], "towers": towers}}
        assert app.import_record(reordered) != session
