"""The table's live page (``web/``): the token, the headers, read-only, the change notices.

Starlette's TestClient drives the real app (routes, middleware, the store's thread,
the watcher) in this process; the store is the real SQLite store, changed through the
real service. Nothing here measures time: a notice is waited for with a generous
time-out (benchmarks/web_load.py measures the lag).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.testclient import TestClient

from companion.service.app import Companion
from companion.service.web_link import WEB_SETTING, read_url
from companion.storage.doctor import restore
from companion.storage.paths import DB_FILENAME
from tests.child_output import ChildOutput
from web.app import SECURITY_HEADERS, FailureLimit, create_app
from web.store_reader import StoreReader
from web.token import load_token, remove_url, same_token, write_url

EXAMPLES = Path(__file__).parent / "data" / "examples"
TOKEN = "T0ken-for-the-tests_0123456789"
#: Polling often makes the tests quick; the notice's lag is the benchmark's business.
POLL = 0.02


def _import(path: Path, *names: str) -> None:
    with Companion.open(path) as app:
        for name in names:
            app.import_record(json.loads((EXAMPLES / name).read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def stocked_web(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory with the three example games (finished) stored, made once per module."""
    data = tmp_path_factory.mktemp("web") / "data"
    data.mkdir()
    _import(data / DB_FILENAME, "campanile-3p.json", "castelli.json", "san-gimignano.json")
    return data


def _fingerprint(data: Path) -> dict[str, str]:
    """The store's bytes and its write-ahead log's, hashed, and the lock file's (nobody may take it).

    (A WAL reader may make the ``-shm`` index and an empty ``-wal``: SQLite's shared memory,
    no data; an empty log is the same as none.)
    """
    found = {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
             for p in sorted(data.iterdir())
             if p.name.startswith(DB_FILENAME) and not p.name.endswith("-shm")}
    if found.get(f"{DB_FILENAME}-wal") == hashlib.sha256(b"").hexdigest():
        del found[f"{DB_FILENAME}-wal"]
    return found


def _client(data: Path, **options: Any) -> TestClient:
    app = create_app(StoreReader(data / DB_FILENAME), TOKEN, poll_interval=POLL, **options)
    return TestClient(app, raise_server_exceptions=False)


