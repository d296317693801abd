"""The club server against a real Mosquitto (tests/broker_kit.py), tables simulated with paho.

Three tables publish plays of all three games and one Championship round exactly as the contract
says a table does (the record and the summary the project's own replay gives); the club server
keeps each play once and ranks them as computed by hand below. The broker stopped and started
again, the club server away for a while, a table vanishing, a table claiming a score its moves do
not give: each is the real broker's behaviour, not a double's.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from club.championship_standings import all_standings
from club.standings import standings
from tests import club_server_kit as kit
from tests.broker_kit import running_broker


def _by_player(per_game, game):
    found = next(entry for entry in per_game if entry.game == game)
    return {line.player: line for line in found.lines}


def test_three_tables_all_games_and_a_round_each_play_once_and_the_right_standings(tmp_path: Path) -> None:
    round_id = kit.new_id()
    with running_broker(tmp_path / "broker") as broker, \
            kit.club_server(tmp_path / "club", broker.url) as server, \
            kit.table(broker.url, "Table 1") as one, kit.table(broker.url, "Table 2") as two, \
            kit.table(broker.url, "Table 3") as three:
        one.publish(*kit.status("Table 1"))
        two.publish(*kit.status("Table 2", game="castelli", players=[("Anna", 12), ("Bela", 9)], turn="Bela"))
        three.publish(*kit.status("Table 3", game=None, players=(), turn=None, last=None))
        sent = [
            (one, kit.play(kit.CAMPANILE, "Table 1", finished_at="2026-12-03T19:00:00+01:00")),
            (two, kit.play(kit.CASTELLI_SHARED, "Table 2", finished_at="2026-12-03T19:10:00+01:00")),
            (two, kit.play(kit.CASTELLI, "Table 2", finished_at="2026-12-03T20:10:00+01:00")),
            (three, kit.play(kit.SAN_GIMIGNANO_SHARED, "Table 3", finished_at="2026-12-03T19:20:00+01:00")),
            (three, kit.play(kit.SAN_GIMIGNANO, "Table 3", finished_at="2026-12-03T20:20:00+01:00")),
            # the Championship round: one play per group, both of the round's record
            (one, kit.play(kit.ROUND, "Table 1", finished_at="2026-12-03T21:00:00+01:00",
                           championship={"id": round_id, "round": 1, "group": 1})),
            (one, kit.play(kit.ROUND, "Table 1", finished_at="2026-12-03T21:00:00+01:00",
                           championship={"id": round_id, "round": 1, "group": 2})),
        ]
        for publisher, (topic, payload, _) in sent:
            publisher.publish(topic, payload)
        one.publish(*sent[0][1][:2])  # the same play again (a table that never saw the acknowledgement)
        one.publish(*kit.championship(round_id, "Table 1", [[sent[5][1][2], sent[6][1][2]]]))
        kit.wait_for(lambda: len(server.store.plays()) == 7 and len(server.store.championships()) == 1
                     and len(server.store.tables()) == 3)
        plays = server.store.plays()
        assert sorted(play.id for play in plays) == sorted(found[2] for _, found in sent)
        assert server.refused == 0

        per_game = standings(plays)
        assert [entry.game for entry in per_game] == ["campanile", "castelli", "san-gimignano"]
        # Campanile: five at 1500, K/(n-1) = 8 per pair. Zsuzsanna beats all four: +4 * 0.5 * 8 = +16;
        # Alexandra (8) loses to her, beats the three below: (3 - 2) * 8 = +8; Krisztina (2): (2 - 2)
        # * 8 = 0; Bernadett and Franziska (0, 0) draw each other: (0.5 - 2) * 8 = -12.
        campanile = _by_player(per_game, "campanile")
        assert {name: round(line.rating) for name, line in campanile.items()} == {
            "Zsuzsanna": 1516, "Alexandra": 1508, "Krisztina": 1500, "Bernadett": 1488, "Franziska": 1488}
        assert [line.player for line in per_game[0].lines][:2] == ["Zsuzsanna", "Alexandra"]
        # Castelli: the shared win, Anna's 4-player win and the round's two groups (Anna 11 - Bela 16,
        # Csaba 20 - Dora 13): each counts the group's own two players.
        castelli = _by_player(per_game, "castelli")
        assert {name: (line.plays, line.wins, line.average) for name, line in castelli.items()} == {
            "Annamária": (1, 1, 20.0), "Boglárka": (1, 1, 20.0), "Csenge": (1, 0, 19.0),
            "Dorottya": (1, 0, 10.0), "Anna": (2, 1, 20.0), "Bela": (2, 1, 12.0), "Csaba": (2, 1, 18.0),
            "Dora": (2, 0, 13.0)}
        san = _by_player(per_game, "san-gimignano")
        assert {name: (line.plays, line.wins, line.average) for name, line in san.items()} == {
            "Ada": (2, 1, 1.0), "Bo": (2, 1, 1.5), "Cy": (2, 0, 0.0), "Di": (1, 1, 2.0)}

        # The round's Championship standings (variant 1 after round 1): the two group winners first,
        # the better score first among them (tie_break "scores"), no place settled before the final.
        (championship,) = all_standings(server.store.championships(), plays, server.store.tables())
        assert [(row["player"], row["place"], row["won"], row["points"], row["score"])
                for row in championship["standings"]] == [
            ("Csaba", None, 1, 1.0, 20), ("Bela", None, 1, 1.0, 16), ("Dora", None, 0, 0.0, 13),
            ("Anna", None, 0, 0.0, 11)]
        tables = {table.name: table for table in server.store.tables()}
        assert tables["Table 2"].online and tables["Table 2"].status["turn"] == "Bela"


def test_the_broker_restarted_and_the_server_away_lose_no_play_and_double_none(tmp_path: Path) -> None:
    ids: list[str] = []

    def send(publisher: kit.Table, path: Path, *, retain: bool = True) -> None:
        topic, payload, id = kit.play(path, "Table 1")
        publisher.publish(topic, payload, retain=retain)
        ids.append(id)

    with running_broker(tmp_path / "broker") as broker:
        with kit.club_server(tmp_path / "club", broker.url) as server:
            with kit.table(broker.url, "Table 1") as one:
                send(one, kit.CAMPANILE)
                send(one, kit.CASTELLI)
            kit.wait_for(lambda: len(server.store.plays()) == 2)
            broker.stop()  # mid-evening
            kit.wait_for(lambda: not server.connected)
            broker.start()
            kit.wait_for(lambda: server.connected)
            with kit.table(broker.url, "Table 1") as one:
                send(one, kit.SAN_GIMIGNANO)
            kit.wait_for(lambda: len(server.store.plays()) == 3)
        # the club server away: the broker queues for its persistent session (and keeps them retained)
        with kit.table(broker.url, "Table 2") as two:
            send(two, kit.SAN_GIMIGNANO_SHARED)
            send(two, kit.CASTELLI_SHARED, retain=False)  # only the persistent session holds this one
        broker.stop()
        broker.start()
        with kit.club_server(tmp_path / "club", broker.url) as server:
            kit.wait_for(lambda: len(server.store.plays()) == 5)
            with kit.table(broker.url, "Table 1") as one:
                send(one, kit.CAMPANILE)
            kit.wait_for(lambda: len(server.store.plays()) == 6)
            assert sorted(play.id for play in server.store.plays()) == sorted(ids)
        # a club server started afresh later (another store, another session) gets every retained play
        with kit.club_server(tmp_path / "second club", broker.url) as fresh:
            kit.wait_for(lambda: len(fresh.store.plays()) == 5)
            assert sorted(play.id for play in fresh.store.plays()) == sorted(set(ids) - {ids[4]})


def test_a_table_that_vanishes_shows_offline_by_its_last_will(tmp_path: Path) -> None:
    with running_broker(tmp_path / "broker") as broker, \
            kit.club_server(tmp_path / "club", broker.url) as server:
        vanishing = kit.Table(broker.url, "Table 4", will=True)
        vanishing.publish(*kit.status("Table 4"))
        kit.wait_for(lambda: [t.online for t in server.store.tables()] == [True])
        vanishing.client.loop_stop()
        socket = vanishing.client.socket()
        assert socket is not None
        socket.close()  # gone without a word: the broker sends its last will
        kit.wait_for(lambda: [t.online for t in server.store.tables()] == [False])
        (table,) = server.store.tables()
        assert table.name == "Table 4" and table.status == json.loads(kit.status("Table 4", online=False)[1])


def test_a_play_whose_summary_its_record_does_not_give_is_refused_and_logged(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    def claim_more(payload):
        payload["summary"]["scores"]["Krisztina"] += 10  # a table claiming points its moves do not give

    def claim_win(payload):
        payload["summary"]["winners"] = ["Krisztina"]

    caplog.set_level(logging.WARNING, logger="companion.club")
    with running_broker(tmp_path / "broker") as broker, \
            kit.club_server(tmp_path / "club", broker.url) as server, \
            kit.table(broker.url, "Table 1") as one:
        cheating = [kit.play(kit.CAMPANILE, "Table 1", change=claim_more),
                    kit.play(kit.CAMPANILE, "Table 1", change=claim_win)]
        for topic, payload, _ in cheating:
            one.publish(topic, payload)
        topic, payload, honest = kit.play(kit.CAMPANILE, "Table 1")
        one.publish(topic, payload)
        kit.wait_for(lambda: len(server.store.plays()) == 1 and server.refused == 2)
        assert [play.id for play in server.store.plays()] == [honest]
    refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert any(cheating[0][2] in line and "scores" in line for line in refusals), refusals
    assert any(cheating[1][2] in line and "winners" in line for line in refusals), refusals


def test_a_play_of_a_game_not_installed_is_kept_and_listed_not_ranked(tmp_path: Path) -> None:
    foreign = {"format": "companion-record/1", "game": "nine-mens-morris", "players": ["Anna", "Bela"],
               "moves": []}

    def foreign_summary(payload):
        payload["summary"] = {"game": "nine-mens-morris", "players": ["Anna", "Bela"], "finished": True,
                              "scores": {"Anna": 1, "Bela": 0}, "winners": ["Anna"]}

    with running_broker(tmp_path / "broker") as broker, \
            kit.club_server(tmp_path / "club", broker.url) as server, \
            kit.table(broker.url, "Table 1") as one:
        topic, payload, id = kit.play(kit.CAMPANILE, "Table 1")
        one.publish(topic, payload)
        data = json.loads(payload)
        data.update(record=foreign, id=(other := kit.new_id()))
        foreign_summary(data)
        one.publish(f"companion/{kit.CLUB}/plays/{other}", json.dumps(data).encode())
        kit.wait_for(lambda: len(server.store.plays()) == 2)
        kept = {play.id: play for play in server.store.plays()}
        assert not kept[other].ranked and kept[other].winners == ("Anna",) and kept[id].ranked
        assert [entry.game for entry in standings(server.store.plays())] == ["campanile"]


def test_the_club_server_over_tls_with_a_password(tmp_path: Path) -> None:
    """A broker that speaks TLS only (a certificate the test makes) and refuses anonymous clients."""
    from club.club_store import ClubStore
    from club.subscriber import Subscriber, parse_broker

    passwords = {"club": "s3cret", "table": "t4ble"}
    with running_broker(tmp_path / "broker", tls=True, passwords=passwords) as broker:
        assert broker.tls is not None and broker.url.startswith("mqtts://")
        store = ClubStore(tmp_path / "club.sqlite3")
        wrong = Subscriber(store, kit.CLUB, parse_broker(broker.url, ca_file=broker.tls.ca_file,
                                                         username="club", password="wrong"))
        server = Subscriber(store, kit.CLUB, parse_broker(broker.url, ca_file=broker.tls.ca_file,
                                                          username="club", password="s3cret"))
        server.start()
        try:
            assert server.subscribed.wait(kit.GUARD)
            publisher = kit.mqtt.Client(kit.CallbackAPIVersion.VERSION2, client_id="tls-table")
            publisher.tls_set(ca_certs=str(broker.tls.ca_file))
            publisher.username_pw_set("table", "t4ble")
            publisher.connect("127.0.0.1", broker.port)
            publisher.loop_start()
            topic, payload, id = kit.play(kit.CAMPANILE, "Table 1")
            publisher.publish(topic, payload, qos=1, retain=True).wait_for_publish(kit.GUARD)
            kit.wait_for(lambda: [p.id for p in store.plays()] == [id])
            publisher.disconnect()
            publisher.loop_stop()
            wrong.start()
            assert wrong.answered.wait(kit.GUARD)
            assert wrong.refusal is not None and not wrong.connected and not wrong.subscribed.is_set()
        finally:
            wrong.stop()
            server.stop()
            store.close()
