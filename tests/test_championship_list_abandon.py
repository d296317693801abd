"""``championship list`` and ``championship abandon``; a round whose game is abandoned ends its
championship (docs/championship.md, "Abandoning"); a second championship while one is being
played is refused naming it; the console's ``status`` of a round says what to type there.
"""

from __future__ import annotations

import io

import pytest

from companion.console.championship import round_standings
from companion.console.loop import headless_loop
from companion.i18n import set_language
from companion.service.app import AppError, Companion
from tests.test_championship import FOUR, play_round, refused

OTHERS = ("Eve", "Fay", "Gus", "Hal")


def test_a_second_championship_while_one_is_played_is_refused_naming_it(tmp_path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        first = app.championships.new(1, FOUR)
        before = app.store.list_sessions()
        with pytest.raises(AppError) as caught:
            app.championships.new(2, OTHERS)
        assert caught.value.args[0].code == "championship.still_running"
        assert str(caught.value.args[0]) == (
            f"championship {first.row.championship} is still being played (round 1 of 2); finish it, "
            f"or abandon it with: companion championship abandon {first.row.championship}")
        assert app.store.list_sessions() == before and len(app.championships.list()) == 1
        app.championships.abandon()  # then a new one may start
        assert app.championships.new(2, OTHERS).row.championship != first.row.championship


def test_a_championship_between_rounds_still_refuses_a_second_one(tmp_path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        first = app.championships.new(1, FOUR)
        play_round(first, ["Ann", "Cid"])
        assert app.championships.status().current is None  # round 2 not started yet
        refused(lambda: app.championships.new(1, OTHERS), "championship.still_running")


def test_abandoning_a_round_s_game_abandons_its_championship(tmp_path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        first = app.championships.new(1, FOUR)
        play_round(first, ["Ann", "Cid"])
        second = app.championships.next_round()
        app.abandon(second.id)  # as `companion abandon` or the touchscreen does
        status = app.championships.status(first.row.championship)
        assert status.abandoned and status.next_groups is None
        assert [r.finished for r in status.rounds] == [True, False]  # round 1 is kept as it was
        refused(lambda: app.championships.next_round(first.row.championship), "championship.abandoned")
        assert app.championships.latest() is None  # `status` without an id no longer means it
        assert app.championships.new(2, OTHERS).row.championship is not None  # nothing is running


def test_abandoning_the_championship_abandons_its_round_being_played(tmp_path):
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        first = app.championships.new(1, FOUR)
        status = app.championships.abandon()
        assert status.id == first.row.championship and status.abandoned
        assert app.store.session(first.id).abandoned is not None
        assert app.unfinished() == []  # `companion run` no longer resumes the round
        refused(app.championships.abandon, "championship.none")
        refused(lambda: app.championships.abandon(first.row.championship), "championship.abandoned")


def test_list_and_abandon_on_the_command_line(tmp_path, run_cli):
    data = str(tmp_path)
    code, out, _ = run_cli("--data-dir", data, "championship", "list")
    assert code == 0 and out.startswith("there is no championship yet")
    assert run_cli("--data-dir", data, "championship", "new", "--variant", "1", *FOUR)[0] == 0
    code, out, _ = run_cli("--data-dir", data, "championship", "list")
    assert out.splitlines() == ["championship 1, variant 1: Ann, Bob, Cid and Dan; 1 round of 2 played; "
                                "round 1 is being played (game 1)"]
    code, _, err = run_cli("--data-dir", data, "championship", "new", "--variant", "2", *OTHERS)
    assert code == 2 and "championship abandon 1" in err
    code, out, _ = run_cli("--data-dir", data, "championship", "abandon")
    assert code == 0 and out.splitlines() == ["abandoned championship 1; its 0 rounds are kept"]
    code, out, _ = run_cli("--data-dir", data, "championship", "list")
    assert out.splitlines()[0].endswith("; abandoned")
    code, _, err = run_cli("--data-dir", data, "championship", "abandon", "1")
    assert code == 2 and "championship 1 was abandoned" in err


def test_the_list_in_hungarian(tmp_path, run_cli):
    data = str(tmp_path)
    run_cli("--data-dir", data, "championship", "new", "--variant", "1", *FOUR)
    code, out, _ = run_cli("--data-dir", data, "--lang", "hu", "championship", "list")
    assert code == 0 and out.splitlines() == [
        "1. bajnokság, 1. változat: Ann, Bob, Cid és Dan; 2 fordulóból 1 lejátszva; "
        "az 1. forduló folyik (1. játszma)"]


@pytest.mark.parametrize(("language", "line"), [
    ("en", "round 1 is this game: type `moves` for what may be entered, `status` for where it stands"),
    ("hu", "az 1. forduló ez a játszma: a `lépések` megmutatja, mit írhattok be, az `állás`, hol tart"),
])
def test_the_console_s_status_of_a_round_says_what_to_type_there(tmp_path, language, line):
    set_language(language)
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        first = app.championships.new(1, FOUR)
        out = io.StringIO()
        headless_loop(first.session, ["status"], out,
                      also_status=lambda: round_standings(app.championships, first))
        said = out.getvalue()
    assert said.splitlines()[-1] == line
    assert "companion run" not in said
