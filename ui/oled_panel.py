"""On a laptop: the appliance's OLED beside the touchscreen, live, and the keyboard as its buttons.

The box's 128×64 OLED shows what :class:`~hardware.oled_view.OledView` draws
from the table's events (status pages, "saved", refusals, the navigator's
lists). Beside the 800×480 window this panel shows the same frame, scaled ×2
(pixels kept square and sharp), so that a developer sees both front ends of
one table at once. The arrow keys, Enter, V and M are the encoder and the
buttons (:data:`PANEL_KEYS`), handled by the same
:class:`~hardware.navigator.Navigator` as on the box.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.widget import Widget
from PIL import Image as PilImage

from companion.service.table import Table
from hardware.navigator import Navigator
from hardware.oled_render import HEIGHT, WIDTH
from hardware.oled_view import OledView
from ui import theme
from ui.kivy_setup import OLED_PANEL_WIDTH, OLED_SCALE, panel_beside

#: The frame's scale on the laptop's screen (told to Kivy with the window's size, before it exists).
SCALE = OLED_SCALE
#: The panel's width beside the touchscreen's 800 px.
PANEL_WIDTH = OLED_PANEL_WIDTH
#: Kivy's key code -> the navigator's key: the encoder (up/down arrows) and the buttons.
PANEL_KEYS: dict[int, str] = {273: "previous", 274: "next", 13: "confirm", ord("v"): "valuation",
                              ord("m"): "menu"}
#: With Shift, the buttons' long presses: Shift+V records a game's valuation card after its
#: preview, Shift+M leaves the hardware test (a keyboard has no "held").
HELD_KEYS: dict[int, str] = {ord("v"): "valuation_hold", ord("m"): "menu_hold"}
#: How often the view is ticked (its pages turn and notices expire by time), in seconds.
TICK_SECONDS = 0.1


def frame_pixels(image: PilImage.Image) -> PilImage.Image:
    """The OLED's 1-bit frame as the panel shows it: RGB, scaled ×:data:`SCALE`, nearest neighbour."""
    return image.convert("RGB").resize((image.width * SCALE, image.height * SCALE),
                                       PilImage.Resampling.NEAREST)


class OledPanel(Image):
    """The live OLED frame: an :class:`OledView` over the same table, drawing into this texture."""

    def __init__(self, table: Table, **kwargs: object) -> None:
        kwargs.setdefault("size_hint", (None, None))
        kwargs.setdefault("size", (WIDTH * SCALE, HEIGHT * SCALE))
        super().__init__(fit_mode="fill", **kwargs)
        #: The last frame shown, as uploaded (for the tests and snapshots).
        self.frame: PilImage.Image | None = None
        self._closed = False
        self.navigator = Navigator(table)
        self.view = OledView(table, self.navigator, self.show)
        self.view.tick()
        # after the view's own listener (registered first): a table event is drawn at once
        self._stop_listening = table.listen(lambda _table, _event: self.view.tick())
        self._ticking = Clock.schedule_interval(lambda _dt: self.view.tick(), TICK_SECONDS)

    def show(self, image: PilImage.Image) -> None:
        """The view's ``send``: a new frame for the panel."""
        frame = frame_pixels(image)
        texture = Texture.create(size=frame.size, colorfmt="rgb")
        texture.mag_filter = "nearest"
        texture.blit_buffer(frame.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        texture.flip_vertical()  # PIL's rows run top down, OpenGL's bottom up
        self.frame = frame
        self.texture = texture

    def key(self, code: int, modifiers: list[str] | tuple[str, ...] = ()) -> bool:
        """A laptop key as the box's button or encoder (Shift: held); whether it was one."""
        name = HELD_KEYS.get(code) if "shift" in modifiers else PANEL_KEYS.get(code)
        if name is None:
            return False
        self.view.dismiss()
        self.navigator.key(name)
        self.view.wake()
        self.view.tick()
        return True

    def close(self) -> None:
        """Stop drawing; the app calls it as it stops, which Kivy may do twice (``App.stop`` and the end
        of ``App.run`` each dispatch ``on_stop``): the second call does nothing."""
        if self._closed:
            return
        self._closed = True
        self._ticking.cancel()
        self._stop_listening()
        self.view.close()


def beside_oled(screen: Widget, table: Table) -> tuple[BoxLayout, OledPanel]:
    """The touchscreen's ``screen`` with the OLED panel at its right (the laptop's window)."""
    whole = BoxLayout(orientation="horizontal")
    screen.size_hint_x = None
    screen.width = theme.WINDOW[0]
    side = BoxLayout(orientation="vertical", padding=theme.SPACING, size_hint_x=None, width=PANEL_WIDTH)
    panel = OledPanel(table)
    side.add_widget(panel)
    side.add_widget(Widget())
    whole.add_widget(screen)
    whole.add_widget(side)
    return whole, panel


def wire_keys(panel: OledPanel) -> None:
    """The panel's keys on the window (not while a text field has the focus: Enter is the field's)."""
    from kivy.core.window import Window
    from kivy.uix.textinput import TextInput

    def key_down(_window: object, key: int, _scancode: object = None, _codepoint: object = None,
                 modifiers: Any = ()) -> bool:
        typing = any(isinstance(w, TextInput) and w.focus for w in Window.children[0].walk()) \
            if Window.children else False
        return False if typing else panel.key(key, list(modifiers or ()))

    Window.bind(on_key_down=key_down)


def wanted(environ: dict[str, str] | None = None) -> bool:
    """Whether the window is a laptop's (an X or Wayland session), not the kiosk's panel nor offscreen
    (:func:`ui.kivy_setup.panel_beside`, which sized the window for it)."""
    import os

    return panel_beside(os.environ if environ is None else environ)
