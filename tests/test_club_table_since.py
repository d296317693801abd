"""``companion club publish --since DATE``: the games finished at the table before it was in a club
are sent when asked, once; imported and abandoned ones never (docs/club.md)."""

from __future__ import annotations

from pathlib import Path

from tests.broker_kit import running_broker
from tests.club_table_kit import Listener, companion, finish_a_game, open_table, write_config
from tests.helpers_campanile import PLAYERS, SETUP


def test_older_games_are_sent_once_when_asked(tmp_path: Path) -> None:
    data = tmp_path / "data"
    app = open_table(data, club=False)  # played before the table joined the club
    first, second = finish_a_game(app), finish_a_game(app, seed=5)
    app.abandon(app.start("campanile", list(PLAYERS), setup=SETUP).id)
    ids = {app.store.stable_id("sessions", sid) for sid in (first, second)}
    app.close()
    with running_broker(tmp_path / "broker") as broker:
        config = write_config(tmp_path, broker.url)
        nothing = companion(data, "club", "publish", "--config", str(config))
        assert nothing.returncode == 0 and "nothing waited" in nothing.stdout
        bad = companion(data, "club", "publish", "--config", str(config), "--since", "yesterday")
        assert bad.returncode == 2 and "--since" in bad.stderr
        listener = Listener(broker)
        done = companion(data, "club", "publish", "--config", str(config), "--since", "2000-01-01")
        assert done.returncode == 0, done.stderr
        assert "2 finished game(s) added" in done.stdout and "2 finished game(s) sent" in done.stdout
        heard = listener.wait_for(lambda h: len({x.topic for x in h if "/plays/" in x.topic}) == 2)
        assert {x.topic.rsplit("/", 1)[1] for x in heard if "/plays/" in x.topic} == ids
        again = companion(data, "club", "publish", "--config", str(config), "--since", "2000-01-01")
        assert "0 finished game(s) added" in again.stdout and "nothing waited" in again.stdout
        listener.close()
