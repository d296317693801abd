"""The few widgets every screen is built from, sized and coloured by :mod:`ui.theme`.

Their looks are in ``ui/shell.kv``; here is only what they do: a long
press that fires once after :data:`~ui.theme.LONG_PRESS_SECONDS` (for what
ends, abandons or deletes), a player's badge (colour + initials, never
colour alone) and the refusal banner that stays until the next tap and at
least :data:`~ui.theme.REFUSAL_SECONDS`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.input.motionevent import MotionEvent
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput

from ui import theme


class Tap(Button):
    """A button at least :data:`~ui.theme.TOUCH` px each way; ``accent`` marks "your action"."""

    accent = BooleanProperty(False)
    #: A colour of the pieces this button stands for (a player's, a colour choice).
    swatch = ColorProperty(theme.SURFACE)


class MoveTap(Tap):
    """One move of a list of moves (a recycled view: only the rows on screen exist and are drawn)."""

    #: What the move means (record JSON), and the function that enters it.
    move = ObjectProperty(None, allownone=True)
    chooser = ObjectProperty(None, allownone=True)

    def on_release(self) -> None:
        if self.chooser is not None and self.move is not None:
            self.chooser(self.move)


class BarTap(Tap):
    """A button of a bar: as wide as its words (never broken inside a word), at least two targets."""

    def __init__(self, **kwargs: object) -> None:
        from kivy.core.text import Label as Measure

        measure = Measure(text=kwargs.get("text", ""), font_size=theme.FONT_SMALL)
        measure.refresh()
        kwargs.setdefault("size_hint_x", None)
        kwargs.setdefault("width", max(theme.TOUCH * 2, measure.texture.size[0] + theme.SPACING * 3))
        super().__init__(**kwargs)


class LongTap(Tap):
    """A button that acts only when held (:data:`~ui.theme.LONG_PRESS_SECONDS`); a tap does nothing.

    Dispatches ``on_long_press`` once per hold; its label says so ("hold to ...").
    """

    held = NumericProperty(0.0)  # 0..1 while held, for the fill drawn in the .kv

    def __init__(self, **kwargs: object) -> None:
        self.register_event_type("on_long_press")
        super().__init__(**kwargs)
        self._timer: Any = None

    def on_long_press(self) -> None:
        pass

    def on_touch_down(self, touch: MotionEvent) -> bool:
        if self.disabled or not self.collide_point(*touch.pos):
            return bool(super().on_touch_down(touch))
        touch.grab(self)
        self._timer = Clock.schedule_once(self._fire, theme.LONG_PRESS_SECONDS)
        Animation.cancel_all(self, "held")
        self.held = 0.0
        Animation(held=1.0, d=theme.LONG_PRESS_SECONDS).start(self)
        self.state = "down"
        return True

    def on_touch_up(self, touch: MotionEvent) -> bool:
        if touch.grab_current is not self:
            return bool(super().on_touch_up(touch))
        touch.ungrab(self)
        self._cancel()
        return True

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        Animation.cancel_all(self, "held")
        self.held = 0.0
        self.state = "normal"

    def _fire(self, _dt: float) -> None:
        self._timer = None
        self.dispatch("on_long_press")


class Words(Label):
    """Labels and explanations (:data:`~ui.theme.FONT_SMALL`), wrapped to the width, never cut."""


class Figure(Label):
    """The figures players look for (:data:`~ui.theme.FONT_LARGE`)."""


class StripName(Label):
    """The turn strip's name (:data:`~ui.theme.FONT_LARGE`): who acts now, or who won; on one line.

    A name longer than its room is set smaller, down to :data:`~ui.theme.FONT_SMALL`, rather than
    cut ("Franziska-L…" beside the Hungarian bar's wider buttons); only a name that does not fit
    even so ends in an ellipsis. It is words (a name), so the label's least size holds for it.
    """

    role = "label"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(text=self._fit, width=self._fit)

    def least_width(self) -> float:
        """How wide the name is at the smallest size it is set in (wider: it is cut)."""
        from kivy.core.text import Label as CoreLabel

        smallest = CoreLabel(text=self.text, font_size=theme.FONT_SMALL, bold=self.bold)
        smallest.refresh()
        return (float(smallest.texture.size[0]) if smallest.texture is not None else 0.0) + 2

    def _fit(self, *_: object) -> None:
        from kivy.core.text import Label as CoreLabel

        whole = CoreLabel(text=self.text, font_size=theme.FONT_LARGE, bold=self.bold)
        whole.refresh()
        need = float(whole.texture.size[0]) if whole.texture is not None else 0.0
        room = float(self.width) - 2
        fitted = theme.FONT_LARGE if need <= room or need <= 0 else int(theme.FONT_LARGE * room / need)
        self.font_size = max(theme.FONT_SMALL, min(theme.FONT_LARGE, fitted))


class StripWords(Label):
    """The turn strip's sentence (:data:`~ui.theme.FONT_SMALL`): as tall as its lines, so a sentence
    longer than the screen takes a second line rather than being cut."""


class StripNext(Label):
    """The turn strip's "next: Birgit" (:data:`~ui.theme.FONT_SMALL`): as wide as its words, at the right."""


class Badge(Label):
    """A player: their colour with their initials on it (never colour alone)."""

    swatch = ColorProperty(theme.NO_COLOUR)
    #: Initials on a piece's colour are a mark (docs/ui.md, "Roles of a text"): 4.5:1 on the colour.
    role = "mark"


def badge(initials: str, colour: str | None) -> Badge:
    """A :class:`Badge` for a player with ``initials`` and the piece colour named ``colour``."""
    fill = theme.piece_colour(colour)
    return Badge(text=initials, swatch=fill, color=theme.text_on(fill))


class Field(TextInput):
    """One line of text to type (a name, a notation move, a number).

    A value put in by the program (a stored setting) shows from its beginning, as a person reads
    it; Kivy leaves the cursor at the end, so a long value showed only its tail ("ild-1, guild-2").
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.bind(text=self._from_the_start)

    def _from_the_start(self, *_: object) -> None:
        if not self.focus:  # typing keeps the cursor where the person is typing
            Clock.schedule_once(lambda _dt: setattr(self, "cursor", (0, 0)) if not self.focus else None)


class RefusalBanner(BoxLayout):
    """Says why something was refused: flashes, then stays until the next tap and at least 4 s.

    ``clock`` is the monotonic clock it measures the 4 s with (a test gives
    its own to step over them). Hidden, it takes no room.
    """

    text = StringProperty("")
    shown = BooleanProperty(False)

    def __init__(self, clock: Callable[[], float] = time.monotonic, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.clock = clock
        self._since = 0.0
        self._hide_at_tap = False
        self._pending: Any = None

    def show(self, text: str) -> None:
        """Show ``text`` now (replacing an earlier refusal) and flash it."""
        self.text = text
        self.shown = True
        self._since = self.clock()
        self._hide_at_tap = False
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        Animation.cancel_all(self, "opacity")
        self.opacity = 1.0
        (Animation(opacity=0.35, d=0.12) + Animation(opacity=1.0, d=0.12)
         + Animation(opacity=0.35, d=0.12) + Animation(opacity=1.0, d=0.12)).start(self)

    def tapped(self) -> None:
        """Any tap on the screen: hide now if shown long enough, else as soon as it has been."""
        if not self.shown:
            return
        left = theme.REFUSAL_SECONDS - (self.clock() - self._since)
        if left <= 0:
            self.hide()
        elif self._pending is None:
            self._pending = Clock.schedule_once(lambda _dt: self._after_wait(), left)

    def _after_wait(self) -> None:
        self._pending = None
        if self.clock() - self._since >= theme.REFUSAL_SECONDS:
            self.hide()
        else:
            self.tapped()

    def hide(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        Animation.cancel_all(self, "opacity")
        self.shown = False
        self.text = ""
