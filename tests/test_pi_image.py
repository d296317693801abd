"""The appliance's image in an emulated Pi (issue 24): built by ``systemd/image/build.sh``, booted
with its own kernel under ``qemu-system-aarch64 -M virt`` (tests/pi_kit.py), checked with the
image's real systemd, polkit and udev. Marked ``pi``: the README's command leaves them out;
``.ci/run`` runs them after it (as root: the build makes a Debian root).

The checks share one machine, in the order below: a first boot with a display and a touch device,
where the kiosk unit as installed draws on the KMS display and takes taps from here; then the
headless unit, and a whole Campanile game entered on three seat panels played from here (each a
UART of the machine bridged to a socket, wired to its seat in the image's configuration) with the
power cut five times during it (the fifth with a move of the store damaged: it is said at boot and
repaired), the backup stick, and the watchdog's restart last.

``$COMPANION_PI_IMAGE`` names an image built already (its root still in the cache) to check it
again without building; ``$COMPANION_PI_SEED`` repeats the power cuts of an earlier run (printed);
``$COMPANION_PI_FAULT`` plants a fault in the image (``pi_kit.FAULTS``), which its check must find.
"""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.pi_display import decoded, oled_here, target, turned
from tests.pi_kit import (
    CACHE,
    ROOT,
    Guest,
    boot_disk,
    build_image,
    configuration,
    install_host_packages,
    proc_mounted,
)

pytestmark = pytest.mark.pi

UNIT = "companion-headless.service"
#: The touchscreen's unit: the kiosk, as the image enables it.
KIOSK = "companion.service"
DATA = "/var/lib/companion"
COMPANION = "/opt/companion/venv/bin/companion"
#: The companion as its service user, on the appliance's store.
AS_APP = f"runuser -u companion -- {COMPANION} --data-dir {DATA}"
CONFIG = "/etc/companion/companion.toml"
#: The root file system as built (build.sh's ROOT_MIB): first boot grows it over the extra GiB.
GROWN_OVER = 2560 * 1024 * 1024
EXAMPLES = ROOT / "tests" / "data" / "examples"
#: What a user writes into the setup file after flashing (checked inside after boot).
SETUP = {"hostname": "tabletop", "timezone": "Europe/Budapest"}
#: How many times the power is cut during the game at random moves (the fifth cut is the damaged store's).
CUTS = 4
#: The moves the display check taps (0-based): an influence on a ringed tower, then a build.
TAPPED = (10, 11)
#: The move the damaged-store check damages (0-based), and how far the game has gone by then.
DAMAGED_AT = 50
PLAYED_BEFORE_THE_DAMAGE = 56


@dataclass
class Play:
    """The game the checks play through: the record's moves, those the companion confirmed."""

    record: dict
    expected: dict
    confirmed: list[dict] = field(default_factory=list)

    @property
    def moves(self) -> list[dict]:
        return self.record["moves"]

    @property
    def players(self) -> list[str]:
        return self.record["players"]


@pytest.fixture(scope="module")
def image() -> Path:
    """The image of this checkout, built now; or ``$COMPANION_PI_IMAGE``, one ``build.sh`` made
    last (its root is still in the cache), to check it again without building."""
    assert os.geteuid() == 0, "the pi tests build a Debian root: run them as root"
    install_host_packages()
    if os.environ.get("COMPANION_PI_IMAGE"):
        return Path(os.environ["COMPANION_PI_IMAGE"])
    started = time.monotonic()
    built = build_image(CACHE / "test-out")
    print(f"\nimage built in {time.monotonic() - started:.0f} s: {built.name}, "
          f"{built.stat().st_size / 1e6:.0f} MB")
    return built


@pytest.fixture(scope="module")
def guest(image: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Guest]:
    work = tmp_path_factory.mktemp("guest")
    disk = work / "disk.img"
    boot_disk(image, disk, headless=False, config=configuration(), setup=SETUP,
              fault=os.environ.get("COMPANION_PI_FAULT") or None)
    booted = Guest(image, disk, work)
    booted.start(panels=3, display=True)
    try:
        yield booted
    finally:
        booted.kill()
        print((work / "console.log").read_text(errors="replace")[-3000:])


