"""``companion web``: the table's page served by uvicorn in a process of its own.

The process opens the store read-only (:mod:`web.store_reader`), so it never stands in
the app's way and outlives the app's restarts. Its first line on standard output is
the URL to open, token included; the same URL goes into the data directory's
``web-url`` file, which the touchscreen shows as a QR code and the OLED menu as text,
and which is removed when the process ends or the table switches the page off.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import signal
import socket
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TextIO

import uvicorn
from starlette.types import ASGIApp

from companion.storage.paths import DB_FILENAME
from companion.system import logs
from web.app import create_app
from web.connections import Gate, GuardedConfig, Limits, protocol_class
from web.store_reader import StoreReader
from web.token import load_token, remove_url, write_url

log = logging.getLogger("companion.web")

#: Listening addresses that mean "every interface": the URL names the default route's instead.
WILDCARDS = ("0.0.0.0", "::")
#: Seconds between looks at which address the default route has (a lease renewed, Wi-Fi joined late).
ADDRESS_EVERY = 30.0
#: Where a laptop serves unless told otherwise: nobody else on the network sees it.
DEFAULT_LISTEN = "127.0.0.1:8080"
#: An address no packet goes to: "connecting" a UDP socket there only asks the kernel
#: which local address the default route would use (TEST-NET-1, RFC 5737).
_ROUTE_PROBE = ("192.0.2.1", 9)


class ListenError(ValueError):
    """``--listen`` is not ``HOST:PORT``."""


class TokenFileError(OSError):
    """The token file cannot be read or written (the data directory's permissions)."""


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8080`` for IPv6) as a host and a port number."""
    host, colon, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host or not port.isdigit() or int(port) > 65535:
        raise ListenError(text)
    return host, int(port)


def default_route_address() -> str:
    """The address of the interface holding the default route (what a phone on the same Wi-Fi
    reaches); 127.0.0.1 when there is no route. No packet is sent."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(_ROUTE_PROBE)
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def page_url(host: str, port: int, token: str) -> str:
    """The URL a phone opens: a wildcard listening address is named by the default route's."""
    if host in WILDCARDS:
        host = default_route_address()
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(host).version == 6:
            host = f"[{host}]"
    return f"http://{host}:{port}/?t={token}"


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound before anything is printed (port 0: the kernel picks one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((host, port))
        listening.listen(128)
    except OSError:
        listening.close()
        raise
    return listening


class Address:
    """The URL the page is served at, kept in the URL file while the page is switched on.

    With a wildcard listening address the URL names the default route's interface, which can
    change after the start (the Wi-Fi joined late, a new lease): :meth:`follow` looks again every
    :data:`ADDRESS_EVERY` seconds and rewrites the file, so the QR code on the table stays right.
    """

    def __init__(self, data_dir: Path, host: str, port: int, token: str) -> None:
        self.data_dir, self.host, self.port, self.token = data_dir, host, port, token
        self.url = page_url(host, port, token)
        self.enabled = True
        self._lock = threading.Lock()

    def switched(self, enabled: bool) -> None:
        with self._lock:
            self.enabled = enabled
            write_url(self.data_dir, self.url) if enabled else remove_url(self.data_dir)

    def refresh(self) -> bool:
        """Look at the route again; whether the URL changed (and was written)."""
        url = page_url(self.host, self.port, self.token)
        with self._lock:
            if url == self.url:
                return False
            self.url = url
            if self.enabled:
                write_url(self.data_dir, url)
        log.info("web: the page's address is now %s", url.split("?", 1)[0])
        return True

    def follow(self, stop: threading.Event) -> None:
        while not stop.wait(ADDRESS_EVERY):
            self.refresh()


def serve(data_dir: Path, listen: str = DEFAULT_LISTEN, *, new_token: bool = False,
          out: TextIO | None = None, announce: Callable[[str], None] | None = None) -> int:
    """Serve the table's page until SIGTERM or Ctrl-C; the URL is the first line on ``out``, then
    ``announce(url)`` says what else the command line prints after it (the QR code, who reaches it)."""
    out = out or sys.stdout
    host, port = parse_listen(listen)
    try:
        token = load_token(data_dir, new=new_token)
    except OSError as error:
        raise TokenFileError(error.errno, error.strerror or str(error), str(data_dir)) from None
    listening = bind(host, port)
    address = Address(data_dir, host, listening.getsockname()[1], token)
    stop = threading.Event()
    # SIGTERM ends the process through SystemExit, so the URL file goes with it, whenever it
    # comes. (uvicorn stops gracefully on it, then raises it again for the handler it found.)
    previous = signal.signal(signal.SIGTERM, _exit_quietly)
    try:
        write_url(data_dir, address.url)
        print(address.url, file=out, flush=True)
        if announce is not None:
            announce(address.url)
        logs.configure(logging.INFO)
        if host in WILDCARDS:
            threading.Thread(target=address.follow, args=(stop,), name="web-address", daemon=True).start()
        app = create_app(StoreReader(data_dir / DB_FILENAME), token, on_switch=address.switched)
        uvicorn.Server(server_config(app)).run(sockets=[listening])
    finally:
        stop.set()
        remove_url(data_dir)
        listening.close()
        signal.signal(signal.SIGTERM, previous)
    return 0


def _exit_quietly(number: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


def server_config(app: ASGIApp, limits: Limits | None = None, *, parser: str = "auto") -> GuardedConfig:
    """uvicorn's settings for the page: its clients bounded by :class:`web.connections.Gate`
    (head size and time, idle time, connections per address and in all) whichever ``parser``
    runs (``auto``: httptools when installed, as uvicorn picks; ``h11``)."""
    limits = limits or Limits()
    return GuardedConfig(
        app, gate=Gate(limits), http=protocol_class(parser),
        log_config=None, log_level="warning", access_log=False,  # the access log would hold tokens
        lifespan="on", proxy_headers=False, server_header=False,
        timeout_keep_alive=limits.idle_seconds,  # an idle phone's connection is closed after this
        # The gate bounds the connections; uvicorn's own cap (503 to everybody beyond it) is only a
        # backstop it never reaches: the gate closes a waiting connection rather than refuse a phone.
        limit_concurrency=limits.connections * 2,
        h11_max_incomplete_event_size=limits.head_bytes,  # (the gate bounds it first, for both parsers)
        timeout_graceful_shutdown=3)
