"""What the club server's tests share: tables simulated by publishing the contract's payloads.

The real table publisher is the table side's (``companion club run``); these tests stand in for it
by publishing, with paho, exactly what the contract says a table sends — a play's record and the
summary the project's own replay gives for it (:func:`companion.service.records.final_state`,
:func:`companion.i18n.summary_json`, as ``companion replay --json`` prints it).
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from club.club_store import ClubStore
from club.subscriber import Subscriber, parse_broker
from companion.i18n import summary_json
from companion.service.records import final_state, parse_record

DATA = Path(__file__).parent / "data"
#: Finished records of each game (replayed here for their summaries).
CAMPANILE = DATA / "over" / "campanile-5p-tiebreak.json"
CASTELLI_SHARED = DATA / "over" / "castelli-4p-shared.json"
CASTELLI = DATA / "played" / "castelli-4p-cards.json"
SAN_GIMIGNANO_SHARED = DATA / "over" / "san-gimignano-3p-shared.json"
SAN_GIMIGNANO = DATA / "over" / "san-gimignano-4p-tiebreak.json"
ROUND = DATA / "examples" / "castelli-round.json"
CLUB = "Tuesday club"
#: A guard against a test hanging, never a timer: every wait ends as soon as its condition holds.
GUARD = 60.0


def record(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def summary(data: dict[str, Any]) -> dict[str, Any]:
    """What ``companion replay --json`` prints for ``data``."""
    parsed = parse_record(data)
    made: dict[str, Any] = summary_json(parsed.game.summary(final_state(parsed)))
    return made


def new_id() -> str:
    return str(uuid.uuid4())


def play(path_or_record: Path | dict[str, Any], table: str, *, id: str | None = None, club: str = CLUB,
         finished_at: str = "2026-12-03T19:04:05+01:00", clock_sure: bool = True,
         championship: dict[str, Any] | None = None,
         change: Callable[[dict[str, Any]], None] | None = None) -> tuple[str, bytes, str]:
    """A play's topic and payload (and its id); ``change`` may alter the payload before it is sent."""
    data = record(path_or_record) if isinstance(path_or_record, Path) else path_or_record
    id = id or new_id()
    payload = {"v": 1, "kind": "play", "id": id, "club": club, "table": table, "finished_at": finished_at,
               "clock_sure": clock_sure, "record": data, "summary": summary(data),
               "championship": championship}
    if change is not None:
        change(payload)
    return f"companion/{club}/plays/{id}", json.dumps(payload).encode(), id


def status(table: str, *, club: str = CLUB, online: bool = True, game: str | None = "campanile",
           players: Iterable[tuple[str, int]] = (("Albert", 21), ("Birgit", 14)), turn: str | None = "Albert",
           last: str | None = "brown +3", championship: dict[str, Any] | None = None) -> tuple[str, bytes]:
    """A table's status (online, or the last will's offline one)."""
    topic = f"companion/{club}/tables/{table}/status"
    if not online:
        return topic, json.dumps({"v": 1, "kind": "status", "club": club, "table": table,
                                  "online": False}).encode()
    seats = list(players)
    return topic, json.dumps({
        "v": 1, "kind": "status", "club": club, "table": table, "online": True,
        "sent_at": "2026-12-03T19:04:05+01:00", "clock_sure": True, "language": "en", "game": game,
        "play": new_id() if game else None,
        "players": [{"name": name, "colour": None, "score": score} for name, score in seats],
        "turn": turn, "finished": False,
        "last_move": {"player": seats[0][0], "text": last} if last and seats else None,
        "championship": championship}).encode()


def championship(id: str, table: str, rounds: list[list[str]], *, club: str = CLUB, variant: int = 1,
                 decisions: list[dict[str, Any]] | None = None) -> tuple[str, bytes]:
    return f"companion/{club}/championships/{id}", json.dumps({
        "v": 1, "kind": "championship", "id": id, "club": club, "table": table, "game": "castelli",
        "variant": variant, "options": {"advance": "players", "shared_win": "half", "tie_break": "scores",
                                        "game": {}},
        "decisions": decisions or [],
        "rounds": [{"round": number, "plays": plays} for number, plays in enumerate(rounds, 1)],
        "finished": False}).encode()


class Table:
    """A simulated table: one paho client publishing QoS 1, retained, as a table does."""

    def __init__(self, url: str, name: str, *, will: bool = False, club: str = CLUB) -> None:
        broker = parse_broker(url)
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"table-{name}-{new_id()[:8]}")
        if will:
            topic, payload = status(name, club=club, online=False)
            self.client.will_set(topic, payload, qos=1, retain=True)
        self.client.connect(broker.host, broker.port, keepalive=5)
        self.client.loop_start()

    def publish(self, topic: str, payload: bytes, *, retain: bool = True) -> None:
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        info.wait_for_publish(GUARD)
        assert info.is_published()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@contextmanager
def table(url: str, name: str, **options: Any) -> Iterator[Table]:
    found = Table(url, name, **options)
    try:
        yield found
    finally:
        found.close()


@contextmanager
def club_server(folder: Path, url: str, club: str = CLUB) -> Iterator[Subscriber]:
    """The club server's subscriber over a store in ``folder``, connected and subscribed."""
    folder.mkdir(parents=True, exist_ok=True)
    store = ClubStore(folder / "club.sqlite3")
    subscriber = Subscriber(store, club, parse_broker(url))
    subscriber.start()
    try:
        assert subscriber.subscribed.wait(GUARD)
        yield subscriber
    finally:
        subscriber.stop()
        store.close()


def wait_for(condition: Callable[[], bool], guard: float = GUARD) -> None:
    """Until ``condition()`` holds (a failing assertion after ``guard`` seconds, never a sleep to time)."""
    done = threading.Event()
    deadline = time.monotonic() + guard
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the condition did not come true")
        done.wait(0.02)
