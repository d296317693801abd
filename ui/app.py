"""The touchscreen app: the shell around the game boards (home, new game, resume, history,
settings, statistics, game over), on the shared :class:`~companion.service.table.Table`.

The shell never keeps its own idea of the game: it asks the table (and the
engines through it) and redraws on the table's events. Every refusal, from
whichever front end, is shown in one banner at the bottom of the window.
Moves from other threads (buttons, panels) reach the table through its
command queue, drained on Kivy's clock.

The garbage collector is frozen after start-up and collects only when the
players have not touched the screen for a while, so that no pause falls in
the middle of a tap.
"""

from __future__ import annotations

import gc
import importlib
import logging
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from companion import i18n
from companion.games.base import IllegalMove, RecordError
from companion.service.app import AppError
from companion.service.damage import damage
from companion.service.session import SessionError
from companion.service.settings import LANGUAGE
from companion.service.table import Table, TableEvent
from companion.storage import stick
from companion.storage.store import StoreError
from companion.system import power
from companion.system.watchdog import Watchdog
from ui import theme
from ui.games import game_screens, over_screen
from ui.keys import command_for_key
from ui.widgets import RefusalBanner

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

#: The looks. Not "companion.kv": App.run() itself loads the file named after the app class again.
KV_FILE = Path(__file__).with_name("shell.kv")
#: Seconds without a touch after which the idle garbage collection runs.
IDLE_SECONDS = 5.0

_kv_loaded: list[bool] = []


def load_kv() -> None:
    """Load the looks once per process (Kivy keeps rules globally)."""
    if not _kv_loaded:
        Builder.load_file(str(KV_FILE))
        _kv_loaded.append(True)


#: The shell's screens: name -> "module:Class", built as ``Class(shell, name=name)``.
#: One line each, so a new screen is one added line.
SCREENS: dict[str, str] = {
    "home": "ui.screens.home:HomeScreen",
    "new": "ui.screens.new_game:NewGameScreen",
    "resume": "ui.screens.home:ResumeScreen",
    "game": "ui.screens.game:GameScreen",
    "history": "ui.screens.history:HistoryScreen",
    "over": "ui.screens.game_over:GameOverScreen",
    "stats": "ui.screens.stats:StatsScreen",
    "settings": "ui.screens.settings:SettingsScreen",
    "follow": "ui.screens.follow:FollowScreen",
    "damaged": "ui.screens.damaged:DamagedScreen",
}


@dataclass(frozen=True)
class ShellOptions:
    """What the box's configuration tells the screens, handed to the :class:`Shell` when it is built.

    Configuration reaches a screen through its shell (``screen.shell.options``),
    never through class attributes a caller overwrites: two shells in one
    process (the tests) each keep their own.
    """

    #: Where the backup stick is mounted (the config's ``backup.stick``).
    stick_mount: str = stick.DEFAULT_MOUNT
    #: How the power actions run their command (``None``: ``systemctl``); tests give a stand-in.
    power_run: power.Runner | None = None


class Screens(ScreenManager):
    """The shell's screen manager, each screen built (its module imported, its rules loaded) the
    first time it is asked for: the first frame waits only for the screen it shows.

    Every screen in :data:`SCREENS` is there from the start as far as anyone asking can tell
    (:meth:`get_screen`, :meth:`has_screen`, setting ``current``); the app builds the others in the
    frames after the first (:meth:`make_next`), so that no later tap waits for one. Building them
    all first (eleven screens, among them the games' own tools, whose rules alone are some 450
    lines) took about a third of the time to the first frame.
    """

    def __init__(self, makers: dict[str, Callable[[str], Screen]], **kwargs: object) -> None:
        self._makers = dict(makers)
        super().__init__(**kwargs)

    def get_screen(self, name: str) -> Screen:
        self._make(name)
        return super().get_screen(name)

    def has_screen(self, name: str) -> bool:
        return name in self._makers or bool(super().has_screen(name))

    def make_next(self) -> bool:
        """Build one screen not built yet; whether any is left to build."""
        if self._makers:
            self._make(next(iter(self._makers)))
        return bool(self._makers)

    def _make(self, name: str) -> None:
        maker = self._makers.pop(name, None)
        if maker is not None:
            self.add_widget(maker(name))


