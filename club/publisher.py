"""The table's publisher: ``companion club run`` (a process beside the app) and ``companion club publish``.

``club run`` watches the store read-only (:class:`club.watch.StoreWatch`); on every change it
publishes the table's status (retained) and the Home Assistant values, and it drains the outbox:
each waiting game's messages go out with QoS 1, and the outbox row is marked sent
(:func:`companion.storage.outbox.mark_sent`) only once the broker acknowledged every one of them.
The connection is kept by paho's thread, which reconnects with a growing delay; after each
(re)connection the discovery, the status and every unsent play go again (the club keeps plays by
id, so a repeat is harmless). On a clean stop (SIGTERM) the table says it is offline itself; when
it vanishes, its last will says it.

``club publish`` sends what the outbox holds and exits (:func:`publish_outbox`).
"""

from __future__ import annotations

import functools
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from club import discovery, payloads
from club.connection import Connection
from club.settings import ClubSettings
from club.state import broker_answered
from club.topics import home_topic, status_topic
from club.watch import CONTENT_ERRORS, StoreWatch
from companion.service.app import AppError, Companion
from companion.storage.outbox import mark_sent
from companion.storage.store import Store
from companion.system.clock import clock_is_sure

log = logging.getLogger(__name__)

#: What reading a game from the store may raise: it is then left as it is (said in the log).
READ_ERRORS: tuple[type[Exception], ...] = (*CONTENT_ERRORS, AppError)
#: Seconds between two looks at the store (a commit is seen within this).
POLL = 0.25
#: How long ``club publish`` waits for the broker to answer a connection or a play; generous: a
#: broker across a busy Wi-Fi, not a timer a test measures.
ANSWER_WAIT = 15.0


def _version() -> str:
    try:
        return metadata.version("tabletop-companion")
    except metadata.PackageNotFoundError:
        return "0"


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass
class _Flight:
    """The messages of one outbox row on their way: their ids, awaiting the broker's answers."""

    mids: list[int]
    refused: bool = False


@dataclass
class Publisher:
    """``companion club run``: the live status and the outbox, until :attr:`stop` is set."""

    settings: ClubSettings
    database: Path
    clock_sure: Callable[[], bool] = clock_is_sure
    stop: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.connection = Connection(self.settings)
        self.watch = StoreWatch(self.database)
        self._generation = 0
        self._last_status: bytes | None = None
        self._flights: dict[int, _Flight] = {}
        #: Rows the broker refused (an ACL): not sent again until the next connection.
        self._refused: set[int] = set()

    def run(self) -> None:
        self.connection.start()
        try:
            while not self.stop.wait(POLL):
                changed = self.watch.poll()
                if not self.connection.connected.is_set():
                    continue
                if self.connection.generation != self._generation:
                    self._connected()
                    changed = True
                if changed:
                    self._publish_status()
                self._settle()
                self._drain()
        finally:
            self._say_offline()
            self.watch.close()

    def _connected(self) -> None:
        """A new connection: the broker answered; everything that was on its way goes again."""
        self._generation = self.connection.generation
        self._flights.clear()
        self._refused.clear()
        self._last_status = None
        broker_answered(self.database.parent, _now())
        language = self._language()
        for topic, config in discovery.configs(self.settings, language, _version()).items():
            self.connection.publish(topic, payloads.encoded(config))

    def _language(self) -> str:
        app = self.watch.app
        if app is None:
            return "en"
        try:
            return payloads.table_language(app)
        except CONTENT_ERRORS:
            return "en"

    def _facts(self) -> payloads.Facts:
        app = self.watch.app
        if app is None:
            return payloads.NO_GAME
        try:
            return payloads.facts(app, self._language())
        except READ_ERRORS as error:
            log.warning("the game on the table cannot be read: %s", error)
            return payloads.NO_GAME

    def _publish_status(self) -> None:
        found = self._facts()
        language = self._language()
        shown = payloads.status(self.settings, found, language=language, sent_at=_now(),
                                clock_sure=self.clock_sure())
        compared = payloads.encoded({k: v for k, v in shown.items() if k != "sent_at"})
        if compared == self._last_status:
            return
        status = self.connection.publish(status_topic(self.settings.club, self.settings.table),
                                         payloads.encoded(shown))
        self.connection.publish(home_topic(self.settings.club, self.settings.table),
                                payloads.encoded(payloads.home(found)))
        if status is not None:
            self._last_status = compared

    def _settle(self) -> None:
        """Mark sent the rows whose every message the broker acknowledged and accepted."""
        done = []
        for session_id, flight in list(self._flights.items()):
            answers = [self.connection.acknowledged(mid) for mid in flight.mids]
            if any(answer is False for answer in answers):
                self._refused.add(session_id)
                del self._flights[session_id]
            elif all(answers):
                done.append(session_id)
        if not done:
            return
        try:
            mark_sent(self.database, done, _now())
        except (sqlite3.Error, OSError) as error:  # a store that cannot be written now: tried again
            log.warning("the outbox could not be marked sent: %s", error)
            return
        broker_answered(self.database.parent, _now())
        for session_id in done:
            for mid in self._flights.pop(session_id).mids:
                self.connection.forget(mid)

    def _drain(self) -> None:
        app = self.watch.app
        if app is None:
            return
        try:
            waiting = app.store.outbox(waiting_only=True)
        except CONTENT_ERRORS as error:
            log.warning("the outbox cannot be read: %s", error)
            return
        for row in waiting:
            if row.session_id in self._flights or row.session_id in self._refused:
                continue
            try:
                messages = payloads.play_messages(app, self.settings, row)
            except READ_ERRORS as error:
                log.warning("game %d cannot be sent: %s", row.session_id, error)
                self._refused.add(row.session_id)
                continue
            mids = [self.connection.publish(m.topic, payloads.encoded(m.payload)) for m in messages]
            if any(mid is None for mid in mids):
                return  # the connection went: everything goes again after the next one
            self._flights[row.session_id] = _Flight([mid for mid in mids if mid is not None])

    def _say_offline(self) -> None:
        """A clean stop: the table says it is offline (retained), then disconnects."""
        if self.connection.connected.is_set():
            mid = self.connection.publish(status_topic(self.settings.club, self.settings.table),
                                          payloads.encoded(payloads.offline_status(self.settings)))
            deadline = time.monotonic() + 5.0
            while mid is not None and self.connection.acknowledged(mid) is None \
                    and time.monotonic() < deadline:
                time.sleep(0.02)
        self.connection.stop()


