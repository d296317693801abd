"""Every game finished at a table reaches the club exactly once, whatever the order in which the
broker goes down and comes back, games are finished and the outbox is sent (Hypothesis, a real
Mosquitto): the club (a listener with a persistent session, as the club server subscribes) holds
each finished game's id and no other, the table published each exactly once, and the outbox ends
all sent."""

from __future__ import annotations

import tempfile
from collections import Counter
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from club import publisher
from club.connection import Connection
from club.settings import ClubSettings
from tests.broker_kit import running_broker
from tests.club_table_kit import Listener, finish_a_game, open_table

#: The connection's own publish, counted by each example (saved once: examples patch it anew).
PUBLISH = Connection.publish
ACTIONS = st.lists(st.sampled_from(["finish", "down", "up", "publish"]), min_size=1, max_size=8)
_examples = count()


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with running_broker(tmp_path_factory.mktemp("broker")) as running:
        yield running


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(actions=ACTIONS)
def test_each_finished_game_reaches_the_club_exactly_once(broker: Any, actions: list[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    if broker.process is None:
        broker.start()
    club = f"Club{next(_examples)}"  # each example its own club on the one broker
    published: Counter[str] = Counter()

    def counted(self: Connection, topic: str, payload: bytes) -> int | None:
        mid = PUBLISH(self, topic, payload)
        if mid is not None and "/plays/" in topic:
            published[topic.rsplit("/", 1)[1]] += 1
        return mid

    monkeypatch.setattr(Connection, "publish", counted)
    listener = Listener(broker, topics=f"companion/{club}/plays/+", client_id=f"server-{club}",
                        persistent=True)
    with tempfile.TemporaryDirectory() as folder:
        app = open_table(Path(folder))
        settings_ = ClubSettings(broker.url, "127.0.0.1", broker.port, False, club, "T")
        finished: list[str] = []
        seeds = count(1)
        try:
            for action in [*actions, "up", "publish"]:
                if action == "finish":
                    session = finish_a_game(app, seed=next(seeds))
                    finished.append(str(app.store.stable_id("sessions", session)))
                elif action == "down" and broker.process is not None:
                    broker.stop()
                elif action == "up" and broker.process is None:
                    broker.start()
                elif action == "publish":
                    waiting = len(app.store.outbox(waiting_only=True))
                    sent = publisher.publish_outbox(settings_, app.store.path, wait=10.0)
                    up = broker.process is not None
                    assert (sent.reached, sent.sent) == ((up, waiting if up else 0) if waiting else (True, 0))
            assert all(row.sent for row in app.store.outbox())
            heard = listener.wait_for(lambda h: {x.topic.rsplit("/", 1)[1] for x in h} >= set(finished))
            assert {x.topic.rsplit("/", 1)[1] for x in heard} == set(finished)
            assert published == Counter(finished)  # the table sent each once: none twice, none lost
        finally:
            app.close()
            listener.close()
