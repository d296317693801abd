"""The club page's routes, safe as the phone page's: a token, read-only, the same headers.

- ``/`` — without a token, only how to open the page; with it, the club page (``?from=``,
  ``?to=``: the period; ``?all=1``: every play; ``?lang=``: the language);
- ``/events`` — Server-Sent Events, ``event: change`` when what the page shows changed (the
  phone page's ``/static/live.js`` then fetches the page again);
- ``/static/...`` — the phone page's own styles and script.

The phone page's guards are reused as they are (:mod:`web.app`): the token compared in constant
time, an address that gives a wrong one too often refused for a while, the security headers on
every answer, an error one line in the log and a plain page. Only ``GET`` and ``HEAD``.

Changes: the subscriber counts what it kept (:attr:`club.subscriber.Subscriber.changes`); a task
looks at the count every :data:`LOOK_SECONDS` and, when it moved, reads the store once, makes the
pages phones look at, then tells every open ``/events`` — so 50 tables' statuses a second cost a
few readings a second, however many phones watch, and a change is on the phones within a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from club.club_store import ClubStore, StoredPlay
from club.page import Snapshot, club_page, landing_page, read_period
from club.standings import evening
from web.app import STATIC, FailureLimit, OneLineErrors, SecurityHeaders, error_response
from web.event_stream import serve_changes
from web.events import Changes
from web.pages.words import pick_language
from web.token import same_token

#: Seconds between looks at whether the club changed (a change reaches the phones within about this).
LOOK_SECONDS = 0.25
#: Phones holding ``/events`` at once (a club room has a few dozen).
MAX_CLIENTS = 128
KEEPALIVE_SECONDS = 15.0
#: Pages kept made (by version, query and language).
MAX_CACHED = 64
#: The pages phones asked for lately (query and language), made again at each change before they are told.
MAX_WATCHED = 8
#: The longest query string read (a page's address with a period is a few dozen characters).
MAX_QUERY = 400


@dataclass
class Club:
    """What the routes share."""

    store: ClubStore
    token: str
    version_of: Callable[[], int]
    connected: Callable[[], bool]
    limit: FailureLimit
    zone: tzinfo | None = None
    #: The club's name, the page's heading.
    name: str = ""
    clock: Callable[[], datetime] = field(default=lambda: datetime.now().astimezone())
    changes: Changes = field(default_factory=Changes)
    clients: int = 0
    keepalive: float = KEEPALIVE_SECONDS
    look: float = LOOK_SECONDS
    executor: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(max_workers=1, thread_name_prefix="club-page"))
    snapshot: tuple[int, Snapshot] | None = None
    plays: tuple[tuple[int, int], tuple[StoredPlay, ...]] | None = None
    #: The pages made or being made, by (version, query, language).
    cache: OrderedDict[tuple[int, str, str], asyncio.Future[str]] = field(default_factory=OrderedDict)
    watched: OrderedDict[tuple[str, str], dict[str, str]] = field(default_factory=OrderedDict)

    def read(self, version: int) -> Snapshot:
        """The store as the page shows it at ``version`` (read once per version)."""
        if self.snapshot is None or self.snapshot[0] != version:
            mark = self.store.plays_mark()
            if self.plays is None or self.plays[0] != mark:  # a status alone changed: the plays stay
                self.plays = (mark, tuple(self.store.plays()))
            self.snapshot = (version, Snapshot(self.plays[1], tuple(self.store.tables()),
                                               tuple(self.store.championships()), self.connected()))
        return self.snapshot[1]

    def render(self, version: int, query: dict[str, str], lang: str) -> str:
        period = read_period(query, evening(self.clock()), self.zone)
        kept = {key: query[key] for key in ("from", "to", "all") if query.get(key)}
        return club_page(self.read(version), period, lang, self.token, zone=self.zone, query=kept,
                         name=self.name)

    async def page(self, query: dict[str, str], lang: str) -> str:
        """The page for ``query`` in ``lang`` at the club's version now: made once per version, a burst
        of phones asking at once waiting for the one making (a phone that leaves cancels nobody's)."""
        version = self.changes.version
        shape = json.dumps(sorted(query.items()))
        self.watched[(shape, lang)] = query
        self.watched.move_to_end((shape, lang))
        while len(self.watched) > MAX_WATCHED:
            self.watched.popitem(last=False)
        return await asyncio.shield(self.made(version, query, lang))

    def made(self, version: int, query: dict[str, str], lang: str) -> asyncio.Future[str]:
        """The page at ``version``: kept, being made, or made now (on the store's thread)."""
        key = (version, json.dumps(sorted(query.items())), lang)
        found = self.cache.get(key)
        if found is not None:
            return found
        loop = asyncio.get_running_loop()
        making = self.cache[key] = asyncio.ensure_future(
            loop.run_in_executor(self.executor, self.render, version, query, lang))
        making.add_done_callback(lambda done: self._forget_failed(key, done))
        for old in [kept for kept in self.cache if kept[0] < version]:
            del self.cache[old]  # the club changed since: out of date
        while len(self.cache) > MAX_CACHED:
            self.cache.popitem(last=False)
        return making

    def _forget_failed(self, key: tuple[int, str, str], done: asyncio.Future[str]) -> None:
        if done.cancelled() or done.exception() is not None:
            self.cache.pop(key, None)  # (the next request tries again)


def _club(request: Request) -> Club:
    club: Club = request.app.state.club
    return club


def _language(request: Request) -> str:
    return pick_language(request.headers.get("accept-language"), request.query_params.get("lang"))


def _html(content: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(content, status_code=status, headers={"cache-control": "no-store"})


def _refusal(request: Request, club: Club) -> Response | None:
    address = request.client.host if request.client is not None else "-"
    if club.limit.blocked(address):
        return error_response(request, 429, {"retry-after": str(int(club.limit.window))})
    if not same_token(request.query_params.get("t"), club.token):
        club.limit.failed(address)
        return error_response(request, 403)
    if len(request.url.query) > MAX_QUERY:
        return error_response(request, 400)
    return None


async def home(request: Request) -> Response:
    club = _club(request)
    if "t" not in request.query_params:
        return _html(landing_page(_language(request)))
    refused = _refusal(request, club)
    if refused is not None:
        return refused
    query = {key: request.query_params[key] for key in ("from", "to", "all") if key in request.query_params}
    return _html(await club.page(query, _language(request)))


class EventStream:
    """``/events``: one ``change`` per change of what the page shows (as the phone page's:
    :mod:`web.event_stream`)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        club = _club(request)
        refused = _refusal(request, club)
        if refused is None and club.clients >= MAX_CLIENTS:
            refused = error_response(request, 503, {"retry-after": "10"})
        await serve_changes(request, send, club, refused=refused)


async def _look(club: Club) -> None:
    """Tell the phones when the club changed, the pages they look at made first."""
    seen = club.version_of()
    club.changes.announce(seen)
    while True:
        await asyncio.sleep(club.look)
        version = club.version_of()
        if version == seen:
            continue
        seen = version
        for (_, lang), query in list(club.watched.items()):
            with contextlib.suppress(Exception):  # the request that asks says what went wrong
                await club.made(version, query, lang)
        club.changes.announce(version)


async def _http_error(request: Request, error: Exception) -> Response:
    status = error.status_code if isinstance(error, HTTPException) else 500
    return error_response(request, status)


def create_app(store: ClubStore, token: str, *, version_of: Callable[[], int],
               connected: Callable[[], bool] = lambda: True, limit: FailureLimit | None = None,
               zone: tzinfo | None = None, look: float = LOOK_SECONDS,
               clock: Callable[[], datetime] | None = None, name: str = "") -> ASGIApp:
    """The club page over ``store``; ``version_of()`` says when the club changed (the subscriber's
    count of changes), ``connected()`` whether the broker is reached; ``name`` the club's."""
    club = Club(store, token, version_of, connected, limit or FailureLimit(), zone=zone, look=look, name=name)
    if clock is not None:
        club.clock = clock

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        looking = asyncio.ensure_future(_look(club))
        try:
            yield
        finally:
            looking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await looking
            club.executor.shutdown(wait=True)

    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        HTTPException: _http_error, Exception: _http_error}
    app = Starlette(routes=[
        Route("/", home, methods=["GET"]),
        Route("/events", EventStream(), methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ], exception_handlers=handlers, lifespan=lifespan)
    app.state.club = club
    return SecurityHeaders(OneLineErrors(app))
