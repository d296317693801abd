"""The club page (``club/club_app.py``): the token, the headers, both languages, the period, live.

Starlette's TestClient drives the real app over a real club store, filled through the same
handler the MQTT thread calls (:meth:`club.subscriber.Subscriber.handle`; the broker's part is
tests/test_club_server_broker.py's). Nothing here measures time: a change is waited for on the
event stream (benchmarks/club_room.py measures the lag).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from html import unescape
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from club.club_app import create_app
from club.club_store import ClubStore
from club.subscriber import Subscriber, parse_broker
from tests import club_server_kit as kit
from web.app import SECURITY_HEADERS

TOKEN = "Club-T0ken-for-the-tests_0123456789"
#: The club server's clock in these tests: the evening of the plays (finished at 19:00-21:00 +01:00).
NOW = datetime(2026, 12, 3, 22, 0, tzinfo=UTC)


@pytest.fixture
def filled(tmp_path: Path) -> Iterator[Subscriber]:
    store = ClubStore(tmp_path / "club.sqlite3")
    handler = Subscriber(store, kit.CLUB, parse_broker("mqtt://127.0.0.1:1"), clock=lambda: NOW)
    assert handler.handle(*kit.status("Table 1", game="castelli", players=[("Anna", 12), ("Bela", 9)],
                                      turn="Bela", last="build rock")) == "status"
    assert handler.handle(*kit.status("Table 2", online=False)) == "status"
    for path, at in ((kit.CAMPANILE, "2026-12-03T19:00:00+01:00"),
                     (kit.CASTELLI, "2026-12-03T20:00:00+01:00"),
                     (kit.SAN_GIMIGNANO, "2026-11-20T20:00:00+01:00")):
        topic, payload, _ = kit.play(path, "Table 1", finished_at=at)
        assert handler.handle(topic, payload) == "kept"
    yield handler
    store.close()


def _client(handler: Subscriber, *, connected: bool = True, name: str = "") -> TestClient:
    app = create_app(handler.store, TOKEN, version_of=lambda: handler.changes, look=0.02,
                     clock=lambda: NOW.astimezone(), zone=UTC, connected=lambda: connected, name=name)
    return TestClient(app, raise_server_exceptions=False)


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_the_token_is_required_and_every_answer_carries_the_headers(filled: Subscriber) -> None:
    with _client(filled) as client:
        landing = client.get("/")
        assert landing.status_code == 200 and "Anna" not in landing.text
        assert "club server printed" in landing.text
        assert client.get("/?t=wrong-token-of-some-length").status_code == 403
        assert client.get("/events").status_code == 403
        assert client.post(f"/?t={TOKEN}").status_code == 405
        page = client.get(f"/?t={TOKEN}")
        assert page.status_code == 200
        for response in (landing, page, client.get("/?t=nope"), client.get("/static/live.js")):
            for name, value in SECURITY_HEADERS:
                assert response.headers[name.decode()] == value.decode()


def test_wrong_tokens_too_often_are_refused_for_a_while(filled: Subscriber) -> None:
    with _client(filled) as client:
        codes = [client.get(f"/?t=wrong-{n}-xxxxxxxxxxxxxxx").status_code for n in range(12)]
        assert codes[:10] == [403] * 10 and codes[10:] == [429, 429]
        assert client.get(f"/?t={TOKEN}").status_code == 429  # (the address, not the token, is held back)


def test_the_page_shows_tables_live_the_evenings_plays_and_the_standings(filled: Subscriber) -> None:
    with _client(filled) as client:
        shown = _text(client.get(f"/?t={TOKEN}&lang=en").text)
    assert "Table 1 · online · Castelli" in shown and "Bela's turn" in shown
    assert "Last move: Anna: build rock" in shown
    assert "Table 2 · offline" in shown
    # the evening (from 06:00 of the club server's day): tonight's two plays, not November's
    assert "Zsuzsanna" in shown and "Anna" in shown and "Ada" not in shown
    assert "Campanile" in shown and "San Gimignano" not in shown
    assert re.search(r"Zsuzsanna 1 1 8\.0 1516", shown), shown  # plays, wins, average, rating
    # Castelli by hand: Anna wins (+3 * 0.5 * 32/3 = +16); Csaba 16 beats Dora 13 and Bela 8
    # ((2 - 1.5) * 32/3 = +5.3); Dora beats Bela ((1 - 1.5) * 32/3 = -5.3); Bela (0 - 1.5) * 32/3 = -16
    assert "Anna 1 1 29.0 1516 Csaba 1 0 16.0 1505 Dora 1 0 13.0 1495 Bela 1 0 8.0 1484" in shown


def test_the_period_the_page_lets_you_choose(filled: Subscriber) -> None:
    with _client(filled) as client:
        everything = _text(client.get(f"/?t={TOKEN}&all=1").text)
        november = _text(client.get(f"/?t={TOKEN}&from=2026-11-20T00:00&to=2026-11-21T00:00").text)
        nonsense = _text(client.get(f"/?t={TOKEN}&from=yesterday&to=2026-13-45T99:99").text)
    assert "Ada" in everything and "Zsuzsanna" in everything
    assert "Ada" in november and "Zsuzsanna" not in november
    assert "Ada" not in nonsense and "Zsuzsanna" in nonsense  # (not a moment: the evening)
    with _client(filled) as client:
        html = client.get(f"/?t={TOKEN}&from=2026-11-20T00:00&lang=en").text
    assert "lang=hu&amp;from=2026-11-20T00%3A00" in html  # the language switch keeps the period


def test_the_championships_standings_on_the_page(filled: Subscriber) -> None:
    round_id = kit.new_id()
    ids = []
    for group in (1, 2):
        topic, payload, id = kit.play(kit.ROUND, "Table 2", finished_at="2026-12-03T21:00:00+01:00",
                                      championship={"id": round_id, "round": 1, "group": group})
        assert filled.handle(topic, payload) == "kept"
        ids.append(id)
    assert filled.handle(*kit.championship(round_id, "Table 2", [ids])) == "championship"
    with _client(filled) as client:
        english = _text(client.get(f"/?t={TOKEN}&lang=en").text)
        hungarian = _text(client.get(f"/?t={TOKEN}&lang=hu").text)
    assert "Castelli Championship at Table 2" in english and "Rounds played: 1" in english
    assert "– Csaba 1 1 1 20 – Bela 1 1 1 16 – Dora 1 0 0 13 – Anna 1 0 0 11" in english
    assert "Championship round 1, group 2" in english
    assert "Castelli-bajnokság, asztal: Table 2" in hungarian and "Lejátszott fordulók: 1" in hungarian


def test_the_page_in_hungarian(filled: Subscriber) -> None:
    with _client(filled) as client:
        chosen = client.get(f"/?t={TOKEN}&lang=hu").text
        asked = client.get(f"/?t={TOKEN}", headers={"accept-language": "hu-HU,hu;q=0.9,en;q=0.5"}).text
        landing = client.get("/", headers={"accept-language": "hu"}).text
    for html in (chosen, asked):
        shown = _text(html)
        assert '<html lang="hu">' in html
        assert "Asztalok" in shown and "Állás" in shown and "Élő-pont" in shown
        assert "Bela következik" in shown
        assert "nem elérhető" in shown and "Tables" not in shown and "Standings" not in shown
        assert re.search(r"Zsuzsanna 1 1 8,0 1516", shown)  # a Hungarian decimal comma
    assert "Nyissátok meg" in landing
    assert 'href="/?t=' in chosen and "lang=en" in chosen  # the switch back to English


def test_a_change_is_announced_to_the_phones(filled: Subscriber) -> None:
    with _client(filled) as client, client.stream("GET", f"/events?t={TOKEN}") as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        assert next(lines) == "retry: 2000"
        assert filled.handle(*kit.status("Table 3", game="san-gimignano", players=[("Ada", 1)])) == "status"
        version = None
        for _, line in zip(range(2000), lines, strict=False):
            if line.startswith("data: "):
                version = json.loads(line.removeprefix("data: "))["version"]
                break
        assert version == filled.changes
        assert "Table 3" in client.get(f"/?t={TOKEN}").text


def test_names_are_text_never_markup(filled: Subscriber) -> None:
    hostile = '<script>alert(1)</script>'
    payload = json.loads(kit.status("Table 1")[1])
    payload["last_move"]["text"] = hostile
    assert filled.handle(kit.status("Table 1")[0], json.dumps(payload).encode()) == "status"
    with _client(filled) as client:
        html = client.get(f"/?t={TOKEN}").text
    assert hostile not in html and "&lt;script&gt;" in html


def test_the_page_says_when_the_broker_is_out_of_reach(filled: Subscriber) -> None:
    with _client(filled, connected=False) as client:
        lost = _text(client.get(f"/?t={TOKEN}").text)
    with _client(filled) as client:
        reached = _text(client.get(f"/?t={TOKEN}").text)
    assert "cannot reach the broker" in lost and "Table 1" in lost
    assert "cannot reach the broker" not in reached


def test_the_page_is_headed_with_the_club_s_name_and_its_tab_too(filled: Subscriber) -> None:
    """The room knows its club by name (`club serve --club`): the heading says it, as text."""
    with _client(filled, name="Thursday <Club>") as client:
        html = client.get(f"/?t={TOKEN}&lang=hu").text
    assert "<h1>Thursday &lt;Club&gt;</h1>" in html and "<title>Thursday &lt;Club&gt;" in html
    with _client(filled) as client:
        assert "<h1>The club</h1>" in client.get(f"/?t={TOKEN}&lang=en").text
