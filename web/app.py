"""The routes of the table's page, and what keeps them safe on a shared Wi-Fi.

- ``/`` — the landing page (only: scan the code on the table) without a token, the
  list of games with the right one;
- ``/game/{id}``, ``/stats`` — a game, the statistics;
- ``/events`` — Server-Sent Events: ``event: change`` each time the store changes;
- ``/static/...`` — the pages' own styles, script and pictures (the same files on
  every box, nothing of the table in them: no token asked, so the landing page has
  its styles too).

Every route but the landing page and the static files asks for the token (``?t=``),
compared in constant time; an address that gives a wrong one too often is refused for a
while (:class:`FailureLimit`). Only ``GET`` and ``HEAD`` exist: no route writes. Every
answer carries the security headers (:class:`SecurityHeaders`); an error is one line
in the log and a plain page (:class:`OneLineErrors`), never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from web import pages
from web.event_stream import serve_changes
from web.events import POLL_SECONDS, Changes, StoreThread, watch
from web.store_reader import CONTENT_ERRORS, StoreReader, StoreUnavailable
from web.token import same_token

log = logging.getLogger("companion.web")

STATIC = Path(__file__).with_name("static")

#: The headers every answer carries: nothing loaded from anywhere but the companion, no
#: referrer (a link's URL holds the token), no framing by another site.
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", b"default-src 'self'; frame-ancestors 'none'"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
)

#: Phones holding ``/events`` at once; more are refused (503) until one leaves. A table has
#: at most a dozen; the cap bounds memory against a misbehaving client opening hundreds.
MAX_CLIENTS = 64
#: Seconds between keep-alive comments on a quiet ``/events`` (a vanished phone is found by them).
KEEPALIVE_SECONDS = 15.0
#: Rendered pages kept (each a few tens of kB), forgotten at every change of the store.
MAX_CACHED = 64
#: Pages made again at each change before the phones are told (the most recently asked for).
MAX_WATCHED = 8
#: What rendering a page raises when the store cannot be read: the page says "repair needed".
UNREADABLE: tuple[type[Exception], ...] = (StoreUnavailable, *CONTENT_ERRORS)
#: Game ids above this are no game (SQLite's integers are 64-bit; a longer number is refused early).
MAX_ID = 2**62


class FailureLimit:
    """Wrong tokens per address: ``limit`` within ``window`` seconds, then refused until they age.

    The token has 192 random bits, so guessing is hopeless anyway; the limit keeps a
    misbehaving client from making the box busy. At most ``max_addresses`` addresses are
    remembered (the oldest forgotten first): memory stays bounded against many sources.
    """

    def __init__(self, limit: int = 10, window: float = 60.0, *,
                 clock: Callable[[], float] = time.monotonic, max_addresses: int = 1024) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._max = max_addresses
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()

    def _recent(self, address: str) -> deque[float]:
        failures = self._failures.get(address)
        if failures is None:
            return deque()
        now = self._clock()
        while failures and failures[0] <= now - self.window:
            failures.popleft()
        if not failures:
            del self._failures[address]
        return failures

    def blocked(self, address: str) -> bool:
        """Whether ``address`` gave a wrong token too often lately."""
        return len(self._recent(address)) >= self.limit

    def failed(self, address: str) -> None:
        """``address`` gave a wrong (or no) token."""
        failures = self._recent(address)
        failures.append(self._clock())
        self._failures[address] = failures
        self._failures.move_to_end(address)
        while len(self._failures) > self._max:
            self._failures.popitem(last=False)


@dataclass
class Table:
    """What the routes share: the store's thread, the change notices, the token and the limits."""

    store: StoreThread
    token: str
    limit: FailureLimit
    changes: Changes = field(default_factory=Changes)
    #: The table has the page switched on (the Settings switch, read at every change).
    enabled: bool = True
    #: Told when the switch changes (the server writes or removes the URL file).
    on_switch: Callable[[bool], None] | None = None
    clients: int = 0
    max_clients: int = MAX_CLIENTS
    keepalive: float = KEEPALIVE_SECONDS
    poll_interval: float = POLL_SECONDS
    #: Pages rendered since the store's last change (``None``: no such page), by (version, path,
    #: language); only the event loop's thread touches it.
    cache: OrderedDict[tuple[int, str, str], str | None] = field(default_factory=OrderedDict)
    #: The pages asked for lately, (path, language) -> how each is made, the most recent last:
    #: made again as soon as the store changes, before the phones are told.
    watched: OrderedDict[tuple[str, str], Callable[[StoreReader, str], str | None]] = field(
        default_factory=OrderedDict)
    #: The renderings under way, by the same key: a burst of requests waits for one.
    rendering: dict[tuple[int, str, str], asyncio.Future[str | None]] = field(default_factory=dict)

    #: Why the store could not be read, as last logged (said once, not at every request).
    problem: str | None = None

    async def refresh(self) -> None:
        """Open the store (first call) and read the switch. A store that cannot be read is the
        pages' to say (:func:`repair_response`), never a reason for the process to stop."""
        try:
            await self.store.call(lambda reader: reader.poll())
            self.switched(await self.store.call(lambda reader: reader.enabled()))
        except Exception as error:  # (the watcher tries again at its next poll)
            self.unreadable(error)

    def unreadable(self, problem: BaseException) -> None:
        """Log once per kind of problem that the store cannot be read."""
        said = f"{type(problem).__name__}: {str(problem).splitlines()[0] if str(problem) else ''}"
        if said != self.problem:
            log.error("web: the store cannot be read (repair needed): %s", said)
            self.problem = said

    def switched(self, enabled: bool) -> None:
        if enabled != self.enabled and self.on_switch is not None:
            self.on_switch(enabled)
        self.enabled = enabled


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "-"


