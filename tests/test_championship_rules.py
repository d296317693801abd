"""The championship's pairings, decisions and standings, as pure functions (no store, no engine).

Each case is a championship written out by hand (who won which game) with the
pairings and standings the variant asks for, worked out by hand as well.
"""

from __future__ import annotations

import pytest

from companion.service.championship_rules import (
    ChampionshipError,
    Decision,
    GroupResult,
    check_decision,
    check_options,
    group_results,
    is_over,
    next_groups,
    pending_decision,
    standings,
)

PLAYERS = ("Ann", "Bob", "Cid", "Dan")
DEFAULTS = check_options({})


def game(first: str, second: str, a: int, b: int, winners: tuple[str, ...] | None = None) -> GroupResult:
    """A finished 2-player game; the winners are the higher score unless given (a shared win)."""
    if winners is None:
        winners = (first,) if a > b else (second,)
    return GroupResult((first, second), True, {first: a, second: b}, winners)


def playing(first: str, second: str) -> GroupResult:
    return GroupResult((first, second), False, {first: 3, second: 4}, ())


def places(lines: list) -> list[tuple[int | None, str]]:
    return [(line.place, line.player) for line in lines]


def test_options_are_written_out_with_their_defaults_and_a_bad_one_is_named() -> None:
    assert DEFAULTS == {"shared_win": "half", "advance": "players", "tie_break": "scores"}
    assert check_options({"shared_win": "one"})["shared_win"] == "one"
    with pytest.raises(ChampionshipError) as unknown:
        check_options({"sharedwin": "one"})
    assert unknown.value.message.code == "championship.option.unknown"
    with pytest.raises(ChampionshipError) as value:
        check_options({"tie_break": "coin"})
    assert value.value.message.params["option"] == "tie_break"


def test_variant_1_pairs_the_winners_in_the_final_and_the_losers_for_third() -> None:
    assert next_groups(1, PLAYERS, [], DEFAULTS, []) == (("Ann", "Bob"), ("Cid", "Dan"))
    round_1 = (game("Ann", "Bob", 30, 41), playing("Cid", "Dan"))
    assert next_groups(1, PLAYERS, [round_1], DEFAULTS, []) is None  # a game still on
    round_1 = (game("Ann", "Bob", 30, 41), game("Cid", "Dan", 50, 44))
    # the winners in the order of their round-1 groups: Bob (group 1) starts the final
    assert next_groups(1, PLAYERS, [round_1], DEFAULTS, []) == (("Bob", "Cid"), ("Ann", "Dan"))
    lines = standings(1, PLAYERS, [round_1], DEFAULTS, [])
    assert places(lines) == [(None, "Cid"), (None, "Bob"), (None, "Dan"), (None, "Ann")]
    round_2 = (game("Bob", "Cid", 60, 52), playing("Ann", "Dan"))
    lines = standings(1, PLAYERS, [round_1, round_2], DEFAULTS, [])
    assert places(lines) == [(1, "Bob"), (2, "Cid"), (None, "Dan"), (None, "Ann")]
    assert not is_over(1, [round_1, round_2])
    round_2 = (game("Bob", "Cid", 60, 52), game("Ann", "Dan", 40, 39))
    lines = standings(1, PLAYERS, [round_1, round_2], DEFAULTS, [])
    assert places(lines) == [(1, "Bob"), (2, "Cid"), (3, "Ann"), (4, "Dan")]
    bob = lines[0]
    assert (bob.played, bob.won, bob.points, bob.score) == (2, 2, 2.0, 101)
    assert is_over(1, [round_1, round_2])
    assert next_groups(1, PLAYERS, [round_1, round_2], DEFAULTS, []) is None


