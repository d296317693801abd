"""Seat panels over real ports: ``loop://``, pseudo-terminals and ``socket://``, real threads.

Every wait is on a condition with a generous time-out (:func:`pump`,
:meth:`SeatPanels.wait_for`); nothing here asserts how long anything took.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import serial

from companion.games.base import IllegalMove
from companion.i18n import render, set_language
from companion.service.app import Companion
from companion.service.config import defaults
from companion.service.table import Table, TableEvent
from hardware.panel_pairing import Identity
from hardware.panels import SeatPanels, from_config
from tests import helpers_campanile as camp
from tests.panel_helpers import WAIT, PtyPanel, pump

FAST = {"first_retry": 0.02, "longest_retry": 0.2, "scan_every": 0.05}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        yield Table(app)


@pytest.fixture
def hungarian() -> Iterator[None]:
    set_language("hu")
    yield
    set_language("en")


#: The USB serial number every port of :func:`panels_on` reports.
TEST_SERIAL = "TEST0001"


@pytest.fixture
def panels_on(table: Table, pty_panels: Any) -> Iterator[Any]:
    """Start SeatPanels on the given ports; every one is closed at the end of the test, before the
    pseudo-terminals go (a closed one's name may be reused by another pty at once)."""
    started: list[SeatPanels] = []

    def start(ports: list[str], **options: Any) -> SeatPanels:
        # each port a USB board's, all with one serial number: a panel's id then names it on any port
        # (without a serial number a pairing holds on its own port only: tests/test_panel_binding.py)
        panels = SeatPanels(table, ports, **{**FAST, "usb_serial": lambda url: TEST_SERIAL, **options})
        # the panels these tests use were allowed at their seats before, as a person at the OLED does
        # (tests/test_panel_pairing.py is where the asking is tested)
        for seat in range(1, 10):
            panels.pairings.pair(Identity(f"test-seat-{seat}", TEST_SERIAL), seat)
        started.append(panels.start())
        return panels

    yield start
    for panels in started:
        panels.close()


@pytest.fixture
def pty_panels() -> Iterator[Any]:
    made: list[PtyPanel] = []

    def make(link: Path | None = None) -> PtyPanel:
        made.append(PtyPanel(link))
        return made[-1]

    yield make
    for panel in made:
        if not panel._closed.is_set():
            panel.unplug()


def _connected(panels: SeatPanels, url: str, times: int = 1) -> bool:
    link = panels.link(url)
    return link is not None and link.connected and link.counts["connected"] >= times


def _greeted(table: Table, panels: SeatPanels, panel: PtyPanel, seat: int) -> None:
    """Wait for the port, say HELLO for ``seat``, and wait for the companion's answer."""
    pump(table, lambda: _connected(panels, panel.name) and "1" in panel.got("HELLO"))
    before = len(panel.got("SCORE"))
    panel.say(f"HELLO 1 {seat} test-seat-{seat}")
    pump(table, lambda: len(panel.got("SCORE")) > before)


def _refusals(table: Table) -> list[TableEvent]:
    seen: list[TableEvent] = []
    table.listen(lambda _table, event: seen.append(event) if event.kind == "refused" else None)
    return seen


# -- loop:// --------------------------------------------------------------------------------------

def test_over_loop_the_companion_answers_a_hello_and_ignores_its_own_lines_heard_back(table, panels_on):
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    opened: list[Any] = []

    def open_port(url: str, **options: Any) -> Any:
        opened.append(serial.serial_for_url(url, **options))
        return opened[-1]

    panels = panels_on(["loop://"], open_port=open_port, wired={"loop://": 1})  # seated by the wire
    link = panels.link("loop://")
    # the companion's first line asks the panel to introduce itself; over loop:// it hears it back
    pump(table, lambda: b"HELLO 1" in link.heard_lines())
    opened[0].write(b"HELLO 1 1\n")
    # A line is kept as heard before it is counted: wait for both (SCORE is the last of four).
    pump(table, lambda: any(line.startswith(b"SCORE") for line in link.heard_lines())
         and panels.counts()["unknown"] >= 4, shown=panels.counts)
    heard = link.heard_lines()
    # what the companion wrote, read back from the loop: the seat's player, whose turn, status, score
    assert heard[heard.index(b"HELLO 1 1") + 1:] == [b"SEAT 1 Albert", b"TURN you Albert",
                                                     b"STATUS Your turn", b"SCORE 0"]
    counts = panels.counts()
    assert counts["malformed"] == 1  # its own "HELLO 1" has no seat
    assert counts["unknown"] == 4  # SEAT, TURN, STATUS and SCORE are not panel lines
    assert counts["lines"] == 1 and link.connected  # ...and none of it was fatal


# -- moves from a panel ------------------------------------------------------------------------------

def test_a_whole_move_from_a_panel_is_entered_for_its_seat_and_every_panel_hears_of_it(
        table, panels_on, pty_panels):
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    albert, birgit = pty_panels(), pty_panels()
    panels = panels_on([albert.name, birgit.name])
    _greeted(table, panels, albert, 1)
    _greeted(table, panels, birgit, 2)
    assert albert.got("TURN")[-1] == "you Albert" and birgit.got("TURN")[-1] == "other Albert"
    assert birgit.got("STATUS")[-1] == "Albert's turn" and birgit.got("SEAT")[-1] == "2 Birgit"

    albert.say("MOVE red +2")  # the notation, the acting player's name left out
    pump(table, lambda: albert.got("ACCEPTED"))
    assert albert.got("ACCEPTED") == ["Albert: red +2"]
    assert table.app.store.stored_moves(table.live.id)[0][-1] == {
        "type": "build", "player": "Albert", "tower": "red", "stories": 2}
    # every panel is told after the move; only the one that entered it hears ACCEPTED
    pump(table, lambda: len(birgit.got("SCORE")) >= 2)
    assert birgit.got("ACCEPTED") == []


def test_a_move_as_record_json_is_entered_too(table, panels_on, pty_panels):
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    albert = pty_panels()
    panels = panels_on([albert.name])
    _greeted(table, panels, albert, 1)
    move = {"type": "build", "player": "Albert", "tower": "blue", "stories": 1}
    albert.say("JSON " + json.dumps(move))
    pump(table, lambda: albert.got("ACCEPTED"))
    assert table.app.store.stored_moves(table.live.id)[0][-1] == move


def test_a_move_in_the_notation_without_a_name_is_the_seats_own_move(table, panels_on, pty_panels):
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    birgit = pty_panels()
    panels = panels_on([birgit.name])
    _greeted(table, panels, birgit, 2)
    birgit.say("MOVE red +1")  # Birgit's build, out of turn: the rules say why, not "another seat's move"
    pump(table, lambda: birgit.got("REFUSED"))
    build = {"type": "build", "player": "Birgit", "tower": "red", "stories": 1}
    assert birgit.got("REFUSED") == [_expected_refusal(table, build, "en")]
    birgit.say("MOVE Albert: red +1")  # another seat's move, named
    pump(table, lambda: len(birgit.got("REFUSED")) == 2)
    assert birgit.got("REFUSED")[1] == "this panel enters Birgit's moves only"
    birgit.say("MOVE fly to the moon")
    pump(table, lambda: len(birgit.got("REFUSED")) == 3)
    assert "fly to the moon" in birgit.got("REFUSED")[2]
    assert table.session.log == ()


def _expected_refusal(table: Table, data: dict[str, Any], language: str) -> str:
    game, state = table.session.game, table.session.state
    with pytest.raises(IllegalMove) as refused:
        game.apply(state, game.parse_move(data))
    reason = refused.value.reason
    return render(reason, language) if not isinstance(reason, str) else reason


@pytest.mark.usefixtures("hungarian")
def test_a_refused_move_is_answered_to_its_panel_only_in_the_tables_language(table, panels_on, pty_panels):
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    albert, birgit = pty_panels(), pty_panels()
    panels = panels_on([albert.name, birgit.name])
    _greeted(table, panels, albert, 1)
    _greeted(table, panels, birgit, 2)
    assert birgit.got("STATUS")[-1] == "Albert következik"
    refusals = _refusals(table)

    out_of_turn = {"type": "build", "player": "Birgit", "tower": "red", "stories": 1}
    birgit.say("JSON " + json.dumps(out_of_turn))
    pump(table, lambda: birgit.got("REFUSED"))
    assert birgit.got("REFUSED") == [_expected_refusal(table, out_of_turn, "hu")]
    # a move for another seat is refused before the rules are asked
    birgit.say("JSON " + json.dumps({"type": "build", "player": "Albert", "tower": "red", "stories": 1}))
    pump(table, lambda: len(birgit.got("REFUSED")) == 2)
    assert birgit.got("REFUSED")[1] == "ez a panel csak Birgit lépéseit viheti be"
    assert table.session.log == ()
    assert [event.source for event in refusals] == ["panel:2"]  # the rules' refusal, told to every display

    # Albert's panel heard none of it: a later move of his arrives after anything queued before
    albert.say("MOVE piros +1")
    pump(table, lambda: albert.got("ACCEPTED"))
    assert albert.got("ACCEPTED") == ["Albert: piros +1"]
    assert albert.got("REFUSED") == []


def test_keys_choose_among_the_seats_moves_and_ok_enters_the_chosen_one(table, panels_on, pty_panels):
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    albert, birgit = pty_panels(), pty_panels()
    panels = panels_on([albert.name, birgit.name])
    _greeted(table, panels, albert, 1)
    _greeted(table, panels, birgit, 2)
    game, state = table.session.game, table.session.state
    mine = [t for t in game.legal_moves(state) if t.get("player") == "Albert"]

    birgit.say("KEY NEXT")  # Birgit may do nothing before Albert's turn
    pump(table, lambda: birgit.got("PICK"))
    assert birgit.got("PICK") == ["0 0 Nothing to enter now"]
    albert.say("KEY OK")  # nothing chosen yet
    albert.say("KEY NEXT")
    albert.say("KEY NEXT")
    albert.say("KEY PREV")
    albert.say("KEY PREV")  # back past the first: the last one
    pump(table, lambda: len(albert.got("PICK")) == 4)
    assert albert.got("REFUSED") == ["Choose a move first (next/previous)"]
    count = len(mine)
    assert albert.got("PICK") == [f"1 {count} {game.describe(state, mine[0])}",
                                  f"2 {count} {game.describe(state, mine[1])}",
                                  f"1 {count} {game.describe(state, mine[0])}",
                                  f"{count} {count} {game.describe(state, mine[-1])}"]
    albert.say("KEY OK")
    pump(table, lambda: albert.got("ACCEPTED"))
    assert table.session.game.move_to_json(table.session.log[-1]) == mine[-1]


def test_a_panel_that_did_not_say_its_seat_or_has_none_in_this_game_is_told(table, panels_on, pty_panels):
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    panel = pty_panels()
    panels = panels_on([panel.name])
    pump(table, lambda: _connected(panels, panel.name))
    panel.say("MOVE red +1")
    pump(table, lambda: panel.got("REFUSED"))
    assert panel.got("REFUSED") == ["say HELLO with your seat first"]
    _greeted(table, panels, panel, 5)  # three players: nobody sits at seat 5
    assert panel.got("STATUS")[-1] == "Seat 5 is not playing" and panel.got("SCORE")[-1] == "-"
    panel.say("HELLO 2 1")
    pump(table, lambda: len(panel.got("REFUSED")) == 2)
    assert panel.got("REFUSED")[1] == "this panel speaks protocol version 2; the companion speaks 1"
    assert table.session.log == ()


def test_the_same_panel_on_a_second_port_takes_its_seat_and_the_stale_port_is_told(
        table, panels_on, pty_panels):
    """A board plugged back in on a new port (its id the same) wins over its stale old port; another
    panel's claim of a held seat is refused (tests/test_panel_pairing.py)."""
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    old, new = pty_panels(), pty_panels()
    panels = panels_on([old.name, new.name])
    _greeted(table, panels, old, 1)
    _greeted(table, panels, new, 1)
    pump(table, lambda: old.got("REFUSED"))
    assert old.got("REFUSED") == ["another panel took seat 1"]
    assert panels.link(old.name).seat is None and panels.link(new.name).seat == 1


def test_the_panels_are_told_when_the_game_ends_who_won(table, panels_on, pty_panels):
    albert = pty_panels()
    panels = panels_on([albert.name])
    _greeted(table, panels, albert, 1)
    assert albert.got("STATUS")[-1] == "No game open"
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    for move in camp.random_game(7, 400):
        table.propose(move, "touch")
    assert table.session.game.is_finished(table.session.state)
    outcome = table.session.game.outcome(table.session.state)
    pump(table, lambda: albert.got("TURN") and albert.got("TURN")[-1] == "none"
         and albert.got("SCORE")[-1] == str(outcome.standings[[s.player for s in outcome.standings]
                                                               .index("Albert")].score))
    winners = " and ".join(outcome.winners) if len(outcome.winners) <= 2 else None
    if winners is not None:
        verb = "wins" if len(outcome.winners) == 1 else "win"
        assert albert.got("STATUS")[-1] == f"Game over: {winners} {verb}"


# -- faults: garbage, overlong lines, a panel that stops reading, unplugging ---------------------------

def test_garbage_and_overlong_lines_are_counted_and_the_panel_still_answers(table, panels_on, pty_panels):
    panel = pty_panels()
    panels = panels_on([panel.name])
    pump(table, lambda: _connected(panels, panel.name))
    panel.say(b"\xff\xfe\x00garbage")
    panel.say(b"x" * 100_000)
    panel.say(b"HELLO one two")
    panel.say(b"FROBNICATE 7")
    panel.say(b"JSON {not json")
    panel.say(b"PING")
    pump(table, lambda: panel.got("PONG"))
    counts = panels.counts()
    assert (counts["encoding"], counts["overlong"], counts["malformed"], counts["unknown"]) == (1, 1, 2, 1)
    assert counts["lines"] == 1 and counts["disconnected"] == 0


def test_a_panel_that_never_reads_does_not_block_the_main_loop(table, panels_on):
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    deaf = PtyPanel()  # the test never reads its master ...
    deaf._closed.set()
    deaf._thread.join(WAIT)
    panels = panels_on([deaf.name], queue_limit=8)
    try:
        link = panels.link(deaf.name)
        pump(table, lambda: link.connected)
        deaf.say("HELLO 1 1 test-seat-1")
        pump(table, lambda: link.seat == 1)
        _fill(deaf.slave)  # ... and what goes to it fills up: every write of the companion's now blocks
        table.propose(camp.random_game(3, 1, state=table.session.state)[0], "touch")
        # every undo and redo pushes four lines; the main loop goes on until the panel's queue is full
        # and lines are dropped (the pseudo-terminal's last free bytes are taken on the way)
        deadline = time.monotonic() + WAIT
        while panels.counts()["dropped"] == 0:
            assert time.monotonic() < deadline, panels.counts()
            table.undo()
            table.redo()
            assert len(link._out) <= 8
        assert len(table.session.log) == 1 and table.session.can_undo
    finally:
        panels.close()  # before the pty goes, so that nothing opens its name again
        os.close(deaf.master)
        os.close(deaf.slave)


def _fill(fd: int) -> None:
    """Write to ``fd`` (without blocking) until the pseudo-terminal takes no more."""
    os.set_blocking(fd, False)
    try:
        while True:
            os.write(fd, b"x" * 256)
    except BlockingIOError:
        pass


def test_an_unplugged_panel_is_picked_up_again_when_it_comes_back(table, panels_on, pty_panels, tmp_path):
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    port = tmp_path / "ttyPANEL"  # a stable name, as /dev/serial/by-id gives one
    first = pty_panels(port)
    panels = panels_on([str(port)])
    _greeted(table, panels, first, 2)
    first.unplug()
    assert panels.wait_for(lambda p: p.counts()["disconnected"] >= 1 and p.counts()["open_failed"] >= 1,
                           WAIT)
    pump(table, lambda: panels.link(str(port)).seat is None)

    again = pty_panels(port)
    pump(table, lambda: _connected(panels, str(port), times=2) and "1" in again.got("HELLO"))
    _greeted(table, panels, again, 2)
    assert again.got("SEAT")[-1] == "2 Birgit"


def test_a_glob_finds_panels_plugged_in_later(table, panels_on, pty_panels, tmp_path):
    panels = panels_on([str(tmp_path / "ttyACM*")])
    assert panels.links() == []
    later = pty_panels(tmp_path / "ttyACM0")
    _greeted(table, panels, later, 3)
    assert later.got("STATUS")[-1] == "No game open"


class _Server:
    """A TCP server the companion reaches over ``socket://``; it can go away and come back on its port."""

    def __init__(self, port: int = 0) -> None:
        self.listener = socket.create_server(("127.0.0.1", port), reuse_port=False)
        self.port = self.listener.getsockname()[1]

    def accept(self) -> socket.socket:
        self.listener.settimeout(WAIT)
        connection, _ = self.listener.accept()
        connection.settimeout(WAIT)
        return connection

    def close(self) -> None:
        self.listener.close()


def _read_until(connection: socket.socket, keyword: bytes) -> list[bytes]:
    got = b""
    while not any(line.startswith(keyword) for line in got.split(b"\n")[:-1]):
        data = connection.recv(4096)
        assert data, "the companion closed the connection"
        got += data
    return got.split(b"\n")[:-1]


def _in_background(table: Table, work: Any) -> Any:
    """Run ``work()`` on a thread while the main loop runs; returns its result."""
    result: list[Any] = []
    thread = threading.Thread(target=lambda: result.append(work()))
    thread.start()
    pump(table, lambda: not thread.is_alive())
    assert result, "the background work failed"
    return result[0]


def _greeted_over_socket(table: Table, server: _Server) -> socket.socket:
    connection = _in_background(table, server.accept)
    assert b"HELLO 1" in _read_until(connection, b"HELLO")
    connection.sendall(b"HELLO 1 3 test-seat-3\n")
    assert b"SEAT 3 Franziska" in _in_background(table, lambda: _read_until(connection, b"SCORE"))
    return connection


def test_a_socket_port_whose_server_goes_away_is_connected_again_when_it_is_back(table, panels_on):
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    server = _Server()
    panels = panels_on([f"socket://127.0.0.1:{server.port}"])
    _greeted_over_socket(table, server).close()
    server.close()  # the server goes away ...
    assert panels.wait_for(lambda p: p.counts()["open_failed"] >= 2, WAIT)
    server = _Server(server.port)  # ... and comes back on the same port
    _greeted_over_socket(table, server).close()
    server.close()
    assert panels.counts()["connected"] == 2


def test_close_ends_every_thread(table, pty_panels):
    panel = pty_panels()
    panels = SeatPanels(table, [panel.name, "socket://127.0.0.1:9"], **FAST).start()
    pump(table, lambda: _connected(panels, panel.name))
    panels.close()
    assert all(link.ended.is_set() for link in panels.links())
    assert not any(t.name.startswith("panel ") for t in threading.enumerate())


# -- the composition -----------------------------------------------------------------------------------

def test_from_config_builds_panels_for_the_configured_ports_only(table):
    config = defaults()
    assert from_config(config, table, environ={}) is None  # no ports: no panels
    wired = type(config)({**config.values, "serial.panels": ["/dev/ttyACM*", "loop://"],
                          "serial.baudrate": 57600})
    panels = from_config(wired, table, environ={})
    assert panels is not None and panels.ports == ("/dev/ttyACM*", "loop://") and panels.baudrate == 57600
    assert from_config(wired, table, environ={"COMPANION_PANELS": "none"}) is None
    assert from_config(wired, table, environ={"COMPANION_PANELS": "real"}) is not None
