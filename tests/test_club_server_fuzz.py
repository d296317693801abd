"""Hostile and malformed messages on every club topic crash nothing and keep nothing wrong.

The handler the MQTT thread calls (:meth:`club.subscriber.Subscriber.handle`) is fed directly
(Hypothesis): random bytes, well-formed JSON that is wrong (a field of another type, a field
unknown, one missing, numbers too long, nesting too deep), oversized payloads and a payload whose
id or table is not its topic's. Each must be refused (one line in the log) — never an exception,
never a play kept. Then the same kinds of messages go through a real broker to a running club
server, which must still keep the honest play sent after them.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from club.club_store import ClubStore
from club.inbox import MAX_BYTES
from club.subscriber import Subscriber, parse_broker
from tests import club_server_kit as kit
from tests.broker_kit import running_broker

OUTCOMES = {"kept", "repeat", "status", "championship", "cleared", "refused"}
PLAY_TOPIC, PLAY_PAYLOAD, PLAY_ID = kit.play(kit.CAMPANILE, "Table 1")
STATUS_TOPIC, STATUS_PAYLOAD = kit.status("Table 1", championship={
    "id": kit.new_id(), "round": 1, "groups": [["Anna", "Bela"], ["Csaba", "Dora"]]})
CHAMPIONSHIP_TOPIC, CHAMPIONSHIP_PAYLOAD = kit.championship(kit.new_id(), "Table 1", [[PLAY_ID]])
VALID = [(PLAY_TOPIC, PLAY_PAYLOAD), (STATUS_TOPIC, STATUS_PAYLOAD),
         (CHAMPIONSHIP_TOPIC, CHAMPIONSHIP_PAYLOAD)]
TOPICS = [topic for topic, _ in VALID] + [
    f"companion/{kit.CLUB}/plays/not-a-uuid", f"companion/{kit.CLUB}/tables/a+b/status",
    f"companion/{kit.CLUB}/tables/T/status/extra", f"companion/{kit.CLUB}/other",
    "companion/Another club/plays/x",
    f"companion/{kit.CLUB}/championships/{kit.new_id()}", f"companion/{kit.CLUB}/tables/\u202eT/status"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: (st.lists(children, max_size=4)
                      | st.dictionaries(st.text(max_size=10), children, max_size=4)),
    max_leaves=12)


@pytest.fixture(scope="module")
def handler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Subscriber]:
    """A club server's handler over a store of its own (no broker: the messages are handed to it)."""
    store = ClubStore(tmp_path_factory.mktemp("fuzz") / "club.sqlite3")
    subscriber = Subscriber(store, kit.CLUB, parse_broker("mqtt://127.0.0.1:1"))
    yield subscriber
    store.close()


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value (a key of an object, an index of a list)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*path, key)
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield (*path, index)
            yield from _paths(item, (*path, index))


def _set(value: Any, path: tuple[Any, ...], new: Any) -> None:
    for step in path[:-1]:
        value = value[step]
    value[path[-1]] = new


def _kept(handler: Subscriber) -> list[str]:
    return [play.id for play in handler.store.plays()]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(topic=st.sampled_from(TOPICS), payload=st.binary(max_size=400))
def test_random_bytes_on_every_topic_are_refused_never_raised(handler: Subscriber, topic: str,
                                                              payload: bytes) -> None:
    before = _kept(handler)
    assert handler.handle(topic, payload) in OUTCOMES - {"kept"}
    assert _kept(handler) == before


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.integers(0, 2), data=st.data(), value=json_values)
def test_well_formed_but_wrong_json_is_refused(handler: Subscriber, which: int, data: st.DataObject,
                                               value: Any) -> None:
    """One place of a valid message given another value, removed, or beside an unknown field."""
    topic, payload = VALID[which]
    message = json.loads(payload)
    if which == 0:  # a new id each time: a play refused must be refused for what it holds, not as a repeat
        message["id"] = new = kit.new_id()
        topic = topic.rsplit("/", 1)[0] + "/" + new
    places = list(_paths(message))
    place = data.draw(st.sampled_from(places))
    how = data.draw(st.sampled_from(["replace", "remove", "unknown"]))
    original = copy.deepcopy(message)
    if how == "replace":
        _set(message, place, value)
    elif how == "remove":
        parent = message
        for step in place[:-1]:
            parent = parent[step]
        del parent[place[-1]]
    else:
        message[data.draw(st.text(min_size=1, max_size=10).filter(lambda k: k not in message))] = value
    before = _kept(handler)
    outcome = handler.handle(topic, json.dumps(message).encode())
    assert outcome in OUTCOMES
    if json.dumps(message, sort_keys=True) == json.dumps(original, sort_keys=True):
        assert outcome != "refused"  # (a value replaced by the same one: ``true`` is not ``1``)
    elif outcome == "refused":
        assert _kept(handler) == before
    elif outcome == "kept":  # a change a play may hold (a move's text...): its scored fields stay right
        (new_play,) = set(_kept(handler)) - set(before)
        stored = next(p for p in handler.store.plays() if p.id == new_play)
        assert stored.scores == json.loads(PLAY_PAYLOAD)["summary"]["scores"]


