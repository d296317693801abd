"""Setting the date of a game played before the clock was set: the game-over date stepper.

Synthetic touches on a real window over a real store; the date set is kept in
the store and is the one BG Stats receives.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from companion import i18n
from companion.service.app import Companion
from ui.screens.game_over import YEARS, date_words, stepped
from ui.widgets import LongTap

EXAMPLE = Path(__file__).parent / "data" / "examples" / "campanile-3p.json"
#: When the Pi believed the game started: fake-hwclock's time of the last shutdown, days before.
BELIEVED = datetime(2024, 4, 27, 19, 30, tzinfo=UTC)


def _unsure_game(store: Path) -> int:
    with Companion.open(store, clock=lambda: BELIEVED, clock_sure=lambda: False) as app:
        session_id = app.import_record(json.loads(EXAMPLE.read_text(encoding="utf-8")))
        with app.store._transaction() as db:  # as if played before the clock was set
            db.execute("UPDATE sessions SET date_unsure = 1 WHERE id = ?", (session_id,))
    return session_id


@pytest.mark.parametrize("language", ["en", "hu"])
def test_the_players_set_another_date_with_the_stepper_and_bg_stats_gets_it(
        tmp_path: Path, shots: Path, language: str) -> None:
    store = tmp_path / "unsure.db"
    session_id = _unsure_game(store)
    i18n.set_language(language)
    shell = kit.open_shell(store)
    try:
        app = shell.table.app
        shell.table.open(app.open_game(session_id))
        screen = shell.screens.get_screen("over")
        believed = BELIEVED.astimezone()
        kit.find(date_words(believed.date()), exact=False)
        kit.screenshot(shots / f"{language}-game-over-date-stepper.png")

        wanted = date(2025, 5, 1)
        kit.tap(screen.steppers["year"][1])  # 2025-04-27
        kit.tap(screen.steppers["month"][1])  # 2025-05-27
        kit.tap(screen.steppers["month"][1])  # 2025-06-27: one too far ...
        kit.tap(screen.steppers["month"][0])  # ... and back
        for _ in range((wanted - screen.chosen).days * -1):
            kit.tap(screen.steppers["day"][0])  # 26 taps back to the 1st
        kit.find(date_words(wanted), exact=False)
        assert app.store.session(session_id).date_unsure  # nothing is kept before the long press
        assert app.store.session(session_id).started == BELIEVED
        kit.screenshot(shots / f"{language}-game-over-date-set.png")

        confirm = kit.find(i18n.text("ui.over.confirm_date_hold"), LongTap)
        kit.tap(confirm)  # a tap is not a confirmation
        assert app.store.session(session_id).date_unsure and screen.qr is None
        kit.hold(confirm, lambda: screen.qr is not None, "the QR code after the date is set")
        row = app.store.session(session_id)
        assert not row.date_unsure
        assert row.started.astimezone().date() == wanted
        assert row.started.astimezone().timetz() == believed.timetz()  # the time of day is kept
        play = app.bgstats_play(session_id)
        assert play.started.date() == wanted
        kit.find(i18n.text("ui.over.played_on", date=row.started.astimezone().strftime("%Y-%m-%d %H:%M")))
        kit.screenshot(shots / f"{language}-game-over-date-kept.png")
    finally:
        kit.close_shell(shell)
        i18n.set_language("en")


def test_confirming_without_stepping_keeps_the_date_the_pi_believed(tmp_path: Path) -> None:
    store = tmp_path / "unsure.db"
    session_id = _unsure_game(store)
    shell = kit.open_shell(store)
    try:
        app = shell.table.app
        shell.table.open(app.open_game(session_id))
        screen = shell.screens.get_screen("over")
        confirm = kit.find(i18n.text("ui.over.confirm_date_hold"), LongTap)
        kit.hold(confirm, lambda: screen.qr is not None, "the QR code after the date is confirmed")
        row = app.store.session(session_id)
        assert (row.date_unsure, row.started) == (False, BELIEVED)
    finally:
        kit.close_shell(shell)


@given(st.dates(date(YEARS[0], 1, 1), date(YEARS[1], 12, 31)), st.sampled_from(["day", "month", "year"]),
       st.sampled_from([-1, 1]))
def test_a_step_moves_one_unit_and_stays_in_range(day: date, part: str, by: int) -> None:
    moved = stepped(day, part, by)
    assert YEARS[0] <= moved.year <= YEARS[1]
    if moved == day:  # only at the ends of the range
        assert (day.year, by) in ((YEARS[0], -1), (YEARS[1], 1))
        return
    if part == "day":
        assert (moved - day).days == by
    else:
        months = (moved.year - day.year) * 12 + moved.month - day.month
        assert months == (by if part == "month" else 12 * by)
        assert moved.day <= day.day
        if moved.day < day.day:  # the day did not exist in that month: its last day instead
            assert (moved + timedelta(days=1)).month != moved.month
