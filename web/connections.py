"""Bounds on the page's clients, whichever HTTP parser uvicorn runs.

uvicorn bounds a request head only with h11 (``h11_max_incomplete_event_size``); with
httptools, its C parser and the default when installed, a head is taken however long it
is (four 64 MB heads took the process past its unit's ``MemoryMax``). It has no time-out
for a head either: a connection that sends nothing, or one byte now and then, is kept
for ever, and ``limit_concurrency`` then refuses the phones at the table with 503 for as
long as somebody holds a few hundred such sockets.

So every connection passes a :class:`Gate` and is watched by a :class:`Guard`, the same
for both parsers (the protocol classes below are uvicorn's with four methods wrapped):

- **a head is at most** :attr:`Limits.head_bytes`: the bytes since the end of the last
  head (``CRLF CRLF``) are counted as they arrive, *before* the parser sees them; one
  more and the client gets ``431`` and the connection is closed, nothing buffered;
- **at most** :attr:`Limits.pipelined` requests are sent ahead of their answers (a few
  hundred short heads fit in one read, each a request kept waiting): more, and the
  connection is closed;
- **a head arrives within** :attr:`Limits.head_seconds` of its first byte (of the
  connection, for the first): a slow or silent client is closed, whatever it trickles;
- **between requests** uvicorn's keep-alive time-out closes an idle connection;
- **per client address** at most :attr:`Limits.per_address` connections, **in all**
  :attr:`Limits.connections`: beyond either, the oldest connection *waiting for a head*
  is closed to make room (the address's own, or anybody's), so one address holding
  hundreds of sockets, or many addresses holding a few each, cannot keep a phone from
  being served (a phone sends its head as soon as it connects: the oldest waiting is
  somebody else's); a connection with a request under way (a phone's
  ``/events``) is never the one closed. Without such a connection to close, the new one
  is refused (closed at once).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("companion.web")

#: The end of a request head.
HEAD_END = b"\r\n\r\n"
#: What a client whose head is too long is told before the connection is closed.
TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain; charset=utf-8\r\n"
             b"content-length: 24\r\nconnection: close\r\n\r\nThe request is too long.")


@dataclass(frozen=True)
class Limits:
    """The bounds on clients (docs/web.md, "Bounded")."""

    #: The longest request head taken (request line and headers): a phone's are under 2 kB.
    head_bytes: int = 16 * 1024
    #: Seconds a request head may take from its first byte (of the connection, for the first).
    head_seconds: float = 10.0
    #: Seconds an idle kept-alive connection is kept between requests (uvicorn's time-out).
    idle_seconds: int = 5
    #: Connections one client address may hold (a browser opens about six per site).
    per_address: int = 24
    #: Requests one connection may send before their answers (pipelined; browsers send one):
    #: each waiting request is state kept, and a few hundred fit in one read.
    pipelined: int = 8
    #: Connections held in all (each a few kB of memory and a file descriptor: the unit's
    #: ``LimitNOFILE`` leaves room; the phones' ``/events`` are capped apart, in ``web.app``).
    connections: int = 1024


class Guard:
    """One connection as the :class:`Gate` sees it: its head's size and time, whether a request
    is under way. Created by the protocol at ``connection_made``."""

    def __init__(self, gate: Gate, transport: asyncio.Transport, address: str,
                 loop: asyncio.AbstractEventLoop) -> None:
        self.gate = gate
        self.transport = transport
        self.address = address
        self._loop = loop
        #: Bytes received since the end of the last head (the head being received).
        self.pending = 0
        #: Complete heads received whose responses are not complete yet.
        self.unanswered = 0
        self.closed = False
        self._tail = b""
        self._deadline: asyncio.TimerHandle | None = None

    def start(self) -> bool:
        """Admitted by the gate (its head's clock started), or refused and closed."""
        if not self.gate.admit(self):
            self.close()
            return False
        self._arm()
        return True

    @property
    def busy(self) -> bool:
        """A complete head was received and its response is not complete yet."""
        return self.unanswered > 0

    def received(self, data: bytes) -> bool:
        """Count ``data`` against the head's bounds; ``False``: refused (the parser must not see it)."""
        heads = data.count(HEAD_END)
        found = data.rfind(HEAD_END)
        end = found + len(HEAD_END) if found >= 0 else -1
        across = (self._tail + data[:3]).find(HEAD_END)  # (a window of 6 bytes: only a split marker)
        if across >= 0:
            heads += 1
            end = max(end, across + len(HEAD_END) - len(self._tail))
        self._tail = (self._tail + data[-3:])[-3:]
        if heads:
            self.unanswered += heads
            self.pending = len(data) - end
            self._disarm()
        else:
            self.pending += len(data)
        if self.unanswered > self.gate.limits.pipelined:  # each head queued is a request's state
            self.close()
            return False
        if self.pending > self.gate.limits.head_bytes:
            if not self.busy:
                self.transport.write(TOO_LARGE)
            self.close()
            return False
        if self.pending and self._deadline is None:
            self._arm()  # a new head began: its clock starts at its first byte
        return True

    def answered(self) -> None:
        """A response went out: one head fewer waits for its answer (uvicorn's idle time-out runs
        when none does)."""
        self.unanswered = max(0, self.unanswered - 1)

    def close(self) -> None:
        """Close the connection now (refused, too slow, or making room)."""
        if not self.closed:
            self.closed = True
            self._disarm()
            self.gate.leave(self)
            self.transport.close()

    def lost(self) -> None:
        self.closed = True
        self._disarm()
        self.gate.leave(self)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self._loop.call_later(self.gate.limits.head_seconds, self._late)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self) -> None:
        self._deadline = None
        self.close()