def _language(request: Request) -> str:
    return pages.pick_language(request.headers.get("accept-language"), request.query_params.get("lang"))


def _html(content: str, status: int = 200, headers: dict[str, str] | None = None) -> HTMLResponse:
    return HTMLResponse(content, status_code=status, headers={"cache-control": "no-store", **(headers or {})})


def error_response(request: Request, status: int, headers: dict[str, str] | None = None) -> HTMLResponse:
    """The plain page for ``status`` in the phone's language."""
    return _html(pages.error_page(_language(request), status), status, headers)


def repair_response(request: Request) -> HTMLResponse:
    """The store cannot be read: every page says it needs a repair (503: it passes once mended)."""
    return _html(pages.repair_page(_language(request)), 503, {"retry-after": "10"})


def _table(request: Request) -> Table:
    table: Table = request.app.state.table
    return table


def refusal(request: Request, table: Table) -> Response | None:
    """Why this request gets no page (switched off, a wrong token, too many wrong ones), if it doesn't."""
    if not table.enabled:
        return error_response(request, 503)
    address = _address(request)
    if table.limit.blocked(address):
        return error_response(request, 429, {"retry-after": str(int(table.limit.window))})
    if not same_token(request.query_params.get("t"), table.token):
        table.limit.failed(address)
        return error_response(request, 403)
    return None


async def _cached(request: Request, table: Table,
                  render: Callable[[StoreReader, str], str | None]) -> Response:
    """The page ``render`` makes, rendered once per change of the store and language.

    Rendering runs on the store's thread (the records it replays come from there). A burst of
    phones re-fetching after a move waits for one rendering (the first request's, shared) and
    the rest find it in the cache, on the event loop, without a trip to the store's thread.
    """
    lang = _language(request)
    key = (table.changes.version, request.url.path, lang)
    table.watched[(request.url.path, lang)] = render
    table.watched.move_to_end((request.url.path, lang))
    while len(table.watched) > MAX_WATCHED:
        table.watched.popitem(last=False)
    page = table.cache.get(key)
    if page is None and key not in table.cache:
        rendering = table.rendering.get(key)
        if rendering is None:
            rendering = table.rendering[key] = asyncio.ensure_future(_render(table, key, render, lang))
        try:
            page = await asyncio.shield(rendering)  # a phone that leaves does not cancel the others'
        except UNREADABLE as problem:
            table.unreadable(problem)
            return repair_response(request)
    if page is None:
        return error_response(request, 404)
    return _html(page)


async def _render(table: Table, key: tuple[int, str, str],
                  render: Callable[[StoreReader, str], str | None], lang: str) -> str | None:
    """Render on the store's thread and keep the page (``None``: no such page, kept as well)."""
    try:
        page = await table.store.call(lambda reader: render(reader, lang))
    finally:
        table.rendering.pop(key, None)
    for old in [kept for kept in table.cache if kept[0] < key[0]]:
        del table.cache[old]  # the store changed since: out of date
    table.cache[key] = page
    while len(table.cache) > MAX_CACHED:
        table.cache.popitem(last=False)
    return page


