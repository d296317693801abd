"""A store damaged on purpose (a page of its moves overwritten, a move row that no longer reads):
the app starts, says so on the touchscreen and on the OLED, repairs it behind a protected action
(a long press; a confirm step on the OLED menu), and then plays on every good game.

Real stores on temporary files, synthetic touches on the real shell, gpiozero's mock pins.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from companion import i18n
from companion.games.base import IllegalMove
from companion.games.messages import msg
from companion.i18n import text
from companion.service.app import Companion
from companion.service.damage import damage
from companion.service.table import Table
from companion.storage.paths import DB_FILENAME
from companion.storage.store import Store, damaged_message
from hardware.oled_pages import notice_page
from tests import helpers_campanile as camp
from tests.test_hardware_buttons import Box, _config
from tests.test_store_damage import _moves_leaf_pages, overwrite_page, stock
from ui.widgets import LongTap


def damaged_pages(data: Path) -> dict[int, list[dict]]:
    """Five stocked games, then one page of the moves overwritten; returns each game's moves."""
    logs = stock(data)
    path = data / DB_FILENAME
    leaves = _moves_leaf_pages(path)
    overwrite_page(path, leaves[len(leaves) // 2])
    with Store.open(path, read_only=True) as store:
        assert store.damage
    return logs


def _play_on_every_good_game(app: Companion, table: Table, logs: dict[int, list[dict]]) -> int:
    """Resume each unfinished game the repair kept whole and store one more move in it; returns how many."""
    played = 0
    for row in app.unfinished():
        if app.store.stored_moves(row.id)[0] != logs[row.id]:
            continue  # cut at the damage: kept, but not the whole game
        live = table.resume(row.id)
        table.propose(camp.legal_moves(live.session.state)[0], source="touch")
        assert len(app.store.stored_moves(row.id)[0]) == len(logs[row.id]) + 1
        played += 1
    return played


# In Hungarian only, where the words are longer: the repair is the same in either language, and
# the English words of the damage are read on the touchscreen and the OLED by the test below.
@pytest.mark.parametrize("language", ["hu"])
def test_the_touchscreen_says_the_store_is_damaged_and_repairs_it_on_a_long_press(
        tmp_path: Path, shots: Path, language: str) -> None:
    data = tmp_path / "data"
    logs = damaged_pages(data)
    path = data / DB_FILENAME
    damaged_bytes = path.read_bytes()
    i18n.set_language(language)
    shell = kit.open_shell(path)
    try:
        app, table = shell.table.app, shell.table
        assert shell.screens.current == "damaged"  # the first thing on the screen
        found = damage(app)
        assert found is not None and found.code == "appliance.damage.pages"
        kit.find(str(found))
        kit.screenshot(shots / f"{language}-damaged-store.png")

        live = table.resume(2)  # the games can be looked at; a move is refused, saying why
        assert shell.screens.current == "game"
        before = len(live.session.log)
        with pytest.raises(IllegalMove) as refused:
            table.propose(camp.legal_moves(live.session.state)[0], source="touch")
        said = str(damaged_message(path, app.store.damage))
        assert str(refused.value.reason) == said and len(live.session.log) == before
        kit.wait_for(lambda: shell.banner.shown and shell.banner.text == said,
                     "the refusal saying the store is damaged")
        shell.go("damaged")

        repair = kit.find(text("appliance.damage.repair_hold"), LongTap)
        kit.tap(repair)  # a tap does not repair
        assert path.read_bytes() == damaged_bytes and app.store.damage
        kit.hold(repair, lambda: not app.store.damage, "the repair after the long press")
        assert app.store.pragma("integrity_check") == "ok" and not app.store.read_only
        (aside,) = [p for p in data.iterdir() if p.name.startswith(f"{DB_FILENAME}.damaged-")]
        assert aside.read_bytes() == damaged_bytes  # the damaged file is kept beside it
        kit.find(text("appliance.damage.repaired_title"))
        said = [t for t in kit.texts() if aside.name in t]
        assert len(said) == 1
        kit.screenshot(shots / f"{language}-damaged-store-repaired.png")
        kit.tap(kit.find(text("appliance.damage.play_on")))
        assert shell.screens.current in ("game", "home")
        assert _play_on_every_good_game(app, table, logs) >= 1
    finally:
        kit.close_shell(shell)
        i18n.set_language("en")


def test_a_damaged_game_row_is_said_and_the_repair_keeps_its_moves_before_the_damage(tmp_path: Path) -> None:
    data = tmp_path / "data"
    logs = stock(data)
    path = data / DB_FILENAME
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE moves SET move = '{\"type\": \"bui' WHERE session_id = 5 AND idx = 5")
    db.close()
    shell = kit.open_shell(path)
    try:
        app, table = shell.table.app, shell.table
        assert shell.screens.current == "damaged"
        kit.find(str(msg("appliance.damage.sessions", sessions=[5], count=1)))
        kit.tap(kit.find(text("appliance.damage.not_now")))  # the other games go on meanwhile
        assert shell.screens.current == "home"
        assert _play_on_every_good_game(app, table, logs) == 1  # game 2
        shell.go("damaged")
        kit.hold(kit.find(text("appliance.damage.repair_hold"), LongTap),
                 lambda: bool(shell.screens.get_screen("damaged").repaired), "the repair")
        assert damage(app) is None
        assert app.store.stored_moves(5)[0] == logs[5][:5]  # the moves before the damage
        assert [row.id for row in app.unfinished()] == [5, 2]
    finally:
        kit.close_shell(shell)


def test_the_oled_says_the_store_is_damaged_and_repairs_it_after_a_confirm(tmp_path: Path) -> None:
    data = tmp_path / "data"
    logs = damaged_pages(data)
    path = data / DB_FILENAME
    damaged_bytes = path.read_bytes()
    with Companion.open(path) as app:
        table = Table(app)
        box = Box(table, _config())
        try:
            view, navigator = box.appliance.view, box.appliance.navigator
            warning = notice_page(text("appliance.damage.oled_title"), text("appliance.damage.oled_hint"))
            assert view.page(view._status_since) == warning  # the first of the status pages

            def open_repair() -> None:
                box.press("buttons.menu")
                box.pump(lambda: navigator.listing is not None)
                assert navigator.listing is not None
                assert navigator.listing.labels[0] == text("appliance.damage.oled_menu")  # first
                box.press("encoder.push")
                box.pump(lambda: navigator.listing is not None
                         and navigator.listing.labels == [text("oled.power.cancel"), text("oled.power.yes")])

            open_repair()
            box.press("encoder.push")  # "cancel" first: a second push by mistake does nothing
            box.pump(lambda: navigator.listing is None)
            assert path.read_bytes() == damaged_bytes and app.store.damage
            open_repair()
            box.turn(1)
            box.press("encoder.push")
            box.pump(lambda: not app.store.damage and view._notice is not None)
            assert view._notice is not None
            title = notice_page(text("appliance.damage.repaired_title")).lines[0]
            assert view._notice.pages[0].lines[0] == title
            assert view.page(view._status_since) != warning
            assert navigator._menu_listing().labels[0] == text("oled.menu.new")
            played = 0
            for row in app.unfinished():  # every good game plays on, from the buttons
                if app.store.stored_moves(row.id)[0] != logs[row.id]:
                    continue
                table.resume(row.id)
                session = table.session
                assert session is not None
                box.choose(session.game.move_to_json(camp.legal_moves(session.state)[0]))
                assert len(app.store.stored_moves(row.id)[0]) == len(logs[row.id]) + 1
                played += 1
            assert played >= 1
        finally:
            box.close()


def test_the_box_under_systemd_starts_on_a_damaged_store_and_writes_nothing(tmp_path: Path) -> None:
    from tests.test_headless_appliance import appliance_starts

    data = tmp_path / "data"
    damaged_pages(data)
    damaged_bytes = (data / DB_FILENAME).read_bytes()
    appliance_starts(data)  # systemd's standard input: no console, the appliance alone
    assert (data / DB_FILENAME).read_bytes() == damaged_bytes
    assert not (data / "backups").exists()  # no daily copy of a damaged store


def test_a_value_written_past_a_check_is_said_on_the_touchscreen_and_the_oled_and_repaired(
        tmp_path: Path) -> None:
    """Issue 21: a session's ``source`` outside its CHECK made the store read-only with no damage
    named (the reader's check skipped the constraint); the kiosk must say it and offer the repair."""
    data = tmp_path / "data"
    logs = stock(data)
    path = data / DB_FILENAME
    db = sqlite3.connect(path)
    db.execute("PRAGMA ignore_check_constraints = ON")
    with db:
        db.execute("UPDATE sessions SET source = 'bogus' WHERE id = 2")
    db.close()
    with Companion.open(path) as app:  # the OLED: a warning among its pages, the repair first in the menu
        box = Box(Table(app), _config())
        try:
            view = box.appliance.view
            warning = notice_page(text("appliance.damage.oled_title"), text("appliance.damage.oled_hint"))
            assert app.store.read_only and view.page(view._status_since) == warning
            assert box.appliance.navigator._menu_listing().labels[0] == text("appliance.damage.oled_menu")
        finally:
            box.close()
    shell = kit.open_shell(path)
    try:
        app, table = shell.table.app, shell.table
        assert shell.screens.current == "damaged"
        found = damage(app)
        assert found is not None and found.code == "appliance.damage.pages"
        kit.find(str(found))
        kit.hold(kit.find(text("appliance.damage.repair_hold"), LongTap),
                 lambda: bool(shell.screens.get_screen("damaged").repaired), "the repair")
        assert damage(app) is None and not app.store.read_only
        assert _play_on_every_good_game(app, table, logs) >= 1
    finally:
        kit.close_shell(shell)
