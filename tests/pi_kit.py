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
import os
import re
import shutil
import socket
import subprocess
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("COMPANION_IMAGE_CACHE")
             or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "companion-image")
#: The Debian packages the checks need here (installed even when present: a fresh machine has none).
HOST_PACKAGES = ("qemu-system-arm", "qemu-user-static", "mmdebstrap", "arch-test", "mtools",
                 "dosfstools", "fdisk", "e2fsprogs", "xz-utils")
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
    """``systemd/image/build.sh --out OUT``: the image of this checkout (the Debian base cached)."""
    done = subprocess.run(["bash", str(ROOT / "systemd" / "image" / "build.sh"), "--out", str(out)],
                          capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, done.stderr[-4000:]
    return next(out.glob("companion-*-arm64.img.xz"))


def boot_disk(image_xz: Path, disk: Path, headless: bool = True) -> None:
    """The image uncompressed to ``disk`` (1 GiB larger, as a card is), with the test shell written
    into its root partition;
    with ``headless``, the headless unit enabled instead of the touchscreen's (the emulated machine
    has no display), as ``install.sh --headless`` enables it."""
    with disk.open("wb") as out:
        subprocess.run(["xz", "-dc", str(image_xz)], stdout=out, check=True, timeout=900)
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
    done = subprocess.run(["debugfs", "-w", "-f", "-", part], input=commands, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and "rror" not in done.stderr, done.stderr


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
        self.booted_at = 0.0

    def start(self, extra: tuple[str, ...] = ()) -> None:
        """Boot: ``-M virt -cpu cortex-a72 -smp 2`` with the image's kernel, the disk written
        through (``cache=writethrough``: what the guest has synced is in the file)."""
        self.socket_path.unlink(missing_ok=True)
        command = ["qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72", "-smp", "2", "-m", "1024",
                   "-nographic", "-monitor", "none",
                   "-chardev",
                   f"socket,id=shell,path={self.socket_path},server=on,wait=off,logfile={self.console}",
                   "-serial", "chardev:shell",
                   "-kernel", str(self.kernel), "-initrd", str(self.initrd),
                   "-append", "root=LABEL=RASPIROOT rw console=ttyAMA0 rootwait",
                   "-drive", f"if=none,id=disk,format=raw,cache=writethrough,file={self.disk}",
                   "-device", "virtio-blk-device,drive=disk",
                   "-netdev", "user,id=net", "-device", "virtio-net-device,netdev=net", *extra]
        self.booted_at = time.monotonic()
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=(self.work / "qemu.err").open("wb"))
        deadline = time.monotonic() + 60
        while not self.socket_path.exists():
            assert self.process.poll() is None, (self.work / "qemu.err").read_text()
            assert time.monotonic() < deadline, "qemu made no socket"
            time.sleep(0.2)
        self.shell = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.shell.connect(str(self.socket_path))
        while not self.console.exists():
            time.sleep(0.2)

    def run(self, command: str, timeout: float = 300) -> tuple[int, str]:
        """``command`` in the guest's root shell: its exit status and output. Waits for the shell
        to be there (the first call waits for the boot)."""
        assert self.shell is not None
        mark = uuid.uuid4().hex
        line = f"stty -echo 2>/dev/null; ( {command} ) 2>&1; echo {mark}:$?\n"
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
        while True:
            if time.monotonic() - sent_at > 30 and mark.encode() not in received:
                self.shell.sendall(line.encode())  # again, until a shell is there to read it
                sent_at = time.monotonic()
            try:
                chunk = self.shell.recv(65536)
            except TimeoutError:
                chunk = b""
            received += chunk
            found = re.search(rf"(?<!echo ){mark}:(\d+)\r?\n".encode(), received)
            if found:
                before = received[:found.start()].decode(errors="replace")
                start = before.rfind(f"echo {mark}:$?")
                output = before[start + len(f"echo {mark}:$?"):] if start >= 0 else before
                return int(found.group(1)), output.replace("\r", "").strip("\n")
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
        if self.shell is not None:
            self.shell.close()
            self.shell = None
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=60)


def have_tools() -> bool:
    return all(shutil.which(tool) for tool in ("qemu-system-aarch64", "mmdebstrap", "debugfs", "mcopy"))
