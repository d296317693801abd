"""Buttons and the encoder through gpiozero's MockFactory: presses become moves on a real stored game.

The appliance's loop runs on the test's thread (the store's thread); the pins
are driven from it too, gpiozero's own threads post the keys, and the test
pumps the loop until what it waits for happened, with a generous time-out.
"""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.service.app import Companion
from companion.service.config import defaults
from companion.service.table import Table, TableEvent
from hardware.appliance import Appliance
from hardware.navigator import likely_first, observed_choices

WAIT = 30.0  # seconds; a time-out, never a measurement
EXAMPLE = Path(__file__).parent / "data" / "examples" / "campanile-3p.json"


def _config(**changes: Any) -> dict[str, Any]:
    values = dict(defaults().values)
    values.update({"encoder.enabled": True, "buttons.hold_time": 0.2, "oled.driver": "none"})
    values.update(changes)
    return values


class Box:
    """An appliance on mock pins with helpers that press, hold and turn, and pump its loop."""

    def __init__(self, table: Table, config: dict[str, Any]) -> None:
        self.factory = MockFactory()
        self.config = config
        self.appliance = Appliance(table, config, factory=self.factory)
        self.table = table
        self.events: list[TableEvent] = []
        table.listen(lambda _t, event: self.events.append(event))

    def pin(self, key: str) -> Any:
        return self.factory.pin(self.config[key])

    def pump(self, done: Callable[[], bool]) -> None:
        """Run the loop until ``done()``; fail after a generous time-out."""
        deadline = threading.Event()
        timer = threading.Timer(WAIT, deadline.set)
        timer.start()
        try:
            while not done():
                assert not deadline.is_set(), "the loop never got there"
                self.appliance.step(timeout=0.2)
        finally:
            timer.cancel()

    def press(self, key: str) -> None:
        pin = self.pin(key)
        pin.drive_low()
        pin.drive_high()

    def hold(self, key: str, until: Callable[[], bool]) -> None:
        """Hold the button until ``until()`` (the long press's effect), then let go."""
        pin = self.pin(key)
        pin.drive_low()
        try:
            self.pump(until)
        finally:
            pin.drive_high()

    def turn(self, steps: int) -> None:
        """Turn the encoder ``steps`` detents (negative: anticlockwise), as quadrature edges."""
        a, b = self.pin("encoder.a"), self.pin("encoder.b")
        sequence = [(0, 1), (0, 0), (1, 0), (1, 1)] if steps > 0 else [(1, 0), (0, 0), (0, 1), (1, 1)]
        for _ in range(abs(steps)):
            for level_a, level_b in sequence:
                (a.drive_high if level_a else a.drive_low)()
                (b.drive_high if level_b else b.drive_low)()

    def count(self, kind: str) -> int:
        return sum(1 for event in self.events if event.kind == kind)

    def choose(self, move: dict[str, Any]) -> None:
        """Enter ``move`` as a player would: turn to it in the list, push; the refill card likewise."""
        session = self.table.session
        assert session is not None
        game, state = session.game, session.state
        templates = likely_first(game, state, game.legal_moves(state))
        template = move if move in templates else {k: v for k, v in move.items() if k != "card"}
        before = self.count("move")
        self.turn(1)
        self.turn(templates.index(template))
        self.press("encoder.push")
        if template is not move:  # the observed field: asked the same way
            self.pump(lambda: self.appliance.navigator.listing is not None
                      and self.appliance.navigator.listing.title != "" and self.count("move") == before
                      and self._asking())
            choices = observed_choices(game, state, template)
            self.turn(choices.index(move) + len(choices) if choices.index(move) else 0)
            self.press("encoder.push")
        self.pump(lambda: self.count("move") > before or self.count("refused") > 0)
        assert self.count("refused") == 0, self.events[-1]

    def _asking(self) -> bool:
        listing = self.appliance.navigator.listing
        return listing is not None and listing.title.startswith(("Card", "Felfordított"))

    def close(self) -> None:
        self.appliance.close()


@pytest.fixture
def app(tmp_path: Path):
    with Companion.open(tmp_path / "companion.sqlite3") as companion:
        yield companion


@pytest.fixture
def box(app: Companion):
    table = Table(app)
    made = Box(table, _config())
    yield made
    made.close()


