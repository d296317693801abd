"""One ``/events`` stream: Server-Sent Events, one ``change`` per change of what a page shows.

The phone page (:mod:`web.app`) and the club's page (:mod:`club.club_app`) tell their phones of
changes the same way, so the stream is written once, here. Each event carries the version as its
``id``; a browser reconnecting (a phone that slept) sends it back as ``Last-Event-ID``, and a
stream that starts behind it gets a ``change`` at once, so the page catches up with one fetch.
Each write has a time-out and a stream has a lifetime; a client that stops reading is let go.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Protocol

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Send

from web.events import Changes

#: Seconds one write to a client may take before the client is given up (a phone gone
#: mid-stream leaves a full socket buffer behind, never an error).
SEND_TIMEOUT = 10.0
#: Seconds an ``/events`` stream lasts before it is closed (the browser reconnects at once):
#: nothing is held forever for a client.
STREAM_SECONDS = 3600.0


class Audience(Protocol):
    """What a page's streams share: its changes, how many phones listen, how often to keep alive."""

    changes: Changes
    clients: int
    keepalive: float


async def serve_changes(request: Request, send: Send, audience: Audience, *, refused: Response | None,
                        going: Callable[[], bool] = lambda: True) -> None:
    """Answer ``request`` with its stream of changes — or with ``refused`` (a wrong token, too many
    phones…) — until the client leaves, the stream's lifetime ends, or ``going()`` turns false (the
    page switched off: the stream is closed cleanly)."""
    receive = request.receive
    if refused is not None:
        await refused(request.scope, receive, send)
        return
    audience.clients += 1
    tasks = (asyncio.ensure_future(_stream(send, audience, _last_seen(request), going)),
             asyncio.ensure_future(_disconnected(receive)))
    try:
        await asyncio.wait(tasks, timeout=STREAM_SECONDS, return_when=asyncio.FIRST_COMPLETED)
    finally:
        audience.clients -= 1
        for task in tasks:
            task.cancel()
            # A client that stopped reading or went away: its write failed or timed out,
            # which is how a stream ends; nothing to log.
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


async def _stream(send: Send, audience: Audience, seen: int | None, going: Callable[[], bool]) -> None:
    async def write(text: str, *, more: bool = True) -> None:
        await asyncio.wait_for(send({"type": "http.response.body", "body": text.encode(), "more_body": more}),
                               SEND_TIMEOUT)

    await asyncio.wait_for(send({"type": "http.response.start", "status": 200, "headers": [
        (b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store"),
        (b"x-accel-buffering", b"no")]}), SEND_TIMEOUT)
    current = audience.changes.version
    # retry: how soon a browser reconnects; id: what it sends back when it does.
    await write(f"retry: 2000\nid: {current}\n\n")
    if seen is not None and seen != current:
        await write(_change(current))
    seen = current
    while going():
        version = await audience.changes.wait(seen, audience.keepalive)
        if version != seen:
            seen = version
            await write(_change(version))
        else:
            await write(": keep-alive\n\n")
    await write("", more=False)


def _change(version: int) -> str:
    return f"event: change\nid: {version}\ndata: {json.dumps({'version': version})}\n\n"


def _last_seen(request: Request) -> int | None:
    given = request.headers.get("last-event-id", "")
    return int(given) if given.isdigit() and len(given) < 19 else None


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
