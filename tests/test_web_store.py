"""The page over a store that changes under it or cannot be read (issue 34, items 14 and 15, and
"the phone page's unit says repair needed").

The store is the real SQLite store; it is replaced, copied over in place and damaged as a person
or a failing card would. Nothing here measures time: what the page shows is looked at until it
shows it, up to a generous number of the watcher's polls.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from companion.service.app import Companion
from companion.storage.paths import DB_FILENAME
from tests.test_web import _start_web, _stop
from web.app import create_app
from web.store_reader import StoreReader

EXAMPLES = Path(__file__).parent / "data" / "examples"
ROOT = Path(__file__).resolve().parent.parent
TOKEN = "T0ken-for-the-store_0123456789"
#: Looks at the page before giving up (each a request and a poll of 0.02 s: minutes on a loaded machine).
LOOKS = 6000


def _stock(data: Path, *names: str) -> Path:
    data.mkdir(parents=True, exist_ok=True)
    with Companion.open(data / DB_FILENAME) as app:
        for name in names:
            app.import_record(json.loads((EXAMPLES / name).read_text(encoding="utf-8")))
    return data / DB_FILENAME


@pytest.fixture()
def client_over() -> Iterator[Callable[[Path], TestClient]]:
    opened: list[TestClient] = []

    def make(data: Path) -> TestClient:
        client = TestClient(create_app(StoreReader(data / DB_FILENAME), TOKEN, poll_interval=0.02),
                            raise_server_exceptions=False)
        opened.append(client.__enter__())
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)


def _until(client: TestClient, path: str, status: int, text: str = "") -> str:
    """The page at ``path`` once it answers ``status`` (with ``text`` in it)."""
    answer = client.get(path)
    for _ in range(LOOKS):
        if answer.status_code == status and text in answer.text:
            return answer.text
        answer = client.get(path)
    raise AssertionError(f"{path}: {answer.status_code} {answer.text[:200]}")


def test_a_store_copied_back_in_place_is_picked_up(
        tmp_path: Path, client_over: Callable[[Path], TestClient]) -> None:
    """Garbage renamed in (a new inode), then the good copy copied over it (the same inode)."""
    store = _stock(tmp_path / "data", "castelli.json")
    good = tmp_path / "good.sqlite3"
    shutil.copyfile(store, good)
    client = client_over(tmp_path / "data")
    _until(client, f"/?t={TOKEN}", 200, "/game/1")
    garbage = tmp_path / "data" / "garbage"
    garbage.write_bytes(os.urandom(8192))
    os.replace(garbage, store)
    _until(client, f"/?t={TOKEN}", 503)
    inode = store.stat().st_ino
    shutil.copyfile(good, store)
    assert store.stat().st_ino == inode  # (in place: before, the page stayed at 503 until restarted)
    _until(client, f"/?t={TOKEN}", 200, "/game/1")


def test_another_store_copied_over_an_open_one_is_picked_up(
        tmp_path: Path, client_over: Callable[[Path], TestClient]) -> None:
    """The variation: a sound store open in the page, another copied over it in place."""
    other = _stock(tmp_path / "other", "castelli.json", "campanile-3p.json")
    store = _stock(tmp_path / "data", "castelli.json")
    client = client_over(tmp_path / "data")
    _until(client, f"/?t={TOKEN}", 200, "/game/1")
    assert "/game/2" not in client.get(f"/?t={TOKEN}").text
    inode = store.stat().st_ino
    shutil.copyfile(other, store)
    assert store.stat().st_ino == inode
    _until(client, f"/?t={TOKEN}", 200, "/game/2")


def _flip_first_page(store: Path) -> None:
    """One bit of the first page, as issue 34 found it (bit 7 at offset 2115)."""
    with open(store, "r+b") as file:
        file.seek(2115)
        byte = file.read(1)[0]
        file.seek(2115)
        file.write(bytes([byte ^ 0x80]))


def _move_not_utf8(store: Path) -> None:
    db = sqlite3.connect(store)
    with db:
        db.execute("UPDATE moves SET move=CAST(X'7B22747970ff223A226275696C64227D' AS TEXT)")
    db.close()


def _not_a_store(store: Path) -> None:
    store.write_bytes(b"this is no store\n" * 512)


@pytest.mark.parametrize("damage", [_flip_first_page, _move_not_utf8, _not_a_store])
def test_a_store_that_cannot_be_read_says_repair_needed(
        tmp_path: Path, damage: Callable[[Path], None], client_over: Callable[[Path], TestClient]) -> None:
    store = _stock(tmp_path / "data", "castelli.json", "campanile-3p.json")
    damage(store)
    client = client_over(tmp_path / "data")
    for path in ("/", "/game/1", "/game/2", "/stats"):
        english = client.get(f"{path}?t={TOKEN}&lang=en")
        hungarian = client.get(f"{path}?t={TOKEN}&lang=hu")
        if english.status_code == 200:  # (a page that does not read the damaged part is still shown)
            continue
        assert english.status_code == 503 and "Repair needed" in english.text, (path, english.text[:300])
        assert hungarian.status_code == 503 and "Javítás szükséges" in hungarian.text, path
        assert "Traceback" not in english.text
    assert any(client.get(f"{path}?t={TOKEN}").status_code == 503 for path in ("/", "/game/1", "/game/2"))
    assert client.get("/events").status_code == 403  # the token is still asked first
    assert client.get(f"/?t=wrong{TOKEN}").status_code == 403


def test_companion_web_over_a_damaged_store_serves_repair_needed_then_the_mended_one(tmp_path: Path) -> None:
    """The process (the unit's command) starts over a store that is no store, says "repair needed"
    instead of stopping (the unit would loop), and follows the store once it is copied back."""
    store = _stock(tmp_path / "data", "castelli.json")
    good = tmp_path / "good.sqlite3"
    shutil.copyfile(store, good)
    _not_a_store(store)
    output = _start_web(tmp_path / "data")
    try:
        url = output.next_line()
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url + "&lang=hu", timeout=60)
        assert refused.value.code == 503 and "Javítás szükséges" in refused.value.read().decode()
        shutil.copyfile(good, store)
        for _ in range(LOOKS):
            try:
                with urllib.request.urlopen(url, timeout=60) as answer:
                    assert answer.status == 200 and b"/game/1" in answer.read()
                    break
            except urllib.error.HTTPError as error:
                assert error.code == 503
        else:
            raise AssertionError("the mended store was never shown")
    finally:
        _stop(output)


def test_the_files_the_page_makes_are_the_ones_docs_web_md_names(
        tmp_path: Path, client_over: Callable[[Path], TestClient]) -> None:
    """With the app not running (its store closed: no -wal, no -shm), the page's reading makes
    SQLite's shared-memory index and an empty write-ahead log beside the store, and nothing else;
    docs/web.md says so (before, it said that no file is made)."""
    data = tmp_path / "data"
    _stock(data, "castelli.json")
    before = {p.name for p in data.iterdir()}
    assert not before & {f"{DB_FILENAME}-shm", f"{DB_FILENAME}-wal"}  # (the app's lock file stays)
    client = client_over(data)
    _until(client, f"/?t={TOKEN}", 200, "/game/1")
    made = sorted({p.name for p in data.iterdir()} - before)
    assert made == [f"{DB_FILENAME}-shm", f"{DB_FILENAME}-wal"], made
    assert (data / f"{DB_FILENAME}-wal").stat().st_size == 0  # no data in it: the page writes nothing
    docs = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    assert "no file created" not in docs
    for name in made:
        assert name in docs, name