def test_the_rulebook_game_is_played_with_the_encoder_alone(box: Box) -> None:
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    box.table.start("campanile", record["players"], setup=record["setup"])
    for move in record["moves"]:
        box.choose(move)
    session = box.table.session
    assert session is not None and session.game.is_finished(session.state)
    expected = json.loads(EXAMPLE.with_name("campanile-3p.expected.json").read_text(encoding="utf-8"))
    assert session.game.summary(session.state)["scores"] == expected["scores"]
    stored = box.table.app.export_record(box.table.live.id)  # type: ignore[union-attr]
    assert stored["moves"] == record["moves"]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_random_game_with_the_display_tracked_is_played_with_the_encoder(box: Box,
                                                                           seed: int) -> None:
    chance = random.Random(seed)
    towers = ["red", "blue", "yellow", "brown", "grey"]
    box.table.start("campanile", ["Ada", "Bo", "Cy"],
                    setup={"towers": towers, "display": ["red", "blue", "grey"]})
    for _ in range(40):
        session = box.table.session
        assert session is not None
        game, state = session.game, session.state
        if game.is_finished(state):
            break
        listed = game.legal_moves(state)
        # a valuation only when nothing else may come, so that the game goes on for a while
        template = chance.choice([t for t in listed if t["type"] != "valuation"] or listed)
        if template["type"] == "reveal":
            cards = observed_choices(game, state, template)
            move = chance.choice([c for c in cards if c["type"] == "reveal"])
        else:
            move = template
        box.choose(move)
    session = box.table.session
    assert session is not None and len(session.log) >= 20
    assert any(game_move["type"] == "reveal" for game_move in
               box.table.app.export_record(box.table.live.id)["moves"])  # type: ignore[union-attr]


def test_undo_undoes_and_a_long_press_redoes(box: Box) -> None:
    box.table.start("campanile", ["Ada", "Bo", "Cy"])
    box.choose({"type": "build", "player": "Ada", "tower": "grey", "stories": 2})
    session = box.table.session
    assert session is not None
    box.press("buttons.undo")
    box.pump(lambda: box.count("undo") == 1)
    assert len(session.log) == 0
    box.hold("buttons.undo", lambda: box.count("redo") == 1)
    assert len(session.log) == 1
    # the release after the long press is not also a short press: nothing more is undone
    box.press("buttons.menu")
    box.pump(lambda: box.appliance.navigator.listing is not None)
    assert box.count("undo") == 1 and len(session.log) == 1


def test_valuation_previews_and_a_long_press_records_the_card(box: Box) -> None:
    box.table.start("campanile", ["Ada", "Bo", "Cy"])
    box.choose({"type": "build", "player": "Ada", "tower": "grey", "stories": 2})
    box.choose({"type": "influence", "player": "Ada", "tower": "grey"})
    box.press("buttons.valuation")
    box.pump(lambda: bool(box.appliance.navigator.preview))
    page = box.appliance.view.page(box.appliance.view._status_since).text()
    assert "Intermezzo" in page and "Ad +" in page
    box.hold("buttons.valuation", lambda: box.count("move") == 3)
    session = box.table.session
    assert session is not None
    assert session.game.move_to_json(session.log[-1]) == {"type": "valuation", "phase": "intermezzo"}


def test_a_refused_move_changes_nothing_and_its_reason_reaches_the_oled(box: Box) -> None:
    box.table.start("campanile", ["Ada", "Bo", "Cy"])
    box.press("buttons.valuation")
    box.hold("buttons.valuation", lambda: box.appliance.view._notice is not None)
    session = box.table.session
    assert session is not None and len(session.log) == 0
    assert "valuation" in box.appliance.view.page(box.appliance.view._notice.since).text().lower()


def test_the_menu_starts_a_game_for_a_fresh_box(box: Box) -> None:
    box.press("buttons.menu")
    box.pump(lambda: box.appliance.navigator.listing is not None)
    box.press("encoder.push")  # "New game"
    box.pump(lambda: box.appliance.navigator.listing is not None
             and box.appliance.navigator.listing.labels[0] == "Campanile")
    box.press("encoder.push")  # Campanile
    box.pump(lambda: box.appliance.navigator.listing is not None
             and box.appliance.navigator.listing.labels[0].endswith("players"))
    box.turn(1)  # 3 players
    box.press("encoder.push")
    box.pump(lambda: box.table.live is not None)
    assert box.table.session is not None and box.table.session.players == ("Player 1", "Player 2", "Player 3")


