"""What the screens ask of the shell (:class:`ui.app.Shell`), as a type.

The screens and the games' touchscreen parts are handed the shell they live
in; they read the table through it, run actions whose refusals it shows, and
move between screens. :class:`ShellInterface` names exactly that, so a screen
is typed against what it uses, not against the app module (which imports
the games' parts: naming it from them would close a circle of imports).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ParamSpec, Protocol, TypeVar

if TYPE_CHECKING:
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.screenmanager import ScreenManager

    from companion.service.table import Table
    from companion.system import power
    from ui.widgets import RefusalBanner

P = ParamSpec("P")
R = TypeVar("R")


class ShellOptionsView(Protocol):
    """What the box's configuration tells the screens (:class:`ui.app.ShellOptions`)."""

    @property
    def stick_mount(self) -> str:
        """Where the backup stick is mounted."""

    @property
    def power_run(self) -> power.Runner | None:
        """How the power actions run their command (``None``: ``systemctl``)."""


class ShellInterface(Protocol):
    """The shell as its screens see it."""

    @property
    def table(self) -> Table:
        """The table every front end shares."""

    @property
    def options(self) -> ShellOptionsView:
        """What the configuration says (the stick's mount point...)."""

    @property
    def root(self) -> BoxLayout:
        """The widget the window shows: the screens and the banner."""

    @property
    def screens(self) -> ScreenManager:
        """The screen manager."""

    @property
    def banner(self) -> RefusalBanner:
        """The banner that shows refusals."""

    def go(self, name: str) -> None:
        """Show the screen ``name``."""

    def attempt(self, action: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R | None:
        """``action(*args, **kwargs)``; ``None`` when it was refused (the banner says why)."""

    def succeeds(self, action: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> bool:
        """Like :meth:`attempt`, for an action whose result is ``None``: whether it was done."""

    def refuse(self, words: str) -> None:
        """Show why something was refused."""

    def close(self) -> None:
        """Stop listening to the table."""
