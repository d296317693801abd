"""The phone's index reaches every game the touchscreen offers to resume (issue 35, item 8).

The touchscreen says "Resume a game (4 unfinished)"; the phone's index listed only the newest of
them, so the others could not be followed from a phone. Here the real app (Starlette's TestClient)
reads a real SQLite store holding several unfinished games cut from the examples, an abandoned one
and finished ones: each unfinished game is linked, the abandoned one is not, in both languages.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from companion.service.app import Companion
from companion.storage.paths import DB_FILENAME
from web.app import create_app
from web.store_reader import StoreReader

EXAMPLES = Path(__file__).parent / "data" / "examples"
TOKEN = "T0ken-for-the-tests_0123456789"


def _cut(name: str, moves: int) -> dict[str, Any]:
    record = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    rest = {key: value for key, value in record.items() if key not in ("summary", "result")}
    return {**rest, "moves": record["moves"][:moves]}


def _stock(data: Path, unfinished: int) -> tuple[list[int], int, list[int]]:
    """``unfinished`` games cut at different moves, one more abandoned, two finished; their ids."""
    cuts = [("campanile-3p.json", 5), ("castelli.json", 4), ("campanile-3p.json", 12),
            ("castelli.json", 9), ("campanile-3p.json", 20)]
    with Companion.open(data / DB_FILENAME) as app:
        finished = [app.import_record(json.loads((EXAMPLES / name).read_text(encoding="utf-8")))
                    for name in ("campanile-3p.json", "castelli.json")]
        abandoned = app.import_record(_cut("castelli.json", 2))
        app.abandon(abandoned)
        waiting = [app.import_record(_cut(name, moves)) for name, moves in cuts[:unfinished]]
        assert sorted(row.id for row in app.unfinished()) == sorted(waiting)  # the touchscreen's list
    return waiting, abandoned, finished


def _linked(page: str) -> set[int]:
    return {int(found) for found in re.findall(r'href="/game/(\d+)', page)}


@pytest.mark.parametrize(("unfinished", "language"), [(4, "en"), (5, "hu"), (2, "en")])
def test_the_index_links_every_unfinished_game(tmp_path: Path, unfinished: int, language: str) -> None:
    data = tmp_path / "data"
    data.mkdir()
    waiting, abandoned, finished = _stock(data, unfinished)
    reader = StoreReader(data / DB_FILENAME)
    with TestClient(create_app(reader, TOKEN, poll_interval=0.02)) as client:
        page = client.get("/", params={"t": TOKEN, "lang": language})
        assert page.status_code == 200
    linked = _linked(page.text)
    assert set(waiting) <= linked, f"unreachable from the phone: {sorted(set(waiting) - linked)}"
    assert set(finished) <= linked
    assert abandoned not in linked
    order = [int(found) for found in re.findall(r'href="/game/(\d+)', page.text)]
    assert [n for n in order if n in waiting] == sorted(waiting, reverse=True)  # newest first
    assert order.index(max(waiting)) < min(order.index(n) for n in finished)  # the one in progress first
