"""The club server's MQTT client: a persistent session that hands every club message to the store.

paho-mqtt 2.x (``CallbackAPIVersion.VERSION2``), MQTT 3.1.1 with ``clean_session=False`` and a
client id kept in the club's store (:meth:`club.club_store.ClubStore.client_id`): the broker keeps
the subscription and queues every QoS 1 message for the club server while it is away (stopped,
its laptop asleep, the Wi-Fi gone), and delivers them when it comes back. Plays, statuses and
championships are retained as well, so a club server started for the first time after the
tables still receives every play. The subscription (``companion/<club>/#``, QoS 1) is made only
when the broker has no session for this client (a session it kept holds it already: subscribing
again would have every retained play sent once more).

paho reconnects by itself (1 s, doubling to 30 s); a message is acknowledged once its handler
returned, after the store committed it, so a club server that stops mid-message gets it again.
The handler never raises: whatever a message holds, it is kept, ignored as a repeat, or refused
with one line in the log (:mod:`club.inbox`).
"""

from __future__ import annotations

import logging
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from club.club_store import ClubStore
from club.inbox import Championship, Play, Refused, Status, read_message, read_topic
from club.settings import PORTS
from companion.service.config import broker_problem

log = logging.getLogger("companion.club")

#: Seconds between paho's keep-alive pings (a broker that vanished is noticed within 1.5 of them).
KEEPALIVE = 30
#: The first and the longest pause before reconnecting.
RECONNECT = (1, 30)
#: The most characters of a topic a log line quotes.
TOPIC_SHOWN = 120


class BrokerUrlError(ValueError):
    """``--broker`` is not ``mqtt://HOST[:PORT]`` or ``mqtts://HOST[:PORT]``."""


@dataclass(frozen=True)
class Broker:
    """Where the broker is and how to reach it."""

    host: str
    port: int
    tls: bool
    ca_file: Path | None = None
    username: str | None = None
    password: str | None = None


def parse_broker(url: str, *, ca_file: Path | None = None, username: str | None = None,
                 password: str | None = None) -> Broker:
    """A broker from its URL (``mqtt://`` on 1883 by default, ``mqtts://`` on 8883)."""
    if broker_problem(url) is not None:  # the one reading of a broker's address (the table's too)
        raise BrokerUrlError(url)
    parts = urlsplit(url)
    return Broker(str(parts.hostname), parts.port or PORTS[parts.scheme], parts.scheme == "mqtts", ca_file,
                  username, password)


def topic_of(club: str) -> str:
    """Everything of the club."""
    return f"companion/{club}/#"


def _shown(topic: str) -> str:
    return repr(topic[:TOPIC_SHOWN])


