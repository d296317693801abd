"""Seat panels are paired, not trusted: a panel that lies about its seat or its id plays no seat.

Issue 21, defect 4: the seat was whatever a device said in ``HELLO``, so a
pseudo-terminal claiming each seat in turn entered moves for every player, and
the real panel of seat 2 was told another panel took its seat. Here the
liars are real pseudo-terminals and ``socket://`` peers, the companion's
side real threads; every wait is on a condition with a generous time-out.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serial.tools import list_ports, list_ports_common

from companion.service.app import Companion
from companion.service.table import Table
from hardware.navigator import Navigator
from hardware.panel_pairing import PAIRINGS, Identity, PairingRequest, Pairings, usb_serial, wired_seat
from hardware.panels import SeatPanels, from_config
from tests import helpers_campanile as camp
from tests.panel_helpers import PtyPanel, pump
from tests.test_panels import FAST, _in_background, _read_until, _Server

BUILD = {"type": "build", "player": "Albert", "tower": "red", "stories": 1}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        yield Table(app)


class Asked:
    """The front end's side: the pairing requests it was shown, answered when the test says."""

    def __init__(self) -> None:
        self.requests: list[PairingRequest] = []
        self.refused: list[str] = []


@pytest.fixture
def started(table: Table) -> Iterator[Any]:
    made: list[tuple[SeatPanels, list[PtyPanel]]] = []

    def start(panels: list[PtyPanel], asked: Asked, **options: Any) -> SeatPanels:
        running = SeatPanels(table, [p.name for p in panels], on_request=asked.requests.append,
                             on_refused=lambda message: asked.refused.append(str(message)),
                             **{**FAST, **options}).start()
        made.append((running, panels))
        return running

    yield start
    for running, panels in made:
        running.close()  # before the pseudo-terminals go
        for panel in panels:
            if not panel._closed.is_set():
                panel.unplug()


def _hello(table: Table, panels: SeatPanels, panel: PtyPanel, line: str, answers: int = 1) -> None:
    """Wait for the port to open, send ``line`` and wait for ``answers`` more REFUSED or SCORE lines."""
    pump(table, lambda: "1" in panel.got("HELLO"))
    before = len(panel.got("REFUSED")) + len(panel.got("SCORE"))
    panel.say(line)
    pump(table, lambda: len(panel.got("REFUSED")) + len(panel.got("SCORE")) >= before + answers)


def _move(table: Table, panel: PtyPanel, move: dict[str, Any]) -> str:
    """Send ``move`` as record JSON; the panel's answer (``ACCEPTED ...`` or ``REFUSED ...``)."""
    answers = len(panel.got("ACCEPTED")) + len(panel.got("REFUSED"))
    panel.say("JSON " + json.dumps(move))
    pump(table, lambda: len(panel.got("ACCEPTED")) + len(panel.got("REFUSED")) > answers)
    return next(line for line in reversed(panel.lines) if line.startswith(("ACCEPTED", "REFUSED")))


# -- the defect: a device that claims every seat in turn ------------------------------------------------

def test_a_panel_never_allowed_plays_no_seat_whatever_seat_it_claims(table, started):
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    liar, asked = PtyPanel(), Asked()
    panels = started([liar], asked)
    for seat, player in enumerate(camp.PLAYERS, start=1):
        _hello(table, panels, liar, f"HELLO 1 {seat} liar-0001")
        move = {**BUILD, "player": player}
        assert _move(table, liar, move) == f"REFUSED waiting to be allowed at seat {seat} on the companion"
    assert table.session.log == ()
    liar_id = Identity("liar-0001", port=liar.name)  # no USB serial number: bound to its port
    assert [(r.seat, r.identity) for r in asked.requests] == [(1, liar_id), (2, liar_id), (3, liar_id)]
    assert table.app.store.get_setting(PAIRINGS) is None  # nothing was allowed, nothing remembered


