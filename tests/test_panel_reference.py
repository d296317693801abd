"""The reference panel of docs/panel/ against the companion over a pseudo-terminal, and the echo test.

The reference panel's logic (``docs/panel/panel_logic.py``, the file copied to
the board) runs here under CPython on the panel's side of a real
pseudo-terminal, so the program people build from is the one tested. Threads
wait on conditions with generous time-outs; nothing asserts a duration.
"""

from __future__ import annotations

import importlib.util
import os
import re
import select
import threading
import tty
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.service.app import Companion
from companion.service.config import defaults
from companion.service.table import Table
from hardware.panel_pairing import Identity, PairingRequest
from hardware.panel_protocol import panel_id
from hardware.panels import SeatPanels, echo_from_config, echo_test
from tests import helpers_campanile as camp
from tests.panel_helpers import WAIT, pump
from tests.refusals import assert_message, assert_words

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("panel_logic", ROOT / "docs" / "panel" / "panel_logic.py")
assert _spec is not None and _spec.loader is not None
panel_logic: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(panel_logic)


class ReferencePanel:
    """The reference panel's logic on the master side of a pseudo-terminal, on its own thread."""

    def __init__(self, seat: int) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.name = os.ttyname(self.slave)
        self.panel = panel_logic.Panel(seat, f"reference-{seat}")
        self.reader = panel_logic.LineReader()
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def send(self, line: str) -> None:
        os.write(self.master, line.encode("utf-8") + b"\n")

    def press(self, key: str) -> None:
        self.send(self.panel.key(key))

    def _run(self) -> None:
        self.send(self.panel.hello())  # what main.py does first
        while not self.stop.is_set():
            if not select.select([self.master], [], [], 0.05)[0]:
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            for line in self.reader.feed(data):
                with self.lock:
                    answers = self.panel.receive(line)
                for answer in answers:
                    self.send(answer)

    def screen(self) -> list[str]:
        with self.lock:
            return self.panel.screen(16)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(WAIT)
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def reference() -> Iterator[Any]:
    made: list[ReferencePanel] = []

    def make(seat: int) -> ReferencePanel:
        made.append(ReferencePanel(seat))
        return made[-1]

    yield make
    for panel in made:
        panel.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        yield Table(app)


def test_a_game_is_played_from_the_reference_panel_with_its_keys(table, reference):
    table.start("campanile", camp.PLAYERS, setup=camp.SETUP)
    board = reference(1)
    asked: list[PairingRequest] = []
    panels = SeatPanels(table, [board.name], first_retry=0.02, longest_retry=0.2,
                        on_request=asked.append).start()
    try:
        # a new panel waits to be allowed, and shows why; then the OLED's "allow" seats it
        pump(table, lambda: asked and board.panel.answer.startswith("! allow"), shown=board.screen)
        assert asked[0].identity == Identity("reference-1", port=board.name)  # no USB serial number
        table.commands.post(lambda: panels.answer(asked[0], True))
        # The seat line and the status come as separate protocol lines: wait for the whole screen.
        expected = ["*1 Albert      0", "Your turn"]
        pump(table, lambda: board.screen() == expected, shown=board.screen)
        board.press("NEXT")
        pump(table, lambda: board.panel.pick != "")
        assert board.screen()[2:] == ["1/15 Albert: red", " +1"]
        board.press("OK")
        pump(table, lambda: board.panel.answer.startswith("="))
        assert table.session.game.move_to_json(table.session.log[-1]) == {
            "type": "build", "player": "Albert", "tower": "red", "stories": 1}
        assert board.panel.answer == "= Albert: red +1"
    finally:
        panels.close()


