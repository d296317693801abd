"""The shell's screens. Each builds its widgets in :meth:`ShellScreen.redraw` from the
service and the catalogues, so that a language switch redraws every screen."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from ui import theme

if TYPE_CHECKING:
    from ui.app import Shell


class ShellScreen(Screen):
    """A screen of the shell: it knows the :class:`~ui.app.Shell` and redraws itself from it."""

    def __init__(self, shell: Shell, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.shell = shell

    def redraw(self) -> None:
        """Build the widgets anew from the service, in the current language."""

    def on_pre_enter(self, *args: Any) -> None:
        self.redraw()

    def home_row(self, title: str | None = None) -> BoxLayout:
        """The top row of a screen reached from home: Back (to home) and its ``title``."""
        from companion.i18n import text

        return back_row(text("ui.common.back"), lambda: self.shell.go("home"), title)


def column(**kwargs: Any) -> BoxLayout:
    """A vertical box with the theme's spacing."""
    kwargs.setdefault("spacing", theme.SPACING)
    kwargs.setdefault("padding", theme.SPACING)
    return BoxLayout(orientation="vertical", **kwargs)


def row(**kwargs: Any) -> BoxLayout:
    """A horizontal box one touch target high."""
    kwargs.setdefault("spacing", theme.SPACING)
    kwargs.setdefault("size_hint_y", None)
    kwargs.setdefault("height", theme.TOUCH)
    return BoxLayout(orientation="horizontal", **kwargs)


def back_row(label: str, on_back: Any, title: str | None = None, width: float = 3) -> BoxLayout:
    """The top row of a screen: a back button (``width`` touch targets wide) and its title."""
    from ui.widgets import Tap, Words

    top = row()
    back = Tap(text=label, size_hint_x=None, width=theme.TOUCH * width)
    back.bind(on_release=lambda *_: on_back())
    top.add_widget(back)
    if title is not None:
        top.add_widget(Words(text=title))
    return top


def scrolling_list(columns: int = 1) -> tuple[ScrollView, GridLayout]:
    """A scrolling list (its grid grows with its rows); returns the view and the grid to fill."""
    grid = GridLayout(cols=columns, spacing=theme.SPACING, size_hint_y=None, padding=(0, 0, theme.SPACING, 0))
    grid.bind(minimum_height=grid.setter("height"))
    view = ScrollView(do_scroll_x=False, bar_width=theme.SPACING, scroll_type=["bars", "content"])
    view.add_widget(grid)
    return view, grid


def filler() -> Widget:
    """Takes the height (or width) left over, so that the rest stays at the top."""
    return Widget()
