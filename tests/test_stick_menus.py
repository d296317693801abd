""""Back up to the stick" from the touchscreen's settings (synthetic touches) and from the OLED menu
(gpiozero's mock pins), onto a temporary folder standing in for the stick's mount point."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from companion import i18n
from companion.games.messages import msg
from companion.i18n import text
from companion.service.app import Companion
from companion.service.table import Table
from companion.storage.store import Store
from hardware.oled_pages import notice_page, refused_pages
from tests import helpers_campanile as camp
from tests.test_hardware_buttons import Box, _config
from ui.app import ShellOptions


def _stock(path: Path) -> None:
    with Companion.open(path) as app:
        live = app.start("campanile", camp.PLAYERS, setup=camp.SETUP)
        for move in camp.random_game(5, 12, finish=False):
            live.session.propose(move)


def _backups(stick: Path) -> list[Path]:
    return sorted(p for p in stick.iterdir() if p.name.endswith(".sqlite3"))


@pytest.mark.parametrize("language", ["en", "hu"])
def test_the_settings_back_up_to_the_stick_and_say_when_it_may_be_pulled(
        tmp_path: Path, shots: Path, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    store = tmp_path / "companion.sqlite3"
    _stock(store)
    stick = tmp_path / "COMPANION"
    i18n.set_language(language)
    shell = kit.open_shell(store, ShellOptions(stick_mount=str(stick)))
    try:
        kit.tap(kit.find(text("ui.home.settings")))
        button = kit.find(text("appliance.stick.button"))
        kit.tap(button)  # no stick yet: nothing written, and it says why
        why = text("appliance.stick.none", path=str(stick))
        kit.wait_for(lambda: shell.banner.shown and shell.banner.text == why, "the banner saying no stick")
        kit.find(why, exact=True, root=shell.screens)
        assert not stick.exists()
        kit.screenshot(shots / f"{language}-settings-stick-missing.png")

        stick.mkdir()
        kit.tap(button)
        (written,) = _backups(stick)
        said = text("appliance.stick.safe", name=written.name)
        kit.find(said, root=shell.screens)
        assert not shell.banner.shown  # the earlier "no stick" is answered
        with Store.open(written, read_only=True) as copy:
            assert [r.moves for r in copy.list_sessions()] == [12]
        kit.screenshot(shots / f"{language}-settings-stick-safe.png")
    finally:
        kit.close_shell(shell)
        i18n.set_language("en")


def test_the_oled_menu_backs_up_to_the_stick_and_says_why_not(tmp_path: Path) -> None:
    _stock(tmp_path / "companion.sqlite3")
    stick = tmp_path / "COMPANION"
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        box = Box(Table(app), _config(**{"backup.stick": str(stick)}))
        try:
            navigator = box.appliance.navigator
            assert navigator.stick_mount == str(stick)  # from the configuration

            def choose_backup() -> None:
                box.press("buttons.menu")
                box.pump(lambda: navigator.listing is not None)
                assert navigator.listing is not None
                box.turn(navigator.listing.labels.index(text("appliance.stick.oled_menu")))
                box.press("encoder.push")
                box.pump(lambda: box.appliance.view._notice is not None)

            def shown() -> list:
                view = box.appliance.view
                assert view._notice is not None
                return view._notice.pages

            choose_backup()
            assert shown() == refused_pages(msg("appliance.stick.none", path=str(stick)))
            assert not stick.exists()

            stick.mkdir()
            box.press("buttons.menu")  # the refusal goes with a key
            box.pump(lambda: box.appliance.view._notice is None)
            box.press("buttons.menu")  # and the menu closes
            box.pump(lambda: navigator.listing is None)
            choose_backup()
            (written,) = _backups(stick)
            safe = notice_page(text("appliance.stick.oled_done"), text("appliance.stick.oled_safe"))
            assert shown() == [safe]
            assert written.stat().st_size > 0
        finally:
            box.close()