def test_the_reference_panel_shows_hungarian_without_accents():
    panel = panel_logic.Panel(2, "p-0011223344556677")
    for line in ("SEAT 2 Birgit", "TURN other Albert", "STATUS Albert következik", "SCORE 12",
                 "REFUSED ez a panel csak Birgit lépéseit viheti be", "A LATER LINE"):
        assert panel.receive(line) == []
    assert panel.receive("ECHO ab12") == ["ECHO ab12"]
    assert panel.receive("HELLO 1") == ["HELLO 1 2 p-0011223344556677"]
    assert panel.screen(16) == [" 2 Birgit     12", "Albert kovetkezi", "k", "! ez a panel csa",
                                "k Birgit lepesei", "t viheti be"]


def test_the_reference_panel_makes_its_id_once_and_keeps_it(tmp_path):
    kept = tmp_path / panel_logic.ID_FILE
    draws = iter([bytes(range(8)), bytes(range(8, 16)), bytes(range(16, 24))])
    first = panel_logic.load_or_make_id(str(kept), lambda n: next(draws))
    assert first == "p-0001020304050607" and panel_id(first) == first  # the companion reads it as an id
    assert panel_logic.load_or_make_id(str(kept), lambda n: next(draws)) == first  # kept, not made again
    kept.write_text("not an id, too long and with spaces\n")  # a damaged file: a new id
    assert panel_logic.load_or_make_id(str(kept), lambda n: next(draws)) == "p-08090a0b0c0d0e0f"


def test_the_reference_panels_reader_drops_an_overlong_line():
    reader = panel_logic.LineReader()
    assert reader.feed(b"x" * 1000) == []
    assert reader.feed(b"\nSTATUS ok\r\n") == ["STATUS ok"]


def test_the_echo_test_hears_each_panel_and_says_which_are_silent_or_missing(tmp_path):
    board = ReferencePanel(3)
    silent_master, silent_slave = os.openpty()
    tty.setraw(silent_slave)
    try:
        results = echo_test([board.name, os.ttyname(silent_slave), str(tmp_path / "ttyACM9")],
                            timeout=2.0)
    finally:
        board.close()
        os.close(silent_master)
        os.close(silent_slave)
    assert [(r.ok, r.seat) for r in results] == [(True, 3), (False, None), (False, None)]
    assert_message(results[0].message, "panel.echo.ok", port=board.name, seat=3)
    assert_message(results[1].message, "panel.echo.silent", seconds=2.0)
    assert_message(results[2].message, "panel.echo.missing", port=str(tmp_path / "ttyACM9"))


def test_the_echo_test_takes_the_configured_ports_and_a_loop_port_echoes_itself():
    config = defaults()
    assert echo_from_config(config) == []  # no panels configured
    wired = type(config)({**config.values, "serial.panels": ["loop://"]})
    [result] = echo_from_config(wired)
    # loop:// hears the companion's own HELLO (no seat in it) and its ECHO: an answer without a seat
    assert (result.port, result.ok, result.seat) == ("loop://", True, None)
    assert_message(result.message, "panel.echo.ok_no_seat", port="loop://")


def test_the_echo_test_expands_a_glob_and_finds_nothing_in_an_empty_one(tmp_path):
    assert echo_test([str(tmp_path / "ttyACM*")]) == []


# -- the panels' words ------------------------------------------------------------------------------

SAMPLE = {"version": 2, "supported": 1, "seat": 3, "player": "Birgit", "winners": ["Ann", "Bob"],
          "count": 2, "move": "Albert: red +1", "port": "/dev/ttyACM0", "reason": "[Errno 2]",
          "seconds": 2.0}


def test_every_panel_code_in_the_code_reads_well_in_every_language():
    source = (ROOT / "hardware" / "panels.py").read_text(encoding="utf-8")
    codes = set(re.findall(r'''\b(?:text|msg)\(\s*["'](panel\.[\w.]+)["']''', source))
    assert len(codes) >= 15  # the scan finds them
    from companion.games.messages import Message
    from companion.i18n import catalogue

    assert codes == {code for _, code in catalogue("en").msgids if code.startswith("panel.")}
    for code in codes:
        assert_words(Message(code, SAMPLE), names=("HELLO", "Birgit", "Albert", "/dev/ttyACM0", "Errno"))