def test_without_an_encoder_next_scrolls_and_a_long_press_confirms(app: Companion) -> None:
    table = Table(app)
    box = Box(table, _config(**{"encoder.enabled": False}))
    try:
        table.start("campanile", ["Ada", "Bo", "Cy"])
        session = table.session
        assert session is not None
        second = likely_first(session.game, session.state, session.game.legal_moves(session.state))[1]
        box.press("buttons.confirm")  # opens the list at the first move
        box.press("buttons.confirm")  # the second
        box.pump(lambda: box.appliance.navigator.listing is not None
                 and box.appliance.navigator.listing.index == 1)
        box.hold("buttons.confirm", lambda: box.count("move") == 1)
        assert session.game.move_to_json(session.log[0]) == second
    finally:
        box.close()


def test_a_castelli_reveal_says_which_front_end_can_enter_it(app: Companion) -> None:
    table = Table(app)
    box = Box(table, _config())
    try:
        example = json.loads((EXAMPLE.parent / "castelli.json").read_text(encoding="utf-8"))
        table.start("castelli", example["players"], options=example.get("options", {}),
                    setup=example["setup"])
        session = table.session
        assert session is not None
        templates = likely_first(session.game, session.state, session.game.legal_moves(session.state))
        reveal = next(i for i, t in enumerate(templates) if t["type"] == "reveal")
        box.turn(1)
        box.turn(reveal)
        box.press("encoder.push")
        box.pump(lambda: box.appliance.view._notice is not None)
        words = box.appliance.view.page(box.appliance.view._notice.since).text()
        assert "touchscreen" in words and len(session.log) == 0
    finally:
        box.close()


