"""Does a screen fit its 800×480 window? What a player across the table would see cut, measured.

Used by the touchscreen tests on live widget trees (the Campanile kit's child
process and the shell's tests): the layout check of ``companion snapshot --check``
(:mod:`ui.layout_check`: every text fits its box and keeps the size of its role
in docs/ui.md, targets are at least 48 px), and besides it every widget shown
lies inside its parent and the window (a scrolled list's rows inside the list's
width), and the texts a test names keep the figure size or one line. Each
problem is one line naming the widget by its text, so a failing test says what
a player would have seen.
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
    """What does not fit in ``root`` (one line each): the layout check's problems of the tree
    (:func:`ui.layout_check.check_tree`: a text cut, shortened, wrapped mid-word or below its role's
    size, a target below 48 px or over another, a message key or an id shown; contrast is the
    snapshot's, measured from a drawn frame), and what the layout check leaves to the screen's own
    tests: a widget outside its parent or the window, a ``figures`` text below 36 px whatever its
    size says its role is, a ``one_line`` text wrapped."""
    from kivy.uix.label import Label
    from kivy.uix.scrollview import ScrollView

    from ui.layout_check import check_tree

    found = [problem.line() for problem in check_tree("screen", root, None)]
    for widget in _shown(root):
        if widget.width <= 0 or widget.height <= 0:
            continue
        left, bottom, right, top = _box(widget)
        parent = widget.parent
        if widget is not root and parent is not None and parent is not parent.parent:
            p_left, p_bottom, p_right, p_top = _box(parent)
            inside_x = left >= p_left - SLACK and right <= p_right + SLACK
            inside_y = bottom >= p_bottom - SLACK and top <= p_top + SLACK
            if not inside_x or (not inside_y and not isinstance(parent, ScrollView)):
                found.append(f"{name(widget)} lies outside {name(parent)}")
        scrolled = _scrolled(widget)
        off_x = left < -SLACK or right > WINDOW[0] + SLACK
        if off_x or (not scrolled and (bottom < -SLACK or top > WINDOW[1] + SLACK)):
            found.append(f"{name(widget)} lies outside the window")
        if isinstance(widget, Label) and widget.text.strip():
            if widget in figures and widget.font_size < 36:
                found.append(f"{name(widget)} is {widget.font_size} px, below 36")
            room = widget.text_size[0] or widget.width
            if widget in one_line and ("\n" in widget.text or whole_width(widget) > room + SLACK):
                found.append(f"{name(widget)} wraps")
    return found
