"""The systemd units, checked by systemd's own tools: `systemd-analyze verify` and `security --offline`.

This kind of machine has systemd-analyze (CI runs here); a machine without it
fails these tests with a clear message rather than skipping them silently.
"""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNITS = ROOT / "systemd"
SERVICES = ("companion.service", "companion-headless.service")
#: The table's live page (companion web): a unit of its own beside the app's.
WEB = "companion-web.service"
#: The table in a club (companion club run): a unit of its own beside the app's (docs/club.md).
CLUB = "companion-club.service"
#: The issue's bound on `systemd-analyze security` exposure (0 is best, 10 worst); the web
#: page's is lower (issue 25): it needs no device, only the network.
MAX_EXPOSURE = {"companion.service": 3.0, "companion-headless.service": 3.0, WEB: 2.0, CLUB: 2.0}


def _analyze() -> str:
    found = shutil.which("systemd-analyze")
    assert found, "systemd-analyze is needed for these tests (Debian package systemd)"
    return found


def _unit(name: str) -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string((UNITS / name).read_text(encoding="utf-8"))
    return parser


def _runnable_copy(name: str, into: Path) -> Path:
    """The unit with its paths pointed at what exists here (the app is not installed in /opt)."""
    text = (UNITS / name).read_text(encoding="utf-8")
    text = text.replace("/opt/companion/venv/bin/companion", "/bin/true")
    text = text.replace("/usr/local/sbin/companion-setup", "/bin/true")
    text = re.sub(r"^User=companion$", "User=root", text, flags=re.M)
    text = re.sub(r"^Group=companion$", "Group=root", text, flags=re.M)
    copy = into / Path(name).name
    copy.write_text(text, encoding="utf-8")
    return copy


@pytest.mark.parametrize("name", [*SERVICES, WEB, CLUB, "media-COMPANION.mount", "media-COMPANION.automount",
                                  "image/companion-setup.service"])
def test_systemd_analyze_verify_finds_nothing(name: str, tmp_path: Path) -> None:
    copy = _runnable_copy(name, tmp_path)
    done = subprocess.run([_analyze(), "verify", "--man=no", str(copy)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "", done.stderr


@pytest.mark.parametrize("name", [*SERVICES, WEB, CLUB])
def test_the_exposure_is_within_its_bound(name: str) -> None:
    done = subprocess.run([_analyze(), "security", "--offline=true", "--no-pager", str(UNITS / name)],
                          capture_output=True, text=True, timeout=120)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert found, done.stdout[-500:] + done.stderr
    assert float(found.group(1)) <= MAX_EXPOSURE[name], done.stdout


@pytest.mark.parametrize("name", SERVICES)
def test_the_service_is_notify_with_a_watchdog_and_restarts(name: str) -> None:
    service = _unit(name)["Service"]
    assert service["Type"] == "notify" and service["NotifyAccess"] == "main"
    assert int(service["WatchdogSec"]) > 0 and service["Restart"] == "always"
    assert service["User"] == "companion" and service["StateDirectory"] == "companion"
    assert service["ProtectSystem"] == "strict"  # the root is read-only to the app


def test_the_web_unit_reads_the_apps_store_as_the_apps_user_and_reaches_no_device() -> None:
    service = _unit(WEB)["Service"]
    app = _unit("companion.service")["Service"]
    assert "companion web --listen 0.0.0.0:" in service["ExecStart"]
    assert (service["User"], service["StateDirectory"]) == (app["User"], app["StateDirectory"])
    assert service["PrivateDevices"] == "yes" and service["ProtectSystem"] == "strict"
    assert service["IPAddressDeny"] == "any" and "ReadWritePaths" not in service
    assert _unit(WEB)["Install"]["WantedBy"] == "multi-user.target"


def test_the_touchscreen_unit_runs_sdl_on_kms_and_takes_tty1() -> None:
    text = (UNITS / "companion.service").read_text(encoding="utf-8")
    assert "Environment=SDL_VIDEODRIVER=kmsdrm" in text
    assert "Environment=XDG_RUNTIME_DIR=" in text and "Environment=KIVY_HOME=%S/companion/kivy" in text
    assert _unit("companion.service")["Unit"]["Conflicts"] == "getty@tty1.service"


def test_the_headless_unit_has_no_console_and_no_display() -> None:
    service = _unit("companion-headless.service")["Service"]
    assert service["StandardInput"] == "null" and "run --headless" in service["ExecStart"]
    assert "kmsdrm" not in (UNITS / "companion-headless.service").read_text(encoding="utf-8")


def test_the_backup_stick_mounts_where_its_unit_name_says() -> None:
    escaped = subprocess.run(["systemd-escape", "--path", "--suffix=mount", "/media/COMPANION"],
                             capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    assert (UNITS / escaped).exists()
    mount = _unit(escaped)["Mount"]
    assert mount["What"] == "/dev/disk/by-label/COMPANION" and mount["Where"] == "/media/COMPANION"
    assert {"noexec", "nosuid", "nodev"} <= set(mount["Options"].split(","))
    assert _unit("media-COMPANION.automount")["Automount"]["Where"] == "/media/COMPANION"


def test_no_stick_in_does_not_hold_the_apps_start() -> None:
    """The app's units name the stick's mount point in ReadWritePaths=, which triggers its automount
    when the unit's namespace is set up; the stick's device drop-in bounds the wait for a stick that
    is not there far below the units' start time-out (it was systemd's 90 s: the whole time-out)."""
    import configparser

    dropin = configparser.ConfigParser()
    dropin.read(UNITS / "companion-stick-device.conf")
    waited = dropin["Unit"]["JobRunningTimeoutSec"]
    assert waited.endswith("s") and float(waited[:-1]) <= 5
    for unit in ("companion.service", "companion-headless.service"):
        text = (UNITS / unit).read_text()
        assert "ReadWritePaths=-/media/COMPANION" in text
        start = next(line for line in text.splitlines() if line.startswith("TimeoutStartSec="))
        assert float(waited[:-1]) * 10 <= int(start.split("=")[1])