class FlakyFactory(MockFactory):
    """Mock pins whose first few requests fail, as a GPIO chip that is not there yet does."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures

    def pin(self, spec: Any, **kwargs: Any) -> Any:
        if self.failures > 0:
            self.failures -= 1
            raise OSError(16, "Device or resource busy")
        return super().pin(spec, **kwargs)


def test_buttons_that_fail_at_start_are_retried_and_logged_once(app: Companion,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("WARNING", logger="hardware.appliance")
    table = Table(app)
    factory = FlakyFactory(failures=3)
    appliance = Appliance(table, _config(), factory=factory, retry_seconds=0.01)
    try:
        assert appliance.controls is None  # the box runs without them meanwhile
        table.start("campanile", ["Ada", "Bo", "Cy"])
        done = threading.Event()
        timer = threading.Timer(WAIT, done.set)
        timer.start()
        while appliance.controls is None:
            assert not done.is_set(), "the buttons never came back"
            appliance.step(timeout=0.01)
        timer.cancel()
        factory.pin(5).drive_low()
        factory.pin(5).drive_high()  # Undo works now: nothing to undo, said on the OLED
        appliance.step(timeout=WAIT)
        assert appliance.view._notice is not None
    finally:
        appliance.close()
    failures = [r for r in caplog.records if "not working" in r.getMessage()]
    assert len(failures) == 1
    assert any("are back" in r.getMessage() for r in caplog.records)


def test_a_game_the_menu_cannot_start_says_why_on_the_oled(box: Box) -> None:
    # a 2-player Campanile game needs the players' own flag cards first: refused, nothing started
    box.press("buttons.menu")
    box.pump(lambda: box.appliance.navigator.listing is not None)
    box.press("encoder.push")  # New game
    box.pump(lambda: box.appliance.navigator.listing is not None
             and box.appliance.navigator.listing.labels[0] == "Campanile")
    box.press("encoder.push")  # Campanile: the fresh box offers 2 players first
    box.pump(lambda: box.appliance.navigator.listing is not None
             and box.appliance.navigator.listing.labels[0] == "2 players")
    box.press("encoder.push")
    box.pump(lambda: box.appliance.view._notice is not None)
    assert box.table.live is None
    assert "flag" in box.appliance.view.page(box.appliance.view._notice.since).text()


def test_the_castelli_valuation_key_previews_the_final_scoring_and_the_areas(app: Companion) -> None:
    from companion.service.records import load_record
    from hardware.navigator import valuation_pages

    record = load_record(EXAMPLE.parent / "castelli.json")
    table = Table(app)
    table.start("castelli", list(record.players), options=record.options, setup=record.setup)
    for move in record.moves[:8]:
        table.propose(move)
    pages = valuation_pages(table)
    assert pages[0].lines[0].text == "Final scoring if now"
    assert [page.lines[0].text for page in pages[1:]] == ["Areas: who leads now"] * (len(pages) - 1)
    # each area by what it is and where it lies (its lines kept on one page), never by the record's name
    bodies = [" ".join(line.text for line in page.lines[1:]) for page in pages[1:]]
    assert len(pages) > 1 and all(re.match(r"(forest|field|rock|market|mine), row \d, column \d: ", body)
                                  for body in bodies), bodies
    assert not any(re.search(r"\ba\d+\b", body) for body in bodies)


def test_the_loop_calls_its_tick_hooks_without_any_command_and_stops_when_asked(box: Box) -> None:
    ticks: list[int] = []

    def tick() -> None:  # the watchdog's feeder would be here
        ticks.append(len(ticks))
        if len(ticks) == 3:
            box.appliance.stop()

    box.appliance.on_tick.append(tick)
    box.appliance.run()  # returns once stopped: nothing was posted, the ticks came by themselves
    assert ticks == [0, 1, 2]


def _open_power_menu(box: Box) -> None:
    from companion.i18n import text

    box.press("buttons.menu")
    box.pump(lambda: box.appliance.navigator.listing is not None)
    listing = box.appliance.navigator.listing
    assert listing is not None
    box.turn(listing.labels.index(text("oled.menu.power")))
    box.press("encoder.push")
    box.pump(lambda: box.appliance.navigator.listing is not None
             and box.appliance.navigator.listing.labels[0] == text("oled.power.power_off"))


def test_the_oled_menu_switches_off_only_after_a_confirm_and_shows_a_refusal(box: Box) -> None:
    from companion.i18n import text
    from tests.power_kit import Systemctl

    refusing = Systemctl(status=1, complaint="Access denied")
    box.appliance.navigator.power_run = refusing
    _open_power_menu(box)
    box.press("encoder.push")  # "Switch off": asks once more, "Cancel" first
    asking = [text("oled.power.cancel"), text("oled.power.yes")]
    box.pump(lambda: box.appliance.navigator.listing is not None
             and box.appliance.navigator.listing.labels == asking)
    box.press("encoder.push")  # a second push by mistake cancels
    box.pump(lambda: box.appliance.navigator.listing is None)
    assert refusing.commands == []

    _open_power_menu(box)
    box.press("encoder.push")
    box.pump(lambda: box.appliance.navigator.listing is not None
             and box.appliance.navigator.listing.labels[0] == text("oled.power.cancel"))
    box.turn(1)  # "Yes"
    box.press("encoder.push")
    box.pump(lambda: box.appliance.view._notice is not None)
    assert refusing.commands == [["systemctl", "--no-ask-password", "poweroff"]]
    shown = " ".join(box.appliance.view.page(box.appliance.view._notice.since).text().split())
    assert shown == "Refused the system refused to switch off: Access denied"


def test_the_oled_menu_restarts_and_stops_for_maintenance(box: Box) -> None:
    from companion.i18n import text
    from tests.power_kit import Systemctl

    accepting = Systemctl()
    box.appliance.navigator.power_run = accepting
    for steps, command in ((1, ["systemctl", "--no-ask-password", "reboot"]),
                           (2, ["systemctl", "--no-ask-password", "stop", "companion.service",
                                "companion-headless.service"])):
        _open_power_menu(box)
        box.turn(steps)
        box.press("encoder.push")
        box.pump(lambda: box.appliance.navigator.listing is not None
                 and box.appliance.navigator.listing.labels[0] == text("oled.power.cancel"))
        box.turn(1)
        box.press("encoder.push")
        box.pump(lambda command=command: bool(accepting.commands) and accepting.commands[-1] == command)
    assert len(accepting.commands) == 2 and box.appliance.view._notice is None