@pytest.fixture(scope="module")
def play() -> Play:
    record = json.loads((EXAMPLES / "campanile-3p.json").read_text(encoding="utf-8"))
    expected = json.loads((EXAMPLES / "campanile-3p.expected.json").read_text(encoding="utf-8"))
    return Play(record, expected)


def ready(guest: Guest, timeout: float = 900, unit: str = UNIT) -> float:
    """Wait until the unit is active (Type=notify: only after the app's READY=1); the seconds since
    qemu started."""
    guest.wait_for(f"systemctl is-active {unit}", timeout=timeout)
    return time.monotonic() - guest.booted_at


def seated(guest: Guest, play: Play, since: list[int] | None = None) -> None:
    """Every panel told its seat and player (after its HELLO, answered on the wired port)."""
    for number, panel in enumerate(guest.panels):
        player = play.players[number]
        panel.expect(lambda line, want=f"SEAT {panel.seat} {player}": line == want,
                     since[number] if since else 0)


def stored_moves(guest: Guest) -> list[dict]:
    """The moves of the store's game, read by the companion itself (``export``, read-only)."""
    moves_only = "import json, sys; print(json.dumps(json.load(sys.stdin)['moves']))"
    status, output = guest.run(f"{AS_APP} export 2>/dev/null | python3 -c {shlex.quote(moves_only)}")
    assert status == 0, output
    return json.loads(output.strip().splitlines()[-1])


def enter(guest: Guest, play: Play, move: dict) -> str:
    """A player's move from that player's seat panel (record JSON); the companion's answer."""
    panel = guest.panels[play.players.index(move["player"])]
    since = panel.mark()
    panel.send("JSON " + json.dumps(move, ensure_ascii=False))
    return panel.expect(lambda line: line.startswith(("ACCEPTED ", "REFUSED ")), since)


def enter_at_the_table(guest: Guest, play: Play, move: dict) -> None:
    """A move the table enters (a valuation: the box's Valuation button, which qemu cannot press):
    the app stopped, the move typed on its console as the service user, the app started again."""
    marks = [panel.mark() for panel in guest.panels]
    assert guest.run(f"systemctl stop {UNIT}")[0] == 0
    line = json.dumps(move, ensure_ascii=False)
    status, output = guest.run(f"echo {shlex.quote(line)} | runuser -u companion -- "
                               f"env COMPANION_PANELS=none {COMPANION} --data-dir {DATA} "
                               f"run --headless --config {CONFIG}")
    assert status == 0 and re.search(r"(?m)^ok \d+", output), output
    assert guest.run(f"systemctl start {UNIT}", timeout=600)[0] == 0  # returns once READY
    if move is not play.moves[-1]:
        seated(guest, play, marks)
    else:  # the game is over: the app opens none, and tells each panel its seat has nobody now
        for number, panel in enumerate(guest.panels):
            panel.expect(lambda line, seat=number + 1: line == f"SEAT {seat}", marks[number])


def play_to(guest: Guest, play: Play, end: int) -> None:
    """Play the record's moves from the stored position up to ``end`` (not included)."""
    while len(play.confirmed) < end:
        move = play.moves[len(play.confirmed)]
        if "player" in move:
            answer = enter(guest, play, move)
            assert answer.startswith("ACCEPTED "), answer
        else:
            enter_at_the_table(guest, play, move)
        play.confirmed.append(move)


def power_cycle(guest: Guest, play: Play) -> list[dict]:
    """Power on again after a cut: the unit ready, the panels seated; the stored moves."""
    guest.start(panels=3)
    seconds = ready(guest)
    print(f"boot after the cut to READY: {seconds:.0f} s")
    seated(guest, play)
    return stored_moves(guest)


# -- the checks, in order -------------------------------------------------------------------------

def stored_count(guest: Guest, count: int) -> list[dict]:
    """The stored moves, once there are ``count`` of them (a tap's move is stored by the app)."""
    check = f"import json, sys; sys.exit(len(json.load(sys.stdin)['moves']) != {count})"
    guest.wait_for(f"{AS_APP} export 2>/dev/null | python3 -c {shlex.quote(check)}", timeout=300)
    return stored_moves(guest)


