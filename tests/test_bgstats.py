"""BG Stats: the play file and the push link field by field, and the QR code made from exactly that link."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.service.app import Companion
from companion.service.bgstats import PUSH_URL, SOURCE_NAME, Play, play_file, push_data, push_link, write_qr

EXAMPLES = Path(__file__).parent / "data" / "examples"
START = datetime(2024, 5, 1, 20, 0)


def make_play(scores: dict[str, int], winners: set[str], **extra) -> Play:
    return Play(key="7:x", game="campanile", game_title="Campanile", players=tuple(scores),
                scores=scores, winners=frozenset(winners), started=START,
                finished=START + timedelta(minutes=47, seconds=40), **extra)


def link_data(link: str) -> dict:
    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == PUSH_URL
    query = parse_qs(parts.query, strict_parsing=True)
    assert list(query) == ["data"] and len(query["data"]) == 1
    return json.loads(query["data"][0])


def test_the_play_file_carries_every_field_the_app_writes() -> None:
    play = make_play({"Ann": 12, "Bob": 15, "Cid": 12}, {"Bob"}, bgg_id=298047, location="Kitchen")
    data = play_file(play, exported=START + timedelta(hours=2))
    assert [p["name"] for p in data["players"]] == ["Ann", "Bob", "Cid"]
    (game,) = data["games"]
    assert (game["name"], game["bggId"], game["highestWins"], game["usesTeams"]) == (
        "Campanile", 298047, True, False)
    (location,) = data["locations"]
    assert location["name"] == "Kitchen" and location["id"] == 1
    (entry,) = data["plays"]
    assert entry["playDate"] == "2024-05-01 20:00:00" and entry["durationMin"] == 48
    assert entry["usesTeams"] is False and entry["manualWinner"] is False
    assert entry["locationRefId"] == 1 and entry["entryDate"] == "2024-05-01 22:00:00"
    assert entry["playerScores"] == [
        {"playerRefId": 1, "score": "12", "winner": False, "rank": 2, "newPlayer": False,
         "startPlayer": True, "seatOrder": 1, "role": ""},
        {"playerRefId": 2, "score": "15", "winner": True, "rank": 1, "newPlayer": False,
         "startPlayer": False, "seatOrder": 2, "role": ""},
        {"playerRefId": 3, "score": "12", "winner": False, "rank": 2, "newPlayer": False,
         "startPlayer": False, "seatOrder": 3, "role": ""}]
    again = play_file(play, exported=START)
    assert again["plays"][0]["uuid"] == entry["uuid"]  # stable: BG Stats sees the same play


def test_without_a_table_name_there_is_no_location_and_bgg_id_is_0() -> None:
    data = play_file(make_play({"Ann": 3, "Bob": 1}, {"Ann"}), exported=START)
    assert data["locations"] == [] and "locationRefId" not in data["plays"][0]
    assert data["games"][0]["bggId"] == 0


@pytest.mark.parametrize(("scores", "winners", "ranks", "manual"), [
    ({"A": 20, "B": 20, "C": 5}, {"A"}, [1, 2, 3], True),        # the tie-break (highest chip) decided
    ({"A": 20, "B": 20, "C": 5}, {"A", "B"}, [1, 1, 3], False),  # a shared win
    ({"A": 5, "B": 9, "C": 9, "D": 1}, {"B", "C"}, [3, 1, 1, 4], False),
    ({"A": 5, "B": 9, "C": 7, "D": 7}, {"B"}, [4, 1, 2, 2], False),  # ties below the winner share a rank
])
def test_ranks_and_the_manual_winner(scores: dict[str, int], winners: set[str], ranks: list[int],
                                     manual: bool) -> None:
    play = make_play(scores, winners)
    entry = play_file(play, exported=START)["plays"][0]
    assert [s["rank"] for s in entry["playerScores"]] == ranks
    assert entry["manualWinner"] is manual
    assert [p["rank"] for p in push_data(play)["players"]] == ranks


def test_the_push_link_carries_the_documented_fields() -> None:
    play = make_play({"Ann": 12, "Bob": 15}, {"Bob"}, bgg_id=298047, location="Kitchen")
    data = link_data(push_link(play))
    assert set(data) == {"sourceName", "sourcePlayId", "playDate", "durationMin", "game", "players"}
    assert data["sourceName"] == SOURCE_NAME
    assert data["sourcePlayId"] == play_file(play, START)["plays"][0]["uuid"]
    assert (data["playDate"], data["durationMin"]) == ("2024-05-01 20:00:00", 48)
    assert data["game"] == {"name": "Campanile", "bggId": 298047, "sourceGameId": "campanile",
                            "highestWins": True, "noPoints": False}
    ann, bob = data["players"]
    assert set(ann) == {"name", "sourcePlayerId", "score", "winner", "rank", "startPlayer"}
    assert (ann["name"], ann["score"], ann["winner"], ann["rank"], ann["startPlayer"]) == (
        "Ann", 12, False, 2, True)
    assert (bob["name"], bob["score"], bob["winner"], bob["rank"], bob["startPlayer"]) == (
        "Bob", 15, True, 1, False)
    assert ann["sourcePlayerId"] != bob["sourcePlayerId"]


def test_names_with_reserved_characters_survive_the_link() -> None:
    names = {"Zoë & Ádám": 3, "a+b=c?#/": 2}
    data = link_data(push_link(make_play(names, {"Zoë & Ádám"})))
    assert [p["name"] for p in data["players"]] == list(names)


def test_the_qr_code_holds_exactly_the_link(tmp_path: Path) -> None:
    import zxingcpp  # a dev dependency: a real decoder, as a phone would read it
    from PIL import Image

    link = push_link(make_play({"Ann": 12, "Bob": 15, "Cid": 9, "Dora": 15}, {"Bob"}, bgg_id=1))
    path = tmp_path / "play.png"
    write_qr(link, path)
    (found,) = zxingcpp.read_barcodes(Image.open(path))
    assert found.text == link


def test_the_service_fills_bgg_id_and_location_from_the_settings(tmp_path: Path) -> None:
    with Companion.open(tmp_path / "companion.sqlite3") as app:
        sid = app.import_record(json.loads((EXAMPLES / "castelli.json").read_text(encoding="utf-8")))
        app.change_setting("table.name", "Garden")
        app.change_setting("bgg_id.castelli", 12345)
        data = link_data(app.bgstats_link(sid))
        file = app.bgstats_file(sid)
        summary = app.open_game(sid).session.game.summary(app.open_game(sid).session.state)
    assert data["game"]["bggId"] == 12345 and file["games"][0]["bggId"] == 12345
    assert file["locations"][0]["name"] == "Garden"
    assert {p["name"]: p["score"] for p in data["players"]} == summary["scores"]
    assert {p["name"] for p in data["players"] if p["winner"]} == set(summary["winners"])


# -- the command line ------------------------------------------------------------------------------

@pytest.fixture
def cli(run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    data = tmp_path / "data"

    def run(*args: str) -> tuple[int, str, str]:
        return run_cli("--data-dir", str(data), *args)
    return run


def test_export_bgstats_link_and_its_qr_code(cli, tmp_path: Path) -> None:
    import zxingcpp
    from PIL import Image

    assert cli("import", str(EXAMPLES / "castelli.json"))[0] == 0
    code, out, err = cli("export", "--bgstats-link")
    assert (code, err) == (0, "")
    link = out.strip()
    assert out == link + "\n" and link_data(link)["game"]["sourceGameId"] == "castelli"
    png = tmp_path / "play.png"
    code, out, err = cli("export", "1", "--bgstats-link", "--qr", str(png))
    assert (code, out) == (0, link + "\n")
    assert err == f"wrote the BG Stats link of session 1 as a QR code to {png}\n"
    (found,) = zxingcpp.read_barcodes(Image.open(png))
    assert found.text == link


def test_export_bgstats_link_mistakes_are_one_line_and_write_nothing(cli, tmp_path: Path) -> None:
    png = tmp_path / "play.png"
    assert cli("export", "--qr", str(png)) == (
        2, "", "companion: export: --qr writes the BG Stats link as a QR code; give --bgstats-link with it\n")
    assert cli("export", "--bgstats", "--bgstats-link") == (
        2, "", "companion: export: choose --bgstats (a play file) or --bgstats-link (a link), not both\n")
    assert cli("export", "--bgstats-link") == (2, "", "companion: there is no finished game to export\n")
    cli("new", "campanile", "Ann", "Bob", "Cid")
    assert cli("export", "1", "--bgstats-link", "--qr", str(png)) == (
        2, "", "companion: session 1 is not finished; BG Stats takes finished games only\n")
    cli("import", str(EXAMPLES / "castelli.json"))
    code, out, err = cli("export", "2", "--bgstats-link", "--qr", str(tmp_path / "play.gif"))
    assert (code, out) == (2, "") and "the QR code is written as a PNG" in err
    assert not png.exists() and not (tmp_path / "play.gif").exists()


# -- ranks: invariants over any scores and any winners the engines could name -------------------------


@st.composite
def finished_games(draw) -> tuple[dict[str, int], set[str]]:
    names = [f"P{i}" for i in range(draw(st.integers(2, 5)))]
    scores = {name: draw(st.integers(0, 30)) for name in names}
    best = max(scores.values())
    leaders = [n for n in names if scores[n] == best]
    winners = set(draw(st.lists(st.sampled_from(leaders), min_size=1, unique=True)))
    return scores, winners


@given(finished_games())
def test_rank_invariants(game: tuple[dict[str, int], set[str]]) -> None:
    scores, winners = game
    play = make_play(scores, winners)
    ranks = {name: play.rank(name) for name in scores}
    assert {n for n, r in ranks.items() if r == 1} == winners
    for a in scores:
        for b in scores:
            if a not in winners and b not in winners and scores[a] == scores[b]:
                assert ranks[a] == ranks[b]  # ties below the winners share a rank
            if scores[a] > scores[b] and b not in winners:
                assert ranks[a] < ranks[b]  # more points, a better rank
    assert all(1 <= r <= len(scores) for r in ranks.values())
    assert play.manual_winner == (len(winners) < sum(1 for s in scores.values() if s == max(scores.values())))