class Shell:
    """The screens, the refusal banner and the commands the buttons and the keyboard share.

    One per window. ``root`` is the widget to show; :meth:`command` runs a
    named command ("undo", "redo", "history", "home", "back") whether it came
    from a key or a hardware button. ``options`` is what the configuration says
    (the stick's mount point…).
    """

    def __init__(self, table: Table, options: ShellOptions | None = None) -> None:
        load_kv()
        Window.clearcolor = theme.BACKGROUND
        self.table = table
        self.options = options if options is not None else ShellOptions()
        self.banner = RefusalBanner()
        # the shell's own screens, then each game's (declared by its touchscreen part)
        every = {**SCREENS, **game_screens()}
        self.screens = Screens({name: self._maker(where) for name, where in every.items()},
                               transition=NoTransition())
        self.root = BoxLayout(orientation="vertical")
        self.root.add_widget(self.screens)
        self.root.add_widget(self.banner)
        self.last_touch = time.monotonic()
        self._collected = True
        self._stop_listening = table.listen(self._table_event)
        self.show_start()
        table.app.unfinished()  # finds the unfinished games that cannot be opened
        if damage(table.app) is not None:  # a damaged store: said first, with its repair
            self.go("damaged")

    def _maker(self, where: str) -> Callable[[str], Screen]:
        """What builds the screen ``where`` (``"module:Class"``) on this shell, its module imported then."""
        def make(name: str) -> Screen:
            module_name, _, class_name = where.partition(":")
            screen: Screen = getattr(importlib.import_module(module_name), class_name)(self, name=name)
            return screen

        return make

    # -- where to go -----------------------------------------------------------------
    def go(self, name: str) -> None:
        """Show the screen ``name`` (it redraws itself as it enters)."""
        if self.screens.current == name:
            self.screens.current_screen.redraw()
        else:
            self.screens.current = name

    def show_start(self) -> None:
        """The game when one is open (game over when it ended), else home."""
        session = self.table.session
        if session is None:
            self.go("home")
        elif session.game.is_finished(session.state):
            self.go(over_screen(session))
        else:
            self.go("game")

    def command(self, name: str) -> bool:
        """Run a named command (from a key or a hardware button); returns whether it meant anything here."""
        if name in ("undo", "redo"):
            if self.table.session is None:
                return False
            self.attempt(getattr(self.table, name))
            return True
        if name == "history" and self.table.session is not None:
            self.go("history")
            return True
        if name == "home":
            self.go("home")
            return True
        if name == "back":  # from the game: home; from anywhere else: the game (or home)
            if self.screens.current == "game":
                self.go("home")
            else:
                self.show_start()
            return True
        return False

    # -- doing things --------------------------------------------------------------------
    def attempt(self, action: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R | None:
        """Call ``action``; a refusal is shown in the banner (a refused move already is, by its event).

        Returns the action's result, or ``None`` when it was refused.
        """
        try:
            return action(*args, **kwargs)
        except IllegalMove:
            return None  # the table announced it: the banner shows it
        except (AppError, RecordError, SessionError, StoreError, ValueError) as error:
            self.refuse(str(error))
            return None

    def succeeds(self, action: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> bool:
        """Like :meth:`attempt`, for an action whose result is ``None``: whether it was done."""
        done: list[bool] = []
        self.attempt(lambda: done.append(bool(action(*args, **kwargs)) or True))
        return bool(done)

    def refuse(self, words: str) -> None:
        """Show why something was refused (and change nothing)."""
        self.banner.show(words)

    def set_language(self, language: str) -> None:
        """Speak ``language`` from now on: stored as the table's setting, every screen redrawn."""
        if self.attempt(self.table.app.change_setting, LANGUAGE, language) is None:
            return
        i18n.set_language(language)
        self.redraw_all()

    def redraw_all(self) -> None:
        """Redraw the screen in view; the others redraw as they enter (:meth:`ShellScreen.on_pre_enter`)."""
        self.screens.current_screen.redraw()

    # -- events ---------------------------------------------------------------------------
    def _table_event(self, table: Table, event: TableEvent) -> None:
        if event.kind == "refused":
            self.refuse(str(event.reason))
            return
        session = table.session
        if event.kind in ("opened", "closed"):
            self.show_start()
            return
        finished = session is not None and session.game.is_finished(session.state)
        if finished and self.screens.current == "game":
            self.go(over_screen(session))
            return
        if session is not None and not finished and self.screens.current == "over":
            self.go("game")  # an undo from game over goes back to the game
            return
        self.screens.current_screen.redraw()

    def touched(self) -> None:
        """Any touch: the idle collector waits."""
        self.last_touch = time.monotonic()
        self._collected = False

    def lifted(self) -> None:
        """A finger lifted: the banner may go now (at the touch's end, not its start: a list delays
        a touch to tell a tap from a scroll, and the banner folding up meanwhile would move another
        row under the finger)."""
        self.banner.tapped()

    def collect_when_idle(self, _dt: float = 0.0) -> None:
        """Collect garbage once after :data:`IDLE_SECONDS` without a touch (never mid-tap)."""
        if not self._collected and time.monotonic() - self.last_touch >= IDLE_SECONDS:
            gc.collect()
            self._collected = True

    def close(self) -> None:
        """Stop listening to the table (the app calls it when it stops, maybe twice)."""
        stop, self._stop_listening = self._stop_listening, lambda: None
        stop()


class CompanionApp(App):
    """The Kivy app over a :class:`Table`; ``companion run`` starts it when a display is there."""

    title = "Tabletop companion"

    def __init__(self, table: Table, oled_panel: bool = False, options: ShellOptions | None = None,
                 **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.table = table
        self.options = options
        #: On a laptop: the live OLED frame beside the screen (ui/oled_panel.py).
        self.oled_panel = oled_panel
        self.panel: Any = None
        self.shell: Shell | None = None
        self.first_frame: float | None = None
        self.watchdog = Watchdog()

    def build(self) -> Any:
        Window.clearcolor = theme.BACKGROUND
        self.shell = shell = Shell(self.table, self.options)
        wire_window(shell)
        wire_commands(self.table)
        from ui.backlight import TouchLight

        self.light = TouchLight(self.table.app.settings)  # kept: Kivy holds bound methods weakly
        self.light.wire()  # dimmed when idle; a touch on a dark screen only wakes it
        Clock.schedule_once(self._started, 0)
        Window.bind(on_flip=self._first_flip)
        if self.oled_panel:
            from ui.oled_panel import beside_oled, wire_keys

            root, self.panel = beside_oled(shell.root, self.table)
            wire_keys(self.panel)
            return root
        return shell.root

    def _first_flip(self, *_args: object) -> None:
        """The first frame is on the screen: tell systemd, and feed its watchdog from Kivy's clock.

        The pings come from the clock of the main loop, never from a thread of
        their own: when the screen freezes they stop, and systemd restarts the app.
        """
        Window.unbind(on_flip=self._first_flip)
        width, height = Window.size
        log.info("the touchscreen is running in a %d×%d window; SIGTERM stops it", width, height)
        self.watchdog.ready("touchscreen")
        if self.watchdog.interval is not None:
            Clock.schedule_interval(lambda _dt: self.watchdog.tick(), min(1.0, self.watchdog.interval / 2))
        Clock.schedule_once(self._make_screens, 0)

    def _make_screens(self, _dt: float) -> None:
        """Build the screens the first frame did not need, one a frame (:class:`Screens`): a tap
        waits for one screen's build at most, and none waits for a screen to be built when it is
        first shown. Then freeze what they made, as what start-up made is (:meth:`_started`)."""
        if self.shell is not None and self.shell.screens.make_next():
            Clock.schedule_once(self._make_screens, 0)
        else:
            gc.freeze()

    def _started(self, _dt: float) -> None:
        self.first_frame = time.perf_counter()
        gc.collect()
        gc.freeze()  # what start-up made stays: the collector never walks it mid-game
        gc.disable()  # collected when idle instead (Shell.collect_when_idle)

    def on_stop(self) -> None:
        self.watchdog.stopping()
        gc.enable()
        if self.shell is not None:
            self.shell.close()
        self.table.close()  # the time the open game was played since its last move counts
        if self.panel is not None:
            self.panel.close()


def wire_window(shell: Shell) -> None:
    """Connect the window to ``shell``: touches, the keyboard and the idle collector."""
    Window.bind(on_touch_down=lambda *_args: shell.touched())
    Window.bind(on_touch_up=lambda *_args: shell.lifted())

    def key_down(_window: object, key: int, _scancode: int, codepoint: str | None,
                 modifiers: list[str]) -> bool:
        from kivy.uix.textinput import TextInput

        focused = [w for w in Window.children[0].walk() if isinstance(w, TextInput) and w.focus] \
            if Window.children else []
        name = command_for_key(key, codepoint, modifiers, typing=bool(focused))
        return shell.command(name) if name else False

    Window.bind(on_key_down=key_down)
    Clock.schedule_interval(shell.collect_when_idle, 1.0)


def wire_commands(table: Table) -> None:
    """Run the commands other threads post to the table (buttons, panels) on Kivy's clock."""
    table.commands.set_wake(lambda: Clock.schedule_once(lambda _dt: table.commands.drain(), 0))
    Clock.schedule_interval(lambda _dt: table.commands.drain(), 0.1)


def run_app(table: Table, kiosk: bool = False, options: ShellOptions | None = None) -> None:
    """Run the window until it is closed; ``options`` is what the configuration tells the screens.

    The window exists already, made when this module imported Kivy's, with the size
    :func:`ui.kivy_setup.prepare` told it: 800×480 on a laptop with the OLED panel beside it
    (:func:`ui.oled_panel.wanted`, the same test), full screen as the kiosk.
    """
    from kivy.config import Config

    from ui import oled_panel
    from ui.kivy_setup import kiosk_input

    if kiosk:
        kiosk_input(Config)  # one provider for the touchscreen: two would double every tap
    Config.set("kivy", "exit_on_escape", "0")  # Escape is "back" here (read at each key press)
    app = CompanionApp(table, oled_panel=oled_panel.wanted(), options=options)
    # systemd stops the unit with SIGTERM: close the window on Kivy's clock, as a tap on "close" would.
    signal.signal(signal.SIGTERM, lambda *_args: Clock.schedule_once(lambda _dt: app.stop(), 0))
    app.run()
