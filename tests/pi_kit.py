"""The emulated Pi for the ``pi`` tests: the appliance's image built by ``systemd/image/build.sh``,
booted with its own kernel and initramfs under ``qemu-system-aarch64 -M virt`` (TCG), and a root
shell into it for the checks.

The shell is the one thing the tests add to the image: the serial console's login prompt
(``ttyAMA0``) logs root in without a password, by a drop-in written into a copy of the image's
root partition with ``debugfs`` (no loop mount); qemu bridges the console to a Unix socket here
and keeps its output in ``console.log``. Everything else is the image as a user gets
it: its systemd, udev, polkit and units. Emulation is slow (no KVM): every wait is generous, and
nothing here measures speed against a budget.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("COMPANION_IMAGE_CACHE")
             or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "companion-image")
#: The Debian packages the checks need here (installed even when present: a fresh machine has none).
HOST_PACKAGES = ("qemu-system-arm", "qemu-user-static", "mmdebstrap", "arch-test", "mtools",
                 "dosfstools", "fdisk", "e2fsprogs", "xz-utils", "python3-venv")
#: Where the root partition starts in the image (build.sh: 8192 + 256 MiB in 512-byte sectors).
ROOT_START = (8192 + 256 * 2048) * 512

TEST_SHELL = """[Service]
# The pi tests' way in (added by tests/pi_kit.py): the serial console's login prompt logs root in.
ExecStart=
ExecStart=-/sbin/agetty --autologin root --noclear --keep-baud 115200,57600,38400,9600 - $TERM
"""


def install_host_packages() -> None:
    """Debian's emulators and image tools, from the archive (``apt-get update`` only if needed)."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    command = ["apt-get", "install", "-y", "--no-install-recommends", *HOST_PACKAGES]
    if subprocess.run(command, env=env, capture_output=True, timeout=1800).returncode != 0:
        subprocess.run(["apt-get", "update"], env=env, check=True, capture_output=True, timeout=600)
        subprocess.run(command, env=env, check=True, capture_output=True, timeout=1800)


def build_image(out: Path) -> Path:
    """``systemd/image/build.sh --out OUT``: the image of this checkout (the Debian base cached),
    compressed at xz's level 0 (the released image's level 6 takes ten minutes here, and the
    checks uncompress it at once: what is in it is the same)."""
    done = subprocess.run(["bash", str(ROOT / "systemd" / "image" / "build.sh"), "--out", str(out)],
                          capture_output=True, text=True, timeout=3600, env={**os.environ, "XZ_OPT": "-0"})
    assert done.returncode == 0, done.stderr[-4000:]
    return next(out.glob("companion-*-arm64.img.xz"))


#: The panels' ports in the emulated machine: qemu's PCI 16550 UARTs (``-device pci-serial``), the
#: ``ttyS`` ports a Pi's mini UART also is; listed in the image's configuration as wired seats.
PANEL_PORTS = ("/dev/ttyS0", "/dev/ttyS1", "/dev/ttyS2")

#: What a fault planted on purpose changes in the image (``$COMPANION_PI_FAULT``): each must make
#: its own check fail. debugfs commands; ``{store}`` is the store module's path in the root.
FAULTS = {
    # the unit's watchdog switched off by a drop-in, as if WatchdogSec were removed
    "watchdog": "mkdir /etc/systemd/system/companion-headless.service.d\n"
                "write {dropin} /etc/systemd/system/companion-headless.service.d/fault.conf\n",
    # the polkit rule that lets the service user power off and reboot
    "polkit": "rm /etc/polkit-1/rules.d/50-companion.rules\n",
    # a move is stored without being synced (SQLite's synchronous=OFF instead of FULL)
    "fsync": "rm {store}\nwrite {patched} {store}\n",
}


def configuration(wired: tuple[str, ...] = PANEL_PORTS) -> str:
    """The image's /etc/companion/companion.toml for the checks: the panels' ports wired to seats
    1, 2, 3 (``serial.wired``), everything else the installer's example."""
    example = (ROOT / "companion.example.toml").read_text(encoding="utf-8")
    seats = ", ".join(f'"{port}={seat}"' for seat, port in enumerate(wired, 1))
    assert re.search(r"(?m)^wired = \[\]", example), "the example's serial.wired line moved"
    return re.sub(r"(?m)^wired = \[\]", f"wired = [{seats}]", example, count=1)