def test_a_second_claim_of_a_seat_is_refused_shown_and_the_holder_keeps_it(table, started):
    """The variation: the real panel holds seat 2; a liar with another id claims it too."""
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    real, liar, asked = PtyPanel(), PtyPanel(), Asked()
    panels = started([real, liar], asked)
    _hello(table, panels, real, "HELLO 1 2 birgit-panel")
    panels_answer(table, panels, asked.requests[-1], True)
    pump(table, lambda: panels.link(real.name).seat == 2)

    _hello(table, panels, liar, "HELLO 1 2 birgit-panel-2")
    assert liar.got("REFUSED")[-1] == "seat 2 has its panel already"
    assert asked.refused == [f"A second panel ({liar.name}) asked for seat 2: refused"]
    # the real panel was only ever asked to wait for its yes; nobody took its seat
    assert panels.link(real.name).seat == 2
    assert real.got("REFUSED") == ["allow this panel at seat 2 on the companion"]
    assert len(asked.requests) == 1  # nobody was asked about the liar


def panels_answer(table: Table, panels: SeatPanels, request: PairingRequest, allowed: bool) -> None:
    """Answer as the OLED menu does: on the main loop."""
    table.commands.post(lambda: panels.answer(request, allowed))
    table.commands.drain(timeout=0.01)


# -- the pairing itself ---------------------------------------------------------------------------------

def test_an_allowed_usb_panel_plays_its_seat_and_is_remembered_by_its_id_and_serial_not_its_port(
        table, started, tmp_path):
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    first, asked = PtyPanel(tmp_path / "ttyACM0"), Asked()
    panels = started([first], asked, usb_serial=lambda url: "E660583883265F2A")
    _hello(table, panels, first, "HELLO 1 1 albert-0001")
    request = asked.requests[-1]
    assert (request.port, request.seat, request.player) == (first.name, 1, "Albert")
    panels_answer(table, panels, request, True)
    pump(table, lambda: first.got("SEAT") and first.got("SEAT")[-1] == "1 Albert")
    assert _move(table, first, BUILD).startswith("ACCEPTED")
    panels.close()
    first.unplug()

    # the same board (its USB serial number says so) on another port, the companion started again:
    # seated without a question
    again, asked_again = PtyPanel(tmp_path / "ttyACM1"), Asked()
    panels = started([again], asked_again, usb_serial=lambda url: "E660583883265F2A")
    _hello(table, panels, again, "HELLO 1 1 albert-0001")
    assert again.got("SEAT")[-1] == "1 Albert" and asked_again.requests == []
    # ... but not at another seat: that is a new question
    _hello(table, panels, again, "HELLO 1 2 albert-0001")
    assert [r.seat for r in asked_again.requests] == [2] and panels.link(again.name).seat is None


def test_a_refused_panel_is_told_and_stays_without_a_seat(table, started):
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    panel, asked = PtyPanel(), Asked()
    panels = started([panel], asked)
    _hello(table, panels, panel, "HELLO 1 3 someone-else")
    _hello(table, panels, panel, "HELLO 1 3 someone-else")  # repeated while the question is open
    assert len(asked.requests) == 1  # ... asked once
    panels_answer(table, panels, asked.requests[-1], False)
    pump(table, lambda: len(panel.got("REFUSED")) == 3)
    assert panel.got("REFUSED")[-1] == "this panel was not allowed at seat 3"
    assert panels.link(panel.name).seat is None
    assert _move(table, panel, {**BUILD, "player": "Franziska"}) == "REFUSED say HELLO with your seat first"
    _hello(table, panels, panel, "HELLO 1 3 someone-else")  # after a "no", its HELLO asks nothing
    assert panel.got("REFUSED")[-1] == "this panel was not allowed at seat 3" and len(asked.requests) == 1


