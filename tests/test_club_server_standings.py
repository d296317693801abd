"""The club's standings (``club/standings.py``): the same-person rule, the rating, the evening,
and a Championship's standings from its club plays (``club/championship_standings.py``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st

from club.championship_standings import championship_standings
from club.club_store import StoredPlay, StoredTable
from club.standings import START, Period, evening, person_key, rate, standings

T0 = datetime(2026, 12, 3, 19, 0, tzinfo=UTC)


def _play(seq: int, players: dict[str, int], winners: tuple[str, ...], *, game: str = "campanile",
          minutes: int | None = None, ranked: bool = True, championship: dict | None = None) -> StoredPlay:
    return StoredPlay(seq, f"id-{seq}", "C", "T", game, ranked, T0 + timedelta(minutes=seq if minutes is None
                                                                                  else minutes),
                      True, tuple(players), dict(players), winners, championship)


def test_names_equal_after_nfkc_and_case_folding_are_one_person() -> None:
    assert person_key("Anna") == person_key("ANNA") == person_key("ａｎｎａ")  # full-width letters
    assert person_key("Straße") == person_key("STRASSE")
    assert person_key("Ǆ") == person_key("dž")
    assert person_key("Anna") != person_key("Anne") and person_key("Åsa") != person_key("Asa")
    lines = standings([_play(1, {"Anna": 10, "Bela": 5}, ("Anna",)),
                       _play(2, {"ANNA": 3, "bela": 7}, ("bela",))])[0].lines
    # (each shown as first written; Bela's win came against the higher rating: Bela ahead)
    assert [(line.player, line.plays, line.wins, line.average) for line in lines] == [
        ("Bela", 2, 1, 6.0), ("Anna", 2, 1, 6.5)]


def test_two_seats_of_one_person_in_one_play_count_once_by_the_better_seat() -> None:
    (game,) = standings([_play(1, {"Anna": 4, "anna": 9, "Bela": 6}, ("anna",))])
    assert {(line.player, line.plays, line.wins, line.total) for line in game.lines} == {
        ("anna", 1, 1, 9), ("Bela", 1, 0, 6)}


def test_the_rating_by_hand() -> None:
    # a two-player game at 1500 each: the winner +16, the loser -16 (K = 32)
    assert rate({}, {"a": ("A", True, 10), "b": ("B", False, 3)}) == {"a": 1516.0, "b": 1484.0}
    # a shared win is a draw between the winners; then 1516 against 1484 meeting again, the favourite
    # wins: expected 1 / (1 + 10^(-32/400)) = 0.5460, so +32 * 0.4540 = +14.53
    after = rate({"a": 1516.0, "b": 1484.0}, {"a": ("A", True, 10), "b": ("B", False, 3)})
    assert round(after["a"], 2) == 1530.53 and round(after["b"], 2) == 1469.47
    shared = rate({}, {"a": ("A", True, 5), "b": ("B", True, 5), "c": ("C", False, 9)})
    assert shared == {"a": 1508.0, "b": 1508.0, "c": 1484.0}


def test_the_rating_follows_the_order_plays_are_dated_not_received() -> None:
    win_then_lose = [_play(1, {"A": 1, "B": 0}, ("A",), minutes=1),
                     _play(2, {"A": 0, "B": 1}, ("B",), minutes=2)]
    received_late = [_play(1, {"A": 1, "B": 0}, ("A",), minutes=2),
                     _play(2, {"A": 0, "B": 1}, ("B",), minutes=1)]
    first = {line.player: round(line.rating, 2) for line in standings(win_then_lose)[0].lines}
    second = {line.player: round(line.rating, 2) for line in standings(received_late)[0].lines}
    # A wins (1516 - 1484), then B beats the favourite: expected 0.4540, +32 * 0.5460 = +17.47
    assert first == {"A": 1498.53, "B": 1501.47} and second == {"A": 1501.47, "B": 1498.53}


@given(st.lists(st.tuples(st.dictionaries(st.sampled_from(["A", "b", "B", "c", "D", "e"]),
                                          st.integers(0, 50), min_size=2, max_size=5),
                          st.integers(0, 4)), min_size=1, max_size=12))
def test_every_play_moves_ratings_by_nothing_in_all(drawn: list[tuple[dict[str, int], int]]) -> None:
    plays = []
    for seq, (players, winner) in enumerate(drawn, 1):
        names = list(players)
        plays.append(_play(seq, players, (names[winner % len(names)],)))
    for game in standings(plays):
        assert abs(sum(line.rating - START for line in game.lines)) < 1e-6
        assert sum(line.wins for line in game.lines) <= len(plays)


def test_unranked_plays_and_the_period() -> None:
    plays = [_play(1, {"A": 1, "B": 0}, ("A",), minutes=0), _play(2, {"A": 1, "B": 0}, ("A",), minutes=120),
             _play(3, {"A": 1, "B": 0}, ("A",), game="chess", ranked=False)]
    assert [g.game for g in standings(plays)] == ["campanile"]
    (late,) = standings(plays, Period(T0 + timedelta(minutes=60), None))
    assert [(line.player, line.plays) for line in late.lines] == [("A", 1), ("B", 1)]


def test_the_evening_starts_at_six_and_runs_past_midnight() -> None:
    zone = timezone(timedelta(hours=1))
    six = datetime(2026, 12, 3, 6, 0, tzinfo=zone)
    assert evening(datetime(2026, 12, 3, 21, 0, tzinfo=zone)).start == six
    assert evening(datetime(2026, 12, 4, 1, 30, tzinfo=zone)).start == six
    assert evening(datetime(2026, 12, 4, 1, 30, tzinfo=zone)).end is None


def _round(seq: int, championship: str, number: int, group: int, players: dict[str, int],
           winners: tuple[str, ...]) -> StoredPlay:
    return _play(seq, players, winners, game="castelli",
                 championship={"id": championship, "round": number, "group": group})


def test_a_knockout_championship_played_at_club_tables() -> None:
    message = {"id": "c", "table": "T", "game": "castelli", "variant": 1, "finished": True,
               "options": {"advance": "players", "shared_win": "half", "tie_break": "scores", "game": {}},
               "decisions": [], "rounds": [{"round": 1, "plays": ["id-1", "id-2"]},
                                           {"round": 2, "plays": ["id-3", "id-4"]}]}
    plays = [_round(1, "c", 1, 1, {"Anna": 11, "Bela": 16}, ("Bela",)),
             _round(2, "c", 1, 2, {"Csaba": 20, "Dora": 13}, ("Csaba",)),
             _round(3, "c", 2, 1, {"Bela": 30, "Csaba": 25}, ("Bela",)),  # the final
             _round(4, "c", 2, 2, {"Anna": 9, "Dora": 12}, ("Dora",)),  # the match for third
             _round(5, "other", 1, 1, {"X": 1, "Y": 2}, ("Y",))]
    found = championship_standings(message, plays)
    assert found is not None and found["rounds"] == 2
    assert [(row["place"], row["player"], row["won"]) for row in found["standings"]] == [
        (1, "Bela", 2), (2, "Csaba", 1), (3, "Dora", 1), (4, "Anna", 0)]


def test_a_round_still_at_the_tables_takes_its_players_from_a_status() -> None:
    message = {"id": "c", "table": "T", "game": "castelli", "variant": 2, "finished": False, "options": {},
               "decisions": [], "rounds": [{"round": 1, "plays": ["id-1"]}]}
    plays = [_round(1, "c", 1, 1, {"Anna": 11, "Bela": 16}, ("Bela",))]
    assert championship_standings(message, plays) is None  # group 2's players not known yet
    status = StoredTable("C", "T", True, {"championship": {"id": "c", "round": 1, "groups": [
        ["Anna", "Bela"], ["Csaba", "Dora"]]}}, T0)
    found = championship_standings(message, plays, [status])
    assert found is not None
    assert [(row["player"], row["played"], row["points"]) for row in found["standings"]] == [
        ("Bela", 1, 1.0), ("Anna", 1, 0.0), ("Csaba", 0, 0.0), ("Dora", 0, 0.0)]