def test_the_kiosk_draws_on_the_kms_display_and_a_tap_makes_the_move(guest: Guest, play: Play,
                                                                      tmp_path: Path) -> None:
    """The first boot, with a virtio GPU and qemu's tablet: the kiosk unit as installed reaches READY
    on the KMS display; a tap sent from here through the tablet on a ringed tower makes the move,
    with the screen upright and turned 180°; the OLED's page drawn in the box is the one drawn here
    for the stored game. Then the box is made the headless one the later checks play on."""
    seconds = ready(guest, unit=KIOSK)
    print(f"\nfirst boot to the kiosk's READY on the KMS display: {seconds:.0f} s")
    try:
        # the app's framebuffers on the display's device, at the panel's size (DRM's debugfs); which
        # one the display's plane holds is printed: the app's in some boots, the console's in others
        # (docs/appliance.md: the frame qemu shows). (Waited for, as is the journal below: what the
        # app sets and writes may come a moment after its READY, which goes by another socket.)
        guest.run("mount -t debugfs none /sys/kernel/debug 2>/dev/null")
        made = guest.wait_for("grep -A6 'allocated by = companion' /sys/kernel/debug/dri/0/framebuffer",
                              timeout=300)
        assert "size=800x480" in made, made
        print(guest.run("grep -A4 'plane\\[' /sys/kernel/debug/dri/0/state | grep -m1 'allocated by'")[1])
        shown = guest.wait_for(f"journalctl -b -u {KIOSK} --no-pager | grep -a 'HIDMotionEvent.*using'",
                               timeout=300)
        assert "QEMU Virtio Tablet" in shown, shown  # the single-touch pointer is read
        # a game at the table, upright: Albert's 3-marker on a ringed tower
        upright = target(play.record, TAPPED[0], tmp_path)
        turned_build = turned(target(play.record, TAPPED[1], tmp_path), 180)
        start = {**play.record, "moves": play.moves[:TAPPED[0]]}
        assert guest.run(f"systemctl stop {KIOSK}")[0] == 0
        status, output = guest.run(f"echo {shlex.quote(json.dumps(start))} > /tmp/tap.json && "
                                   f"{AS_APP} import /tmp/tap.json")
        assert status == 0, output
        assert guest.run(f"systemctl start {KIOSK}", timeout=600)[0] == 0  # returns once READY
        frame = tmp_path / "frame.ppm"
        guest.screendump(frame)
        from PIL import Image, ImageChops

        drawn = Image.open(frame).convert("RGB")
        assert drawn.size == (800, 480)  # the mode the kiosk set on the display
        drawn.save(tmp_path / "frame.png")
        here = Image.open(tmp_path / f"targets-{TAPPED[0]}" / "screen.png").convert("RGB")
        apart = ImageChops.difference(drawn, here).point(lambda level: 255 if level > 8 else 0)
        differing = sum(1 for pixel in apart.get_flattened_data() if any(pixel))
        print(f"the display's frame against the snapshot here: {differing} of {800 * 480} pixels apart "
              f"(the frame's darkest and brightest: {drawn.getextrema()})")
        guest.tap(*upright)
        assert stored_count(guest, TAPPED[0] + 1) == play.moves[:TAPPED[0] + 1]
        # the OLED's page of that position, drawn in the box (qemu has no I2C) and here
        status, output = guest.run(f"{AS_APP} export 2>/dev/null > /tmp/now.json && "
                                   f"env COMPANION_DATA=/tmp/snapshot HOME=/tmp {COMPANION} snapshot "
                                   "/tmp/now.json --out /tmp/oled --only oled >/dev/null && "
                                   "base64 -w0 /tmp/oled/oled.png")
        assert status == 0, output
        assert decoded(output) == oled_here({**play.record, "moves": play.moves[:TAPPED[0] + 1]}, tmp_path)
        # the screen turned upside down: a tap lands on what is drawn under it
        turned_up = (f"sed -i '0,/^rotation = 0$/s//rotation = 180/' {CONFIG} && "
                     f"grep -q '^rotation = 180$' {CONFIG} && systemctl restart {KIOSK}")
        assert guest.run(turned_up, timeout=600)[0] == 0
        guest.tap(*turned_build)
        assert stored_count(guest, TAPPED[1] + 1) == play.moves[:TAPPED[1] + 1]
    finally:  # the rest of the checks: the headless box, upright, with an empty store
        status, output = guest.run(f"systemctl disable --now {KIOSK} && "
                                   f"sed -i 's/^rotation = 180$/rotation = 0/' {CONFIG} && "
                                   f"rm -f {DATA}/companion.sqlite3* && systemctl enable --now {UNIT}",
                                   timeout=600)
        assert status == 0, output