def test_variant_1_after_a_shared_win_waits_for_the_players_and_records_their_decision() -> None:
    round_1 = (game("Ann", "Bob", 40, 40, ("Ann", "Bob")), game("Cid", "Dan", 50, 44))
    assert next_groups(1, PLAYERS, [round_1], DEFAULTS, []) is None
    pending = pending_decision(1, [round_1], DEFAULTS, [])
    assert pending is not None and (pending.round, pending.group, pending.players) == (1, 1, ("Ann", "Bob"))
    with pytest.raises(ChampionshipError) as outsider:
        check_decision(1, [round_1], DEFAULTS, [], "Cid")
    assert outsider.value.message.code == "championship.decide.not_between"
    decision = check_decision(1, [round_1], DEFAULTS, [], "Bob")
    assert decision == Decision(1, 1, "Bob")
    assert pending_decision(1, [round_1], DEFAULTS, [decision]) is None
    assert next_groups(1, PLAYERS, [round_1], DEFAULTS, [decision]) == (("Bob", "Cid"), ("Ann", "Dan"))
    with pytest.raises(ChampionshipError) as none:
        check_decision(1, [round_1], DEFAULTS, [decision], "Ann")
    assert none.value.message.code == "championship.decide.none"
    # the reading "second": the player who did not start goes on, nobody is asked
    second = {**DEFAULTS, "advance": "second"}
    assert pending_decision(1, [round_1], second, []) is None
    assert next_groups(1, PLAYERS, [round_1], second, []) == (("Bob", "Cid"), ("Ann", "Dan"))


def test_variant_2_is_three_rounds_in_which_everyone_meets_everyone() -> None:
    rounds: list[tuple[GroupResult, GroupResult]] = []
    assert next_groups(2, PLAYERS, rounds, DEFAULTS, []) == (("Ann", "Bob"), ("Cid", "Dan"))
    rounds.append((game("Ann", "Bob", 45, 40), game("Cid", "Dan", 30, 30, ("Cid", "Dan"))))
    assert next_groups(2, PLAYERS, rounds, DEFAULTS, []) == (("Ann", "Cid"), ("Bob", "Dan"))
    rounds.append((game("Ann", "Cid", 20, 50), game("Bob", "Dan", 44, 43)))
    assert next_groups(2, PLAYERS, rounds, DEFAULTS, []) == (("Ann", "Dan"), ("Bob", "Cid"))
    rounds.append((game("Ann", "Dan", 61, 60), game("Bob", "Cid", 10, 70)))
    assert next_groups(2, PLAYERS, rounds, DEFAULTS, []) is None
    assert is_over(2, rounds)
    # points: Ann 2, Cid 2.5 (half of the shared win), Bob 1, Dan 0.5
    lines = standings(2, PLAYERS, rounds, DEFAULTS, [])
    assert [(s.place, s.player, s.points) for s in lines] == [
        (1, "Cid", 2.5), (2, "Ann", 2.0), (3, "Bob", 1.0), (4, "Dan", 0.5)]
    # a shared win worth a whole point: Cid 3, Ann 2, Dan 1 and Bob 1 level, Dan ahead on points scored
    one = {**DEFAULTS, "shared_win": "one"}
    lines = standings(2, PLAYERS, rounds, one, [])
    assert [(s.place, s.player, s.points, s.score) for s in lines] == [
        (1, "Cid", 3.0, 150), (2, "Ann", 2.0, 126), (3, "Dan", 1.0, 133), (4, "Bob", 1.0, 94)]
    # ... and left level with the reading "shared"
    shared = {**one, "tie_break": "shared"}
    assert places(standings(2, PLAYERS, rounds, shared, [])) == [
        (1, "Cid"), (2, "Ann"), (3, "Bob"), (3, "Dan")]
    # before the last game ends no place is settled
    unfinished = [*rounds[:2], (rounds[2][0], playing("Bob", "Cid"))]
    assert all(s.place is None for s in standings(2, PLAYERS, unfinished, DEFAULTS, []))


def test_a_rounds_summary_gives_each_group_its_own_result() -> None:
    summary = {"scores": {"Ann": 40, "Bob": 38, "Cid": 12, "Dan": 9}, "winners": ["Ann"], "finished": False,
               "groups": [{"scores": {"Ann": 40, "Bob": 38}, "winners": ["Ann"], "finished": True},
                          {"scores": {"Cid": 12, "Dan": 9}, "winners": [], "finished": False}]}
    first, second = group_results([["Ann", "Bob"], ["Cid", "Dan"]], summary)
    assert first == GroupResult(("Ann", "Bob"), True, {"Ann": 40, "Bob": 38}, ("Ann",))
    assert second == GroupResult(("Cid", "Dan"), False, {"Cid": 12, "Dan": 9}, ())
