"""The broker's ACL of docs/club.md, on a real Mosquitto: each table writes only its own topics (its
status, its Home Assistant values and discovery), the club's plays and championships; a table
that writes another table's status is refused, and the club never hears it."""

from __future__ import annotations

import re
from pathlib import Path

from club.connection import Connection
from club.payloads import encoded
from club.settings import ClubSettings
from club.topics import node_id, status_topic
from tests.broker_kit import running_broker
from tests.club_table_kit import (
    GUARD,
    Listener,
    finish_a_game,
    open_table,
    start_publisher,
    stop,
    write_config,
)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "club.md"


def documented_acl() -> str:
    """The ACL example of docs/club.md, as a Mosquitto ACL file (the one the docs show, not a copy)."""
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(r"## The broker's ACL.*?```\n(.*?)```", text, re.S)
    assert found, "docs/club.md shows an ACL"
    return found.group(1)


def _acl_for(tables: dict[str, str]) -> str:
    """The documented ACL with its example table replaced by ``tables`` (user -> table name)."""
    template = documented_acl()
    blocks = re.split(r"\n(?=user )", template.strip())
    table_block = next(b for b in blocks if b.startswith("user table1"))
    others = [b for b in blocks if not b.startswith("user table")]
    made = []
    for user, table in tables.items():
        block = table_block.replace("table1", user).replace("Table 1", table)
        block = block.replace(node_id("Club", "Table 1"), node_id("Club", table))
        made.append(block)
    return "\n\n".join([*made, *others]) + "\n"


def test_a_table_cannot_write_another_tables_status(tmp_path: Path) -> None:
    users = {"table1": "one", "table2": "two", "server": "club"}
    acl = _acl_for({"table1": "Table 1", "table2": "Table 2"})
    with running_broker(tmp_path / "broker", passwords=users, acl=acl) as broker:
        listener = Listener(broker, login=("server", "club"))
        mine = ClubSettings(broker.url, "127.0.0.1", broker.port, False, "Club", "Table 1",
                            username="table1", password="one")
        rogue = Connection(mine, suffix="/rogue", will=False)
        rogue.start()
        assert rogue.connected.wait(GUARD)
        other = status_topic("Club", "Table 2")
        forged = rogue.publish(other, encoded({"v": 1, "kind": "status", "club": "Club", "table": "Table 2",
                                               "online": False}))
        own = rogue.publish(status_topic("Club", "Table 1"), b'{"v": 1}')
        assert forged is not None and own is not None
        listener.wait_for(lambda heard: any(h.topic == status_topic("Club", "Table 1") for h in heard))
        assert listener.on(other) == []  # published before the table's own: it would be here
        _wait(lambda: rogue.acknowledged(forged) is not None)
        assert rogue.acknowledged(forged) is False and rogue.acknowledged(own) is True
        rogue.stop()
        listener.close()


def test_a_table_publishes_everything_it_must_under_the_documented_acl(tmp_path: Path) -> None:
    users = {"table1": "one", "server": "club", "homeassistant": "home"}
    with running_broker(tmp_path / "broker", passwords=users, acl=_acl_for({"table1": "Table 1"})) as broker:
        secret = tmp_path / "credentials"
        secret.write_text("table1\none\n")
        secret.chmod(0o600)
        config = write_config(tmp_path, broker.url, extra=f'credentials_file = "{secret}"\n')
        app = open_table(tmp_path / "data")
        finish_a_game(app)
        server = Listener(broker, login=("server", "club"))
        home = Listener(broker, login=("homeassistant", "home"))
        publisher = start_publisher(tmp_path / "data", config)
        try:
            server.wait_for(lambda h: any("/plays/" in x.topic for x in h)
                            and any(x.topic == status_topic("Club", "Table 1") for x in h))
            heard = home.wait_for(lambda h: sum(x.topic.startswith("homeassistant/") for x in h) == 4
                                  and any(x.topic.endswith("/home") for x in h))
            mine = ("homeassistant/", "companion/Club/tables/Table 1/")
            assert all(x.topic.startswith(mine) for x in heard)
            _wait(lambda: all(row.sent for row in app.store.outbox()))
        finally:
            stop(publisher)
            server.close()
            home.close()
            app.close()


def _wait(condition) -> None:  # type: ignore[no-untyped-def]
    import time

    deadline = time.monotonic() + GUARD
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.05)