def test_the_headless_unit_reaches_ready_through_notify(guest: Guest) -> None:
    # Type=notify: the unit is "active" only once the app has said READY=1
    seconds = ready(guest)
    print(f"\nthe first boot to the headless unit's READY (after the kiosk's checks): {seconds:.0f} s")
    status, shown = guest.run(f"systemctl show -p Type -p WatchdogUSec -p NRestarts -p User {UNIT}")
    assert status == 0
    assert "Type=notify" in shown and "WatchdogUSec=30s" in shown and "User=companion" in shown, shown
    status, timing = guest.run("systemd-analyze time; systemd-analyze blame --no-pager | head -n 5")
    print(timing)


def test_first_boot_applied_the_setup_file(guest: Guest) -> None:
    # the root grown over the (larger) disk; host name and time zone from the file; SSH off
    status, size = guest.run("findmnt -bno SIZE /")
    assert status == 0 and int(size) > GROWN_OVER, size
    status, setup = guest.run("systemctl is-active companion-setup.service && hostname && "
                              "readlink /etc/localtime && test -e /etc/ssh/sshd_not_to_be_run && "
                              "! systemctl is-active ssh.service")
    assert status == 0, setup
    lines = setup.splitlines()
    assert SETUP["hostname"] in lines and lines[2].endswith(SETUP["timezone"]), setup
    # no network was named: the Wi-Fi is not started (a box without one never waits for a wlan0)
    status, wifi = guest.run("systemctl is-active wpa_supplicant@wlan0.service")
    assert status != 0 and wifi.strip() == "inactive", wifi
    # the box answers to its name on the network (mDNS: avahi and nss-mdns)
    found = guest.wait_for(f"getent hosts {SETUP['hostname']}.local", timeout=180)
    assert f"{SETUP['hostname']}.local" in found, found


def test_every_enabled_unit_verifies_and_exposes_at_most_2(guest: Guest) -> None:
    units = ("companion.service", UNIT, "companion-web.service", "companion-club.service")
    status, output = guest.run("systemd-analyze verify " + " ".join(
        f"/etc/systemd/system/{unit}" for unit in
        (*units, "media-COMPANION.mount", "media-COMPANION.automount", "companion-setup.service")))
    assert status == 0 and not output.strip(), output
    for unit in units:
        status, output = guest.run(f"systemd-analyze security --no-pager {unit} | tail -n 1")
        level = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", output)
        assert level and float(level.group(1)) <= 2.0, output
        print(output)


def test_polkit_lets_the_service_user_power_off_and_no_one_else(guest: Guest) -> None:
    check = "sh -c 'pkcheck --action-id org.freedesktop.login1.{action} --process $$'"
    for action in ("power-off", "reboot"):
        allowed, output = guest.run(f"runuser -u companion -- {check.format(action=action)}")
        assert allowed == 0, output
        refused, output = guest.run(f"runuser -u nobody -- {check.format(action=action)}")
        assert refused != 0, output


