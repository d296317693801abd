"""The shell's screens.

A screen's layout is its class's rule in a ``.kv`` file beside its module
(:func:`load_rules`): the widgets are built once, with ids, and Kivy
properties of the screen carry what the table says (texts, counts, whether
something may be done now). :meth:`ShellScreen.redraw` sets those
properties from the service on the table's events and as the screen enters;
the widgets bound to them update themselves. The words of the catalogues
are bound to the screen's ``language`` (:func:`say`), so a language switch
changes every text in place; :func:`show` takes a widget out while it means
nothing and puts it back in its place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

if TYPE_CHECKING:
    from ui.games.part import Tool
    from ui.shell_interface import ShellInterface


def load_rules(module_file: str) -> None:
    """Load the rules of the ``.kv`` file named like the module ``module_file`` (once per process:
    Kivy keeps rules globally, and a file loaded twice would apply its rules twice)."""
    path = str(Path(module_file).with_suffix(".kv"))
    if path not in Builder.files:
        Builder.load_file(path)


def fill_tools(box: Widget, offered: Sequence[Tool], go: Callable[[str], object],
               width: float | None = None) -> None:
    """Put one button per tool of ``offered`` in ``box`` (a game's own tools on Home or in
    Settings), each opening its screen with ``go``, in the current language; the buttons are made
    anew only when the tools change. ``width``: each button's, else they share the box."""
    from companion.i18n import text
    from ui.widgets import Tap

    wanted = [tool.screen for tool in offered]
    if [getattr(child, "tool_screen", None) for child in reversed(box.children)] != wanted:
        box.clear_widgets()
        for tool in offered:
            button = Tap(on_release=lambda _, screen=tool.screen: go(screen))
            button.tool_screen = tool.screen
            if width is not None:
                button.size_hint_x, button.width = None, width
            box.add_widget(button)
    for button, tool in zip(reversed(box.children), offered, strict=True):
        button.text = text(tool.label)


def say(code: str, language: str, **values: object) -> str:
    """The catalogue's words for ``code``, for a ``.kv`` rule: ``say("ui.home.title", root.language)``.

    ``language`` is not read: naming ``root.language`` in the rule is what makes
    Kivy evaluate it again when the language changes.
    """
    from companion.i18n import text

    return text(code, **values)


def show(widget: Widget, visible: bool) -> None:
    """Put a widget of a rule back in its place among its siblings, or take it out while it has no
    meaning now (a hidden widget that stayed would still take its share of the spacing).

    The first call remembers the order of the widget's siblings as the rule built them.
    """
    place: tuple[Widget, list[Widget]] | None = getattr(widget, "_shell_place", None)
    if place is None:
        parent = widget.parent
        order = list(reversed(parent.children))  # as laid out (Kivy keeps the last added first)
        for sibling in order:
            sibling._shell_place = (parent, order)
        # The parent holds the order too: a rule's ids are weak references, so a widget taken out
        # with no sibling left to hold the list would otherwise be collected while hidden.
        parent._shell_order = order
        place = (parent, order)
    parent, order = place
    if visible == (widget.parent is parent):
        return
    if not visible:
        parent.remove_widget(widget)
        return
    after = [w for w in order[order.index(widget) + 1:] if w.parent is parent]
    parent.add_widget(widget, index=len(after))


class ShellScreen(Screen):
    """A screen of the shell: it knows the :class:`~ui.app.Shell` and redraws itself from it."""

    #: The language the screen's words are in (the rules' :func:`say` depends on it).
    language = StringProperty("")

    def __init__(self, shell: ShellInterface, **kwargs: object) -> None:
        self.shell = shell  # before the rule applies: its bindings may read it
        super().__init__(**kwargs)

    def redraw(self) -> None:
        """Bring the screen up to date with the service, in the current language."""
        from companion.i18n import current_language

        self.language = current_language()
        self.refresh()

    def refresh(self) -> None:
        """Set the screen's properties (and so its widgets) from the service."""

    def on_pre_enter(self, *args: object) -> None:
        self.redraw()
