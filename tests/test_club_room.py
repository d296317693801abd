"""The club as a room sees it, both sides real: three tables (each its own data folder and store)
finish games of all three games and a Championship round at the table, publish them with
``companion club publish`` to a real Mosquitto — one of them while the broker is down, then again
once it is back — and the club server's subscriber keeps each play once, with the scores and
winners the tables' own summaries give, and ranks them per game."""

from __future__ import annotations

import json
from pathlib import Path

from club.standings import standings
from tests import club_server_kit as server_kit
from tests.broker_kit import running_broker
from tests.championship_kit import round_moves
from tests.club_table_kit import companion, finish_a_game, open_table, write_config

EXAMPLES = Path(__file__).parent / "data" / "examples"


def play_example(app, path: Path) -> int:
    """A finished record's game started and played move by move at the table (not imported)."""
    record = json.loads(path.read_text(encoding="utf-8"))
    live = app.start(record["game"], list(record["players"]), setup=record.get("setup") or {},
                     options=record.get("options") or {})
    for move in record["moves"]:
        live.session.propose(live.session.game.parse_move(move))
    assert live.session.game.is_finished(live.session.state)
    return live.id


def test_three_tables_publish_and_the_club_keeps_each_play_once_with_its_own_scores(tmp_path: Path) -> None:
    tables = {name: tmp_path / name for name in ("Table 1", "Table 2", "Table 3")}
    expected: dict[str, dict] = {}  # play id -> the table's own summary
    for name, data in tables.items():
        app = open_table(data)
        if name == "Table 1":
            sessions = [finish_a_game(app), play_example(app, EXAMPLES / "castelli.json")]
        elif name == "Table 2":
            sessions = [play_example(app, server_kit.SAN_GIMIGNANO)]
        else:
            live = app.championships.new(1, ["Ann", "Bob", "Cid", "Dan"])
            for move in round_moves(live.session.game, live.session.state, ["Ann", None]):
                live.session.propose(live.session.game.parse_move(move))
            sessions = []
        for session in sessions:
            opened = app.open_game(session).session
            expected[app.store.stable_id("sessions", session)] = opened.game.summary(opened.state)
        app.close()
    with running_broker(tmp_path / "broker") as broker:
        configs = {name: write_config(data, broker.url, table=name) for name, data in tables.items()}
        with server_kit.club_server(tmp_path / "club", broker.url, club="Club") as subscriber:
            store = subscriber.store
            # Table 2's play while the broker is down: kept, sent when it is back
            broker.stop()
            down = companion(tables["Table 2"], "club", "publish", "--config", str(configs["Table 2"]))
            assert down.returncode == 3, down.stderr
            broker.start()
            for name, data in tables.items():
                done = companion(data, "club", "publish", "--config", str(configs[name]))
                assert done.returncode == 0, done.stderr
            # published again: nothing waits, nothing is sent twice
            again = companion(tables["Table 1"], "club", "publish", "--config", str(configs["Table 1"]))
            assert again.returncode == 0, again.stderr
            server_kit.wait_for(lambda: len(store.plays()) == len(expected) + 2)  # + the round's two groups
            plays = store.plays()
            assert len({play.id for play in plays}) == len(plays)
            by_id = {play.id: play for play in plays}
            for play_id, summary in expected.items():
                kept = by_id[play_id]
                assert kept.scores == summary["scores"] and list(kept.winners) == summary["winners"]
            assert {play.table for play in plays} == set(tables)
            assert sorted(play.game for play in plays) == ["campanile", "castelli", "castelli", "castelli",
                                                           "san-gimignano"]
            assert [entry.game for entry in standings(plays)] == ["campanile", "castelli", "san-gimignano"]


def test_a_real_table_s_every_topic_is_read_by_the_club_server_without_a_refusal(
        tmp_path: Path, caplog) -> None:
    """``companion club run`` publishes its status, its values for Home Assistant and its
    discovery: the club server keeps the status and leaves the rest alone, refusing nothing."""
    import logging

    from tests.club_table_kit import start_publisher, stop

    data = tmp_path / "table"
    open_table(data).close()
    with running_broker(tmp_path / "broker") as broker:
        config = write_config(data, broker.url, table="Table 1")
        with caplog.at_level(logging.INFO), \
                server_kit.club_server(tmp_path / "club", broker.url, club="Club") as subscriber:
            publisher = start_publisher(data, config)
            try:
                tables = subscriber.store.tables
                server_kit.wait_for(lambda: [(t.name, t.online) for t in tables()] == [("Table 1", True)])
                assert subscriber.handle("companion/Club/tables/Table 1/home", b'{"game": "x"}') == "ignored"
            finally:
                stop(publisher)
    assert not [record for record in caplog.records if "refused" in record.getMessage().lower()]
