"""``companion run --headless`` as a real process, ``companion snapshot``, and ``companion hardware test``.

The process is read one way only (``communicate()``); it is stopped with
SIGTERM after it said it resumed, which it says before its loop starts.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from PIL import Image

from companion.console.loop import stdin_is_null
from companion.service.config import defaults
from hardware.backends import BackendError, choose, on_raspberry_pi
from hardware.hardware_test import HardwareTest
from hardware.oled_pages import notice_page
from hardware.oled_render import draw

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = Path(__file__).parent / "data" / "examples"
FRAMES = Path(__file__).parent / "data" / "oled"
GUARD = 120  # seconds: a hang fails the test instead of stalling the suite

#: Runs the CLI with Kivy blocked, so that importing it would fail the run.
NO_KIVY = r"""
import importlib.abc, sys
class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "kivy":
            raise ImportError("kivy is blocked: the headless appliance must not import it")
        return None
sys.meta_path.insert(0, Refuse())
from companion.cli.main import main
code = main(sys.argv[1:])
print("kivy loaded" if "kivy" in sys.modules else "kivy not loaded", flush=True)
sys.exit(code)
"""


def _environment(data: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "STATE_DIRECTORY"}
    env.update(COMPANION_DATA=str(data), PYTHONIOENCODING="utf-8", COMPANION_OLED="mock",
               COMPANION_BUTTONS="mock")
    return env


def appliance_starts(data: Path) -> list[str]:
    """``companion run`` as systemd starts it (standard input at /dev/null) comes up and stops on
    SIGTERM with status 0; returns its log up to "appliance is running"."""
    with open(os.devnull, "rb") as null:
        child = subprocess.Popen([sys.executable, "-c", NO_KIVY, "run", "--headless"], stdin=null,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT,
                                 env=_environment(data))
    said: list[str] = []
    try:
        assert child.stderr is not None
        while not any("appliance is running" in line for line in said):
            line = child.stderr.readline().decode("utf-8")
            assert line, f"the appliance did not start: {said}"
            said.append(line)
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=GUARD) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        if child.stderr is not None:
            child.stderr.close()
    return said


def test_with_stdin_at_dev_null_it_runs_until_sigterm_without_kivy(tmp_path: Path) -> None:
    env = _environment(tmp_path)
    subprocess.run([sys.executable, "-m", "companion", "new", "campanile", "Al", "Bi", "Cy"], env=env,
                   cwd=ROOT, capture_output=True, check=True, timeout=GUARD)
    out_path = tmp_path / "stdout.txt"
    with open(os.devnull, "rb") as null, open(out_path, "wb") as out:
        child = subprocess.Popen([sys.executable, "-c", NO_KIVY, "run", "--headless"], stdin=null,
                                 stdout=out, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    try:
        assert child.stderr is not None
        said = []  # the log, on standard error, read line by line until the loop runs
        while not any("appliance is running" in line for line in said):
            line = child.stderr.readline().decode("utf-8")
            assert line, f"the appliance ended before its loop ran: {said}"
            said.append(line)
        # with no console it does not end by itself; SIGTERM ends it, cleanly
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=GUARD) == 0, child.stderr.read().decode()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stderr.close()
    lines = out_path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("resuming session 1: Campanile")
    assert lines[-1] == "kivy not loaded"


def test_with_a_console_its_end_ends_the_app(tmp_path: Path) -> None:
    env = _environment(tmp_path)
    done = subprocess.run([sys.executable, "-c", NO_KIVY, "run", "--headless"],
                          input=b"new campanile Al Bi Cy\nmoves\n1\n", capture_output=True, cwd=ROOT,
                          env=env, timeout=GUARD, check=False)
    out = done.stdout.decode("utf-8").splitlines()
    assert done.returncode == 0, done.stderr.decode()
    assert "started Campanile: Al, Bi, Cy; Al: build 1, 2 or 3 stories on a tower" in out
    assert any(line.startswith("ok 1: ") for line in out)
    assert out[-1] == "kivy not loaded"


def test_snapshot_writes_the_oled_pages_of_a_record(tmp_path: Path, run_cli) -> None:
    shots = tmp_path / "shots"
    code, out, err = run_cli("snapshot", str(EXAMPLES / "campanile-3p.json"), "--out", str(shots),
                             "--only", "oled")
    assert (code, err) == (0, "")
    written = sorted(p.name for p in (tmp_path / "shots").iterdir())
    assert written == ["oled.png"]  # a finished game: the game-over page
    assert out.strip() == f"wrote {tmp_path / 'shots' / 'oled.png'}"
    made = Image.open(tmp_path / "shots" / "oled.png").convert("1")
    assert made.tobytes() == Image.open(FRAMES / "game-over-en.png").convert("1").tobytes()


def test_snapshot_of_an_unfinished_game_writes_every_page(tmp_path: Path, run_cli, write_record) -> None:
    import json

    record = json.loads((EXAMPLES / "campanile-3p.json").read_text(encoding="utf-8"))
    record["moves"] = record["moves"][:31]
    code, _, err = run_cli("snapshot", write_record(record), "--out", str(tmp_path), "--only", "oled")
    assert (code, err) == (0, "")
    assert sorted(p.name for p in tmp_path.glob("oled*.png")) == ["oled-2.png", "oled-3.png", "oled.png"]
    assert Image.open(tmp_path / "oled.png").convert("1").tobytes() == \
        Image.open(FRAMES / "campanile-turn-en.png").convert("1").tobytes()


def test_snapshot_into_a_file_is_one_line_and_exit_2(tmp_path: Path, run_cli) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    code, out, err = run_cli("snapshot", str(EXAMPLES / "campanile-3p.json"), "--out", str(target))
    assert (code, out) == (2, "")
    assert err == f"companion: --out {target}: not a directory\n"


def test_the_hardware_test_names_each_button_and_encoder_step() -> None:
    config = dict(defaults().values)
    config.update({"encoder.enabled": True, "buttons.hold_time": 0.2})
    said: list[str] = []
    arrived = threading.Condition()

    def say(line: str) -> None:
        with arrived:
            said.append(line)
            arrived.notify_all()

    factory = MockFactory()
    test = HardwareTest(config, say, environ={"COMPANION_OLED": "mock", "COMPANION_BUTTONS": "mock"},
                        factory=factory)
    try:
        test.start()
        assert test.oled is not None and test.oled.wait_sent(1, GUARD)  # the test pattern
        factory.pin(config["buttons.menu"]).drive_low()
        factory.pin(config["buttons.menu"]).drive_high()
        a, b = factory.pin(config["encoder.a"]), factory.pin(config["encoder.b"])
        for level_a, level_b in [(0, 1), (0, 0), (1, 0), (1, 1)]:
            (a.drive_high if level_a else a.drive_low)()
            (b.drive_high if level_b else b.drive_low)()
        with arrived:
            assert arrived.wait_for(lambda: len(test.seen) == 2, GUARD)
        assert test.seen == ["menu", "next"]
        assert said[-2:] == ["Menu", "Next (turned right)"]
        # each is named on the OLED too; a frame not yet sent is replaced by the next: the last one shows
        assert test.oled.wait_shown(draw(notice_page("Hardware test", "Next (turned right)")), GUARD)
    finally:
        test.close()


@pytest.mark.parametrize(("configured", "environ", "pi", "expected"), [
    ("auto", {}, False, "mock"),
    ("auto", {}, True, "real"),
    ("real", {"COMPANION_OLED": "none"}, True, "none"),
    ("none", {"COMPANION_OLED": "MOCK"}, False, "mock"),
])
def test_backends_are_chosen_like_gpiozero_chooses_pins(tmp_path: Path, configured: str,
                                                       environ: dict[str, str], pi: bool,
                                                       expected: str) -> None:
    if pi:
        (tmp_path / "dev").mkdir()
        (tmp_path / "dev" / "gpiochip0").touch()
        (tmp_path / "dev" / "i2c-1").touch()
    assert on_raspberry_pi(tmp_path) is pi
    assert choose("oled", configured, environ, root=tmp_path) == expected


def test_a_bad_backend_name_says_where_it_came_from() -> None:
    with pytest.raises(BackendError, match="COMPANION_BUTTONS: must be one of auto, real, mock, none"):
        choose("buttons", "auto", {"COMPANION_BUTTONS": "maybe"})


def test_dev_null_is_told_apart_from_a_pipe_and_a_string(tmp_path: Path) -> None:
    import io

    with open(os.devnull) as null:
        assert stdin_is_null(null)
    read_end, write_end = os.pipe()
    try:
        with os.fdopen(read_end) as pipe:
            assert not stdin_is_null(pipe)
    finally:
        os.close(write_end)
    assert not stdin_is_null(io.StringIO("status\n"))


def test_a_bad_backend_in_the_environment_is_exit_2_and_one_line(tmp_path: Path) -> None:
    env = _environment(tmp_path)
    env["COMPANION_BUTTONS"] = "maybe"
    for args in (["hardware", "test", "--seconds", "0"], ["run", "--headless"]):
        done = subprocess.run([sys.executable, "-m", "companion", *args], stdin=subprocess.DEVNULL,
                              capture_output=True, cwd=ROOT, env=env, timeout=GUARD, check=False)
        assert done.returncode == 2, args
        assert done.stderr.decode("utf-8").splitlines()[-1] == \
            'companion: COMPANION_BUTTONS: must be one of auto, real, mock, none, not "maybe"'


def test_under_systemd_it_says_ready_pings_from_its_loop_and_says_stopping(tmp_path: Path) -> None:
    from tests.notify_kit import drain, notify_socket, receive

    env = _environment(tmp_path)
    notify = notify_socket(tmp_path / "notify")
    env.update(NOTIFY_SOCKET=str(tmp_path / "notify"), WATCHDOG_USEC="200000")  # ping every 0.1 s
    with open(os.devnull, "rb") as null:
        child = subprocess.Popen([sys.executable, "-c", NO_KIVY, "run", "--headless"], stdin=null,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
    try:
        heard = [receive(notify, GUARD) for _ in range(3)]
        assert heard[0].startswith("READY=1")
        assert heard[1:] == ["WATCHDOG=1", "WATCHDOG=1"]  # from the loop's ticks, while it runs
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=GUARD) == 0
        rest = drain(notify)
        assert rest and rest[-1] == "STOPPING=1" and "READY=1" not in "".join(rest)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        notify.close()


def test_the_hardware_test_echoes_each_seat_panel(tmp_path: Path) -> None:
    config = dict(defaults().values)
    said: list[str] = []
    test = HardwareTest(config | {"serial.panels": [str(tmp_path / "no-such-port")]}, said.append,
                        environ={"COMPANION_OLED": "none", "COMPANION_BUTTONS": "none"})
    try:
        test.start()
    finally:
        test.close()
    assert any(str(tmp_path / "no-such-port") in line for line in said), said
    quiet: list[str] = []
    test = HardwareTest(config, quiet.append, environ={"COMPANION_OLED": "none", "COMPANION_BUTTONS": "none"})
    try:
        test.start()
    finally:
        test.close()
    assert "Seat panels: none configured (serial.panels)." in quiet


def test_the_appliance_starts_the_configured_seat_panels_and_closes_them(tmp_path: Path) -> None:
    from companion.service.app import Companion
    from companion.service.table import Table
    from hardware.appliance import Appliance

    config = dict(defaults().values) | {"serial.panels": ["loop://"]}
    with Companion.open(tmp_path / "s.sqlite3") as app:
        appliance = Appliance(Table(app), config, environ={"COMPANION_OLED": "none",
                                                           "COMPANION_BUTTONS": "none"})
        try:
            assert appliance.panels is not None
            assert appliance.panels.link("loop://") is not None
        finally:
            appliance.close()
        assert all(link.ended.is_set() for link in appliance.panels.links())


def test_snapshot_writes_the_oled_and_the_touchscreen_in_the_chosen_language(tmp_path: Path) -> None:
    """A real process (the touchscreen's screens open an offscreen window of their own)."""
    env = _environment(tmp_path) | {"SDL_VIDEODRIVER": "offscreen", "KIVY_HOME": str(tmp_path / "kivy")}
    done = subprocess.run([sys.executable, "-m", "companion", "--lang", "hu", "snapshot",
                           str(EXAMPLES / "campanile-3p.json"), "--out", str(tmp_path / "shots")],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=GUARD)
    assert done.returncode == 0, done.stderr
    written = sorted(p.name for p in (tmp_path / "shots").iterdir())
    assert written == ["editor.png", "game-over.png", "history.png", "home.png", "oled.png", "resolver.png",
                       "screen.png", "settings.png",
                       "valuation-1.png", "valuation-2.png"]  # the example's Intermezzo and Finito
    assert all(line.startswith("elkészült: ") for line in done.stdout.splitlines())
    assert Image.open(tmp_path / "shots" / "screen.png").size == (800, 480)


def test_hardware_test_on_a_machine_without_buttons_says_so_and_ends_by_itself(monkeypatch, capsys) -> None:
    """Nobody can press a simulated button: the test must not wait for ever for one."""
    from companion.cli.commands import hardware as command
    from companion.cli.main import main

    monkeypatch.setenv("COMPANION_BUTTONS", "mock")
    monkeypatch.setenv("COMPANION_OLED", "mock")
    monkeypatch.setattr(command, "SIMULATED_SECONDS", 0.2)
    assert main(["hardware", "test"]) == 0  # returns: it did not wait for a press
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("This machine has no buttons to press") and "0.2 s" in first


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                    reason="hides a library with a bind mount in a mount namespace of its own (root)")
def test_snapshot_without_opengl_says_what_is_missing_in_one_line_and_exits_1(tmp_path: Path) -> None:
    """As in an arm64 root without Mesa's OpenGL: libGL.so.1 hidden from this process alone (a bind
    mount of /dev/null over it, in a mount namespace of its own). Kivy would end the process with
    status 1 and no word; the snapshot says why, after the OLED's frame."""
    folders = ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib")
    library = next((Path(d) / "libGL.so.1" for d in folders if (Path(d) / "libGL.so.1").exists()), None)
    if library is None:
        pytest.skip("no libGL.so.1 here to hide")
    env = _environment(tmp_path) | {"SDL_VIDEODRIVER": "offscreen", "KIVY_HOME": str(tmp_path / "kivy")}
    snapshot = shlex.join([sys.executable, "-m", "companion", "snapshot", str(EXAMPLES / "campanile-3p.json"),
                           "--out", str(tmp_path / "shots")])
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                           f"mount --bind /dev/null {library} && exec {snapshot}"],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=GUARD)
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == ["the touchscreen's screens need OpenGL: libGL.so.1 cannot be loaded "
                                        "(on Debian: apt-get install libegl1 libgl1 libgl1-mesa-dri)"]
    assert sorted(p.name for p in (tmp_path / "shots").iterdir()) == ["oled.png"]