def test_a_panel_without_an_id_is_refused_unless_its_port_is_wired(table, started):
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    usb, uart, asked = PtyPanel(), PtyPanel(), Asked()
    panels = started([usb, uart], asked, wired={uart.name: 1})
    _hello(table, panels, usb, "HELLO 1 2")
    assert usb.got("REFUSED")[-1].startswith("this panel sends no id")
    _hello(table, panels, uart, "HELLO 1 1")  # the wire is the pairing: no id, no question
    assert uart.got("SEAT")[-1] == "1 Albert" and asked.requests == []
    assert _move(table, uart, BUILD).startswith("ACCEPTED")
    _hello(table, panels, uart, "HELLO 1 3 franziska-01")  # a wired port lying about its seat
    assert uart.got("REFUSED")[-1] == "this port is wired to seat 1"
    assert panels.link(uart.name).seat is None


def test_a_copied_id_on_another_usb_board_is_not_the_paired_panel(table, started):
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    panel, asked = PtyPanel(), Asked()
    serials = {"number": "E660583883265F2A"}
    panels = started([panel], asked, usb_serial=lambda url: serials["number"])
    _hello(table, panels, panel, "HELLO 1 1 albert-0001")
    assert asked.requests[-1].identity == Identity("albert-0001", "E660583883265F2A")
    panels_answer(table, panels, asked.requests[-1], True)
    pump(table, lambda: panels.link(panel.name).seat == 1)
    assert table.app.store.get_setting(PAIRINGS) == {"1": {"id": "albert-0001", "usb": "E660583883265F2A"}}

    panels.close()
    panel.unplug()
    other = PtyPanel()  # another board, sending the same id
    serials["number"] = "0000000000000001"
    panels = started([other], asked, usb_serial=lambda url: serials["number"])
    _hello(table, panels, other, "HELLO 1 1 albert-0001")
    assert panels.link(other.name).seat is None
    assert asked.requests[-1].identity == Identity("albert-0001", "0000000000000001")


def test_a_socket_panel_lying_about_its_id_waits_for_a_yes(table):
    """The same over ``socket://``: pyserial's network port, a peer that borrows a paired panel's seat
    with its own id, then tries the paired id (no USB serial there: the id on this port is the panel)."""
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    server, asked = _Server(), Asked()
    url = f"socket://127.0.0.1:{server.port}"
    Pairings(lambda: table.app.store.get_setting(PAIRINGS),
             lambda value: table.app.store.set_setting(PAIRINGS, value)).pair(
        Identity("franziska-1", port=url), 3)
    panels = SeatPanels(table, [url], on_request=asked.requests.append, **FAST).start()
    try:
        connection = _in_background(table, server.accept)
        assert b"HELLO 1" in _read_until(connection, b"HELLO")
        connection.sendall(b"HELLO 1 3 not-franziska\nJSON " + json.dumps({**BUILD}).encode() + b"\n")
        got = _in_background(table, lambda: _read_until(connection, b"REFUSED waiting"))
        assert b"REFUSED allow this panel at seat 3 on the companion" in got
        assert [r.seat for r in asked.requests] == [3]
        connection.sendall(b"HELLO 1 3 franziska-1\n")
        assert b"SEAT 3 Franziska" in _in_background(table, lambda: _read_until(connection, b"SCORE"))
        connection.close()
    finally:
        panels.close()
        server.close()


# -- the OLED's question, the configuration ------------------------------------------------------------

def test_the_oled_asks_no_first_and_allow_answers_the_request(table):
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    navigator = Navigator(table)
    answers: list[bool] = []
    navigator.ask_pairing(2, "Birgit", answers.append)
    assert navigator.listing is not None
    assert (navigator.listing.title, navigator.listing.labels) == ("Panel for seat 2?",
                                                                    ["No, refuse", "Allow: Birgit"])
    navigator.key("confirm")  # a push by mistake: "no"
    navigator.ask_pairing(2, None, answers.append)
    navigator.key("next")
    navigator.key("confirm")
    assert answers == [False, True]
    navigator.ask_pairing(1, "Albert", answers.append)
    navigator.key("menu")  # backing out answers nothing
    assert answers == [False, True] and navigator.listing is None


