"""Debian's Mosquitto, started by a test on a free loopback port with a configuration it writes.

The club's tests (tests/club/) talk to a real broker, not a double: the persistent session, the
retained messages, the last will and the broker going away mid-game are the broker's behaviour,
and only a real one shows them. `.ci/run` installs `mosquitto` when it is missing.

When the tests run as root (CI does), Mosquitto drops to its own user: the folder it persists to
and the files it reads (passwords, ACL, certificates) are handed to that user first.

Free ports: the kernel picks one (bind to port 0), the socket is closed and the port handed to
Mosquitto. Another process could take it in between; :meth:`Broker.start` then fails with the
broker's own log, which names the port, instead of hanging.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
#: How long a broker may take to listen; generous (a loaded CI machine), it is a guard, not a timer.
START_GUARD = 30.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class Tls:
    """A certificate authority and a server certificate for 127.0.0.1 and ``localhost``, made by
    ``openssl`` for this test alone."""

    ca_file: Path
    cert_file: Path
    key_file: Path


def make_tls(folder: Path) -> Tls:
    folder.mkdir(parents=True, exist_ok=True)
    ca_key, ca_cert = folder / "ca.key", folder / "ca.crt"
    key, request, cert = folder / "server.key", folder / "server.csr", folder / "server.crt"
    extensions = folder / "server.ext"
    extensions.write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n"
                          "basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\n"
                          "extendedKeyUsage=serverAuth\n")

    def run(*arguments: str) -> None:
        subprocess.run(["openssl", *arguments], check=True, capture_output=True)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Club test CA",
        "-keyout", str(ca_key), "-out", str(ca_cert))
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout", str(key),
        "-out", str(request))
    run("x509", "-req", "-in", str(request), "-CA", str(ca_cert), "-CAkey", str(ca_key),
        "-CAcreateserial", "-days", "2", "-extfile", str(extensions), "-out", str(cert))
    return Tls(ca_cert, cert, key)


@dataclass
class Broker:
    """One Mosquitto: ``url`` is what a table's ``[club] broker`` names (``mqtt://`` or, with TLS,
    ``mqtts://``). :meth:`stop` and :meth:`start` keep its persistence folder, so retained messages
    and persistent sessions survive a restart on the same port, as on a real broker."""

    folder: Path
    port: int
    tls: Tls | None = None
    #: user -> password; when given, anonymous clients are refused.
    passwords: dict[str, str] = field(default_factory=dict)
    #: Mosquitto ACL file text; when given, applied.
    acl: str | None = None
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        return self.folder / "mosquitto.log"

    def _configure(self) -> Path:
        data = self.folder / "data"
        data.mkdir(parents=True, exist_ok=True)
        lines = [
            f"listener {self.port} 127.0.0.1",
            "persistence true",
            f"persistence_location {data}/",
            "autosave_interval 1",
            f"log_dest file {self.log}",
            "log_type all",
            "max_queued_messages 100000",
        ]
        if self.tls:
            lines += [f"cafile {self.tls.ca_file}", f"certfile {self.tls.cert_file}",
                      f"keyfile {self.tls.key_file}"]
        if self.passwords:
            password_file = self.folder / "passwords"
            password_file.write_text("")
            for user, password in self.passwords.items():
                subprocess.run(["mosquitto_passwd", "-b", str(password_file), user, password],
                               check=True, capture_output=True)
            lines += ["allow_anonymous false", f"password_file {password_file}"]
        else:
            lines.append("allow_anonymous true")
        if self.acl is not None:
            acl_file = self.folder / "acl"
            acl_file.write_text(self.acl)
            lines.append(f"acl_file {acl_file}")
        if os.geteuid() == 0:
            lines.append("user mosquitto")
        config = self.folder / "mosquitto.conf"
        config.write_text("\n".join(lines) + "\n")
        if os.geteuid() == 0:
            self._hand_to_mosquitto()
        return config

    def _hand_to_mosquitto(self) -> None:
        """As root, Mosquitto reads its files and writes its folder as its own user."""
        account = pwd.getpwnam("mosquitto")
        for path in [self.folder, *self.folder.rglob("*")]:
            os.chown(path, account.pw_uid, account.pw_gid)
        parent = self.folder.parent
        while parent != parent.parent:  # a test's temporary folders are 0700: let it pass through
            mode = parent.stat().st_mode
            if not mode & 0o001:
                os.chmod(parent, mode | 0o001)
            parent = parent.parent

    def start(self) -> None:
        config = self._configure()
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(config)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + START_GUARD
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        log = self.log.read_text(errors="replace") if self.log.exists() else "(no log)"
        self.stop()
        raise RuntimeError(f"mosquitto did not listen on {self.port}:\n{log}")

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=START_GUARD)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def kill(self) -> None:
        """Gone without a word, as when its machine loses power (nothing more is saved)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None


@contextmanager
def running_broker(folder: Path, *, tls: bool = False, passwords: dict[str, str] | None = None,
                   acl: str | None = None) -> Iterator[Broker]:
    """A broker for the test's body; the test is skipped, saying why, where Mosquitto is not installed
    (as the browser tests are without Chromium: `.ci/run` installs both, so CI always runs them)."""
    if not Path(MOSQUITTO).exists():
        import pytest

        pytest.skip("Debian's mosquitto is not installed (apt-get install mosquitto; .ci/run installs it)")
    broker = Broker(folder, free_port(), make_tls(folder / "tls") if tls else None,
                    dict(passwords or {}), acl)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()
