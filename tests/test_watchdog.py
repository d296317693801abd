"""The watchdog over a real unix datagram socket, as systemd's NOTIFY_SOCKET is."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.system.watchdog import Watchdog
from tests.notify_kit import drain, receive
from tests.notify_kit import notify_socket as notify_socket_at

WAIT = 30.0  # seconds: generous; nothing here measures time
QUIET = 1.0  # how long a frozen loop is listened to (nothing can arrive: the loop does not run)


@pytest.fixture
def notify_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    path = tmp_path / "notify"
    server = notify_socket_at(path)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    monkeypatch.setenv("WATCHDOG_USEC", "20000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    yield server
    server.close()


class Loop:
    """A main loop on its own thread that calls ``tick`` each turn and can be frozen (a hung screen)."""

    def __init__(self, watchdog: Watchdog) -> None:
        self.watchdog = watchdog
        self.run = threading.Event()
        self.frozen = threading.Event()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._main, daemon=True)

    def _main(self) -> None:
        while not self.stop.is_set():
            if not self.run.is_set():
                self.frozen.set()
                self.run.wait(WAIT)
                continue
            self.frozen.clear()
            self.watchdog.tick()
            time.sleep(0.002)  # the loop's own frame pacing


def test_ready_arrives_once_then_pings_while_the_loop_runs_and_none_when_it_freezes(
        notify_socket: socket.socket) -> None:
    watchdog = Watchdog()
    assert watchdog.enabled and watchdog.interval == pytest.approx(0.01)
    watchdog.ready("playing")
    watchdog.ready()
    assert receive(notify_socket) == "READY=1\nSTATUS=playing"

    loop = Loop(watchdog)
    loop.run.set()
    loop.thread.start()
    try:
        pings = [receive(notify_socket) for _ in range(3)]
        assert pings == ["WATCHDOG=1"] * 3  # not a second READY=1

        loop.run.clear()
        assert loop.frozen.wait(WAIT)
        drain(notify_socket)
        assert receive(notify_socket, QUIET) is None  # frozen: no pings at all

        loop.run.set()
        assert receive(notify_socket) == "WATCHDOG=1"  # the loop runs again: so do the pings
    finally:
        loop.stop.set()
        loop.run.set()
        loop.thread.join(WAIT)


def test_status_and_stopping_are_sent_as_systemd_reads_them(notify_socket: socket.socket) -> None:
    watchdog = Watchdog()
    watchdog.status("Albert: a marker?\nnext: Birgit")
    watchdog.stopping()
    assert receive(notify_socket) == "STATUS=Albert: a marker? next: Birgit"
    assert receive(notify_socket) == "STOPPING=1"


def test_no_pings_before_ready_nor_for_another_process(notify_socket: socket.socket,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    early = Watchdog()
    early.tick()
    assert receive(notify_socket, QUIET) is None
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))
    child = Watchdog()
    assert child.interval is None
    child.ready()
    child.tick()
    assert drain(notify_socket) == ["READY=1"]


def test_outside_systemd_every_call_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    made = []
    watchdog = Watchdog(notifier=lambda: made.append(1))  # type: ignore[arg-type,func-returns-value]
    watchdog.ready()
    watchdog.tick()
    watchdog.stopping()
    assert not watchdog.enabled and made == []


def test_the_ping_interval_follows_a_fake_clock(notify_socket: socket.socket) -> None:
    now = [100.0]
    watchdog = Watchdog(clock=lambda: now[0])
    watchdog.ready()
    watchdog.tick()  # 0 s after ready: too early
    now[0] += 0.011
    watchdog.tick()
    watchdog.tick()  # same instant: only one ping
    assert drain(notify_socket) == ["READY=1", "WATCHDOG=1"]