def test_a_game_on_the_seat_panels_survives_five_power_cuts(guest: Guest, play: Play) -> None:
    """The record's game (up to its last moves, which the next check plays): each player's move from
    that player's panel, the table's valuation on the console; the power cut (qemu killed) right
    after a move is confirmed and at random moments while one is on its way. After every cut, every
    confirmed move is there, and the one on its way is there whole or not at all."""
    seed = int(os.environ.get("COMPANION_PI_SEED") or random.randrange(10 ** 6))
    print(f"\npower cuts: COMPANION_PI_SEED={seed}")
    chance = random.Random(seed)
    # the game, as a new one is put on the table: the record's setup, no moves yet
    start = {**play.record, "moves": []}
    assert guest.run(f"systemctl stop {UNIT}")[0] == 0
    status, output = guest.run(f"echo {shlex.quote(json.dumps(start))} > /tmp/start.json && "
                               f"{AS_APP} import /tmp/start.json")
    assert status == 0, output
    assert guest.run(f"systemctl start {UNIT}", timeout=600)[0] == 0
    seated(guest, play)
    # the cuts: one in each quarter of the players' moves up to the damage of the next check (the
    # fifth cut); right after a confirmation or while a move is on its way
    players_moves = [i for i, move in enumerate(play.moves[:DAMAGED_AT]) if "player" in move and i > 0]
    quarter = len(players_moves) // CUTS
    cuts = {chance.choice(players_moves[n * quarter:(n + 1) * quarter]): kind
            for n, kind in enumerate(["confirmed", "on its way", "confirmed", "on its way"])}
    for at, kind in sorted(cuts.items()):
        play_to(guest, play, at)
        move = play.moves[at]
        if kind == "confirmed":
            answer = enter(guest, play, move)
            assert answer.startswith("ACCEPTED "), answer
            play.confirmed.append(move)
            guest.kill()
        else:
            guest.panels[play.players.index(move["player"])].send("JSON " + json.dumps(move))
            time.sleep(chance.uniform(0, 0.5))
            guest.kill()
        stored = power_cycle(guest, play)
        print(f"cut {kind} at move {at + 1}: {len(stored)} moves stored, {len(play.confirmed)} confirmed")
        assert stored[:len(play.confirmed)] == play.confirmed, f"a confirmed move was lost (cut at {at + 1})"
        assert stored in (play.confirmed, [*play.confirmed, move])
        play.confirmed = stored
    play_to(guest, play, PLAYED_BEFORE_THE_DAMAGE)
    assert stored_moves(guest) == play.moves[:PLAYED_BEFORE_THE_DAMAGE]


def the_end(guest: Guest, play: Play) -> None:
    """The whole game stored, and its result the rulebook example's, as the companion replays it."""
    assert stored_moves(guest) == play.moves
    status, output = guest.run(f"{AS_APP} export 2>/dev/null > /tmp/end.json && "
                               f"{COMPANION} replay --json /tmp/end.json")
    assert status == 0, output
    summary = json.loads(output[output.index("{"):])
    assert summary["finished"] is True
    assert summary["scores"] == play.expected["scores"] and summary["winners"] == play.expected["winners"]


def test_a_store_damaged_at_boot_is_said_and_repaired_and_play_goes_on(guest: Guest, play: Play) -> None:
    """A move of the game that no longer reads, then the power cut (the game's fifth): the appliance
    starts all the same and says which game is damaged; the repair keeps the moves before the damage, and the
    game is played on from there on the panels to the same end."""
    damaged_at = DAMAGED_AT
    assert guest.run(f"systemctl stop {UNIT}")[0] == 0
    script = ("import sqlite3; db = sqlite3.connect('companion.sqlite3'); "
              f"db.execute(\"UPDATE moves SET move = '{{not a move' WHERE idx = {damaged_at}\"); "
              "db.commit()")
    status, output = guest.run(f"cd {DATA} && runuser -u companion -- python3 -c {shlex.quote(script)} "
                               "&& sync")
    assert status == 0, output
    guest.kill()
    guest.start(panels=3)
    ready(guest)  # it starts: a damaged game must not stop the box
    guest.wait_for(f"journalctl -b -u {UNIT} --no-pager | grep -q 'session 1 is damaged'", timeout=120)
    assert guest.run(f"systemctl stop {UNIT}")[0] == 0
    status, output = guest.run(f"{AS_APP} doctor --repair")
    assert status == 0, output
    assert guest.run(f"systemctl start {UNIT}", timeout=600)[0] == 0
    seated(guest, play)
    play.confirmed = stored_moves(guest)
    assert play.confirmed == play.moves[:damaged_at]
    play_to(guest, play, len(play.moves))
    the_end(guest, play)


