"""The laptop's OLED panel: the live frame beside the touchscreen, and the keys as the box's buttons."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from PIL import Image as PilImage

from companion import i18n
from hardware.oled_pages import saved_page, status_pages
from hardware.oled_render import HEIGHT, WIDTH, draw
from ui import oled_panel
from ui.oled_panel import SCALE, OledPanel, beside_oled, frame_pixels

PLAYERS = ["Albert", "Birgit", "Franziska"]


@pytest.fixture
def shell(tmp_path: Path):
    i18n.set_language("en")
    opened = kit.open_shell(tmp_path / "store.db")
    yield opened
    kit.close_shell(opened)


def on_texture(panel: OledPanel) -> PilImage.Image:
    """What the panel's texture holds, read back from the graphics card (rows as PIL's: top first)."""
    texture = panel.texture
    image = PilImage.frombytes("RGBA", tuple(texture.size), bytes(texture.pixels))
    return image.convert("RGB")


def expected(page) -> PilImage.Image:
    return frame_pixels(draw(page))


def test_the_panel_shows_the_oled_page_of_the_tables_state_scaled_twice(shell) -> None:
    panel = OledPanel(shell.table)
    try:
        shell.table.start("campanile", PLAYERS)
        panel.view.tick()
        session = shell.table.session
        status = status_pages(session.game, session.state)
        assert panel.frame is not None and panel.frame.size == (WIDTH * SCALE, HEIGHT * SCALE)
        assert panel.frame.tobytes() == expected(status[0]).tobytes()
        assert on_texture(panel).tobytes() == panel.frame.tobytes()
        assert len(panel.frame.getcolors() or ()) == 2  # black and white, nothing smeared between
        move = session.game.legal_moves(session.state)[0]
        shell.table.propose(session.game.parse_move(move), "touch")  # a table event: redrawn at once
        words = session.game.describe(session.state, move, "en")
        assert panel.frame.tobytes() == expected(saved_page(words)).tobytes()
        assert on_texture(panel).tobytes() == panel.frame.tobytes()
    finally:
        panel.close()


def test_the_arrow_keys_turn_the_encoder_and_enter_confirms(shell) -> None:
    panel = OledPanel(shell.table)
    try:
        shell.table.start("campanile", PLAYERS)
        panel.view.tick()
        before = shell.table.session.state
        assert panel.key(274)  # down arrow: the encoder's "next" opens the list of likely moves
        overlay = panel.navigator.overlay()
        assert overlay is not None and panel.frame.tobytes() == expected(overlay).tobytes()
        assert shell.table.session.state == before
        assert not panel.key(ord("q"))  # not one of the box's keys
        assert panel.key(13)  # Enter: the move on show is made, by the navigator as on the box
        assert len(shell.table.session.log) == 1
        assert not panel.key(ord("q"), ["shift"])  # no held key of the box
    finally:
        panel.close()


def test_shift_v_is_the_valuation_buttons_long_press(shell) -> None:
    panel = OledPanel(shell.table)
    try:
        import json

        record = json.loads((Path(__file__).parent / "data" / "examples" / "campanile-3p.json").read_text())
        first = next(i for i, move in enumerate(record["moves"]) if move["type"] == "valuation")
        record["moves"] = record["moves"][:first]  # the Intermezzo may be entered now
        app = shell.table.app
        shell.table.open(app.open_game(app.import_record(record)))
        session = shell.table.session
        assert panel.key(ord("v"))  # the preview, "if the valuation came now"
        assert len(session.log) == first
        assert panel.key(ord("v"), ["shift"])  # held: the Intermezzo is recorded after that preview
        assert session.game.move_to_json(session.log[-1])["type"] == "valuation"
        assert len(session.log) == first + 1
    finally:
        panel.close()


def test_the_laptops_window_puts_the_panel_beside_the_touchscreen(shell) -> None:
    from kivy.core.window import Window

    Window.remove_widget(shell.root)
    whole, panel = beside_oled(shell.root, shell.table)
    try:
        assert whole.children[-1] is shell.root and shell.root.width == 800
        assert panel.parent in whole.children
        assert oled_panel.wanted({"DISPLAY": ":0"}) and not oled_panel.wanted({"SDL_VIDEODRIVER": "kmsdrm"})
    finally:
        panel.close()
        whole.remove_widget(shell.root)


def test_the_panel_may_be_closed_twice_as_kivy_stops_an_app_twice(shell) -> None:
    """``App.stop`` (SIGTERM) and the end of ``App.run`` each dispatch ``on_stop``: the second close did
    ``list.remove`` of a listener already gone, and ``companion run`` ended with an unexpected error."""
    panel = OledPanel(shell.table)
    panel.close()
    panel.close()
    shown = panel.frame
    shell.table.start("campanile", PLAYERS)  # no longer listening: nothing drawn
    assert panel.frame is shown
