"""``companion club serve`` and ``companion club standings [--json]`` (docs/club.md).

``serve`` runs as a real process against a real Mosquitto: its first line is the page's URL with
the club's token, the page shows a play a table publishes, SIGTERM ends it with 0. ``standings``
reads the club's store in the data directory; its JSON's shape is the documented one.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from club.club_store import ClubStore, club_folder, store_path
from club.subscriber import Subscriber, parse_broker
from tests import club_server_kit as kit
from tests.broker_kit import running_broker
from tests.child_output import ChildOutput


def _fill(data: Path) -> dict[str, str]:
    """Three plays, a round's two groups, a championship and two tables in the data directory's club store."""
    club_folder(data)
    ids = {}
    with ClubStore(store_path(data)) as store:
        handler = Subscriber(store, kit.CLUB, parse_broker("mqtt://127.0.0.1:1"))
        assert handler.handle(*kit.status("Table 1", game="castelli", players=[("Anna", 3)])) == "status"
        assert handler.handle(*kit.status("Table 2", online=False)) == "status"
        for name, path in (("campanile", kit.CAMPANILE), ("castelli", kit.CASTELLI)):
            topic, payload, ids[name] = kit.play(path, "Table 1")
            assert handler.handle(topic, payload) == "kept"
        round_id = kit.new_id()
        for group in (1, 2):
            topic, payload, ids[f"group {group}"] = kit.play(
                kit.ROUND, "Table 2", championship={"id": round_id, "round": 1, "group": group})
            assert handler.handle(topic, payload) == "kept"
        assert handler.handle(*kit.championship(round_id, "Table 2", [[ids["group 1"], ids["group 2"]]])) \
            == "championship"
    return ids


def test_standings_json_holds_plays_standings_and_tables(cli) -> None:
    ids = _fill(cli.data)
    code, out, err = cli("club", "standings", "--json")
    assert code == 0, err
    found = json.loads(out)
    assert set(found) == {"plays", "standings", "tables", "championships"}
    plays = {play["id"]: play for play in found["plays"]}
    assert set(plays) == set(ids.values())
    for play in plays.values():
        assert {"id", "table", "game", "players", "scores", "winners", "played_at", "ranked"} <= set(play)
    assert plays[ids["campanile"]]["winners"] == ["Zsuzsanna"]
    group = plays[ids["group 2"]]
    assert group["players"] == ["Csaba", "Dora"] and group["winners"] == ["Csaba"]
    assert [game["game"] for game in found["standings"]] == ["campanile", "castelli"]
    first = found["standings"][0]["players"][0]
    assert first == {"player": "Zsuzsanna", "plays": 1, "wins": 1, "average": 8.0, "rating": 1516}
    assert {(t["table"], t["online"]) for t in found["tables"]} == {("Table 1", True), ("Table 2", False)}
    (championship,) = found["championships"]
    assert [row["player"] for row in championship["standings"]] == ["Csaba", "Bela", "Dora", "Anna"]


def test_standings_for_people(cli) -> None:
    _fill(cli.data)
    code, out, _ = cli("club", "standings")
    assert code == 0
    assert "Plays held: 4" in out and "Campanile" in out and "Zsuzsanna | 1 | 1 | 8.0 | 1516" in out
    code, out, _ = cli("--lang", "hu", "club", "standings")
    assert code == 0 and "Megőrzött játszmák: 4" in out and "8,0" in out


def test_standings_of_a_club_never_served_is_empty(cli) -> None:
    code, out, _ = cli("club", "standings", "--json")
    assert code == 0 and json.loads(out) == {"plays": [], "standings": [], "tables": [], "championships": []}
    assert not store_path(cli.data).exists()  # (reading made nothing)


@pytest.mark.parametrize("arguments, said", [
    ((), "no broker"),
    (("--broker", "http://127.0.0.1"), "`--broker`: not mqtt://"),
    (("--broker", "mqtt://127.0.0.1:99999"), "`--broker`: not mqtt://"),
    (("--broker", "mqtt://127.0.0.1", "--club", "a/b"), "the club's name"),
    (("--broker", "mqtt://127.0.0.1", "--club", "a+b"), "the club's name"),
    (("--broker", "mqtt://127.0.0.1"), "the club's name"),
    (("--broker", "mqtt://127.0.0.1", "--club", "C", "--listen", "nowhere"), "--listen"),
])
def test_serve_refuses_a_wrong_setting_in_one_line(cli, arguments: tuple[str, ...], said: str) -> None:
    code, out, err = cli("club", "serve", *arguments)
    assert code == 2 and out == ""
    assert said in err and len(err.strip().splitlines()) == 1, err


def test_a_store_that_is_not_one_is_said_in_one_line(cli) -> None:
    club_folder(cli.data)
    store_path(cli.data).write_bytes(b"not a database " * 100)
    for arguments in (("standings", "--json"),
                      ("serve", "--broker", "mqtt://127.0.0.1:1", "--club", "C", "--listen", "127.0.0.1:0")):
        code, out, err = cli("club", *arguments)
        assert code == 2 and out == "" and "the club's store cannot be read" in err, err
        assert len(err.strip().splitlines()) == 1
    assert store_path(cli.data).read_bytes() == b"not a database " * 100  # left as it was


def test_serve_reads_the_club_section_of_the_configuration(cli, tmp_path: Path) -> None:
    config = tmp_path / "companion.toml"
    config.write_text('[club]\nbroker = "ftp://nowhere"\nclub = "Tuesday club"\n')
    code, _, err = cli("club", "serve", "--config", str(config))
    assert code == 2 and "ftp://nowhere" in err  # the section's broker was read (and judged)
    config.write_text("[club\n")
    code, _, err = cli("club", "serve", "--config", str(config))
    assert code == 2 and str(config) in err
    config.write_text('[other]\nkey = 1\n')  # no [club] section: the command line must say it
    code, _, err = cli("club", "serve", "--config", str(config))
    assert code == 2 and "no broker" in err


def test_serve_prints_its_url_first_and_shows_what_a_table_publishes(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running_broker(tmp_path / "broker") as broker:
        child = subprocess.Popen(
            [sys.executable, "-m", "companion", "--data-dir", str(data), "club", "serve",
             "--broker", broker.url, "--club", kit.CLUB, "--listen", "127.0.0.1:0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])})
        output = ChildOutput(child)
        try:
            url = output.next_line()
            found = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?t=([A-Za-z0-9]{24})", url)
            assert found, url
            assert f"companion club serve --listen 0.0.0.0:{found.group(1)}" in output.next_line()
            token_file = data / "club" / "web-token"
            assert token_file.read_text().strip() == found.group(2)
            assert token_file.stat().st_mode & 0o777 == 0o600
            assert not (data / "web-token").exists()  # the club's token is not a table's
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(url.replace(found.group(2), "x" * 24), timeout=60)
            assert refused.value.code == 403
            with kit.table(broker.url, "Table 1") as one:
                topic, payload, _ = kit.play(kit.CAMPANILE, "Table 1", clock_sure=False)
                one.publish(topic, payload)

            def shown() -> bool:
                with urllib.request.urlopen(url, timeout=60) as answer:
                    return "Zsuzsanna" in answer.read().decode()

            kit.wait_for(shown)
        finally:
            child.send_signal(signal.SIGTERM)
            output.finish()
        assert child.returncode == 0, output.stderr_so_far()


def test_serve_refuses_a_credentials_file_others_may_read_as_a_table_does(cli, tmp_path: Path) -> None:
    """The club server's password is as private as a table's: one reading, one refusal, one line."""
    credentials = tmp_path / "club-credentials"
    credentials.write_text("club-server\nsecret\n")
    credentials.chmod(0o644)
    config = tmp_path / "companion.toml"
    config.write_text(f'[club]\nbroker = "mqtt://127.0.0.1:1"\nclub = "Tuesday club"\n'
                      f'credentials_file = "{credentials}"\n')
    code, out, err = cli("club", "serve", "--config", str(config), "--listen", "127.0.0.1:0")
    assert code == 2 and out == "" and "club.credentials_file" in err and "600" in err, err
    assert len(err.strip().splitlines()) == 1