@pytest.mark.parametrize("topic, payload", [
    pytest.param(PLAY_TOPIC, b'{"v": 1, "kind": "play", "pad": "' + b"x" * MAX_BYTES["play"] + b'"}',
                 id="play"),
    pytest.param(STATUS_TOPIC, b" " * (MAX_BYTES["status"] + 1), id="status"),
    pytest.param(CHAMPIONSHIP_TOPIC, b"[" * (MAX_BYTES["championship"] + 1), id="championship"),
    pytest.param(STATUS_TOPIC, b"[" * 60000 + b"]" * 60000, id="deep"),
    pytest.param(STATUS_TOPIC, b'{"v": ' + b"9" * 5000 + b"}", id="digits"),
    pytest.param(STATUS_TOPIC, b'{"v": NaN}', id="nan"),
    pytest.param(STATUS_TOPIC, b"\xff\xfe{}", id="not-utf8"),
])
def test_oversized_deep_and_odd_payloads_are_refused(handler: Subscriber, topic: str, payload: bytes) -> None:
    assert handler.handle(topic, payload) == "refused"


def _swapped(payload: bytes, **fields: Any) -> bytes:
    message = json.loads(payload)
    message.update(fields)
    return json.dumps(message).encode()


@pytest.mark.parametrize("topic, payload", [
    pytest.param(f"companion/{kit.CLUB}/plays/{kit.new_id()}", PLAY_PAYLOAD, id="play-id"),
    pytest.param(f"companion/{kit.CLUB}/tables/Table 9/status", STATUS_PAYLOAD, id="status-table"),
    pytest.param(f"companion/{kit.CLUB}/championships/{kit.new_id()}", CHAMPIONSHIP_PAYLOAD,
                 id="championship-id"),
    pytest.param(PLAY_TOPIC, _swapped(PLAY_PAYLOAD, club="Another club"), id="play-club"),
    pytest.param(PLAY_TOPIC, _swapped(PLAY_PAYLOAD, id=PLAY_ID.upper()), id="play-id-case"),
    pytest.param(STATUS_TOPIC, _swapped(STATUS_PAYLOAD, v=True), id="v-true"),
    pytest.param(STATUS_TOPIC, _swapped(STATUS_PAYLOAD, online=1), id="online-one"),
    pytest.param(PLAY_TOPIC, _swapped(PLAY_PAYLOAD, finished_at="2026-12-03T19:04:05"), id="no-zone"),
    pytest.param(PLAY_TOPIC, _swapped(PLAY_PAYLOAD, record={**json.loads(PLAY_PAYLOAD)["record"],
                                                           "moves": [{"type": "dance"}]}), id="bad-move"),
])
def test_a_payload_that_is_not_its_topics_or_of_the_wrong_type_is_refused(handler: Subscriber, topic: str,
                                                                          payload: bytes) -> None:
    before = _kept(handler)
    assert handler.handle(topic, payload) == "refused"
    assert _kept(handler) == before


def test_hostile_messages_through_the_broker_crash_nothing(tmp_path: Path) -> None:
    hostile: list[tuple[str, bytes]] = [
        (topic, payload) for topic in TOPICS if not {"+", "#"} & set(topic) for payload in (
            b"", b"\x00\xff" * 100, b"null", b"[]", b'{"v": 1}', b"{" * 5000,
            b'{"v": 1, "kind": "play"}', b" " * (MAX_BYTES["status"] + 10))]
    hostile += [(f"companion/{kit.CLUB}/plays/{kit.new_id()}", PLAY_PAYLOAD),
                (PLAY_TOPIC, _swapped(PLAY_PAYLOAD, summary={"scores": {"Krisztina": 99}}))]
    with running_broker(tmp_path / "broker") as broker, \
            kit.club_server(tmp_path / "club", broker.url) as server, \
            kit.table(broker.url, "Table 1") as one:
        for topic, payload in hostile:
            one.publish(topic, payload, retain=False)
        topic, payload, honest = kit.play(kit.CASTELLI, "Table 1")
        one.publish(topic, payload)
        kit.wait_for(lambda: [p.id for p in server.store.plays()] == [honest])
        assert server.refused >= len(hostile) // 2  # (an empty payload is "cleared", another club's unseen)
        one.publish(*kit.status("Table 1"))
        kit.wait_for(lambda: [t.name for t in server.store.tables()] == ["Table 1"])