def test_wired_ports_come_from_the_configuration_and_are_opened_too(table, tmp_path):
    link = tmp_path / "ttyUART"
    link.symlink_to("/dev/null")
    wired = {"/dev/ttyAMA0": 1, str(link): 2}
    assert wired_seat(wired, "/dev/ttyAMA0") == 1
    assert wired_seat(wired, "/dev/null") == 2  # the device a link points at is the same port
    assert wired_seat(wired, "/dev/ttyACM0") is None and wired_seat(wired, "loop://") is None
    config = {"serial.panels": ["/dev/ttyACM*"], "serial.wired": ["/dev/ttyAMA0=1"],
              "serial.baudrate": 115200}
    panels = from_config(config, table, environ={})
    assert panels is not None and panels.ports == ("/dev/ttyACM*", "/dev/ttyAMA0")
    assert panels.wired == {"/dev/ttyAMA0": 1}


def test_pairings_in_the_store_that_are_not_the_expected_shape_pair_nothing() -> None:
    stored: dict[str, Any] = {"value": {"1": "albert", "x": {"id": "a"}, "2": {"id": 7}, "3": {"id": "ok-3"}}}
    pairings = Pairings(lambda: stored["value"], lambda value: stored.update(value=value))
    assert pairings.seats() == {3: Identity("ok-3")}
    pairings.pair(Identity("ok-3"), 1)  # a panel has one seat: allowed at 1, it leaves 3
    assert pairings.seats() == {1: Identity("ok-3")}
    stored["value"] = ["not", "a", "mapping"]
    assert pairings.seats() == {}


def test_the_appliance_asks_on_the_oled_and_its_allow_seats_the_panel(tmp_path: Path) -> None:
    """The whole box: a panel's HELLO reaches the OLED menu's question; "allow" there seats it."""
    from companion.service.config import defaults
    from hardware.appliance import Appliance

    panel = PtyPanel()
    config = dict(defaults().values) | {"serial.panels": [panel.name]}
    with Companion.open(tmp_path / "s.sqlite3") as app:
        table = Table(app)
        table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
        appliance = Appliance(table, config, environ={"COMPANION_OLED": "none", "COMPANION_BUTTONS": "none"})
        try:
            appliance.panels.first_retry = FAST["first_retry"]
            pump(table, lambda: "1" in panel.got("HELLO"))
            panel.say("HELLO 1 2 birgit-board")
            pump(table, lambda: appliance.navigator.listing is not None)
            assert appliance.navigator.listing.labels == ["No, refuse", "Allow: Birgit"]
            appliance.post_key("next")
            appliance.post_key("confirm")
            pump(table, lambda: panel.got("SEAT") and panel.got("SEAT")[-1] == "2 Birgit")
            assert app.store.get_setting(PAIRINGS) == {"2": {"id": "birgit-board", "usb": None,
                                                             "port": panel.name}}
        finally:
            appliance.close()
            panel.unplug()


def test_the_usb_serial_number_is_the_one_listed_for_the_device_a_port_name_points_at(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pyserial's list of ports (udev's ID_SERIAL_SHORT, read from sysfs) stood in for by a list of its
    own ListPortInfo objects: a /dev/serial/by-id link is followed to its device first."""
    board = list_ports_common.ListPortInfo("/dev/null")
    board.serial_number = "E660583883265F2A"
    uart = list_ports_common.ListPortInfo("/dev/zero")  # a port without a USB serial number
    monkeypatch.setattr(list_ports, "comports", lambda: [uart, board])
    by_id = tmp_path / "usb-MicroPython_Board_in_FS_mode_e660583883265f2a-if00"
    by_id.symlink_to("/dev/null")
    assert usb_serial(str(by_id)) == "E660583883265F2A"
    assert usb_serial("/dev/zero") is None and usb_serial(str(tmp_path / "ttyACM9")) is None
    assert usb_serial("socket://127.0.0.1:9") is None