def _inside(root: Path, path: str) -> str:
    """``path`` in the built root with its links resolved inside that root (debugfs follows none)."""
    parts: list[str] = []
    for part in Path(path).parts[1:]:
        candidate = root.joinpath(*parts, part)
        if candidate.is_symlink():
            target = os.readlink(candidate)
            if target.startswith("/"):
                return _inside(root, target + "/" + "/".join(Path(path).parts[len(parts) + 2:]))
            parts.extend(Path(target).parts)
        else:
            parts.append(part)
    resolved = Path("/", *parts)
    return str(Path(os.path.normpath(resolved)))


def boot_disk(image_xz: Path, disk: Path, headless: bool = True, *, config: str | None = None,
              setup: dict[str, str] | None = None, fault: str | None = None) -> None:
    """The image uncompressed to ``disk`` (1 GiB larger, as a card is), with the test shell written
    into its root partition; with ``headless``, the headless unit enabled instead of the
    touchscreen's (the emulated machine has no display), as ``install.sh --headless`` enables it;
    ``config`` written as /etc/companion/companion.toml; ``setup`` changed in the setup file on the
    FAT partition, as a user edits it after flashing; ``fault`` one of :data:`FAULTS` planted."""
    with disk.open("wb") as out:
        # (xz -T0 made it in blocks: both cores uncompress it)
        subprocess.run(["xz", "-dc", "-T0", str(image_xz)], stdout=out, check=True, timeout=900)
    with disk.open("r+b") as grown:  # a card larger than the image: first boot grows the root
        grown.truncate(disk.stat().st_size + 1024 ** 3)
    unit = disk.parent / "autologin.conf"
    unit.write_text(TEST_SHELL)
    part = f"{disk}?offset={ROOT_START}"
    wants = "/etc/systemd/system/multi-user.target.wants"
    commands = ("mkdir /etc/systemd/system/serial-getty@ttyAMA0.service.d\n"
                f"write {unit} /etc/systemd/system/serial-getty@ttyAMA0.service.d/autologin.conf\n")
    if headless:
        commands += (f"rm {wants}/companion.service\n"
                     f"symlink {wants}/companion-headless.service "
                     "/etc/systemd/system/companion-headless.service\n")
    if config is not None:
        written = disk.parent / "companion.toml"
        written.write_text(config, encoding="utf-8")
        commands += f"rm /etc/companion/companion.toml\nwrite {written} /etc/companion/companion.toml\n"
    if fault is not None:
        commands += _fault(fault, disk.parent)
    done = subprocess.run(["debugfs", "-w", "-f", "-", part], input=commands, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and "rror" not in done.stderr, done.stderr
    if setup:
        _edit_setup(disk, setup)


def _fault(fault: str, work: Path) -> str:
    assert fault in FAULTS, f"COMPANION_PI_FAULT={fault}: one of {', '.join(FAULTS)}"
    root = CACHE / "work" / "root"
    dropin = work / "fault.conf"
    dropin.write_text("[Service]\nWatchdogSec=0\n")
    venv = _inside(root, "/opt/companion/venv")
    found = sorted((root / venv.lstrip("/")).glob("lib/python3*/site-packages/companion/storage/store.py"))
    assert len(found) == 1, found
    store = "/" + found[0].relative_to(root).as_posix()
    patched = work / "store.py"
    source = found[0].read_text(encoding="utf-8")
    assert 'PRAGMA synchronous=FULL' in source
    patched.write_text(source.replace('PRAGMA synchronous=FULL', 'PRAGMA synchronous=OFF'), encoding="utf-8")
    return FAULTS[fault].format(dropin=dropin, store=store, patched=patched)


#: The display and the touch of the emulated box: a KMS/DRM device Debian's kernel drives
#: (``virtio_gpu``) at the official panel's size, and an absolute pointer (single touch) that reaches
#: the guest as an evdev device, as a single-touch HDMI panel's does.
#: The largest position qemu's absolute pointer reports on an axis.
ABS_MAX = 0x7FFF
DISPLAY_DEVICES = ["-device", "virtio-gpu-pci,xres=800,yres=480", "-device", "virtio-tablet-pci"]

#: Where the FAT partition starts in the image (build.sh: sector 8192).
BOOT_START = 8192 * 512


def _edit_setup(disk: Path, changes: dict[str, str]) -> None:
    """Change lines of companion-setup.txt on the FAT partition with mtools (no mount)."""
    image = f"{disk}@@{BOOT_START}"
    text = subprocess.run(["mtype", "-i", image, "::companion-setup.txt"], check=True, capture_output=True,
                          text=True, timeout=60).stdout
    for name, value in changes.items():
        text, found = re.subn(rf"(?m)^{name}=.*$", f"{name}={value}", text)
        assert found == 1, f"{name} is not a line of the setup file"
    edited = disk.parent / "companion-setup.txt"
    edited.write_text(text)
    subprocess.run(["mcopy", "-o", "-i", image, str(edited), "::companion-setup.txt"], check=True,
                   capture_output=True, timeout=60)


class Guest:
    """The image running in qemu: its serial console in ``console.log``, a shell through ``run``."""

    def __init__(self, image_xz: Path, disk: Path, work: Path) -> None:
        stem = image_xz.name.removesuffix(".img.xz")
        self.kernel = image_xz.with_name(f"{stem}.vmlinuz")
        self.initrd = image_xz.with_name(f"{stem}.initrd")
        self.disk = disk
        self.work = work
        self.console = work / "console.log"
        self.socket_path = work / "shell.sock"
        self.process: subprocess.Popen[bytes] | None = None
        self.shell: socket.socket | None = None
        self.monitor_socket: socket.socket | None = None
        self.qmp_socket: socket.socket | None = None
        self.panels: list[Panel] = []
        self.booted_at = 0.0

    def start(self, panels: int = 0, *, display: bool = False) -> None:
        """Boot: ``-M virt -cpu cortex-a72 -smp 2`` with the image's kernel, the disk written
        through (``cache=writethrough``: what the guest has synced is in the file), a USB
        controller for the stick, qemu's monitor on a socket, and ``panels`` PCI UARTs
        (``ttyS0``, ``ttyS1``, …), each bridged to a socket here that a :class:`Panel` connects to."""
        self.socket_path.unlink(missing_ok=True)
        self.panels = []
        wiring: list[str] = []
        for number in range(panels):
            path = self.work / f"panel{number}.sock"
            path.unlink(missing_ok=True)
            wiring += ["-chardev", f"socket,id=panel{number},path={path},server=on,wait=off",
                       "-device", f"pci-serial,chardev=panel{number}"]
        monitor = self.work / "monitor.sock"
        monitor.unlink(missing_ok=True)
        command = ["qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72", "-smp", "2", "-m", "1024",
                   "-nographic", "-monitor", f"unix:{monitor},server=on,wait=off",
                   "-chardev",
                   f"socket,id=shell,path={self.socket_path},server=on,wait=off,logfile={self.console}",
                   "-serial", "chardev:shell",
                   "-kernel", str(self.kernel), "-initrd", str(self.initrd),
                   "-append", "root=LABEL=RASPIROOT rw console=ttyAMA0 rootwait quiet systemd.show_status=0",
                   "-drive", f"if=none,id=disk,format=raw,cache=writethrough,file={self.disk}",
                   "-device", "virtio-blk-device,drive=disk",
                   "-device", "qemu-xhci,id=usb",
                   "-netdev", "user,id=net", "-device", "virtio-net-device,netdev=net", *wiring]
        if display:
            command += DISPLAY_DEVICES
        qmp = self.work / "qmp.sock"
        qmp.unlink(missing_ok=True)
        command += ["-qmp", f"unix:{qmp},server=on,wait=off"]
        self.console.unlink(missing_ok=True)
        self.booted_at = time.monotonic()
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=(self.work / "qemu.err").open("wb"))
        deadline = time.monotonic() + 60
        while not (self.socket_path.exists() and monitor.exists()):
            assert self.process.poll() is None, (self.work / "qemu.err").read_text()
            assert time.monotonic() < deadline, "qemu made no socket"
            time.sleep(0.2)
        # the disk's write lock taken by another qemu, say: qemu says why and stops
        self.shell = connect(self.socket_path, self.process)
        self.monitor_socket = connect(monitor, self.process)
        self._monitor_answer()
        self.qmp_socket = connect(qmp, self.process)
        self._qmp_replies = self.qmp_socket.makefile("r", encoding="utf-8")
        assert "QMP" in json.loads(self._qmp_replies.readline()), "no QMP greeting"
        self.qmp("qmp_capabilities")
        # the panels connect now, before the app opens its ports: what the companion writes to a
        # UART while nothing here listens is lost, and its first line is its HELLO
        self.panels = [Panel(self.work / f"panel{number}.sock", number + 1) for number in range(panels)]
        while not self.console.exists():
            time.sleep(0.2)

    def _monitor_answer(self, timeout: float = 60) -> str:
        """What qemu's monitor wrote up to its next prompt."""
        assert self.monitor_socket is not None
        self.monitor_socket.settimeout(timeout)
        received = b""
        while not received.endswith(b"(qemu) "):
            chunk = self.monitor_socket.recv(4096)
            assert chunk, f"qemu's monitor closed: {received!r}"
            received += chunk
        return received.decode(errors="replace")

    def monitor(self, command: str) -> str:
        """One command of qemu's human monitor (HMP): plugging a USB stick in and out."""
        assert self.monitor_socket is not None
        self.monitor_socket.sendall(command.encode() + b"\n")
        return self._monitor_answer()

    def qmp(self, command: str, **arguments: object) -> object:
        """One command of qemu's machine protocol (QMP); its ``return`` (events on the way are skipped)."""
        assert self.qmp_socket is not None
        self.qmp_socket.settimeout(60)
        message = {"execute": command, **({"arguments": arguments} if arguments else {})}
        self.qmp_socket.sendall(json.dumps(message).encode() + b"\n")
        while True:
            reply = json.loads(self._qmp_replies.readline())
            if "event" in reply:
                continue
            assert "return" in reply, f"{command}: {reply}"
            return reply["return"]

    def tap(self, x: float, y: float, width: int = 800, height: int = 480) -> None:
        """A finger down and up at ``(x, y)`` pixels of the display (from its top left), sent to the
        emulated absolute pointer (qemu's tablet: ``0 … 0x7fff`` on each axis)."""
        # (a pixel off first, then the point: Linux passes on only a position that changed, and an app
        # started since the last tap at the same point would take it where its reader begins)
        position = [{"type": "abs", "data": {"axis": axis, "value": round(value * ABS_MAX / size) + nudge}}
                    for nudge in (1, 0) for axis, value, size in (("x", x, width), ("y", y, height))]
        press = {"type": "btn", "data": {"down": True, "button": "left"}}
        self.qmp("input-send-event", events=[*position, press])
        time.sleep(0.2)  # a finger's tap: down, then up a moment later (a hold would be seconds)
        self.qmp("input-send-event", events=[{"type": "btn", "data": {"down": False, "button": "left"}}])

    def screendump(self, path: Path) -> None:
        """The display's frame as qemu shows it, written to ``path`` (PPM)."""
        self.qmp("screendump", filename=str(path))

    def plug_stick(self, image: Path) -> None:
        """A USB disk with ``image`` on it plugged into the running machine (written through)."""
        answer = self.monitor(f"drive_add 0 if=none,id=stick,format=raw,cache=writethrough,file={image}")
        assert "OK" in answer, answer
        answer = self.monitor("device_add usb-storage,bus=usb.0,drive=stick,id=stickdev")
        assert "Error" not in answer and "rror" not in answer, answer

    def run(self, command: str, timeout: float = 300) -> tuple[int, str]:
        """``command`` in the guest's root shell: its exit status and output (standard error
        included). Waits for the shell to be there (the first call waits for the boot)."""
        assert self.shell is not None
        mark = uuid.uuid4().hex
        # no pager, no colours; the output framed by two marks printed on lines of their own
        line = (f"export SYSTEMD_PAGER=cat PAGER=cat SYSTEMD_COLORS=0 TERM=dumb; stty -echo 2>/dev/null; "
                f"echo {mark}-start; ( {command} ) 2>&1; status=$?; echo; echo {mark}:$status\n")
        deadline = time.monotonic() + timeout
        # Nothing is sent before root is logged in: what qemu's serial port is given while the guest
        # boots stalls the socket for good (seen here); after it, each send goes through.
        # (what the guest prints is read all along: unread, it holds the guest's console up)
        self.shell.settimeout(2)
        while b"(automatic login)" not in self.console.read_bytes():
            assert time.monotonic() < deadline, "the serial console never logged root in"
            assert self.process is not None and self.process.poll() is None, "qemu stopped"
            with contextlib.suppress(TimeoutError):
                self.shell.recv(65536)
        self.shell.settimeout(5)
        received = b""
        sent_at = 0.0
        # (after the prompt, on its line; the command's own echo has a ";" after the mark)
        started = re.compile(rf"{mark}-start\r?\n".encode())
        finished = re.compile(rf"(?m)^{mark}:(\d+)\r?$".encode())
        while True:
            # sent again only while no shell has begun it (a command is never run twice)
            if time.monotonic() - sent_at > 30 and not started.search(received):
                self.shell.sendall(line.encode())
                sent_at = time.monotonic()
            try:
                chunk = self.shell.recv(65536)
            except TimeoutError:
                chunk = b""
            received += chunk
            begun, found = started.search(received), finished.search(received)
            if begun and found and found.start() > begun.end():
                output = received[begun.end():found.start()].decode(errors="replace")
                output = ANSI.sub("", output).replace("\r", "")
                return int(found.group(1)), output.removesuffix("\n").removesuffix("\n").strip("\n")
            assert time.monotonic() < deadline, f"no answer to {command!r}: {received[-2000:]!r}"
            assert self.process is not None and self.process.poll() is None, "qemu stopped"

    def wait_for(self, command: str, timeout: float = 600, every: float = 5) -> str:
        """Run ``command`` until it succeeds; its output."""
        deadline = time.monotonic() + timeout
        while True:
            status, output = self.run(command, timeout=max(60.0, deadline - time.monotonic()))
            if status == 0:
                return output
            assert time.monotonic() < deadline, f"{command!r} never succeeded: {output}"
            time.sleep(every)

    def kill(self) -> None:
        """Power off at once: qemu killed with SIGKILL (what a pulled plug does to the Pi)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=60)
        for panel in self.panels:
            panel.close()
        self.panels = []
        for connection in (self.shell, self.monitor_socket, self.qmp_socket):
            if connection is not None:
                connection.close()
        self.shell = self.monitor_socket = self.qmp_socket = None


def connect(path: Path, qemu: subprocess.Popen[bytes] | None = None, timeout: float = 60) -> socket.socket:
    """A connection to one of qemu's Unix sockets (qemu makes the file a moment before it listens)."""
    deadline = time.monotonic() + timeout
    while True:
        assert qemu is None or qemu.poll() is None, "qemu stopped"
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            connection.connect(str(path))
            return connection
        except (ConnectionRefusedError, FileNotFoundError):
            connection.close()
            assert time.monotonic() < deadline, f"qemu does not listen on {path}"
            time.sleep(0.1)


