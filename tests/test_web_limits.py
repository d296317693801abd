"""The page bounds its clients (issue 34, items 11 and 12): time-outs, caps, the head's size.

uvicorn serves the real app (the real store, the real routes) on a thread of this process,
with the page's own settings (``web.server.server_config``) made smaller: a short head time-out
and idle time-out, a few connections per address. Clients are plain sockets from loopback
addresses of their own (127.0.0.2 and up; the phones on 127.0.0.1). Both parsers run each test:
httptools (what uvicorn picks when it is installed) and h11. Nothing measures time: a closing is
waited for with a generous time-out, and the server's own count of connections is read.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from contextlib import ExitStack, suppress
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvicorn

from companion.service.app import Companion
from companion.storage.paths import DB_FILENAME
from web.app import create_app
from web.connections import Gate, GuardedConfig, Limits
from web.server import bind, server_config
from web.store_reader import StoreReader

EXAMPLES = Path(__file__).parent / "data" / "examples"
TOKEN = "T0ken-for-the-limits_0123456789"
#: Seconds to wait for what must happen (generous: a loaded machine).
PATIENCE = 60.0
#: The bounds under test: small, so that a test opens few sockets and waits little.
LIMITS = Limits(head_bytes=16 * 1024, head_seconds=0.5, idle_seconds=1, per_address=6, connections=20)
PARSERS = ("httptools", "h11")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("limits") / "data"
    data.mkdir()
    with Companion.open(data / DB_FILENAME) as app:
        app.import_record(json.loads((EXAMPLES / "castelli.json").read_text(encoding="utf-8")))
    return data / DB_FILENAME


@dataclass
class Served:
    port: int
    gate: Gate

    def connect(self, source: str) -> socket.socket:
        """A connection from ``source`` (a loopback address: every 127.x.y.z is this machine)."""
        return socket.create_connection(("127.0.0.1", self.port), timeout=PATIENCE,
                                        source_address=(source, 0))

    def get(self, target: str, source: str = "127.0.0.1") -> tuple[int, bytes]:
        """One request on a new connection from ``source``: the status and the whole answer."""
        with self.connect(source) as client:
            client.sendall(f"GET {target} HTTP/1.1\r\nHost: table\r\nConnection: close\r\n\r\n".encode())
            answer = _read_all(client)
        return int(answer.split(b" ", 2)[1]), answer


def _read_all(client: socket.socket) -> bytes:
    chunks = []
    while chunk := client.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def _closed(client: socket.socket) -> bool:
    """Whether the server closed ``client`` (waits up to the patience for it)."""
    try:
        return _read_all(client) is not None
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


@pytest.fixture(params=PARSERS)
def served(request: pytest.FixtureRequest, store: Path) -> Iterator[Served]:
    """The page on a thread of this process, with :data:`LIMITS` and the parser of the parameter."""
    app = create_app(StoreReader(store), TOKEN, poll_interval=0.05, keepalive=0.1)
    config = server_config(app, LIMITS, parser=request.param)
    assert isinstance(config, GuardedConfig)
    listening = bind("127.0.0.1", 0)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, name="web-under-test",
                              daemon=True)
    thread.start()
    try:
        waiting = threading.Event()  # (never set: its wait is the pause between looks)
        for _ in range(int(PATIENCE * 100)):
            if server.started or not thread.is_alive():
                break
            waiting.wait(0.01)
        assert server.started, "the server did not start"
        yield Served(listening.getsockname()[1], config.gate)
    finally:
        server.should_exit = True
        thread.join(PATIENCE)
        listening.close()


def test_a_silent_connection_is_closed_after_the_head_time_out(served: Served) -> None:
    silent = served.connect("127.0.0.2")
    with silent:
        assert _closed(silent)  # (before: kept for ever, counted against every phone)
    assert served.get(f"/?t={TOKEN}")[0] == 200


def test_a_trickling_head_is_closed_though_it_keeps_sending(served: Served) -> None:
    """A slow-header client: one byte at a time, each well within the head's time-out, never an end."""
    trickling = served.connect("127.0.0.3")
    ended = threading.Event()
    outcome: list[str] = []

    def trickle() -> None:
        try:
            trickling.sendall(b"GET / HTTP/1.1\r\nX-Slow: ")
            while not ended.wait(0.05):
                trickling.sendall(b"a")
        except OSError as error:
            outcome.append(type(error).__name__)

    sender = threading.Thread(target=trickle, daemon=True)
    sender.start()
    try:
        trickling.settimeout(PATIENCE)
        assert _closed(trickling)
    finally:
        ended.set()
        sender.join(PATIENCE)
        trickling.close()