class Subscriber:
    """Receives the club's messages and keeps them; :attr:`changes` counts what changed the page."""

    def __init__(self, store: ClubStore, club: str, broker: Broker, *,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.store, self.club, self.broker, self.clock = store, club, broker, clock
        self.changes = 0
        self.refused = 0
        self.connected = False
        self.subscribed = threading.Event()
        #: Set when the broker answered a connection (accepted or refused); its refusal when it refused.
        self.answered = threading.Event()
        self.refusal: str | None = None
        self._client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=store.client_id(),
                                   clean_session=False, protocol=mqtt.MQTTv311)
        if broker.tls:
            self._client.tls_set(ca_certs=str(broker.ca_file) if broker.ca_file else None,
                                 cert_reqs=ssl.CERT_REQUIRED)
        if broker.username is not None:
            self._client.username_pw_set(broker.username, broker.password)
        self._client.reconnect_delay_set(*RECONNECT)
        self._client.on_connect = self._connected
        self._client.on_disconnect = self._disconnected
        self._client.on_connect_fail = self._unreachable
        self._client.on_subscribe = self._on_subscribe
        self._client.on_message = self._message

    # -- the connection ----------------------------------------------------------------------

    def start(self) -> None:
        """Connect in the background (a broker that is not there yet is tried again and again)."""
        self._client.connect_async(self.broker.host, self.broker.port, keepalive=KEEPALIVE)
        self._client.loop_start()

    def stop(self) -> None:
        self.connected = False  # (a disconnection asked for is not "lost")
        self._client.disconnect()
        self._client.loop_stop()

    def _connected(self, client: mqtt.Client, userdata: Any, flags: mqtt.ConnectFlags,
                   reason: Any, properties: Any) -> None:
        if getattr(reason, "is_failure", False):
            if self.refusal != str(reason):  # (said once, not at every try)
                log.warning("club: the broker refused the connection: %s", reason)
            self.refusal = str(reason)
            self.answered.set()
            return
        self.refusal = None
        self.answered.set()
        self.connected = True
        self.changes += 1
        log.info("club: connected to the broker at %s:%s", self.broker.host, self.broker.port)
        if flags.session_present:
            self.subscribed.set()
        else:
            client.subscribe(topic_of(self.club), qos=1)

    def _unreachable(self, client: mqtt.Client, userdata: Any) -> None:
        """The broker could not be reached (no answer, refused, TLS failed): said once until it answers."""
        if self.refusal != "unreachable":
            log.warning("club: the broker at %s:%s cannot be reached; trying again",
                        self.broker.host, self.broker.port)
        self.refusal = "unreachable"

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, reasons: Any,
                      properties: Any) -> None:
        self.subscribed.set()

    def _disconnected(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                      properties: Any) -> None:
        if self.connected:
            log.warning("club: lost the broker (%s); trying again", reason)
        self.connected = False
        self.changes += 1

    def _message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        try:
            topic = message.topic
        except UnicodeDecodeError:
            self._refuse("(not UTF-8)", Refused("the topic is not UTF-8"))
            return
        self.handle(topic, bytes(message.payload))

    # -- a message ---------------------------------------------------------------------------

    def handle(self, topic: str, payload: bytes) -> str:
        """Keep, ignore or refuse one message; what was done (``kept``, ``repeat``, ``status``,
        ``championship``, ``cleared``, ``ignored``, ``refused``, ``failed``). Never raises."""
        try:
            return self._handle(topic, payload)
        except Refused as refusal:
            self._refuse(topic, refusal)
            return "refused"
        except Exception as error:  # a bug or a full disk: logged, the message is not lost to the
            # broker (the next delivery of a retained one tries again), the process goes on
            log.error("club: %s could not be kept: %s: %s", _shown(topic), type(error).__name__, error)
            return "failed"

    def _handle(self, topic: str, payload: bytes) -> str:
        where = read_topic(topic, self.club)
        if where.kind == "home":
            return "ignored"  # a table's values for Home Assistant (docs/club.md): the status says them too
        if not payload:
            return "cleared"  # a retained message removed: nothing to keep, nothing forgotten
        if where.kind == "play" and self.store.has_play(where.key):
            return "repeat"
        message = read_message(topic, payload, self.club)
        now = self.clock()
        if isinstance(message, Status):
            self.store.set_status(self.club, message.table, message.message, now)
            self.changes += 1
            return "status"
        if isinstance(message, Championship):
            self.store.set_championship(message.id, self.club, message.table, message.message, now)
            self.changes += 1
            return "championship"
        assert isinstance(message, Play)
        added = self.store.add_play(
            id=message.id, club=self.club, table=message.table, game=message.game, ranked=message.ranked,
            played_at=message.finished_at if message.clock_sure else now,
            finished_at=message.finished_at.isoformat(), clock_sure=message.clock_sure, received_at=now,
            players=message.players, scores=message.scores, winners=message.winners,
            championship=message.championship, record=message.record, summary=message.summary)
        if not added:
            return "repeat"
        self.changes += 1
        if not message.ranked:
            log.info("club: play %s of %r kept unranked: the game is not installed here",
                     message.id, message.game)
        return "kept"

    def _refuse(self, topic: str, refusal: Refused) -> None:
        self.refused += 1
        log.warning("club: refused %s: %s", _shown(topic), refusal)