#: A terminal's escape sequences (bash's bracketed paste, colours), taken out of what the shell says.
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

#: What :attr:`Panel.lines` ends with once the port is gone.
CLOSED = "\0closed"


class Panel:
    """A seat panel played from here: the documented protocol over the socket qemu bridges to one of
    the machine's UARTs. It answers the companion's ``HELLO 1`` with its own ``HELLO`` for its
    seat, as the reference panel does; every line the companion writes is kept, in order."""

    def __init__(self, path: Path, seat: int) -> None:
        self.seat = seat
        self.lines: list[str] = []
        self._changed = threading.Condition()
        self._sending = threading.Lock()  # the reader answers HELLO while a test sends a move
        self._socket = connect(path)
        self._reader = threading.Thread(target=self._read, name=f"panel {seat}", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        pending = b""
        while True:
            try:
                chunk = self._socket.recv(4096)
            except OSError:
                chunk = b""
            if not chunk:
                with self._changed:
                    self.lines.append(CLOSED)  # the end: qemu stopped or the panel was closed
                    self._changed.notify_all()
                return
            pending += chunk
            *whole, pending = pending.split(b"\n")
            for raw in whole:
                line = raw.rstrip(b"\r").decode("utf-8", errors="replace")
                if line == "HELLO 1":
                    self.send(f"HELLO 1 {self.seat} pi-test-panel-{self.seat}")
                with self._changed:
                    self.lines.append(line)
                    self._changed.notify_all()

    def send(self, line: str) -> None:
        with self._sending:
            self._socket.sendall(line.encode("utf-8") + b"\n")

    def mark(self) -> int:
        """Where the lines are now: :meth:`expect` looks only after it."""
        with self._changed:
            return len(self.lines)

    def expect(self, wanted: Callable[[str], bool], since: int = 0, timeout: float = 300) -> str:
        """The first line after ``since`` that ``wanted`` accepts, waiting for it."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for line in self.lines[since:]:
                    if wanted(line):
                        return line
                assert CLOSED not in self.lines[since:], f"panel {self.seat}: the port closed"
                left = deadline - time.monotonic()
                assert left > 0, f"panel {self.seat} waited in vain; it heard {self.lines[since:][-20:]}"
                self._changed.wait(left)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._socket.shutdown(socket.SHUT_RDWR)
        self._socket.close()


@contextlib.contextmanager
def proc_mounted(root: Path) -> Iterator[None]:
    """``/proc`` mounted in the built root while the body runs a program there through qemu-user."""
    subprocess.run(["mount", "-t", "proc", "proc", str(root / "proc")], check=True)
    try:
        yield
    finally:
        subprocess.run(["umount", str(root / "proc")], check=True)
