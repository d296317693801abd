"""Does a screen fit its 800×480 window? What a player across the table would see cut, measured.

Used by the touchscreen tests on live widget trees (the Campanile kit's child
process and the shell's tests): every widget shown lies inside its parent
and the window (a scrolled list's rows inside the list's width), every text
fits its box (``texture_size`` against ``size``; a shortened text measured
whole, so an ellipsis counts as cut), texts keep the sizes of docs/ui.md,
and targets are at least 48 px. Each problem is one line naming the widget
by its text, so a failing test says what a player would have seen.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

#: Rounding of Kivy's layout (half pixels): a box this much too small is not a cut.
SLACK = 1.0
#: The window of the 7" panel.
WINDOW = (800, 480)


def _shown(root: Any) -> Iterator[Any]:
    """Every widget in ``root``'s tree that is drawn (not see-through)."""
    for widget in root.walk(restrict=True):
        if getattr(widget, "opacity", 1) > 0:
            yield widget


def _box(widget: Any) -> tuple[float, float, float, float]:
    """``widget``'s box in window coordinates: left, bottom, right, top."""
    left, bottom = widget.to_window(widget.x, widget.y)
    return left, bottom, left + widget.width, bottom + widget.height


def _scrolled(widget: Any) -> bool:
    """Whether ``widget`` lies in a scrolled list (its rows may be below the list's visible part)."""
    from kivy.uix.scrollview import ScrollView

    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, ScrollView):
            return True
        parent = parent.parent
    return False


def whole_width(label: Any, text: str | None = None) -> float:
    """The width ``label``'s text (or ``text`` in its font) takes on one line, unshortened."""
    from kivy.core.text import Label as Measure

    measure = Measure(text=label.text if text is None else text, font_size=label.font_size, bold=label.bold,
                      font_name=label.font_name)
    measure.refresh()
    return float(measure.texture.size[0])


def name(widget: Any) -> str:
    text = getattr(widget, "text", "")
    return f"{type(widget).__name__} {text!r}" if text else type(widget).__name__


def problems(root: Any, *, figures: tuple[Any, ...] = (), one_line: tuple[Any, ...] = ()) -> list[str]:
    """What does not fit in ``root`` (one line each): outside its parent or the window, a text cut or
    below 20 px, a ``figures`` text below 36 px, a ``one_line`` text wrapped, a target below 48 px."""
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label

    found: list[str] = []
    for widget in _shown(root):
        if widget.width <= 0 or widget.height <= 0:
            continue
        left, bottom, right, top = _box(widget)
        parent = widget.parent
        if widget is not root and parent is not None and parent is not parent.parent:
            p_left, p_bottom, p_right, p_top = _box(parent)
            from kivy.uix.scrollview import ScrollView

            inside_x = left >= p_left - SLACK and right <= p_right + SLACK
            inside_y = bottom >= p_bottom - SLACK and top <= p_top + SLACK
            if not inside_x or (not inside_y and not isinstance(parent, ScrollView)):
                found.append(f"{name(widget)} lies outside {name(parent)}")
        scrolled = _scrolled(widget)
        off_x = left < -SLACK or right > WINDOW[0] + SLACK
        if off_x or (not scrolled and (bottom < -SLACK or top > WINDOW[1] + SLACK)):
            found.append(f"{name(widget)} lies outside the window")
        if isinstance(widget, Label) and widget.text.strip():
            tw, th = widget.texture_size
            if tw > widget.width + SLACK or th > widget.height + SLACK:
                found.append(f"{name(widget)} is cut: its text takes {tw}×{th}, "
                             f"its box {widget.width}×{widget.height}")
            if widget.shorten and whole_width(widget) > (widget.text_size[0] or widget.width) + SLACK:
                found.append(f"{name(widget)} is shortened")
            least = 36 if widget in figures else 20
            if widget.font_size < least:
                found.append(f"{name(widget)} is {widget.font_size} px, below {least}")
            room = widget.text_size[0] or widget.width
            if widget in one_line and ("\n" in widget.text or whole_width(widget) > room + SLACK):
                found.append(f"{name(widget)} wraps")
        if isinstance(widget, ButtonBehavior) and (widget.width < 48 - SLACK or widget.height < 48 - SLACK):
            found.append(f"{name(widget)} is a target of {widget.width}×{widget.height}, below 48×48")
    return found