def test_an_idle_kept_alive_connection_is_closed(served: Served) -> None:
    with served.connect("127.0.0.4") as phone:
        phone.sendall(f"GET /static/live.js?t={TOKEN} HTTP/1.1\r\nHost: table\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += phone.recv(1)
        assert head.startswith(b"HTTP/1.1 200")
        length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        body = b""
        while len(body) < length:
            body += phone.recv(length - len(body))
        assert _closed(phone)  # nothing more asked: closed after the idle time-out


def test_one_address_holding_many_sockets_leaves_the_phones_served(served: Served) -> None:
    with ExitStack() as held:
        crowd = [held.enter_context(served.connect("127.0.0.2")) for _ in range(LIMITS.per_address * 4)]
        assert served.get(f"/?t={TOKEN}")[0] == 200  # a phone from another address
        assert served.get(f"/?t={TOKEN}", "127.0.0.9")[0] == 200
        assert served.gate.held("127.0.0.2") <= LIMITS.per_address
        assert sum(_closed_now(client) for client in crowd) >= len(crowd) - LIMITS.per_address


def test_many_addresses_holding_sockets_leave_the_phones_served(served: Served) -> None:
    """The total: more connections than the server takes, a few from each of many addresses."""
    with ExitStack() as held:
        events = held.enter_context(served.connect("127.0.0.1"))
        events.sendall(f"GET /events?t={TOKEN} HTTP/1.1\r\nHost: table\r\n\r\n".encode())
        stream = events.makefile("rb")
        assert stream.readline().startswith(b"HTTP/1.1 200")
        # 250 addresses, one connection each: past the page's total, and past the 200 connections
        # uvicorn's own cap took before (everybody else then had 503).
        for number in range(250):
            held.enter_context(served.connect(f"127.0.1.{number + 1}"))
        assert served.get(f"/?t={TOKEN}")[0] == 200
        assert len(served.gate) <= LIMITS.connections
        # The phone's stream (a request under way) was never the one closed: it still hears.
        for _ in range(200):
            line = stream.readline()
            assert line, "the phone's /events was closed"
            if line.startswith(b": keep-alive"):
                break
        else:
            raise AssertionError("no keep-alive on the phone's stream")


def _closed_now(client: socket.socket) -> bool:
    client.settimeout(PATIENCE)
    try:
        return client.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_a_head_over_the_bound_is_refused_with_431(served: Served) -> None:
    with served.connect("127.0.0.5") as client:
        client.sendall(b"GET / HTTP/1.1\r\nHost: table\r\nX-Long: " + b"a" * (LIMITS.head_bytes + 1024))
        answer = b""
        with suppress(ConnectionResetError):
            answer = _read_all(client)
    assert answer.split(b" ", 2)[1] in (b"431", b"400"), answer[:80]
    assert served.get(f"/?t={TOKEN}")[0] == 200


def test_a_huge_head_is_cut_off_not_buffered(served: Served) -> None:
    """64 MB of head: the server closes the connection long before it has read them (before: it read
    and kept them all, past the unit's memory limit with four such clients)."""
    chunk = b"a" * 65536
    sent = 0
    with served.connect("127.0.0.6") as client:
        try:
            client.sendall(b"GET / HTTP/1.1\r\nHost: table\r\nX-Long: ")
            while sent < 64 * 1024 * 1024:
                client.sendall(chunk)
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
    assert sent < 64 * 1024 * 1024, "the whole head was taken"
    assert served.get(f"/?t={TOKEN}")[0] == 200


def test_requests_sent_far_ahead_of_their_answers_close_the_connection(served: Served) -> None:
    """A few hundred short heads in one write: each would be a request kept waiting (the bound on a
    head's size does not see them); past the few a client may send ahead, the connection is closed."""
    heads = b"GET /static/favicon.svg HTTP/1.1\r\nHost: table\r\n\r\n" * 300
    with served.connect("127.0.0.7") as client:
        client.sendall(heads)
        answers = b""
        with suppress(ConnectionResetError):
            answers = _read_all(client)
    assert answers.count(b"HTTP/1.1 200") <= LIMITS.pipelined
    assert served.get(f"/?t={TOKEN}")[0] == 200