async def home(request: Request) -> Response:
    table = _table(request)
    if "t" not in request.query_params and table.enabled:
        return _html(pages.landing_page(_language(request)))
    refused = refusal(request, table)
    if refused is not None:
        return refused
    token = table.token

    def index(reader: StoreReader, lang: str) -> str:
        listing = reader.listing()
        games = [pages.GameListing(id=row.id, game=row.game, players=row.players, started=row.started,
                                   ended=row.finished, finished=row.is_finished,
                                   colours=listing.colours(row), winners=listing.winners.get(row.id, ()))
                 for row in [*listing.in_progress, *listing.finished]]
        return pages.index_page(games, lang, token)

    return await _cached(request, table, index)


async def game(request: Request) -> Response:
    table = _table(request)
    refused = refusal(request, table)
    if refused is not None:
        return refused
    game_id = int(request.path_params["game_id"])
    if game_id > MAX_ID:
        return error_response(request, 404)
    token = table.token

    def page(reader: StoreReader, lang: str) -> str | None:
        found = reader.record(game_id)
        if found is None:
            return None
        row, record = found
        return pages.game_page(record, game_id=game_id, lang=lang, token=token,
                               bgstats_link=reader.bgstats_link(game_id) if row.is_finished else None,
                               preferred=reader.preferred(row.game, row.players),
                               championship=reader.championship(row))

    return await _cached(request, table, page)


async def stats(request: Request) -> Response:
    table = _table(request)
    refused = refusal(request, table)
    if refused is not None:
        return refused
    token = table.token
    return await _cached(request, table, lambda reader, lang: pages.stats_page(reader.stats(), lang, token))


class EventStream:
    """``/events``: one ``change`` per change of the store (:mod:`web.event_stream`)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        table = _table(request)
        refused = refusal(request, table)
        if refused is None and table.clients >= table.max_clients:
            refused = error_response(request, 503, {"retry-after": "10"})
        await serve_changes(request, send, table, refused=refused, going=lambda: table.enabled)


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every answer (error pages and static files too)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers)


class OneLineErrors:
    """An unexpected error: one line in the log (no token: the query is left out) and a plain
    page, never a traceback. The page is :func:`error_response`'s, sent by Starlette's own
    handler; this layer keeps the error from going on to the server, which would log a traceback."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except Exception as error:
            if scope["type"] != "http":
                raise
            log.error("web: %s %s: %s: %s", scope.get("method", "?"), scope.get("path", "?"),
                      type(error).__name__, str(error).splitlines()[0] if str(error) else "")


async def _http_error(request: Request, error: Exception) -> Response:
    status = error.status_code if isinstance(error, HTTPException) else 500
    return error_response(request, status)


def create_app(reader: StoreReader, token: str, *, limit: FailureLimit | None = None,
               on_switch: Callable[[bool], None] | None = None, max_clients: int = MAX_CLIENTS,
               keepalive: float = KEEPALIVE_SECONDS, poll_interval: float = POLL_SECONDS) -> ASGIApp:
    """The web app over ``reader``; the store is watched while the app runs (its lifespan)."""
    table = Table(StoreThread(reader), token, limit or FailureLimit(), on_switch=on_switch,
                  max_clients=max_clients, keepalive=keepalive, poll_interval=poll_interval)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await table.refresh()
        watcher = asyncio.ensure_future(_watch(table))
        try:
            yield
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
            table.store.close()

    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        HTTPException: _http_error, Exception: _http_error}
    app = Starlette(routes=[
        Route("/", home, methods=["GET"]),
        Route("/game/{game_id:int}", game, methods=["GET"]),
        Route("/stats", stats, methods=["GET"]),
        Route("/events", EventStream(), methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ], exception_handlers=handlers, lifespan=lifespan)
    app.state.table = table
    return SecurityHeaders(OneLineErrors(app))


async def _watch(table: Table) -> None:
    """Watch the store; at each change read the switch again, then tell the clients."""

    async def changed(version: int) -> None:
        try:
            table.switched(await table.store.call(lambda reader: reader.enabled()))
        except CONTENT_ERRORS as error:  # the settings unreadable: the switch stays as it was
            table.unreadable(error)
        # The pages phones look at, made before they are told: the burst of re-fetches that
        # follows finds them ready instead of waiting for the first of them to make one.
        for (path, lang), render in list(table.watched.items()):
            key = (version, path, lang)
            if key not in table.cache and key not in table.rendering:
                rendering = table.rendering[key] = asyncio.ensure_future(_render(table, key, render, lang))
                with contextlib.suppress(Exception):  # the request that asks for it says what went wrong
                    await rendering
        table.changes.announce(version)

    await watch(table.store, changed, interval=table.poll_interval)
