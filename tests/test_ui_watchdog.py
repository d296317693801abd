"""The touchscreen app under systemd's watchdog: a real app process, a real unix datagram socket.

The child is the app as ``companion run`` starts it (offscreen). It says
``READY=1`` once its first frame is drawn, pings from Kivy's clock while the
loop runs, sends none while the loop is frozen (SIGUSR1 makes the child block
its own main loop until a line arrives on its standard input), and says
``STOPPING=1`` when SIGTERM closes it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from companion.service.app import Companion
from tests.notify_kit import drain, notify_socket, receive

ROOT = Path(__file__).resolve().parent.parent
GUARD = 120.0  # seconds: a hang fails the test instead of stalling the suite
QUIET = 1.0  # how long a frozen loop is listened to (nothing can arrive: the loop does not run)

CHILD = r"""
import signal, sys
sys.path.insert(0, sys.argv[2])
from ui.kivy_setup import prepare
prepare(offscreen=True)
from kivy.clock import Clock
from companion.service.app import Companion
from tests.notify_kit import drain, notify_socket, receive
from companion.cli.commands.run import run_touchscreen

def freeze(_dt):
    print("frozen", flush=True)
    sys.stdin.readline()  # the main loop stands still until the test says so

signal.signal(signal.SIGUSR1, lambda *_: Clock.schedule_once(freeze, 0))
app = Companion.open(sys.argv[1])
run_touchscreen(app, app.latest_unfinished())
app.close()
"""


def test_the_app_says_ready_once_pings_from_its_clock_not_when_frozen_and_says_stopping(
        tmp_path: Path) -> None:
    with Companion.open(tmp_path / "store.db") as app:
        app.start("campanile", ["Albert", "Birgit", "Franziska"])
    (tmp_path / "kivy").mkdir()
    notify = notify_socket(tmp_path / "notify")
    env = {k: v for k, v in os.environ.items() if k != "WATCHDOG_PID"}
    env.update(SDL_VIDEODRIVER="offscreen", KIVY_HOME=str(tmp_path / "kivy"),
               NOTIFY_SOCKET=str(tmp_path / "notify"), WATCHDOG_USEC="200000")  # a ping every 0.1 s
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path / "store.db"), str(ROOT)], cwd=ROOT,
                             env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
    try:
        heard = [receive(notify) for _ in range(3)]
        assert heard[0] == "READY=1\nSTATUS=touchscreen"
        assert heard[1:] == ["WATCHDOG=1", "WATCHDOG=1"]

        child.send_signal(signal.SIGUSR1)
        assert child.stdout is not None and child.stdout.readline() == "frozen\n"
        drain(notify)
        assert receive(notify, QUIET) is None  # a frozen screen sends no pings: systemd restarts it

        assert child.stdin is not None
        child.stdin.write("go on\n")
        child.stdin.flush()
        assert receive(notify) == "WATCHDOG=1"  # the loop runs again: so do the pings

        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=GUARD) == 0
        rest = drain(notify)
        assert rest and rest[-1] == "STOPPING=1" and "READY=1" not in "".join(rest)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        notify.close()
