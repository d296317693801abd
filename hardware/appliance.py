"""The headless appliance: the table, the OLED, the buttons and encoder, and the loop that runs them.

``companion run --headless`` builds an :class:`Appliance` (never importing
Kivy) and runs its loop on the main thread. The loop sleeps on an event set
by the command queue's wake-up hook, so a button's command is drained at
once, not polled; it also wakes for the OLED's own timers (page turns,
dimming), and at least once a second. Each iteration calls the ``on_tick``
hooks (the systemd watchdog is fed from one:
``appliance.on_tick.append(watchdog.tick)``). With standard input at
``/dev/null`` (under systemd) there is no console and the loop runs until
SIGTERM; otherwise the console reads standard input as before, its lines
handled on the same thread, and its end ends the app.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, TextIO

from companion.console.championship import round_standings
from companion.console.loop import Started, headless_loop, stdin_is_null
from companion.console.rescue import TableRescue
from companion.console.terminal import TerminalLines
from companion.i18n import current_language
from companion.service.table import Table
from companion.system.watchdog import Watchdog
from hardware.backends import choose, pin_factory
from hardware.controls import Controls
from hardware.navigator import Navigator
from hardware.oled import RETRY_SECONDS, OledDevice, dummy_device_factory, real_device_factory
from hardware.oled_pages import refused_pages
from hardware.oled_view import OledView

if TYPE_CHECKING:
    from companion.service.app import Companion
    from companion.service.config import ConfigValues

log = logging.getLogger(__name__)

#: The longest the loop sleeps without a command: its ``on_tick`` hooks (the systemd watchdog's
#: pings, due every few seconds) run at least this often.
TICK_SECONDS = 1.0


class Appliance:
    """Everything the headless box runs, wired to one table; :meth:`close` releases it all."""

    def __init__(self, table: Table, config: ConfigValues, *,
                 environ: Mapping[str, str] | None = None, factory: Any = None,
                 oled_factory: Callable[[], Any] | None = None,
                 retry_seconds: float = RETRY_SECONDS) -> None:
        self.table = table
        self.retry_seconds = retry_seconds
        self.wakeup = threading.Event()
        self.stopping = threading.Event()
        #: Called once per loop iteration, on the main thread (the watchdog's feeder goes here).
        self.on_tick: list[Callable[[], None]] = []
        table.commands.set_wake(self.wakeup.set)
        settings = table.app.settings()
        table.app.unfinished()  # finds the unfinished games that cannot be opened (the OLED says so)
        self.navigator = Navigator(table)
        with contextlib.suppress(KeyError):  # a configuration from before the key: the automount's default
            self.navigator.stick_mount = config["backup.stick"]
        oled_backend = "none" if config["oled.driver"] == "none" else choose("oled", config["oled.backend"],
                                                                              environ)
        if oled_factory is None and oled_backend != "none":
            oled_factory = (real_device_factory(config) if oled_backend == "real"
                            else dummy_device_factory(config["oled.rotation"]))
        self.oled = OledDevice(oled_factory, retry_seconds) if oled_factory is not None else None
        self.view = OledView(table, self.navigator,
                             self.oled.send if self.oled else lambda image: None,
                             self._power, brightness=settings["oled.brightness"],
                             blank_seconds=settings["oled.timeout"])
        self.config = config
        self.buttons = choose("buttons", config["buttons.backend"], environ)
        self._factory = factory
        self.pin_factory: Any = None
        self.controls: Any = None
        self._buttons_failing = False
        self._buttons_retry_at = 0.0
        self._start_buttons()
        # The seat panels, on the same table (none when no port is configured). Imported here:
        # hardware.panels imports pyserial, which a box without seat panels need not load.
        from hardware.panels import from_config as panels_from_config

        self.panels: Any = panels_from_config(config, table, environ)
        if self.panels is not None:
            self.panels.on_request = self._ask_pairing
            self.panels.on_refused = self._panel_refused
            self.panels.start()

    def _start_buttons(self) -> None:
        """Wire the buttons and encoder; a GPIO that is missing or fails is logged once and retried."""
        if self.buttons == "none" or self.controls is not None:
            return
        try:
            if self.pin_factory is None:
                self.pin_factory = self._factory if self._factory is not None else pin_factory(self.buttons)
            self.controls = Controls(self.config, self.post_key, self.pin_factory)
        except Exception as error:  # gpiozero's BadPinFactory, lgpio's OSError, a pin in use ...
            # only the words are kept: the exception's frames hold the half-built button, whose
            # pin reservation would otherwise outlive it and refuse the next attempt
            problem = str(error)
            del error
            self.pin_factory = None
            self._buttons_retry_at = time.monotonic() + self.retry_seconds
            if not self._buttons_failing:
                log.warning("the buttons are not working (%s); retrying every %g s", problem,
                            self.retry_seconds)
            else:
                log.debug("the buttons are still not working (%s)", problem)
            self._buttons_failing = True
            return
        if self._buttons_failing:
            log.warning("the buttons are back")
        self._buttons_failing = False

    def post_key(self, key: str) -> None:
        """From any thread (gpiozero's): the key is handled on the main loop."""
        self.table.commands.post(lambda: self._key(key))

    def _key(self, key: str) -> None:
        language = current_language()
        self.view.dismiss()
        self.navigator.key(key)
        self.view.wake()
        if current_language() != language:
            self.view.refresh()

    def _ask_pairing(self, request: Any) -> None:
        """A new seat panel asks for a seat (on the main loop): the OLED asks a person, lit."""
        self.navigator.ask_pairing(request.seat, request.player,
                                   lambda allowed: self.panels.answer(request, allowed))
        self.view.wake()

    def _panel_refused(self, message: Any) -> None:
        """A second claim of a taken seat: shown on the OLED for a moment, and logged by the panels."""
        self.navigator.notify(refused_pages(message))
        self.view.wake()

    def _power(self, contrast: int | None, visible: bool | None) -> None:
        if self.oled is None:
            return
        if contrast is not None:
            self.oled.set_contrast(contrast)
        if visible is not None:
            self.oled.set_visible(visible)

    # -- the loop ---------------------------------------------------------------
    def step(self, timeout: float | None = None) -> None:
        """One iteration: wait for a command or a timer, drain the queue, redraw, call the hooks."""
        wait = min(self.view.next_deadline(), TICK_SECONDS) if timeout is None else timeout
        if self._buttons_failing:
            wait = min(wait, max(0.05, self._buttons_retry_at - time.monotonic()))
        self.wakeup.wait(wait)
        self.wakeup.clear()
        self.table.commands.drain()
        self.view.tick()
        if self._buttons_failing and time.monotonic() >= self._buttons_retry_at:
            self._start_buttons()
        for hook in tuple(self.on_tick):
            try:
                hook()
            except Exception:
                log.exception("an on_tick hook failed")

    def run(self) -> None:
        """Loop until :meth:`stop` (SIGTERM) is called."""
        log.info("the headless appliance is running; SIGTERM stops it")
        self.view.tick()
        while not self.stopping.is_set():
            self.step()

    def stop(self) -> None:
        """End :meth:`run` soon; safe from a signal handler or another thread."""
        self.stopping.set()
        self.wakeup.set()

    def lines(self, stream: Iterable[str]) -> Iterator[str]:
        """The console's lines, read by a thread, handed out on the main loop between its steps."""
        arrived: queue.SimpleQueue[str | None] = queue.SimpleQueue()

        def read() -> None:
            for line in stream:
                arrived.put(line)
                self.wakeup.set()
            arrived.put(None)
            self.wakeup.set()

        threading.Thread(target=read, name="console", daemon=True).start()
        self.view.tick()
        while not self.stopping.is_set():
            try:
                line = arrived.get_nowait()
            except queue.Empty:
                self.step()
                continue
            if line is None:
                return
            yield line
            self.view.tick()

    def close(self) -> None:
        if self.panels is not None:
            self.panels.close()
        if self.controls is not None:
            self.controls.close()
        self.view.close()
        if self.oled is not None:
            self.oled.close()
        self.table.commands.set_wake(None)


class _TableApp:
    """The service as the console's ``new`` sees it: a game it starts is opened at the table too."""

    def __init__(self, app: Companion, table: Table) -> None:
        self._app, self._table = app, table
        self.start = table.start

    def __getattr__(self, name: str) -> Any:
        return getattr(self._app, name)


#: What starts a game from the console's ``new`` words, given the service: the composition root
#: hands in the command line's (:func:`companion.cli.commands.run.starter`).
Starter = Callable[["Companion"], Callable[[list[str]], Started]]


def run_headless(app: Companion, live: Any, config: ConfigValues, stdin: TextIO | TerminalLines,
                 stdout: TextIO, starter: Starter | None = None) -> int:
    """``companion run --headless``: the appliance, with the console when standard input is not /dev/null.

    Raises :class:`~hardware.backends.BackendError` when a backend the configuration names is
    not there (the command line says it in one line). Without ``starter`` the console refuses
    ``new``.
    """
    table = Table(app)
    if live is not None:
        table.open(live)
    appliance = Appliance(table, config)
    # systemd's watchdog is fed by this loop's own iterations: a frozen loop stops the pings.
    watchdog = Watchdog()
    appliance.on_tick.append(watchdog.tick)
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: appliance.stop())
    try:
        watchdog.ready("headless")
        if stdin_is_null(stdin):
            appliance.run()
        else:
            start = None if starter is None else starter(_TableApp(app, table))  # type: ignore[arg-type]
            terminal = stdin if isinstance(stdin, TerminalLines) else None
            headless_loop(table.session, appliance.lines(stdin), stdout, start=start, terminal=terminal,
                          also_status=lambda: round_standings(app.championships, table.live),
                          rescue=TableRescue(table, appliance.navigator.stick_mount))
    finally:
        watchdog.stopping()
        signal.signal(signal.SIGTERM, previous)
        appliance.close()
        table.close()  # the time the open game was played since its last move counts
    return 0

