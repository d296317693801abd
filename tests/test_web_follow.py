""""Follow on your phone": the live page's switch and QR code on the touchscreen's settings, and its
URL in the OLED menu, both read from the URL file ``companion web`` keeps beside the store."""

from __future__ import annotations

from pathlib import Path

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
import zxingcpp
from PIL import Image, ImageFilter

from companion import i18n
from companion.i18n import text
from companion.service.app import Companion
from companion.service.bgstats import QR_MODULE_PX
from companion.service.table import Table
from companion.service.web_link import URL_FILE, WEB_SETTING
from hardware.oled_pages import notice_page
from tests.test_hardware_buttons import Box, _config

URL = "http://192.168.1.23:8080/?t=Zm9sbG93IG9uIHlvdXIgcGhvbmUhISEh"


def test_the_settings_switch_the_page_and_show_its_code(tmp_path: Path, shots: Path) -> None:
    language = "hu"  # the longer words (the catalogue tests check both languages have every one)
    store = tmp_path / "companion.sqlite3"
    Companion.open(store).close()
    (tmp_path / URL_FILE).write_text(URL + "\n")
    i18n.set_language(language)
    shell = kit.open_shell(store)
    try:
        kit.tap(kit.find(text("ui.home.settings")))
        screen = shell.screens.get_screen("settings")
        assert screen.follow_url == URL
        texture = screen.follow_texture
        pixels = Image.frombytes("RGBA", texture.size, bytes(texture.pixels)).convert("L")
        (found,) = zxingcpp.read_barcodes(pixels)  # what a phone's camera reads
        assert found.text == URL and found.ec_level in ("M", "Q", "H")
        assert texture.size[0] % QR_MODULE_PX == 0 and texture.size[0] >= 25 * QR_MODULE_PX
        kit.find(text("ui.settings.follow"), root=screen)
        screen.page.ids.view.scroll_to(screen.page.ids.follow, padding=8, animate=False)
        kit.screenshot(shots / f"{language}-settings-follow.png")

        line = kit.find(text("ui.settings.web")).parent
        kit.tap(kit.find(text("ui.settings.on"), root=line))
        assert shell.table.app.settings()[WEB_SETTING] is False
        assert screen.follow_texture is None  # switched off: no code for a page that is not served
        kit.tap(kit.find(text("ui.settings.off"), root=line))
        assert shell.table.app.settings()[WEB_SETTING] is True and screen.follow_url == URL
    finally:
        kit.close_shell(shell)
        i18n.set_language("en")


def test_home_offers_the_code_while_phones_can_follow(tmp_path: Path, shots: Path) -> None:
    """Home's "Follow on your phone" is there only while the page is served and switched on; it
    opens the code whole on the screen, which a camera reads from the screen's pixels blurred."""
    store = tmp_path / "companion.sqlite3"
    Companion.open(store).close()
    shell = kit.open_shell(store)
    try:
        home = shell.screens.get_screen("home")
        assert home.ids.follow.parent is None  # no page served: nothing offered
        (tmp_path / URL_FILE).write_text(URL + "\n")
        shell.go("home")
        home.refresh()
        kit.pump(2)
        offer = kit.find(text("ui.home.follow"), root=home)
        assert offer.to_window(*offer.pos)[1] >= 0 and offer.height >= 48  # on screen, a full target
        kit.tap(offer)
        screen = shell.screens.get_screen("follow")
        kit.wait_for(lambda: shell.screens.current == "follow" and screen.texture is not None, "the code")
        assert screen.url == URL
        kit.find(URL, root=screen)
        kit.find(text("ui.follow.how"), root=screen)
        code = screen.ids.code
        x, y = code.to_window(*code.pos)
        assert x >= 0 and y >= 0 and x + code.width <= 800 and y + code.height <= 480
        assert code.width >= 2 * screen.texture.width  # the screen's room, in whole px a module
        shot = Image.open(kit.screenshot(shots / "en-follow.png"))
        top = int(shot.height - y - code.height)
        crop = shot.crop((int(x), top, int(x + code.width), top + int(code.height)))
        (found,) = zxingcpp.read_barcodes(crop.filter(ImageFilter.GaussianBlur(1)))
        assert found.text == URL and found.ec_level in ("M", "Q", "H")
        shell.table.app.change_setting(WEB_SETTING, False)
        screen.refresh()
        assert screen.texture is None and screen.words == text("ui.follow.none")
        shell.go("home")
        home.refresh()
        assert home.ids.follow.parent is None  # switched off: not offered
    finally:
        kit.close_shell(shell)


def test_the_oled_menu_shows_the_url(tmp_path: Path) -> None:
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        box = Box(Table(app), _config())
        try:
            navigator = box.appliance.navigator

            def shown() -> list:
                box.press("buttons.menu")
                box.pump(lambda: navigator.listing is not None)
                assert navigator.listing is not None
                box.turn(navigator.listing.labels.index(text("oled.menu.web")))
                box.press("encoder.push")
                box.pump(lambda: box.appliance.view._notice is not None)
                pages = box.appliance.view._notice.pages
                box.press("buttons.menu")  # the notice goes with a key
                box.pump(lambda: box.appliance.view._notice is None)
                box.press("buttons.menu")  # and the menu closes
                box.pump(lambda: navigator.listing is None)
                return pages

            assert shown() == [notice_page(text("oled.menu.web"), text("oled.web.off"))]
            (tmp_path / URL_FILE).write_text(URL + "\n")
            assert shown() == [notice_page(text("oled.menu.web"), URL)]
            app.change_setting(WEB_SETTING, False)
            assert shown() == [notice_page(text("oled.menu.web"), text("oled.web.off"))]
        finally:
            box.close()