def test_the_stick_is_mounted_on_use_and_the_backup_is_whole_when_it_says_so(guest: Guest, play: Play,
                                                                             tmp_path: Path) -> None:
    """A FAT disk labelled COMPANION plugged in: the automount mounts it when the backup opens it;
    the backup the OLED menu makes (run in the unit's own mount namespace, as its user: qemu cannot
    press the box's buttons) says "safe to remove", and at that moment the disk holds it whole."""
    stick = tmp_path / "stick.img"
    subprocess.run(["mkfs.vfat", "-n", "COMPANION", "-C", str(stick), str(64 * 1024)], check=True,
                   capture_output=True)
    guest.plug_stick(stick)
    guest.wait_for("test -e /dev/disk/by-label/COMPANION", timeout=300)
    status, pid = guest.run(f"systemctl show -p MainPID --value {UNIT}")
    assert status == 0 and int(pid) > 0
    backup = ("from companion.storage.stick import backup_to_stick; "
              "from companion.storage.store import Store; from companion.i18n import render; "
              f"store = Store.open('{DATA}/companion.sqlite3', read_only=True); "
              "done = backup_to_stick(store, '/media/COMPANION'); print(done.path.name); "
              "print(render(done.message))")
    status, output = guest.run(f"nsenter -t {int(pid)} -m -- setpriv --reuid=companion --regid=companion "
                               f"--init-groups /opt/companion/venv/bin/python -c {shlex.quote(backup)}")
    assert status == 0, output
    name, said = output.strip().splitlines()[-2:]
    assert "safe to remove" in said, said
    status, mounted = guest.run("findmnt -no OPTIONS -t vfat /media/COMPANION")
    assert status == 0 and "uid=" in mounted, mounted  # the stick, owned by the service user
    # what the disk holds now, read here: the whole game
    copy = tmp_path / "backup.sqlite3"
    subprocess.run(["mcopy", "-i", str(stick), f"::{name}", str(copy)], check=True, capture_output=True)
    with sqlite3.connect(f"file:{copy}?mode=ro", uri=True) as db:
        assert db.execute("PRAGMA quick_check").fetchone() == ("ok",)
        assert db.execute("SELECT count(*) FROM moves").fetchone() == (len(play.moves),)
    # unmounted by itself once idle (TimeoutIdleSec), so pulling it later loses nothing either; read
    # from the mount table alone: findmnt given the path walks into it, which is a use of the stick
    # that restarts the idle timer (a poll every few seconds against a 5 s timer failed in CI)
    guest.wait_for("! grep -q ' /media/COMPANION vfat ' /proc/self/mounts", timeout=120)


def test_the_watchdog_restarts_a_frozen_app(guest: Guest, play: Play) -> None:
    status, pid = guest.run(f"systemctl show -p MainPID --value {UNIT}")
    assert status == 0 and int(pid) > 0, pid
    marks = [panel.mark() for panel in guest.panels]
    guest.run(f"kill -STOP {pid}")
    # WatchdogSec=30, then RestartSec=2 and a start under emulation: waited for generously
    guest.wait_for(f"test $(systemctl show -p NRestarts --value {UNIT}) -ge 1", timeout=600)
    guest.wait_for(f"journalctl -u {UNIT} --no-pager | grep -q 'Watchdog timeout'", timeout=120)
    ready(guest, timeout=600)
    status, new = guest.run(f"systemctl show -p MainPID --value {UNIT}")
    assert new != pid
    # the app is back: it greets the panels again (the game is over: seats without a player)
    for number, panel in enumerate(guest.panels):
        panel.expect(lambda line, seat=number + 1: line == f"SEAT {seat}", marks[number])


#: How far the arm64 screen may be from this machine's: the share of pixels whose colour differs
#: by more than 8 levels in a channel (both sides draw with Kivy's wheel, its SDL and FreeType,
#: and Debian Bookworm's Mesa in software; what differs is the CPU under them).
SCREEN_TOLERANCE = 0.001


