"""The touchscreen and the OLED over a store ``companion run`` could not open or show as it is
(issue 34): each says what is wrong and offers what can be done, behind a long press or a confirm.

The app is opened as ``companion run`` opens it (:func:`companion.service.rescue.open_companion`,
then :func:`~companion.service.rescue.first_game`). A read-only card is what ``os.access`` and
SQLite answer on one: the folder's write test fails and the writer's lock cannot be taken
(root ignores file modes, so the answer is given here, where the store asks it).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from companion import i18n
from companion.i18n import text
from companion.service import rescue
from companion.service.app import Companion
from companion.service.damage import damage, offers
from companion.service.table import Table
from companion.storage.paths import DB_FILENAME
from companion.storage.store import Store
from hardware.oled_render import draw
from hardware.oled_view import trouble_pages
from tests.test_hardware_buttons import Box, _config
from ui.app import ShellOptions
from ui.widgets import LongTap, Tap

MOVE = {"type": "build", "player": "Ann", "tower": "red", "stories": 1}


def spoiled_championship(data: Path) -> Path:
    """A store whose championship row does not read (issue 34, item 1), a Campanile game beside it."""
    data.mkdir()
    path = data / DB_FILENAME
    with Companion.open(path) as app:
        live = app.start("campanile", ["Ann", "Bob", "Cid"])
        live.session.propose(live.session.game.parse_move(MOVE))
        app.championships.new(2, ["Ann", "Bob", "Cid", "Dan"])  # its round: the game resumed at start
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE championships SET decisions = 'not json'")
    db.close()
    return path


def opened_as_run_opens(path: Path) -> Companion:
    app = rescue.open_companion(path)
    rescue.first_game(app)
    return app


@pytest.mark.parametrize("language", ["en", "hu"])
def test_the_touchscreen_says_what_is_wrong_and_starts_a_fresh_store_on_a_long_press(
        tmp_path: Path, shots: Path, language: str) -> None:
    path = spoiled_championship(tmp_path / "data")
    i18n.set_language(language)
    before = path.read_bytes()
    app = opened_as_run_opens(path)
    assert app.standing_in and app.trouble is not None  # nothing of the store is read past start
    shell = kit.open_shell(path, app=app)
    try:
        assert shell.screens.current == "damaged"
        kit.find(str(app.trouble))
        assert offers(app) == ["repair", "restore", "fresh", "backup"]  # the file is copied as it is
        kit.find(text("appliance.damage.repair_hold"), LongTap)
        kit.find(text("appliance.trouble.restore_hold"), LongTap)
        kit.find(text("appliance.trouble.backup"), Tap)
        kit.screenshot(shots / f"{language}-startup-trouble.png")
        fresh = kit.find(text("appliance.trouble.fresh_hold"), LongTap)
        kit.tap(fresh)  # a tap does nothing
        assert path.read_bytes() == before and app.standing_in
        kit.hold(fresh, lambda: not app.standing_in, "the fresh store after the long press")
        assert damage(app) is None and app.store.list_sessions() == []
        (aside,) = [p for p in path.parent.iterdir() if p.name.startswith(f"{DB_FILENAME}.damaged-")]
        assert aside.read_bytes() == before  # the old store, untouched
        kit.find(text("appliance.trouble.done_fresh"))
        kit.screenshot(shots / f"{language}-startup-trouble-fresh.png")
        kit.tap(kit.find(text("appliance.damage.play_on")))
        shell.table.start("campanile", ["Ann", "Bob", "Cid"])
        shell.table.propose(shell.table.session.game.parse_move(MOVE), source="touch")
        assert len(app.store.stored_moves(1)[0]) == 1  # the new store keeps moves
    finally:
        kit.close_shell(shell)
        i18n.set_language("en")


def turns_read_only(monkeypatch: pytest.MonkeyPatch, data: Path) -> None:
    """From now on ``data`` answers as a folder on a card remounted read-only (``os.access`` says so)."""
    real = os.access

    def access(path: object, mode: int, **kwargs: object) -> bool:
        if mode & os.W_OK and Path(str(path)).resolve() in (data.resolve(), (data / DB_FILENAME).resolve()):
            return False
        return real(path, mode, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "access", access)


def test_a_read_only_card_is_said_on_the_touchscreen_and_backed_up_to_the_stick(
        tmp_path: Path, shots: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    data.mkdir()
    path = data / DB_FILENAME
    with Companion.open(path) as app:
        live = app.start("campanile", ["Ann", "Bob", "Cid"])
        live.session.propose(live.session.game.parse_move(MOVE))
    turns_read_only(monkeypatch, data)
    stick = tmp_path / "stick"
    stick.mkdir()
    app = opened_as_run_opens(path)
    assert app.store.read_only and not app.standing_in and app.trouble is not None
    assert offers(app) == ["backup"]  # a read-only card: only a copy can help
    shell = kit.open_shell(path, ShellOptions(stick_mount=str(stick)), app=app)
    try:
        assert shell.screens.current == "damaged"
        assert "read-only" in str(app.trouble)
        kit.find(str(app.trouble))
        assert not [t for t in kit.texts() if t == text("appliance.damage.repair_hold")]
        kit.tap(kit.find(text("appliance.trouble.backup"), Tap))
        kit.wait_for(lambda: list(stick.glob("companion-*.sqlite3")), "the copy on the stick")
        kit.find(text("appliance.stick.safe", name=next(stick.glob("companion-*.sqlite3")).name))
        kit.screenshot(shots / "startup-read-only.png")
        with Store.open(next(stick.glob("companion-*.sqlite3")), read_only=True) as copy:
            assert copy.stored_moves(1)[0] == [MOVE]
    finally:
        kit.close_shell(shell)


def test_the_oled_says_what_is_wrong_and_offers_each_way_out_after_a_confirm(tmp_path: Path,
                                                                            shots: Path) -> None:
    path = spoiled_championship(tmp_path / "data")
    stick = tmp_path / "stick"
    stick.mkdir()
    with Companion.open(tmp_path / "good.sqlite3") as good:  # a backup on the stick, one game in it
        live = good.start("campanile", ["Ann", "Bob", "Cid"])
        live.session.propose(live.session.game.parse_move(MOVE))
    shutil.copy(tmp_path / "good.sqlite3", stick / "companion-0001-2026-01-02-100000.sqlite3")
    app = opened_as_run_opens(path)
    table = Table(app)
    box = Box(table, _config())
    box.appliance.navigator.stick_mount = str(stick)
    try:
        view, navigator = box.appliance.view, box.appliance.navigator
        pages = trouble_pages(app)
        assert view.page(view._status_since) == pages[0]
        assert pages[0].lines[0].text == text("appliance.damage.oled_title")
        shots.mkdir(parents=True, exist_ok=True)
        for number, page in enumerate(pages):
            draw(page).save(shots / f"oled-trouble-{number}.png")
        said = " ".join(line.text for page in pages[1:] for line in page.lines[1:])
        assert "cannot read back" in said and "championships" in said  # what is wrong, and where
        box.press("buttons.menu")
        box.pump(lambda: navigator.listing is not None)
        assert navigator.listing is not None
        assert navigator.listing.labels[:3] == [text("appliance.damage.oled_menu"),
                                                text("appliance.trouble.oled_restore"),
                                                text("appliance.trouble.oled_fresh")]
        box.turn(1)
        box.press("encoder.push")  # "Restore from stick": cancel first
        box.pump(lambda: navigator.listing is not None
                 and navigator.listing.labels == [text("oled.power.cancel"), text("oled.power.yes")])
        box.turn(1)
        box.press("encoder.push")
        box.pump(lambda: not app.standing_in and view._notice is not None)
        assert damage(app) is None
        assert table.session is not None and len(table.session.log) == 1  # the stick's game, resumed
        assert any(p.name.startswith(f"{DB_FILENAME}.before-restore-") for p in path.parent.iterdir())
    finally:
        box.close()


def test_the_oled_on_a_read_only_card_offers_only_the_backup(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    data.mkdir()
    path = data / DB_FILENAME
    with Companion.open(path) as app:
        live = app.start("campanile", ["Ann", "Bob", "Cid"])
        live.session.propose(live.session.game.parse_move(MOVE))
    turns_read_only(monkeypatch, data)
    stick = tmp_path / "stick"
    stick.mkdir()
    app = opened_as_run_opens(path)
    table = Table(app)
    box = Box(table, _config())
    box.appliance.navigator.stick_mount = str(stick)
    try:
        view, navigator = box.appliance.view, box.appliance.navigator
        first = view.page(view._status_since)
        assert first == trouble_pages(app)[0]
        assert " ".join(line.text for line in first.lines[1:]) == "Nothing is saved. Menu > Back up to stick"
        box.press("buttons.menu")
        box.pump(lambda: navigator.listing is not None)
        assert navigator.listing is not None
        assert navigator.listing.labels[0] == text("appliance.trouble.oled_backup")
        assert text("appliance.damage.oled_menu") not in navigator.listing.labels  # no repair here
        box.press("encoder.push")
        box.pump(lambda: navigator.listing is not None
                 and navigator.listing.labels[0] == text("oled.power.cancel"))
        box.turn(1)
        box.press("encoder.push")
        box.pump(lambda: view._notice is not None)
        (copy,) = stick.glob("companion-*.sqlite3")
        with Store.open(copy, read_only=True) as store:
            assert store.stored_moves(1)[0] == [MOVE]
    finally:
        box.close()
