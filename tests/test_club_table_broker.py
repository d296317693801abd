"""A table in the club against a real Mosquitto (tests/broker_kit.py): the live status, the last
will, the outbox drained after the broker comes back, ``club publish``'s exit statuses, TLS with
credentials, Home Assistant's discovery on the wire (docs/club.md)."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from club.topics import DISCOVERY_PREFIX, home_topic, play_topic, status_topic
from companion.service.app import Companion
from tests.broker_kit import running_broker
from tests.club_table_kit import (
    GUARD,
    Heard,
    Listener,
    companion,
    finish_a_game,
    open_table,
    start_publisher,
    stop,
    write_config,
)
from tests.helpers_campanile import PLAYERS, SETUP, random_game

STATUS = status_topic("Club", "Table 1")


def test_the_status_is_retained_and_follows_the_moves(tmp_path: Path) -> None:
    with running_broker(tmp_path / "broker") as broker:
        config = write_config(tmp_path, broker.url)
        app = open_table(tmp_path / "data")
        live = app.start("campanile", list(PLAYERS), setup=SETUP)
        publisher = start_publisher(tmp_path / "data", config)
        try:
            listener = Listener(broker)
            first = listener.last(STATUS, check=lambda s: s.get("online") and s.get("game") == "campanile")
            assert [(p["name"], p["score"]) for p in first["players"]] == [(p, 0) for p in PLAYERS]
            assert first["last_move"] is None and first["turn"] in PLAYERS and first["finished"] is False
            assert first["play"] == app.store.stable_id("sessions", live.id)
            move = random_game(3, 20)[0]
            live.session.propose(move)
            after = listener.last(STATUS, check=lambda s: s.get("last_move") is not None)
            assert after["last_move"]["player"] == live.session.game.actor(move)
            assert after["last_move"]["text"]  # the move in the table's words
            listener.close()
            # retained: a club server started later hears the latest status at once
            late = Listener(broker)
            kept = late.last(STATUS)
            assert late.on(STATUS)[0].retain and kept["last_move"] == after["last_move"]
            late.close()
        finally:
            stop(publisher)
            app.close()


@contextmanager
def online_table(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Listener]]:
    """A table's ``club run`` seen online by a listener on a fresh broker; both let go after."""
    with running_broker(tmp_path / "broker") as broker:
        config = write_config(tmp_path, broker.url)
        open_table(tmp_path / "data").close()
        publisher = start_publisher(tmp_path / "data", config)
        listener = Listener(broker)
        try:
            listener.last(STATUS, check=lambda s: s.get("online") is True)
            yield publisher, listener
        finally:
            stop(publisher)
            listener.close()


def test_a_vanished_publisher_is_shown_offline_by_its_last_will(tmp_path: Path) -> None:
    with online_table(tmp_path) as (publisher, listener):
        publisher.send_signal(signal.SIGKILL)  # gone without a word, as on a power cut
        offline = listener.last(STATUS, check=lambda s: s.get("online") is False)
        assert offline == {"v": 1, "kind": "status", "club": "Club", "table": "Table 1", "online": False}


def test_a_clean_stop_says_offline_and_exits_0(tmp_path: Path) -> None:
    with online_table(tmp_path) as (publisher, listener):
        publisher.send_signal(signal.SIGTERM)
        assert publisher.wait(GUARD) == 0
        assert listener.last(STATUS, check=lambda s: s.get("online") is False)["online"] is False


