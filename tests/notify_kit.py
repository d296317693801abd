"""systemd's notification socket for tests: a real unix datagram socket the child's sdnotify writes to."""

from __future__ import annotations

import socket
from pathlib import Path

GUARD = 120.0  # seconds: a hang fails the test instead of stalling the suite


def notify_socket(path: Path) -> socket.socket:
    """A datagram socket bound at ``path``, to be given to the child as ``NOTIFY_SOCKET``."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(path))
    return server


def receive(server: socket.socket, timeout: float = GUARD) -> str | None:
    """The next notification, or ``None`` when none arrives within ``timeout`` seconds."""
    server.settimeout(timeout)
    try:
        return server.recv(4096).decode()
    except TimeoutError:
        return None


def drain(server: socket.socket) -> list[str]:
    """Every notification already waiting (none is waited for)."""
    server.setblocking(False)
    got = []
    try:
        while True:
            got.append(server.recv(4096).decode())
    except BlockingIOError:
        return got
