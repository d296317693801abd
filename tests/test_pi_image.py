"""The appliance's image in an emulated Pi (issue 24): built by ``systemd/image/build.sh``, booted
with its own kernel under ``qemu-system-aarch64 -M virt`` (tests/pi_kit.py), checked with the
image's real systemd, polkit and udev. Marked ``pi``: the README's command leaves them out;
``pytest -n 0 -m pi tests/test_pi_image.py`` runs them (as root: the build makes a Debian root).

Every check shares one boot, in the order below (the watchdog's restart last).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pi_kit import CACHE, ROOT, Guest, boot_disk, build_image, install_host_packages

pytestmark = pytest.mark.pi

UNIT = "companion-headless.service"
#: The root file system as built (build.sh's ROOT_MIB): first boot grows it over the extra GiB.
GROWN_OVER = 2560 * 1024 * 1024


@pytest.fixture(scope="module")
def image() -> Path:
    """The image of this checkout, built now; or ``$COMPANION_PI_IMAGE``, one ``build.sh`` made
    last (its root is still in the cache), to check it again without building."""
    assert os.geteuid() == 0, "the pi tests build a Debian root: run them as root"
    install_host_packages()
    if os.environ.get("COMPANION_PI_IMAGE"):
        return Path(os.environ["COMPANION_PI_IMAGE"])
    return build_image(CACHE / "test-out")


@pytest.fixture(scope="module")
def guest(image: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Guest]:
    work = tmp_path_factory.mktemp("guest")
    disk = work / "disk.img"
    boot_disk(image, disk, headless=True)
    booted = Guest(image, disk, work)
    booted.start()
    try:
        yield booted
    finally:
        booted.kill()
        print((work / "console.log").read_text(errors="replace")[-3000:])


def test_the_headless_unit_reaches_ready_through_notify(guest: Guest) -> None:
    # Type=notify: the unit is "active" only once the app has said READY=1
    guest.wait_for(f"systemctl is-active {UNIT}", timeout=900)
    ready = time.monotonic() - guest.booted_at
    print(f"\nboot to READY in the emulator: {ready:.0f} s")
    status, shown = guest.run(f"systemctl show -p Type -p WatchdogUSec -p NRestarts -p User {UNIT}")
    assert status == 0
    assert "Type=notify" in shown and "WatchdogUSec=30s" in shown and "User=companion" in shown, shown
    # the first boot's setup ran: the root grown over the (larger) disk, SSH off
    status, setup = guest.run("systemctl is-active companion-setup.service && "
                              "test -e /etc/ssh/sshd_not_to_be_run && ! systemctl is-active ssh.service")
    assert status == 0, setup
    status, size = guest.run("findmnt -bno SIZE /")
    assert status == 0 and int(size) > GROWN_OVER, size


def test_every_enabled_unit_verifies_and_exposes_at_most_2(guest: Guest) -> None:
    status, output = guest.run("systemd-analyze verify /etc/systemd/system/companion.service "
                               "/etc/systemd/system/companion-headless.service "
                               "/etc/systemd/system/media-COMPANION.mount "
                               "/etc/systemd/system/media-COMPANION.automount "
                               "/etc/systemd/system/companion-setup.service")
    assert status == 0 and not output.strip(), output
    for unit in ("companion.service", UNIT):
        status, output = guest.run(f"systemd-analyze security --no-pager {unit} | tail -n 1")
        level = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", output)
        assert level and float(level.group(1)) <= 2.0, output


def test_polkit_lets_the_service_user_power_off_and_no_one_else(guest: Guest) -> None:
    check = "sh -c 'pkcheck --action-id org.freedesktop.login1.{action} --process $$'"
    for action in ("power-off", "reboot"):
        allowed, output = guest.run(f"runuser -u companion -- {check.format(action=action)}")
        assert allowed == 0, output
        refused, output = guest.run(f"runuser -u nobody -- {check.format(action=action)}")
        assert refused != 0, output


def test_the_watchdog_restarts_a_frozen_app(guest: Guest) -> None:
    status, pid = guest.run(f"systemctl show -p MainPID --value {UNIT}")
    assert status == 0 and int(pid) > 0, pid
    guest.run(f"kill -STOP {pid}")
    # WatchdogSec=30, then RestartSec=2 and a start under emulation: waited for generously
    guest.wait_for(f"test $(systemctl show -p NRestarts --value {UNIT}) -ge 1", timeout=600)
    guest.wait_for(f"journalctl -u {UNIT} --no-pager | grep -q 'Watchdog timeout'", timeout=120)
    guest.wait_for(f"systemctl is-active {UNIT}", timeout=600)
    status, new = guest.run(f"systemctl show -p MainPID --value {UNIT}")
    assert new != pid


#: How far the arm64 screen may be from this machine's: the share of pixels whose colour differs
#: by more than 8 levels in a channel (both sides draw with Kivy's wheel, its SDL and FreeType,
#: and Debian Bookworm's Mesa in software; what differs is the CPU under them).
SCREEN_TOLERANCE = 0.001


def test_the_touchscreen_draws_the_same_screen_in_the_arm64_root(image: Path, tmp_path: Path) -> None:
    """``companion snapshot`` in the image's root through qemu-user, against the same here."""
    import shutil
    import subprocess
    import sys

    from PIL import Image, ImageChops

    root = CACHE / "work" / "root"
    record = ROOT / "tests" / "data" / "examples" / "campanile-3p.json"
    shutil.copy(record, root / "tmp" / "record.json")
    environ = ["SDL_VIDEODRIVER=offscreen", "KIVY_NO_ARGS=1", "KIVY_HOME=/tmp/kivy",
               "COMPANION_DATA=/tmp/data", "HOME=/tmp", "PATH=/usr/bin:/bin"]
    subprocess.run(["mount", "-t", "proc", "proc", str(root / "proc")], check=True)
    try:
        started = time.monotonic()
        there = subprocess.run(["chroot", str(root), "env", "-i", *environ,
                                "/opt/companion/venv/bin/companion", "snapshot", "/tmp/record.json",
                                "--out", "/tmp/shots", "--only", "screens"],
                               capture_output=True, text=True, timeout=1800)
        arm64 = time.monotonic() - started
    finally:
        subprocess.run(["umount", str(root / "proc")], check=True)
    assert there.returncode == 0, there.stderr[-3000:]
    started = time.monotonic()
    here = subprocess.run([sys.executable, "-m", "companion", "snapshot", str(record), "--out", str(tmp_path),
                           "--only", "screens"], capture_output=True, text=True, timeout=600, cwd=ROOT,
                          env={**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
                               "KIVY_HOME": str(tmp_path / "kivy"), "COMPANION_DATA": str(tmp_path / "data")})
    native = time.monotonic() - started
    assert here.returncode == 0, here.stderr[-3000:]
    print(f"\nsnapshot of the screens: {arm64:.0f} s under qemu-user, {native:.0f} s here")
    theirs = Image.open(root / "tmp" / "shots" / "screen.png").convert("RGB")
    ours = Image.open(tmp_path / "screen.png").convert("RGB")
    assert theirs.size == ours.size == (800, 480)
    difference = ImageChops.difference(theirs, ours).point(lambda level: 255 if level > 8 else 0)
    differing = sum(1 for pixel in difference.getdata() if any(pixel))
    assert differing / (800 * 480) <= SCREEN_TOLERANCE, differing