def test_a_game_finished_while_the_broker_is_down_is_sent_once_it_is_back(tmp_path: Path) -> None:
    with running_broker(tmp_path / "broker") as broker:
        config = write_config(tmp_path, broker.url)
        app = open_table(tmp_path / "data")
        publisher = start_publisher(tmp_path / "data", config)
        listener = Listener(broker, client_id="club-server", persistent=True)
        try:
            listener.last(STATUS, check=lambda s: s.get("online") is True)
            broker.stop()
            session = finish_a_game(app)  # the move path: no broker, no wait
            play = app.store.stable_id("sessions", session)
            assert play is not None and [row.sent for row in app.store.outbox()] == [None]
            broker.start()
            topic = play_topic("Club", play)
            listener.wait_for(lambda heard: any(h.topic == topic for h in heard))
            assert _wait_sent(app)
            received = listener.on(topic)
            assert len(received) == 1 and received[0].json()["id"] == play
            payload = received[0].json()
            assert payload["record"] == app.export_record(session)
            assert payload["summary"]["scores"] == app.open_game(session).session.game.summary(
                app.open_game(session).session.state)["scores"]
        finally:
            stop(publisher)
            listener.close()
            app.close()


def _wait_sent(app: Companion) -> bool:
    deadline = time.monotonic() + GUARD
    while time.monotonic() < deadline:
        if all(row.sent for row in app.store.outbox()):
            return True
        time.sleep(0.1)
    return False


