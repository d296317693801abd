"""The kiosk's parts of the touchscreen: the power menu, an unsure date at game over, the backlight.

Offscreen, by synthetic touches on a real window over a real store; the
power actions run a stand-in for ``systemctl`` (tests/power_kit.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from companion import i18n
from tests.power_kit import Systemctl
from ui.app import ShellOptions
from ui.widgets import LongTap

DENIED = "Interactive authentication required."


@pytest.fixture
def shell(tmp_path: Path):
    i18n.set_language("en")
    opened = kit.open_shell(tmp_path / "store.db")
    yield opened
    kit.close_shell(opened)
    i18n.set_language("en")


def _hold(shell, code: str, systemctl: Systemctl) -> None:
    before = len(systemctl.commands)
    kit.hold(kit.find(i18n.text(code), LongTap), lambda: len(systemctl.commands) > before,
             f"the long press on {code!r} to act")


def test_the_power_actions_need_a_long_press_and_a_refusal_shows_in_the_banner(
        shell, shots: Path) -> None:
    refusing = Systemctl(status=1, complaint=DENIED)
    shell.options = ShellOptions(power_run=refusing)
    kit.tap(kit.find(i18n.text("ui.home.settings")))
    switch_off = kit.find(i18n.text("ui.settings.power_off_hold"), LongTap)
    kit.tap(switch_off)  # a tap is not enough to switch the table off
    assert refusing.commands == []

    _hold(shell, "ui.settings.power_off_hold", refusing)
    assert refusing.commands == [["systemctl", "--no-ask-password", "poweroff"]]
    kit.wait_for(lambda: shell.banner.shown, "the refusal in the banner")
    assert shell.banner.text == f"the system refused to switch off: {DENIED}"
    kit.screenshot(shots / "en-settings-power-refused.png")

    i18n.set_language("hu")
    shell.redraw_all()
    _hold(shell, "ui.settings.restart_hold", refusing)
    assert refusing.commands[-1] == ["systemctl", "--no-ask-password", "reboot"]
    kit.wait_for(lambda: shell.banner.text.startswith("a rendszer nem engedte ezt: újraindítás"),
                 "the refusal in Hungarian")


def test_accepted_power_actions_run_systemctl_and_show_no_refusal(shell) -> None:
    accepting = Systemctl()
    shell.options = ShellOptions(power_run=accepting)
    kit.tap(kit.find(i18n.text("ui.home.settings")))
    _hold(shell, "ui.settings.maintenance_hold", accepting)
    _hold(shell, "ui.settings.restart_hold", accepting)
    assert accepting.commands == [
        ["systemctl", "--no-ask-password", "stop", "companion.service", "companion-headless.service"],
        ["systemctl", "--no-ask-password", "reboot"]]
    kit.pump(3)
    assert not shell.banner.shown


def test_a_game_with_an_unsure_date_shows_its_qr_code_only_after_the_date_is_confirmed(
        tmp_path: Path, shots: Path) -> None:
    import json

    from companion.service.app import Companion

    store = tmp_path / "unsure.db"
    example = Path(__file__).parent / "data" / "examples" / "campanile-3p.json"
    with Companion.open(store, clock_sure=lambda: False) as app:
        session_id = app.import_record(json.loads(example.read_text(encoding="utf-8")))
        with app.store._transaction() as db:  # as if played before the clock was set
            db.execute("UPDATE sessions SET date_unsure = 1 WHERE id = ?", (session_id,))
    i18n.set_language("en")
    shell = kit.open_shell(store)
    try:
        app = shell.table.app
        shell.table.open(app.open_game(session_id))
        assert shell.screens.current == "over"
        screen = shell.screens.get_screen("over")
        started = app.store.session(session_id).started.astimezone().strftime("%Y-%m-%d %H:%M")
        kit.find(i18n.text("ui.over.date_unsure", date=started))
        kit.find(i18n.text("ui.over.qr_after_date"))
        assert screen.qr is None
        kit.screenshot(shots / "en-game-over-unsure-date.png")

        confirm = kit.find(i18n.text("ui.over.confirm_date_hold"), LongTap)
        kit.tap(confirm)  # a tap is not a confirmation
        assert app.store.session(session_id).date_unsure and screen.qr is None
        kit.hold(confirm, lambda: screen.qr is not None, "the QR code after the date is confirmed")
        assert not app.store.session(session_id).date_unsure
        kit.find(i18n.text("ui.over.played_on", date=started))
        assert i18n.text("ui.over.qr_after_date") not in kit.texts()
        kit.find(i18n.text("ui.over.scan"))
        kit.screenshot(shots / "en-game-over-date-confirmed.png")
    finally:
        kit.close_shell(shell)


def test_the_backlight_dims_when_idle_and_a_touch_on_a_dark_screen_only_wakes_it(
        shell, tmp_path: Path) -> None:
    from ui.backlight import TouchLight

    device = tmp_path / "backlight" / "10-0045"  # shaped as /sys/class/backlight
    device.mkdir(parents=True)
    (device / "max_brightness").write_text("255\n")
    (device / "brightness").write_text("255\n")
    now = [0.0]  # the idle time is the test's to set: nothing here waits for the real clock
    app = shell.table.app
    app.change_setting("backlight.timeout", 60)
    light = TouchLight(app.settings, root=tmp_path / "backlight", clock=lambda: now[0])
    light.wire()
    try:
        def brightness() -> str:
            return (device / "brightness").read_text().strip()

        now[0] = 29
        kit.pump(3)
        assert (light.dimmer.state, brightness()) == ("bright", "255")
        now[0] = 30  # half the timeout: dimmed, by Kivy's clock
        kit.wait_for(lambda: light.dimmer.state == "dim", "the clock's tick to dim the screen")
        assert brightness() == str(round(0.2 * 255))
        now[0] = 60
        kit.wait_for(lambda: light.dimmer.state == "off", "the clock's tick to switch the light off")
        assert brightness() == "0"

        kit.tap(kit.find(i18n.text("ui.home.settings")))  # the screen was dark: this tap only wakes it
        assert (light.dimmer.state, brightness()) == ("bright", "255")
        assert shell.screens.current == "home"
        kit.tap(kit.find(i18n.text("ui.home.settings")))  # now it acts
        assert shell.screens.current == "settings"

        app.change_setting("backlight.timeout", 0)  # never: the setting holds from the next tick
        now[0] = 10_000
        kit.wait_for(lambda: light.dimmer.off_after == float("inf"), "the clock's tick to read the setting")
        kit.pump(3)
        assert (light.dimmer.state, brightness()) == ("bright", "255")
    finally:
        light.unwire()