class Gate:
    """Every open connection by client address, oldest first; admits or makes room (module docs)."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self._by_address: dict[str, dict[Guard, None]] = {}
        #: Every connection, the oldest first.
        self._all: dict[Guard, None] = {}
        #: Connections closed to make room or refused, since the start (for the benchmark and logs).
        self.evicted = 0
        self.refused = 0

    def __len__(self) -> int:
        return len(self._all)

    def held(self, address: str) -> int:
        return len(self._by_address.get(address, ()))

    def admit(self, guard: Guard) -> bool:
        """Register ``guard``, closing a waiting connection first if a bound is reached."""
        mine = self._by_address.get(guard.address, {})
        if len(mine) >= self.limits.per_address and not self._make_room(mine):
            self.refused += 1
            return False
        if len(self._all) >= self.limits.connections and not self._make_room(None):
            self.refused += 1
            return False
        self._by_address.setdefault(guard.address, {})[guard] = None
        self._all[guard] = None
        return True

    def leave(self, guard: Guard) -> None:
        mine = self._by_address.get(guard.address)
        if mine is not None and guard in mine:
            del mine[guard]
            del self._all[guard]
            if not mine:
                del self._by_address[guard.address]

    def _make_room(self, among: dict[Guard, None] | None) -> bool:
        """Close the oldest connection waiting for a head, of ``among`` or (``None``) of all: a phone's
        connection sends its head at once, so the oldest waiting is somebody else's. Whether one was."""
        waiting = next((guard for guard in (self._all if among is None else among) if not guard.busy), None)
        if waiting is None:
            return False
        waiting.close()
        self.evicted += 1
        return True


class GuardedConfig(uvicorn.Config):
    """uvicorn's settings with the :class:`Gate` the protocols pass their connections through."""

    def __init__(self, app: Any, *, gate: Gate, **settings: Any) -> None:
        super().__init__(app, **settings)
        self.gate = gate


def _guard(protocol: H11Protocol | Any, transport: asyncio.Transport) -> Guard:
    config = protocol.config
    gate = config.gate if isinstance(config, GuardedConfig) else Gate()
    client = protocol.client
    return Guard(gate, transport, client[0] if client else "-", protocol.loop)


class _Guarded(asyncio.Protocol):
    """What puts either of uvicorn's HTTP protocols behind the :class:`Gate` (mixed in before it:
    each step is the gate's, then the protocol's own)."""

    guard: Guard

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.guard = _guard(self, transport)
        self.guard.start()

    def data_received(self, data: bytes) -> None:
        if self.guard.received(data):
            super().data_received(data)

    def on_response_complete(self) -> None:
        self.guard.answered()
        super().on_response_complete()  # type: ignore[misc]

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.lost()
        super().connection_lost(exc)


class GuardedH11(_Guarded, H11Protocol):
    """uvicorn's h11 protocol behind the :class:`Gate`."""


def _httptools_class() -> type[asyncio.Protocol] | None:
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # httptools not installed: h11 serves
        return None

    class GuardedHttpTools(_Guarded, HttpToolsProtocol):
        """uvicorn's httptools protocol behind the :class:`Gate`."""

    return GuardedHttpTools


#: The protocols by parser: httptools (uvicorn's choice when installed) and h11.
PROTOCOLS: dict[str, Callable[[], type[asyncio.Protocol] | None]] = {
    "httptools": _httptools_class, "h11": lambda: GuardedH11}


def protocol_class(parser: str = "auto") -> type[asyncio.Protocol]:
    """The guarded protocol for ``parser`` (``auto``: httptools if installed, else h11)."""
    if parser == "auto":
        return _httptools_class() or GuardedH11
    found = PROTOCOLS[parser]()
    if found is None:
        raise ValueError(f"the {parser} parser is not installed")
    return found
