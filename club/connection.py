"""The table's connection to the club's broker: paho-mqtt 2.x, MQTT 5, TLS and credentials.

One client per process. Its last will is the table's offline status, retained, so the club sees a
table that vanished (power cut, network gone) as offline once the broker notices. Each publication
is QoS 1 and retained; :meth:`Connection.acknowledged` tells whether the broker acknowledged it
(PUBACK) and accepted it (an MQTT 5 reason code below 128: a broker's ACL refusing the topic
answers "not authorized", and such a play stays in the outbox).
"""

from __future__ import annotations

import logging
import ssl
import threading
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from club.payloads import encoded, offline_status
from club.settings import ClubSettings
from club.topics import status_topic

log = logging.getLogger(__name__)

#: Seconds between the keep-alive pings: the broker sends the last will after 1.5 times this.
KEEPALIVE = 15


class Connection:
    """A client of the club's broker, its network loop in paho's thread."""

    def __init__(self, settings: ClubSettings, *, suffix: str = "", will: bool = True) -> None:
        self.settings = settings
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=settings.client_id + suffix,
                                  protocol=mqtt.MQTTv5)
        if settings.tls:
            self.client.tls_set(ca_certs=str(settings.ca_file) if settings.ca_file else None,
                                cert_reqs=ssl.CERT_REQUIRED)
        if settings.username is not None:
            self.client.username_pw_set(settings.username, settings.password)
        if will:
            self.client.will_set(status_topic(settings.club, settings.table),
                                 encoded(offline_status(settings)), qos=1, retain=True)
        self.client.reconnect_delay_set(min_delay=1, max_delay=30)
        self.connected = threading.Event()
        #: The broker's answer to the last connection attempt (``None``: none yet).
        self.refused: ReasonCode | None = None
        self._lock = threading.Lock()
        self._answers: dict[int, bool] = {}
        #: Counts connections, so a caller can tell that the session began anew.
        self.generation = 0
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish

    # -- paho's callbacks (its thread) --------------------------------------------
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode,
                    properties: Properties | None) -> None:
        if reason.is_failure:
            self.refused = reason
            log.warning("the broker refused the connection: %s", reason)
            return
        self.refused = None
        with self._lock:
            self.generation += 1
        self.connected.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode,
                       properties: Properties | None) -> None:
        self.connected.clear()

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: ReasonCode,
                    properties: Properties | None) -> None:
        with self._lock:
            self._answers[mid] = not reason.is_failure
        if reason.is_failure:
            log.warning("the broker refused message %d: %s", mid, reason)

    # -- the caller's side --------------------------------------------------------
    def start(self) -> None:
        """Connect in the background (and again whenever the connection is lost)."""
        self.client.connect_async(self.settings.host, self.settings.port, keepalive=KEEPALIVE)
        self.client.loop_start()

    def stop(self) -> None:
        """Disconnect cleanly (the broker does not send the last will) and stop the loop."""
        self.client.disconnect()
        self.client.loop_stop()

    def publish(self, topic: str, payload: bytes) -> int | None:
        """Send ``payload`` retained with QoS 1; its message id, or ``None`` when it could not even be
        queued (not connected)."""
        if not self.connected.is_set():
            return None
        info = self.client.publish(topic, payload, qos=1, retain=True)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            return None
        return int(info.mid)

    def acknowledged(self, mid: int) -> bool | None:
        """``True``: the broker acknowledged and accepted message ``mid``; ``False``: it refused it;
        ``None``: no answer yet."""
        with self._lock:
            return self._answers.get(mid)

    def forget(self, mid: int) -> None:
        with self._lock:
            self._answers.pop(mid, None)
