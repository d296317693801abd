"""How long a game was played: the monotonic clock while it was open, never the wall clock.

The clocks are the test's own (nothing sleeps): the monotonic one is stepped by
hand, and the store's wall clock jumps the way a Pi's does when it is set.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import unquote

from companion.service.app import Companion
from companion.service.bgstats import play_file
from companion.service.table import Table
from companion.storage.migrations import MIGRATIONS
from companion.storage.store import Result, Store
from tests import helpers_campanile as camp


class Stepped:
    """A clock that says what the test set it to."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Jumping:
    """The store's wall clock: 1970 until the network sets it, then 2024 (a jump of 54 years)."""

    def __init__(self) -> None:
        self.now = datetime(1970, 1, 1, 0, 5, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def test_the_time_played_is_the_monotonic_time_the_game_was_open(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    monotonic, wall = Stepped(1000.0), Jumping()
    moves = camp.random_game(7, 400, finish=True)
    with Companion.open(path, clock=wall, monotonic=monotonic, clock_sure=lambda: True) as app:
        table = Table(app)
        live = table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
        for move in moves[:10]:
            monotonic.now += 60  # a minute per move
            table.propose(move)
        assert app.store.session(live.id).played_seconds == 600
        monotonic.now += 30
        table.undo()  # an undo is play too
        wall.now = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)  # the network set the clock meanwhile
        monotonic.now += 90
        table.close()  # put down: the time since the last change counts
        assert app.store.session(live.id).played_seconds == 720

        monotonic.now += 3600 * 8  # the box was switched off overnight: not played
        app.close()
    with Companion.open(path, clock=wall, monotonic=monotonic) as app:
        table = Table(app)
        live = table.resume()
        table.redo()
        for move in moves[10:]:
            monotonic.now += 60
            table.propose(move)
        assert live.session.game.is_finished(live.session.state)
        monotonic.now += 7200  # the game-over screen stays up while the table is cleared
        table.close()
        row = app.store.session(live.id)
        assert row.played_seconds == 720 + 60 * (len(moves) - 10)
        wall_minutes = (row.finished - row.started).total_seconds() / 60
        assert wall_minutes > 54 * 365 * 24 * 60  # what the wall clock would have said
        play = app.bgstats_play(live.id)
        assert play.duration_min == round(row.played_seconds / 60)
        exported = play_file(play, datetime(2024, 5, 2, tzinfo=UTC))
        assert exported["plays"][0]["durationMin"] == round(row.played_seconds / 60)
        pushed = json.loads(unquote(app.bgstats_link(live.id).split("data=", 1)[1]))
        assert pushed["durationMin"] == round(row.played_seconds / 60)


def test_a_game_from_before_the_measurement_falls_back_to_its_start_and_end(tmp_path: Path) -> None:
    path = tmp_path / "v4.sqlite3"
    started = datetime(2024, 5, 1, 18, 0, tzinfo=UTC)
    with Store.open(path, migrations=MIGRATIONS[:4], clock=lambda: started) as old:
        sid = old.insert_session("campanile", camp.PLAYERS, {}, camp.SETUP)
    with Companion.open(path, clock=lambda: started + timedelta(minutes=47), clock_sure=lambda: True) as app:
        assert app.store.session(sid).played_seconds is None  # not measured, and not made up
        app.store.write_results(sid, [Result(p, 10 - i, i == 0) for i, p in enumerate(camp.PLAYERS)])
        assert app.bgstats_play(sid).duration_min == 47


def test_a_new_game_is_measured_from_zero_and_an_imported_one_not_at_all(tmp_path: Path) -> None:
    example = Path(__file__).parent / "data" / "examples" / "campanile-3p.json"
    with Companion.open(tmp_path / "companion.sqlite3", monotonic=Stepped()) as app:
        live = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
        assert app.store.session(live.id).played_seconds == 0
        imported = app.import_record(json.loads(example.read_text(encoding="utf-8")))
        assert app.store.session(imported).played_seconds is None
        assert app.bgstats_play(imported).duration_min == 0  # a record carries no times