def test_club_publish_exits_0_3_and_2(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running_broker(tmp_path / "broker") as broker:
        config = write_config(tmp_path, broker.url)
        app = open_table(data)
        finish_a_game(app)
        app.close()
        broker.stop()  # unreachable: 3, the outbox kept
        done = companion(data, "club", "publish", "--config", str(config))
        assert done.returncode == 3, done.stderr
        assert "could not be reached" in done.stderr and "1 finished game" in done.stderr
        status = companion(data, "club", "status", "--config", str(config))
        assert "1 waiting, 0 sent" in status.stdout and "not answered yet" in status.stdout
        broker.start()
        listener = Listener(broker)
        done = companion(data, "club", "publish", "--config", str(config))
        assert done.returncode == 0, done.stderr
        assert "1 finished game(s) sent" in done.stdout
        listener.wait_for(lambda heard: any(h.topic.startswith("companion/Club/plays/") for h in heard))
        again = companion(data, "club", "publish", "--config", str(config))
        assert again.returncode == 0 and "nothing waited" in again.stdout
        status = companion(data, "club", "status", "--config", str(config))
        assert "0 waiting, 1 sent" in status.stdout and "last answered at" in status.stdout
        wrong = companion(data, "club", "publish", "--config", str(config), "--club", "a/b")
        assert wrong.returncode == 2 and "club.club" in wrong.stderr and "“/”" in wrong.stderr
        listener.close()


def test_tls_with_a_certificate_the_test_made_and_credentials(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running_broker(tmp_path / "broker", tls=True, passwords={"table1": "s3cret"}) as broker:
        assert broker.tls is not None
        secret = tmp_path / "credentials"
        secret.write_text("table1\ns3cret\n")
        secret.chmod(0o600)
        config = write_config(tmp_path, broker.url, extra=f'ca_file = "{broker.tls.ca_file}"\n'
                                                          f'credentials_file = "{secret}"\n')
        app = open_table(data)
        finish_a_game(app)
        app.close()
        listener = Listener(broker)
        done = companion(data, "club", "publish", "--config", str(config))
        assert done.returncode == 0, done.stderr
        listener.wait_for(lambda heard: any(h.topic.startswith("companion/Club/plays/") for h in heard))
        listener.close()
        # a wrong password: the broker refuses the table, the outbox is kept, exit 3
        app = open_table(data)
        finish_a_game(app, seed=5)
        app.close()
        secret.write_text("table1\nwrong\n")
        refused = companion(data, "club", "publish", "--config", str(config))
        assert refused.returncode == 3 and "refused" in refused.stderr
        # no certificate authority: the broker's certificate is not trusted; nothing sent
        plain = write_config(tmp_path, broker.url, extra=f'credentials_file = "{secret}"\n')
        untrusted = companion(data, "club", "publish", "--config", str(plain))
        assert untrusted.returncode == 3


def test_home_assistant_is_told_of_the_table_and_its_values(tmp_path: Path) -> None:
    with running_broker(tmp_path / "broker") as broker:
        config = write_config(tmp_path, broker.url)
        app = open_table(tmp_path / "data")
        live = app.start("campanile", list(PLAYERS), setup=SETUP)
        live.session.propose(random_game(3, 20)[0])
        publisher = start_publisher(tmp_path / "data", config)
        listener = Listener(broker)
        try:
            def announced(heard: list[Heard]) -> set[str]:
                return {h.topic for h in heard if h.topic.startswith(DISCOVERY_PREFIX)}

            heard = listener.wait_for(lambda h: len(announced(h)) == 4)
            configs = {h.topic: h.json() for h in heard if h.topic in announced(heard)}
            assert {c["state_topic"] for c in configs.values()} == {home_topic("Club", "Table 1")}
            assert len({c["device"]["identifiers"][0] for c in configs.values()}) == 1
            values = listener.last(home_topic("Club", "Table 1"), check=lambda v: bool(v.get("last_move")))
            assert values["game"] == "Campanile" and values["turn"] in PLAYERS
            assert values["leader"] and set(values["leader"].split(", ")) <= set(PLAYERS)
            late = Listener(broker)  # retained: a Home Assistant started later still finds the table
            late.wait_for(lambda h: announced(h) == set(configs) and all(x.retain for x in h
                                                                         if x.topic in configs))
            late.close()
        finally:
            stop(publisher)
            listener.close()
            app.close()


@pytest.mark.parametrize("mode", [0o640, 0o604])
def test_a_credentials_file_others_may_read_is_refused(tmp_path: Path, mode: int) -> None:
    secret = tmp_path / "credentials"
    secret.write_text("table1\ns3cret\n")
    secret.chmod(mode)
    config = write_config(tmp_path, "mqtt://127.0.0.1:1", extra=f'credentials_file = "{secret}"\n')
    done = companion(tmp_path / "data", "club", "publish", "--config", str(config))
    assert done.returncode == 2
    assert "club.credentials_file" in done.stderr and "chmod 600" in done.stderr


def test_a_championship_round_is_one_play_per_group_after_its_championship(tmp_path: Path) -> None:
    from tests.championship_kit import round_moves

    data = tmp_path / "data"
    app = open_table(data)
    live = app.championships.new(1, ["Ann", "Bob", "Cid", "Dan"])
    game = live.session.game
    for move in round_moves(game, live.session.state, ["Ann", None]):
        live.session.propose(game.parse_move(move))
    assert live.row.championship is not None
    round_id = app.store.stable_id("sessions", live.id)
    championship = app.store.stable_id("championships", live.row.championship)
    app.close()
    with running_broker(tmp_path / "broker") as broker:
        config = write_config(tmp_path, broker.url)
        listener = Listener(broker)
        done = companion(data, "club", "publish", "--config", str(config))
        assert done.returncode == 0, done.stderr
        heard = listener.wait_for(lambda h: sum("/plays/" in x.topic for x in h) == 2)
        kinds = [h.json()["kind"] for h in heard if h.topic.startswith("companion/")]
        assert kinds == ["championship", "play", "play"]  # the championship first
        plays = [h.json() for h in heard if "/plays/" in h.topic]
        assert [p["championship"] for p in plays] == [{"id": championship, "round": 1, "group": 1},
                                                      {"id": championship, "round": 1, "group": 2}]
        assert len({p["id"] for p in plays} | {round_id}) == 3  # two ids of their own
        kept = next(h.json() for h in heard if h.topic.endswith(f"/championships/{championship}"))
        assert kept["rounds"] == [{"round": 1, "plays": [p["id"] for p in plays]}]
        assert kept["variant"] == 1 and kept["game"] == game.name and kept["finished"] is False
        assert plays[0]["summary"]["groups"][1]["winners"] == ["Cid", "Dan"]  # the shared win
        listener.close()