def test_the_touchscreen_draws_the_same_screen_in_the_arm64_root(image: Path, tmp_path: Path) -> None:
    """``companion snapshot`` in the image's root through qemu-user, against the same here."""
    import shutil
    import sys

    from PIL import Image, ImageChops

    root = CACHE / "work" / "root"
    record = EXAMPLES / "campanile-3p.json"
    shutil.copy(record, root / "tmp" / "record.json")
    environ = ["SDL_VIDEODRIVER=offscreen", "KIVY_NO_ARGS=1", "KIVY_HOME=/tmp/kivy",
               "COMPANION_DATA=/tmp/data", "HOME=/tmp", "PATH=/usr/bin:/bin"]
    with proc_mounted(root):
        started = time.monotonic()
        there = subprocess.run(["chroot", str(root), "env", "-i", *environ,
                                "/opt/companion/venv/bin/companion", "snapshot", "/tmp/record.json",
                                "--out", "/tmp/shots", "--only", "screens"],
                               capture_output=True, text=True, timeout=1800)
        arm64 = time.monotonic() - started
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
    differing = sum(1 for pixel in difference.get_flattened_data() if any(pixel))
    print(f"pixels more than 8 levels apart: {differing} of {800 * 480}")
    assert differing / (800 * 480) <= SCREEN_TOLERANCE, differing


def test_the_apps_cold_start_in_the_arm64_root_against_here(tmp_path: Path) -> None:
    """Start to first frame of the touchscreen app (``benchmarks/ui_start.py``'s child: the app
    opened over a store with a game in progress, offscreen) through qemu-user in the image's root,
    and the same here: reported as a rough guide for a Pi, not held to a budget (qemu-user
    translates every instruction; a Pi 4 runs them)."""
    import shutil
    import sys

    sys.path.insert(0, str(ROOT))
    from benchmarks.ui_start import make_store, run_child

    root = CACHE / "work" / "root"
    bench = root / "tmp" / "bench"
    shutil.rmtree(bench, ignore_errors=True)
    (bench / "benchmarks").mkdir(parents=True)
    shutil.copy(ROOT / "benchmarks" / "ui_start.py", bench / "benchmarks" / "ui_start.py")
    store = make_store(bench)
    environ = ["SDL_VIDEODRIVER=offscreen", "KIVY_NO_ARGS=1", "KIVY_HOME=/tmp/bench/kivy", "HOME=/tmp",
               "PATH=/usr/bin:/bin"]
    with proc_mounted(root):
        started = time.monotonic()
        there = subprocess.run(["chroot", str(root), "env", "-i", *environ, "/opt/companion/venv/bin/python",
                                "/tmp/bench/benchmarks/ui_start.py", "--child", f"/tmp/bench/{store.name}"],
                               capture_output=True, text=True, timeout=1800)
    assert there.returncode == 0, there.stderr[-3000:]
    first = next(float(line.split()[1]) for line in there.stdout.splitlines()
                 if line.startswith("first-frame "))
    arm64 = first - started
    here = sorted(run_child(make_store(tmp_path, f"here-{n}.db"))[0] for n in range(3))[1]
    print(f"\nthe app's start to first frame: {arm64:.1f} s under qemu-user, {here:.2f} s here "
          f"({arm64 / here:.0f} times)")


def test_the_image_gains_no_account_but_the_services(image: Path) -> None:
    """Issue 34, defect 20: ``install.sh --root`` builds the wheels on the build machine, by an
    account it makes there and removes; the image's root holds the companion's account, no build
    account and nothing the build left, and the wheels it built are installed there."""
    root = CACHE / "work" / "root"
    for accounts in ("passwd", "group", "shadow", "gshadow"):
        assert "companion-build" not in (root / "etc" / accounts).read_text(), accounts
    assert re.search(r"^companion:x:\d+:\d+::/var/lib/companion:/usr/sbin/nologin$",
                     (root / "etc" / "passwd").read_text(), re.MULTILINE)
    assert not list((root / "tmp").glob("companion-*"))
    manifest = (root / "usr" / "share" / "companion-image" / "manifest.txt").read_text().splitlines()
    for name in ("tabletop-companion", "sdnotify"):
        assert any(line.startswith(f"pip {name} ") for line in manifest), name
