"""A Pi without network: games started before the clock was synchronised, and ordering without the clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.service.app import AppError, Companion
from companion.system.clock import clock_is_sure
from tests import helpers_campanile as camp
from tests.test_app import _one_move_before_the_end


def test_the_clock_is_unsure_only_where_timesyncd_has_not_synchronised_yet(tmp_path: Path) -> None:
    flag = tmp_path / "timesync" / "synchronized"
    assert clock_is_sure(flag)  # no timesyncd here: the clock is taken as it is
    flag.parent.mkdir()
    assert not clock_is_sure(flag)  # timesyncd runs, not synchronised yet
    flag.touch()
    assert clock_is_sure(flag)


class BackwardsClock:
    """A wall clock that jumps back (a Pi that booted with last week's time, then synchronised)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now -= timedelta(days=1)
        return self.now


def test_the_newest_game_is_the_last_one_started_whatever_the_clock_says(tmp_path: Path) -> None:
    with Companion.open(tmp_path / "s.sqlite3", clock=BackwardsClock()) as app:
        first = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
        second = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
        assert second.row.started < first.row.started  # the clock went back...
        assert [row.id for row in app.sessions()] == [second.id, first.id]  # ...the order did not
        assert [row.id for row in app.unfinished()] == [second.id, first.id]
        assert app.latest_unfinished().id == second.id


def test_a_game_started_before_the_clock_was_set_asks_for_its_date_before_bg_stats(tmp_path: Path) -> None:
    sure = [False]
    with Companion.open(tmp_path / "s.sqlite3", clock_sure=lambda: sure[0]) as app:
        live = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
        assert app.store.session(live.id).date_unsure
        sure[0] = True
        assert not app.store.session(app.start("campanile", camp.PLAYERS, setup=camp.SETUP).id).date_unsure


def test_confirming_or_setting_the_date_lets_the_game_go_to_bg_stats(tmp_path: Path) -> None:
    with Companion.open(tmp_path / "s.sqlite3", clock_sure=lambda: False) as app:
        sid, live, last = _one_move_before_the_end(app)
        unsure = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
        assert not app.store.session(sid).date_unsure  # an imported record's date is its own
        app.confirm_date(unsure.id)
        assert not app.store.session(unsure.id).date_unsure
        with app.store._transaction() as db:  # the example game, as if played before the clock was set
            db.execute("UPDATE sessions SET date_unsure = 1 WHERE id = ?", (sid,))
        live.session.propose(live.session.game.parse_move(last))
        with pytest.raises(AppError) as refused:
            app.bgstats_link(sid)
        assert f"game {sid} was started before the clock was set" in str(refused.value)
        played = datetime(2026, 11, 28, 19, 30, tzinfo=UTC)
        with pytest.raises(AppError, match="time zone"):
            app.confirm_date(sid, played.replace(tzinfo=None))
        app.confirm_date(sid, played)
        assert app.store.session(sid).started == played
        assert "%22playDate%22%3A%222026-11-28" in app.bgstats_link(sid)  # the date the players set
