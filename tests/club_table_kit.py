"""The table side of the club, for its tests: a listener on the broker, a table's configuration, a
finished game, and ``companion club run`` as a child process (tests/test_club_table_*.py).

Every wait is on an event with a generous guard (a loaded CI machine), never a measured duration.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from companion.service.app import Companion
from companion.storage.paths import DB_FILENAME
from tests.broker_kit import Broker
from tests.helpers_campanile import PLAYERS, SETUP, random_game

#: How long a test waits for something the broker or the publisher will do; a guard, not a timer.
GUARD = 60.0
COMPANION = str(Path(sys.executable).with_name("companion"))


@dataclass
class Heard:
    topic: str
    payload: bytes
    retain: bool

    def json(self) -> Any:
        return json.loads(self.payload) if self.payload else None


@dataclass
class Listener:
    """A client of the broker that keeps every message it hears (all topics, QoS 1)."""

    broker: Broker
    topics: str = "#"
    client_id: str = ""
    persistent: bool = False
    #: The user name and password at the broker (default: the broker's first user, if any).
    login: tuple[str, str] | None = None
    heard: list[Heard] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._changed = threading.Condition()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=self.client_id,
                                  clean_session=not self.persistent)
        login = self.login or (next(iter(self.broker.passwords.items())) if self.broker.passwords else None)
        if login is not None:
            self.client.username_pw_set(*login)
        if self.broker.tls:
            self.client.tls_set(ca_certs=str(self.broker.tls.ca_file))
        self.client.on_message = self._on_message
        self.client.on_connect = self._on_connect
        self.subscribed = threading.Event()
        self.client.on_subscribe = lambda *args: self.subscribed.set()
        self.client.connect("127.0.0.1", self.broker.port)
        self.client.loop_start()
        assert self.subscribed.wait(GUARD)

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if not (self.persistent and flags.session_present):
            client.subscribe(self.topics, qos=1)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self._changed:
            self.heard.append(Heard(message.topic, bytes(message.payload), bool(message.retain)))
            self._changed.notify_all()

    def on(self, topic: str) -> list[Heard]:
        with self._changed:
            return [h for h in self.heard if h.topic == topic]

    def starting(self, prefix: str) -> list[Heard]:
        with self._changed:
            return [h for h in self.heard if h.topic.startswith(prefix)]

    def wait_for(self, check: Callable[[list[Heard]], bool], guard: float = GUARD) -> list[Heard]:
        """Wait until ``check(every message heard)`` holds; the messages then."""
        deadline = time.monotonic() + guard
        with self._changed:
            while not check(list(self.heard)):
                left = deadline - time.monotonic()
                assert left > 0, f"not heard in {guard} s: {[(h.topic, h.payload[:80]) for h in self.heard]}"
                self._changed.wait(min(left, 0.5))
            return list(self.heard)

    def last(self, topic: str, guard: float = GUARD,
             check: Callable[[Any], bool] = lambda payload: True) -> Any:
        """The latest payload on ``topic`` for which ``check`` holds (waiting for one)."""
        def found(heard: list[Heard]) -> bool:
            mine = [h for h in heard if h.topic == topic]
            return bool(mine) and check(mine[-1].json())
        self.wait_for(found, guard)
        return self.on(topic)[-1].json()

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def write_config(folder: Path, broker_url: str, *, club: str = "Club", table: str = "Table 1",
                 extra: str = "") -> Path:
    path = folder / "companion.toml"
    path.write_text(f'[club]\nbroker = "{broker_url}"\nclub = "{club}"\ntable = "{table}"\n{extra}',
                    encoding="utf-8")
    return path


def open_table(data_dir: Path, *, club: bool = True) -> Companion:
    data_dir.mkdir(parents=True, exist_ok=True)
    app = Companion.open(data_dir / DB_FILENAME, clock_sure=lambda: True)
    app.club_outbox = club
    return app


def finish_a_game(app: Companion, seed: int = 3, players: Sequence[str] = PLAYERS) -> int:
    """A Campanile game started and played to its end at the table; its session id."""
    live = app.start("campanile", list(players), setup=SETUP)
    for move in random_game(seed, 20):
        live.session.propose(move)
    assert live.session.game.is_finished(live.session.state)
    return live.id


def companion(data_dir: Path, *args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([COMPANION, "--data-dir", str(data_dir), *args], capture_output=True, text=True,
                          timeout=GUARD * 2, env={**os.environ, "COMPANION_LANG": "en"}, **kwargs)


def start_publisher(data_dir: Path, config: Path, *args: str) -> subprocess.Popen[str]:
    """``companion club run`` as a child process (its output kept for a failing test)."""
    return subprocess.Popen([COMPANION, "--data-dir", str(data_dir), "club", "run", "--config", str(config),
                             *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COMPANION_LANG": "en"})


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.kill()
    process.communicate(timeout=GUARD)