@dataclass(frozen=True)
class Sent:
    """What ``club publish`` did: the games sent, those left waiting, and whether the broker answered."""

    sent: int
    waiting: int
    reached: bool
    refused: bool = False


def publish_outbox(settings: ClubSettings, database: Path, *, wait: float = ANSWER_WAIT) -> Sent:
    """Send every game the outbox holds, once each acknowledged mark it sent, and return what happened.

    Nothing waiting: nothing is sent and the broker is not asked. A broker that cannot be reached
    (or refuses the table) leaves the outbox as it was.
    """
    with Store.open(database, read_only=True) as store:
        app = Companion(store)
        waiting = store.outbox(waiting_only=True)
        if not waiting:
            return Sent(0, 0, True)
        connection = Connection(settings, suffix="/publish", will=False)
        try:
            connection.client.connect(settings.host, settings.port, keepalive=30)
        except OSError as error:
            log.warning("the broker cannot be reached: %s", error)
            return Sent(0, len(waiting), False)
        connection.client.loop_start()
        try:
            return _send_all(connection, app, settings, database, waiting, wait)
        finally:
            connection.stop()


def _send_all(connection: Connection, app: Companion, settings: ClubSettings, database: Path,
              waiting: list[payloads.OutboxRow], wait: float) -> Sent:
    if not _wait_for(lambda: connection.connected.is_set() or connection.refused is not None, wait) \
            or not connection.connected.is_set():
        return Sent(0, len(waiting), False, refused=connection.refused is not None)
    broker_answered(database.parent, _now())
    sent = 0
    for row in waiting:
        messages = payloads.play_messages(app, settings, row)
        mids = [connection.publish(m.topic, payloads.encoded(m.payload)) for m in messages]
        if any(mid is None for mid in mids):
            return Sent(sent, len(waiting) - sent, False)
        ids = [mid for mid in mids if mid is not None]
        if not _wait_for(functools.partial(_answered, connection, ids), wait):
            return Sent(sent, len(waiting) - sent, False)
        if not all(connection.acknowledged(m) for m in ids):
            return Sent(sent, len(waiting) - sent, True, refused=True)
        mark_sent(database, [row.session_id], _now())
        broker_answered(database.parent, _now())
        sent += 1
    return Sent(sent, 0, True)


def _answered(connection: Connection, mids: list[int]) -> bool:
    return all(connection.acknowledged(mid) is not None for mid in mids)


def _wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True
