"""The small pieces the Campanile screens are made of: buttons that stay tappable when dimmed,
a hold-to-confirm button, a player's badge.

Dimmed is not disabled: Kivy's ``disabled`` widgets ignore touches, but a
tap on something dimmed must still say why it is not allowed (ui.md). So
these buttons carry ``live`` (legal now, drawn bright) and ``flashing`` (a
refused tap, drawn red for a moment) and always dispatch their taps. Their
look is in ``campanile.kv``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.input.motionevent import MotionEvent
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from ui.theme import FLASH_SECONDS, LONG_PRESS_SECONDS, NO_COLOUR, TEXT, Colour, rgb

#: The look of every Campanile widget, in one file beside the board's module.
#: Campanile's five tower styles (a setup may name others: they get :data:`NO_COLOUR`).
TOWER_COLOURS: dict[str, Colour] = {
    "grey": rgb("#9aa0a6"),
    "brown": rgb("#9a6332"),
    "red": rgb("#d7263d"),
    "blue": rgb("#2f6fdb"),
    "yellow": rgb("#f2c500"),
}


def tower_colour(name: str) -> Colour:
    """A tower style's colour band; :data:`NO_COLOUR` for a style the box does not have."""
    return TOWER_COLOURS.get(name, NO_COLOUR)


KV = Path(__file__).with_name("campanile.kv")
if str(KV) not in Builder.files:
    Builder.load_file(str(KV))


def arrange(parent: Any, wanted: list[Any]) -> None:
    """``parent`` holding exactly ``wanted``, in that order: the widgets are moved in or out, none is
    made, and nothing is done when they are already so (what a line shows varies with the game: a
    flag's tallies, a valuation's tabs, the board's row under the scores)."""
    if list(reversed(parent.children)) != wanted:
        parent.clear_widgets()
        for widget in wanted:
            if widget.parent is not None:  # moving from another line (a flag's awards)
                widget.parent.remove_widget(widget)
            parent.add_widget(widget)


class Flashes:
    """A widget that turns red for a moment after a refused tap."""

    flashing: Any

    def flash(self) -> None:
        self.flashing = True
        Clock.schedule_once(self._unflash, FLASH_SECONDS)

    def _unflash(self, _dt: float) -> None:
        self.flashing = False


class TapButton(Flashes, ButtonBehavior, Label):
    """A flat button: bright when ``live`` (legal now), dimmed but still tappable otherwise."""

    live = BooleanProperty(True)
    flashing = BooleanProperty(False)
    #: "your action": drawn in the accent colour while live.
    accent = BooleanProperty(False)
    #: A game colour drawn as a band along the top (a tower's style, a card's).
    band = ListProperty([0, 0, 0, 0])
    #: The tower style this button stands for (a display card, a refill choice), if any.
    card: str | None = None


class HoldButton(TapButton):
    """A button for what is rare or hard to take back: it acts only after being held.

    ``on_long_press`` fires once the finger has stayed on it for
    :data:`LONG_PRESS_SECONDS`; a short tap fires ``on_release`` only (and
    changes nothing in the game). No double tap and no drag are needed.
    """

    holding = BooleanProperty(False)

    def __init__(self, **kwargs: object) -> None:
        self.register_event_type("on_long_press")
        super().__init__(**kwargs)
        self._hold = Clock.create_trigger(self._held, LONG_PRESS_SECONDS)

    def on_touch_down(self, touch: MotionEvent) -> bool:
        if self.collide_point(*touch.pos):
            self.holding = True
            self._hold()
        return bool(super().on_touch_down(touch))

    def on_touch_up(self, touch: MotionEvent) -> bool:
        if touch.grab_current is self or self.holding:
            self._hold.cancel()
            self.holding = False
        return bool(super().on_touch_up(touch))

    def _held(self, _dt: float) -> None:
        if self.holding:
            self.holding = False
            self.dispatch("on_long_press")

    def on_long_press(self) -> None:
        pass


class TowerHead(Flashes, ButtonBehavior, BoxLayout):
    """A tower's name and height; tapped to put the turn's marker under it."""

    live = BooleanProperty(False)
    flashing = BooleanProperty(False)
    band = ListProperty([0, 0, 0, 0])
    name_text = StringProperty("")
    height_text = StringProperty("")


class PieceBadge(Label):
    """A player's initials on their marker colour (never the colour alone)."""

    fill = ListProperty([0, 0, 0, 1])
    ink = ListProperty(list(TEXT))
    #: Initials on a piece's colour are a mark (docs/ui.md, "Roles of a text"): 4.5:1 on the colour.
    role = "mark"
    #: The acting player's badge is ringed in the accent colour.
    acting = BooleanProperty(False)


class TowerTag(Label):
    """A tower's name with its style's colour band: a label, not a target."""

    band = ListProperty([0, 0, 0, 0])