class _Loads(HTMLParser):
    """What a browser would fetch by itself for a page: scripts, styles, pictures, frames, icons."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in ("src", "srcset", "poster", "data"):
            if values.get(name):
                self.found.append(str(values[name]))
        if tag == "link" and values.get("href"):
            self.found.append(str(values["href"]))
        if tag in ("image", "use") and (values.get("href") or values.get("xlink:href")):
            self.found.append(str(values.get("href") or values.get("xlink:href")))


def _loaded(page: str) -> list[str]:
    parser = _Loads()
    parser.feed(page)
    return [url for url in parser.found if not url.startswith(("data:", "#"))]


def _headers_ok(response: Any) -> None:
    for name, value in SECURITY_HEADERS:
        assert response.headers[name.decode()] == value.decode(), (response.url, name)


def test_every_route_asks_the_token_and_writes_nothing(stocked_web: Path) -> None:
    before = _fingerprint(stocked_web)
    with _client(stocked_web, limit=FailureLimit(limit=1000)) as client:
        landing = client.get("/")
        assert landing.status_code == 200 and "/game/" not in landing.text and TOKEN not in landing.text
        index = client.get(f"/?t={TOKEN}")
        assert index.status_code == 200 and index.text.count("/game/") == 3
        for path in ("/game/1", "/game/2", "/game/3", "/stats"):
            assert client.get(path).status_code == 403, path
            assert client.get(f"{path}?t=wrong").status_code == 403, path
            assert client.get(f"{path}?t={TOKEN[:-1]}").status_code == 403, path
            page = client.get(f"{path}?t={TOKEN}")
            assert page.status_code == 200, path
            assert page.headers["cache-control"] == "no-store"
            _headers_ok(page)
        assert client.get("/?t=wrong").status_code == 403  # a wrong token is no landing page
        assert client.get(f"/game/9?t={TOKEN}").status_code == 404
        assert client.get(f"/game/{2**70}?t={TOKEN}").status_code == 404
        assert client.get(f"/nowhere?t={TOKEN}").status_code == 404
        assert client.get("/events").status_code == 403
        for method in ("POST", "PUT", "PATCH", "DELETE"):
            for path in ("/", "/game/1", "/stats", "/events", "/static/live.js"):
                answer = client.request(method, f"{path}?t={TOKEN}")
                assert answer.status_code == 405, (method, path)
                _headers_ok(answer)
        for answer in (landing, index, client.get("/game/9?t=x"), client.get("/static/nothing.css")):
            _headers_ok(answer)
            assert "Traceback" not in answer.text
        # Nothing is loaded from elsewhere: every script, style, picture and font is the companion's own
        # (a link a player taps, BG Stats', may lead out: that loads nothing by itself).
        for path in ("/", f"/?t={TOKEN}", *[f"/game/{n}?t={TOKEN}" for n in (1, 2, 3)], f"/stats?t={TOKEN}"):
            loads = _loaded(client.get(path).text)
            assert loads and all(url.startswith("/") and not url.startswith("//") for url in loads), loads
            for url in loads:
                assert client.get(url).status_code == 200, url
                if url.endswith(".css"):
                    assert "@import" not in client.get(url).text
                    assert all(found.startswith(("/", "data:", "#")) for found in
                               re.findall(r"url\(\s*['\"]?([^'\")]+)", client.get(url).text)), url
    assert _fingerprint(stocked_web) == before


def test_wrong_tokens_are_refused_for_a_while() -> None:
    now = [0.0]
    limit = FailureLimit(limit=3, window=60.0, clock=lambda: now[0], max_addresses=2)
    for _ in range(3):
        assert not limit.blocked("a")
        limit.failed("a")
    assert limit.blocked("a") and not limit.blocked("b")
    now[0] = 60.5
    assert not limit.blocked("a")
    for address in ("a", "b", "c"):  # only the two latest addresses are remembered
        limit.failed(address)
    assert set(limit._failures) == {"b", "c"}
    assert same_token(TOKEN, TOKEN) and not same_token(None, TOKEN) and not same_token("é", TOKEN)


def test_the_limit_in_the_app(stocked_web: Path) -> None:
    now = [0.0]
    with _client(stocked_web, limit=FailureLimit(limit=5, clock=lambda: now[0])) as client:
        for _ in range(5):
            assert client.get("/stats?t=guess").status_code == 403
        refused = client.get(f"/stats?t={TOKEN}")  # even the right one, until the failures age
        assert refused.status_code == 429 and refused.headers["retry-after"] == "60"
        _headers_ok(refused)
        now[0] = 61.0
        assert client.get(f"/stats?t={TOKEN}").status_code == 200


def _events(client: TestClient, headers: dict[str, str] | None = None) -> Iterator[str]:
    with client.stream("GET", f"/events?t={TOKEN}", headers=headers or {}) as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        _headers_ok(stream)
        yield from stream.iter_lines()


def _next_change(lines: Iterator[str], patience: int = 600) -> int:
    """The version of the next ``change`` event; keep-alives (every 0.1 s here) count the patience."""
    for _, line in zip(range(patience * 2), lines, strict=False):
        if line.startswith("data: "):
            return int(json.loads(line.removeprefix("data: "))["version"])
    raise AssertionError("no change announced")


def test_moves_undo_an_app_restart_and_a_restore_are_announced(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    path = data / DB_FILENAME
    _import(path, "castelli.json")
    backup = tmp_path / "backup.sqlite3"
    with Companion.open(path) as app:
        app.store.copy_to(backup)
        live = app.start("campanile", ["Quentin", "Rosa", "Sven"])  # the app holds the writer's lock
        with _client(data, keepalive=0.1) as client:
            lines = _events(client)
            assert next(lines) == "retry: 2000"
            assert next(lines).startswith("id: ")
            assert "Quentin" in client.get(f"/?t={TOKEN}").text
            move = live.session.game.legal_moves(live.session.state)[0]
            live.session.propose(live.session.game.parse_move(move))
            first = _next_change(lines)
            assert client.get(f"/game/{live.id}?t={TOKEN}").status_code == 200
            live.session.undo()
            second = _next_change(lines)
            assert second > first
            # A phone that slept: it reconnects with the last id it saw, and hears at once.
            woken = _events(client, {"last-event-id": str(first)})
            assert [next(woken) for _ in range(4)][2:] == ["", "event: change"]
    with _client(data, keepalive=0.1) as client:
        lines = _events(client)
        assert next(lines) == "retry: 2000"  # connected before the app starts again
        assert "Quentin" in client.get(f"/?t={TOKEN}").text
        with Companion.open(path) as app:  # the app restarted (it closed above): still followed
            live = app.resume(live.id)
            live.session.propose(live.session.game.parse_move(
                live.session.game.legal_moves(live.session.state)[0]))
            _next_change(lines)
            assert len(client.get(f"/game/{live.id}?t={TOKEN}").text) > 0
        restore(path, backup)  # a new file at the store's path: noticed and opened
        # The page may hear the old file change first (the restore checkpoints its WAL before it
        # puts the backup in place, and a poll can fall between): each change is announced, and
        # one of the next few is the backup's (it failed 1 run in 20 when only the first was read).
        for _ in range(5):
            _next_change(lines)
            if "Quentin" not in client.get(f"/?t={TOKEN}").text:
                break
        assert "Quentin" not in client.get(f"/?t={TOKEN}").text


def test_the_switch_in_settings_closes_the_page(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    path = data / DB_FILENAME
    _import(path, "castelli.json")
    told: list[bool] = []
    with Companion.open(path) as app, _client(data, keepalive=0.1, on_switch=told.append) as client:
        assert client.get(f"/?t={TOKEN}").status_code == 200
        lines = _events(client)
        next(lines)
        app.change_setting(WEB_SETTING, False)
        _next_change(lines)
        assert list(lines) == [""]  # the event's blank line, then the stream ends: switched off
        assert client.get(f"/?t={TOKEN}").status_code == 503
        assert client.get("/").status_code == 503
        app.change_setting(WEB_SETTING, True)
        for _ in range(10_000):  # the watcher reads the switch again at its next poll
            if client.get(f"/?t={TOKEN}").status_code == 200:
                break
        assert told == [False, True]


def test_the_reader_never_writes(stocked_web: Path, tmp_path: Path) -> None:
    reader = StoreReader(stocked_web / DB_FILENAME)
    try:
        assert reader.poll() is False  # the first poll opens it
        store = reader._companion().store
        assert store.read_only and store.pragma("query_only") == 1
        listing = reader.listing()  # (the San Gimignano example is a game in progress)
        assert (len(listing.in_progress), len(listing.finished)) == (1, 2) and reader.stats()
        assert reader.record(99) is None
    finally:
        reader.close()
    empty = StoreReader(tmp_path / "none" / DB_FILENAME)  # nothing stored yet: nothing created
    assert empty.listing().finished == [] and not (tmp_path / "none").exists()


def test_token_file(tmp_path: Path) -> None:
    token = load_token(tmp_path)
    assert (tmp_path / "web-token").stat().st_mode & 0o777 == 0o600
    assert load_token(tmp_path) == token
    renewed = load_token(tmp_path, new=True)
    assert renewed != token and load_token(tmp_path) == renewed
    assert (tmp_path / "web-token").stat().st_mode & 0o777 == 0o600
    (tmp_path / "web-token").write_text("\n")  # emptied by hand: a new one
    assert load_token(tmp_path) not in ("", renewed)
    assert [p.name for p in tmp_path.iterdir()] == ["web-token"]  # no temporary file left
    write_url(tmp_path, "http://10.0.0.2:8080/?t=x")
    from companion.service.web_link import read_url

    assert read_url(tmp_path) == "http://10.0.0.2:8080/?t=x"
    remove_url(tmp_path)
    assert read_url(tmp_path) is None


@pytest.fixture(scope="module")
def fuzzed(stocked_web: Path) -> Iterator[TestClient]:
    """One running app for every drawn request (starting one per example would be most of the time)."""
    with _client(stocked_web, limit=FailureLimit(limit=10**9)) as client:
        yield client


@given(path=st.text(st.sampled_from("/abcgmest0123456789.%?&=-_~é"), max_size=24),
       query=st.text(max_size=20))
def test_any_request_gets_a_plain_answer(fuzzed: TestClient, path: str, query: str) -> None:
    answer = fuzzed.get("/" + path.lstrip("/"), params={"t": TOKEN, "q": query, "lang": query})
    assert answer.status_code in (200, 304, 400, 403, 404, 405)
    _headers_ok(answer)
    assert "Traceback" not in answer.text


def _start_web(data: Path, *extra: str) -> ChildOutput:
    child = subprocess.Popen(
        [sys.executable, "-m", "companion", "--data-dir", str(data), "web", "--listen", "127.0.0.1:0",
         *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])})
    return ChildOutput(child)


def _stop(output: ChildOutput) -> None:
    output.proc.send_signal(signal.SIGTERM)
    output.finish()
    assert output.proc.returncode == 0, output.stderr_so_far()


def test_companion_web_prints_its_url_first(stocked_web: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(stocked_web, data)
    output = _start_web(data)
    try:
        url = output.next_line()
        found = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?t=([A-Za-z0-9]{24})", url)
        assert found, url
        token = found.group(2)
        assert (data / "web-token").read_text().strip() == token
        assert (data / "web-token").stat().st_mode & 0o777 == 0o600
        assert read_url(data) == url
        with urllib.request.urlopen(url, timeout=60) as answer:
            assert answer.status == 200 and b"/game/" in answer.read()
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url.replace(token, "x" * 32), timeout=60)
        assert refused.value.code == 403
    finally:
        _stop(output)
    assert read_url(data) is None  # it stopped: no code for a page that is not there
    output = _start_web(data, "--new-token")  # (a restart without it keeps the token: test_token_file)
    try:
        assert not output.next_line().endswith(token)
        assert (data / "web-token").read_text().strip() != token
    finally:
        _stop(output)


def test_an_error_is_one_line_and_a_plain_page_and_the_streams_are_capped(
        stocked_web: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from web import app as web_app

    def broken(*args: Any, **kwargs: Any) -> str:
        raise RuntimeError("the page broke\nwith a second line")

    monkeypatch.setattr(web_app.pages, "stats_page", broken)
    with _client(stocked_web, max_clients=1, keepalive=0.1) as client:
        with caplog.at_level("ERROR", logger="companion.web"):
            answer = client.get(f"/stats?t={TOKEN}")
        assert answer.status_code == 500 and "Traceback" not in answer.text and "broke" not in answer.text
        _headers_ok(answer)
        logged = [r.getMessage() for r in caplog.records if r.name == "companion.web"]
        assert len(logged) == 1 and "the page broke" in logged[0], logged
        assert "second line" not in logged[0] and TOKEN not in logged[0] and "\n" not in logged[0]
        assert client.get(f"/?t={TOKEN}").status_code == 200  # the rest goes on
        held = _events(client)
        next(held)  # one phone holds /events: the cap
        crowded = client.get(f"/events?t={TOKEN}")
        assert crowded.status_code == 503 and crowded.headers["retry-after"] == "10"
        held.close()


def test_the_url_names_the_default_routes_address_and_follows_it(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from web import server

    assert server.parse_listen("[::1]:8080") == ("::1", 8080)
    for wrong in ("8080", "host:", "host:99999", ":80"):
        with pytest.raises(server.ListenError):
            server.parse_listen(wrong)
    assert server.page_url("::1", 8080, "t") == "http://[::1]:8080/?t=t"
    routes = iter(["10.0.0.5", "10.0.0.5", "192.168.1.9"])
    monkeypatch.setattr(server, "default_route_address", lambda: next(routes))
    address = server.Address(tmp_path, "0.0.0.0", 8080, "tok")
    assert address.url == "http://10.0.0.5:8080/?t=tok"
    address.switched(True)
    assert address.refresh() is False and read_url(tmp_path) == "http://10.0.0.5:8080/?t=tok"
    assert address.refresh() is True and read_url(tmp_path) == "http://192.168.1.9:8080/?t=tok"
    address.switched(False)
    assert read_url(tmp_path) is None


def test_a_championship_rounds_page_shows_the_championships_standings(tmp_path: Path) -> None:
    """The server passes a round's championship status to its page: the standings and which round
    of how many, as the service works them out (issue 23), read through the read-only store."""
    data = tmp_path / "data"
    data.mkdir()
    with Companion.open(data / DB_FILENAME) as app:
        live = app.championships.new(2, ["Anna", "Bela", "Csaba", "Dora"])
        round_id = live.id
    with _client(data) as client:
        page = client.get(f"/game/{round_id}", params={"t": TOKEN})
        assert page.status_code == 200
        text = page.text
    assert "Championship standings" in text
    assert "Round 1 of 3" in text
    table = text[text.index("Championship standings"):]
    for player in ("Anna", "Bela", "Csaba", "Dora"):
        assert player in table
