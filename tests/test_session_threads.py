"""A session for many threads: listener faults isolated, results back to the poster, the wake-up hook.

Real threads, a real store on a temporary file; every wait has a generous time-out and the
tests assert what happened, never how fast.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future
from pathlib import Path

import pytest

from companion.games.base import IllegalMove
from companion.service.app import Companion
from companion.service.command_queue import CommandQueue
from companion.service.session import Change, Session
from tests import helpers_campanile as camp

WAIT = 30.0  # seconds; generous, only reached when something is broken


@pytest.fixture
def app(tmp_path: Path):
    with Companion.open(tmp_path / "companion.sqlite3") as opened:
        yield opened


def test_a_listener_that_raises_neither_stops_the_others_nor_undoes_the_stored_move(app: Companion) -> None:
    live = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    heard: list[tuple[str, Change]] = []

    def screen(session: Session, change: Change) -> None:
        heard.append(("screen", change))

    def broken_oled(session: Session, change: Change) -> None:
        raise OSError("I2C bus error")

    def panel(session: Session, change: Change) -> None:
        heard.append(("panel", change))

    live.session.subscribe(screen)
    live.session.subscribe(broken_oled, name="the OLED")
    live.session.subscribe(panel)
    move = camp.random_game(3, 1, state=live.session.state)[0]
    live.session.propose(move)
    assert heard == [("screen", Change("move", 0)), ("panel", Change("move", 0))]
    assert [(f.listener, str(f)) for f in live.session.last_faults] == [("the OLED", "I2C bus error")]
    assert app.store.stored_moves(live.id)[0] == [live.session.game.move_to_json(move)]
    live.session.undo()
    assert len(live.session.last_faults) == 1 and heard[-1] == ("panel", Change("undo", 0))


def test_last_faults_is_cleared_by_the_next_change_without_faults(app: Companion) -> None:
    live = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    fail = {"now": True}

    def flaky(session: Session, change: Change) -> None:
        if fail["now"]:
            raise RuntimeError("once")

    live.session.subscribe(flaky)
    moves = camp.random_game(4, 2, state=live.session.state, finish=False)
    live.session.propose(moves[0])
    assert len(live.session.last_faults) == 1
    fail["now"] = False
    live.session.propose(moves[1])
    assert live.session.last_faults == ()


def test_results_reach_their_posters_across_threads(app: Companion) -> None:
    live = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    session = live.session
    queue = CommandQueue()
    moves = camp.random_game(11, 12, state=session.state, finish=False)
    legal, illegal = moves[0], moves[1]  # the second move is not legal before the first
    futures: dict[str, Future] = {}
    ready = threading.Barrier(3, timeout=WAIT)

    def seat_panel() -> None:
        ready.wait()
        futures["illegal"] = queue.submit(lambda: session.propose(illegal))

    def button() -> None:
        ready.wait()
        futures["state"] = queue.submit(lambda: len(session.log))

    threads = [threading.Thread(target=seat_panel), threading.Thread(target=button)]
    for thread in threads:
        thread.start()
    ready.wait()
    for thread in threads:
        thread.join(WAIT)
    assert not any(thread.is_alive() for thread in threads)
    done_on: list[int] = []
    futures["illegal"].add_done_callback(lambda f: done_on.append(threading.get_ident()))
    assert queue.drain() == 2
    with pytest.raises(IllegalMove):
        futures["illegal"].result(timeout=WAIT)
    assert futures["state"].result(timeout=WAIT) == 0
    assert done_on == [threading.get_ident()]  # the callback ran on the draining thread
    posted = queue.submit(lambda: session.propose(legal))
    queue.drain()
    assert posted.result(timeout=WAIT) == session.state and len(session.log) == 1


def test_a_failing_submitted_command_goes_to_its_future_not_to_on_error() -> None:
    errors: list[Exception] = []
    queue = CommandQueue(on_error=errors.append)
    future = queue.submit(lambda: 1 / 0)
    queue.post(lambda: [][1])
    assert queue.drain() == 2
    assert isinstance(future.exception(timeout=WAIT), ZeroDivisionError)
    assert len(errors) == 1 and isinstance(errors[0], IndexError)


def test_a_cancelled_submission_does_not_run() -> None:
    queue = CommandQueue()
    ran: list[int] = []
    future = queue.submit(lambda: ran.append(1))
    assert future.cancel()
    assert queue.drain() == 1 and ran == []


def test_the_wake_up_hook_lets_a_loop_drain_at_once_without_polling(tmp_path: Path) -> None:
    path = tmp_path / "companion.sqlite3"
    woken = threading.Event()
    stop = threading.Event()
    queue = CommandQueue(wake=woken.set)
    opened = threading.Event()
    table: dict[str, object] = {}
    loop_error: list[BaseException] = []

    def main_loop() -> None:  # stands in for Kivy's Clock: it owns the store and sleeps until woken
        try:
            with Companion.open(path) as app:
                live = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
                table.update(id=live.id, session=live.session)
                opened.set()
                while not stop.is_set():
                    woken.wait(WAIT)
                    woken.clear()
                    queue.drain(limit=1000)
        except BaseException as error:  # reported below
            loop_error.append(error)
            opened.set()

    loop = threading.Thread(target=main_loop)
    loop.start()
    try:
        assert opened.wait(WAIT) and loop_error == []
        session = table["session"]
        assert isinstance(session, Session)
        moves = camp.random_game(21, 30, state=session.state, finish=False)
        results = [queue.submit(lambda m=m: session.propose(m)) for m in moves]
        for future in results:
            future.result(timeout=WAIT)  # each one was drained because the hook woke the loop
    finally:
        stop.set()
        queue.post(lambda: None)  # wakes the loop so that it sees stop
        loop.join(WAIT)
    assert not loop.is_alive() and loop_error == []
    assert session.log == tuple(moves)
    with Companion.open(path) as app:
        assert app.store.stored_moves(int(table["id"]))[0] == [session.game.move_to_json(m) for m in moves]


def test_a_failing_wake_hook_leaves_the_command_queued() -> None:
    def broken() -> None:
        raise RuntimeError("no clock")

    queue = CommandQueue(wake=broken)
    ran: list[str] = []
    queue.post(lambda: ran.append("posted"))
    assert queue.drain() == 1 and ran == ["posted"]


def test_try_amend_gives_the_verdict_and_changes_nothing(app: Companion) -> None:
    live = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    session = live.session
    parse = session.game.parse_move

    def build(player: str, tower: str, stories: int):
        return parse({"type": "build", "player": player, "tower": tower, "stories": stories})

    for move in (build("Albert", "red", 3), build("Birgit", "blue", 1), build("Franziska", "grey", 1)):
        session.propose(move)
    stored = app.store.stored_moves(live.id)
    before = (session.log, session.state)

    fine = session.try_amend(0, build("Albert", "red", 2))
    assert fine.accepted and fine.reason == "" and fine.conflict is None
    illegal = session.try_amend(1, build("Albert", "red", 1))  # Albert has built this turn
    assert not illegal.accepted and illegal.conflict is None and "Albert" in illegal.reason
    # Albert's marker instead of Birgit's build: Franziska's build (move 3) comes out of turn
    conflict = session.try_amend(1, parse({"type": "influence", "player": "Albert", "tower": "red"}))
    assert not conflict.accepted and conflict.conflict == 2
    assert conflict.reason.startswith("move 3 (Franziska) would no longer be legal")
    missing = session.try_amend(7, build("Albert", "red", 1))
    assert not missing.accepted and "no move 8" in missing.reason
    assert (session.log, session.state) == before
    assert app.store.stored_moves(live.id) == stored
