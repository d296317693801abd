"""Championships from ``championship new`` to the final standings: through the service and the command line.

The rounds are real round records played through the session, as the table
enters them (:mod:`tests.championship_kit` chooses each tile's faces so that
a chosen player wins each group, or the group ends in a shared win). What is
checked is the championship's part: the pairings of every round, the colours
kept, the decision a shared win asks for, the standings after every game, the
refusals, statistics and BG Stats of a round, and the export read back.
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

from companion.console.championship import round_standings
from companion.console.loop import headless_loop
from companion.games.base import RecordError
from companion.service.app import AppError, Companion
from companion.service.castelli import CastelliService
from companion.service.championship_rules import Decision, Pending
from companion.service.live import LiveGame
from companion.service.stats import player_stats
from companion.storage.paths import DB_FILENAME
from tests.championship_kit import round_moves

FOUR = ("Ann", "Bob", "Cid", "Dan")


def play_round(live: LiveGame, winners: list[str | None]) -> None:
    """Both groups of the round played to their ends, move by move through the session."""
    game = live.session.game
    for move in round_moves(game, live.session.state, winners):
        live.session.propose(game.parse_move(move))


def refused(call: Any, code: str) -> None:
    with pytest.raises(AppError) as error:
        call()
    assert error.value.args[0].code == code, error.value.args[0]


def places(app: Companion, championship: int | None = None) -> list[tuple[int | None, str]]:
    return [(line.place, line.player) for line in app.championships.status(championship).standings]


def test_variant_1_from_new_to_the_final_through_the_service(tmp_path: Path) -> None:
    app = Companion.open(tmp_path / "s.sqlite3", clock_sure=lambda: True)
    refused(lambda: app.championships.status(), "championship.none")
    refused(lambda: app.championships.new(1, FOUR[:3]), "championship.players.four")
    refused(lambda: app.championships.new(3, FOUR), "championship.variant")
    refused(lambda: app.championships.new(1, FOUR, {"advance": "coin"}), "championship.option.value")
    assert app.championships.list() == []  # nothing was stored by a refusal

    first = app.championships.new(1, FOUR)
    championship = first.row.championship
    assert championship is not None and first.row.championship_round == 1
    assert app.championships.of_game(first.id) == championship
    assert first.row.setup["groups"] == [["Ann", "Bob"], ["Cid", "Dan"]]
    assert first.row.players == FOUR
    refused(app.championships.next_round, "championship.round_unfinished")
    refused(lambda: app.championships.decide("Ann"), "championship.decide.none")
    # the console's status adds the standings while a round is played (none for a game on its own)
    out = io.StringIO()
    headless_loop(first.session, ["status"], out,
                  also_status=lambda: round_standings(app.championships, first))
    # inside the console playing it, what to type there, not another command line
    assert out.getvalue().splitlines()[-1] == (
        "round 1 is this game: type `moves` for what may be entered, `status` for where it stands")
    assert "championship 1, variant 1: round 1 of 2" in out.getvalue().splitlines()
    assert round_standings(app.championships, None) is None
    in_progress = json.loads(json.dumps(app.championships.export()))  # read back below

    play_round(first, ["Bob", None])  # Bob wins group 1; Cid and Dan share the win of group 2
    status = app.championships.status()
    assert status.pending == Pending(1, 2, ("Cid", "Dan")) and status.next_groups is None
    assert status.current is None and not status.over
    assert [(s.player, s.played, s.won, s.points, s.score) for s in status.standings] == [
        ("Bob", 1, 1, 1.0, 4), ("Cid", 1, 1, 1.0, 0), ("Dan", 1, 1, 1.0, 0), ("Ann", 1, 0, 0.0, 0)]
    refused(app.championships.next_round, "championship.decide.needed")
    refused(lambda: app.championships.decide("Bob"), "championship.decide.not_between")
    status = app.championships.decide("dan")  # typed in any case, as names are everywhere
    assert status.decisions == (Decision(1, 2, "Dan"),)
    assert status.next_groups == (("Bob", "Dan"), ("Ann", "Cid"))

    final = app.championships.next_round()
    assert final.row.setup["groups"] == [["Bob", "Dan"], ["Ann", "Cid"]]
    assert final.row.setup["colors"] == first.row.setup["colors"]  # everyone keeps the colour of round 1
    play_round(final, ["Dan", "Ann"])
    status = app.championships.status()
    assert status.over and [s.to_json() for s in status.standings] == [
        {"place": 1, "player": "Dan", "played": 2, "won": 2, "points": 2.0, "score": 4},
        {"place": 2, "player": "Bob", "played": 2, "won": 1, "points": 1.0, "score": 4},
        {"place": 3, "player": "Ann", "played": 2, "won": 1, "points": 1.0, "score": 4},
        {"place": 4, "player": "Cid", "played": 2, "won": 1, "points": 1.0, "score": 0}]
    refused(app.championships.next_round, "championship.over")

    # statistics: each round is one 2-player game for each of its players, won by its group's winners
    stats = {s.player: (s.played, s.won) for s in player_stats(app.store.results())}
    assert stats == {"Ann": (2, 1), "Bob": (2, 1), "Cid": (2, 1), "Dan": (2, 2)}
    # BG Stats: a round is two 2-player plays
    plays = app.bgstats_file(first.id)["plays"]
    assert [len(play["playerScores"]) for play in plays] == [2, 2]
    assert [[s["winner"] for s in play["playerScores"]] for play in plays] == [[False, True], [True, True]]
    assert len({play["uuid"] for play in plays}) == 2
    refused(lambda: app.bgstats_link(first.id), "app.bgstats.name_group")
    assert "Bob" in app.bgstats_link(first.id, 1) and "Bob" not in app.bgstats_link(first.id, 2)

    # the export is read back into another store as the same championship
    exported = json.loads(json.dumps(app.championships.export()))
    assert exported["format"] == "companion-championship/1" and len(exported["rounds"]) == 2
    (tmp_path / "other").mkdir()  # (one writer per folder)
    other = Companion.open(tmp_path / "other" / "s.sqlite3")
    copied = other.championships.import_data(exported)
    again = other.championships.status(copied)
    assert (again.standings, again.decisions, again.over) == (status.standings, status.decisions, True)
    assert [r.session_id for r in again.rounds] == [row.id for row in other.store.championship_rounds(copied)]
    assert other.championships.export(copied) == {**exported}
    refused(lambda: other.championships.import_data(exported), "championship.import.duplicate")
    refused(lambda: app.championships.import_data(exported), "championship.import.duplicate")  # its own
    # a championship in the middle of its round 1 is read back with the round to go on with
    going = other.championships.import_data(in_progress)
    current = other.championships.status(going).current
    assert current is not None and other.resume(current.session_id).row.championship == going
    _refusals(other, exported)
    other.close()
    app.close()


def _refusals(app: Companion, good: dict[str, Any]) -> None:
    """Each field of an export that is wrong is refused naming the field; nothing is stored."""
    before = len(app.championships.list())

    def changed(**fields: Any) -> dict[str, Any]:
        data = copy.deepcopy(good)
        data.update(fields)
        return data

    swapped = copy.deepcopy(good["rounds"])
    swapped[1]["setup"]["groups"] = [["Ann", "Cid"], ["Bob", "Dan"]]
    later = copy.deepcopy(good["standings"])
    later[0]["points"] = 3
    cases = [
        ({k: v for k, v in good.items() if k != "decisions"}, "decisions: missing"),
        (changed(format="companion-record/1"), "format: must be"),
        (changed(variant=3), "variant: "),
        (changed(players=["Ann", "Bob", "Cid", "ann"]), "players: must be four different names"),
        (changed(options={"tie_break": "dice"}), "options: "),
        (changed(rounds=swapped), "rounds[1]"),
        (changed(decisions=[]), "rounds[1]: a round that the rounds before it do not allow yet"),
        (changed(decisions=[{"round": 1, "group": 2, "advances": "Cid"}, {"round": 1, "group": 1,
                                                                          "advances": "Bob"}]), "rounds[1]"),
        (changed(standings=later), "standings: do not agree with the rounds"),
        (changed(rounds=[*good["rounds"], good["rounds"][0]]), "rounds: must be a list of at most 2"),
    ]
    for data, said in cases:
        with pytest.raises(RecordError) as error:
            app.championships.import_data(data)
        assert said in str(error.value), (said, str(error.value))
    assert len(app.championships.list()) == before


def test_variant_2_through_the_command_line(cli, run_cli, tmp_path: Path) -> None:
    store = cli.data / DB_FILENAME
    code, out, err = cli("championship", "new", "--variant", "2", "Ann", "Bob", "Cid", "Dan",
                         "--option", "shared_win=one")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "championship 1 (variant 2, 3 rounds) started"
    assert out.splitlines()[1] == "round 1 is session 1: Ann v Bob, and Cid v Dan"
    code, out, err = cli("championship", "next")
    assert (code, out) == (2, "")
    assert err == "companion: round 1 (session 1) is still being played; finish both games first\n"
    # round 1: Ann and Bob share; round 2: Ann beats Cid, Bob beats Dan; round 3: Dan beats Ann, Cid beats Bob
    for number, winners in enumerate([[None, "Cid"], ["Ann", "Bob"], ["Dan", "Cid"]], start=1):
        with Companion.open(store) as app:
            live = app.resume()
            assert live.row.championship_round == number
            play_round(live, winners)
        code, out, err = cli("championship", "status")
        assert (code, err) == (0, "")
        if number < 3:
            assert out.splitlines()[-1] == f"round {number + 1} is next: companion championship next"
            code, out, err = cli("championship", "next")
            assert (code, err) == (0, ""), err
    lines = out.splitlines()
    assert lines[0] == "championship 1, variant 2: round 3 of 3"
    sessions = cli("sessions")[1].splitlines()
    assert sessions[1].startswith(" 3  Castelli  Ann, Dan, Bob, Cid") and sessions[1].endswith(
        "; round 3 of championship 1")
    assert lines[1] == "round 1 (session 1): Ann v Bob 0:0, a shared win; Cid v Dan 4:0, Cid won"
    assert lines[-1] == "over: Cid won the championship"
    code, out, _ = cli("championship", "status", "--json")
    standings = json.loads(out)["standings"]
    # with shared_win=one, Ann, Bob and Cid have 2 points, Dan 1; Cid scored the most points (8)
    # and Ann and Bob are level on those too (4), so they share the place
    assert [(s["place"], s["player"], s["points"], s["score"]) for s in standings] == [
        (1, "Cid", 2.0, 8), (2, "Ann", 2.0, 4), (2, "Bob", 2.0, 4), (4, "Dan", 1.0, 4)]
    # in Hungarian too
    code, out, err = cli("--lang", "hu", "championship", "next")
    assert (code, out) == (2, "")
    assert err == "companion: az 1. bajnokság véget ért: minden fordulót lejátszottak\n"
    # export and import (into a fresh data directory) through the command line
    exported = tmp_path / "championship.json"
    code, _, err = cli("export", "--championship", "-o", str(exported))
    assert code == 0 and err == f"wrote the championship with 3 rounds to {exported}\n"
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    code, out, err = run_cli("--data-dir", str(fresh), "import", str(exported))
    assert (code, err) == (0, "")
    assert out.endswith(" stored as championship 1 with 3 rounds\n")  # (the long path is cut short)
    code, out, err = run_cli("--data-dir", str(fresh), "import", str(exported))
    assert (code, err) == (2, "companion: this championship is already stored as championship 1\n")


def test_every_round_is_played_on_the_two_halves_named_when_the_championship_starts(tmp_path: Path) -> None:
    """A table that entered its real board halves names them once (``--boards``): every round gets
    group 1's half and group 2's, a half entered here inline; an unknown name starts nothing."""
    with Companion.open(tmp_path / DB_FILENAME) as app:
        ours = CastelliService.of(app).board_data("example-2p-extra-mine")
        CastelliService.of(app).save_board("Our far side", ours)
        refused(lambda: app.championships.new(1, FOUR, {"boards": ["example-2p", "Nowhere"]}),
                "app.board.unknown")
        refused(lambda: app.championships.new(1, FOUR, {"boards": ["example-2p"]}),
                "championship.option.boards")
        assert app.championships.list() == []
        live = app.championships.new(1, FOUR, {"boards": ["example-2p", "Our far side"]})
        first = live.row.setup["boards"]
        assert first[1] == ours and first[0] != ours
        assert app.championships.status().options["boards"] == ["example-2p", "Our far side"]
        play_round(live, ["Ann", "Dan"])
        final = app.championships.next_round()
        assert final.row.setup["boards"] == first
        exported = app.championships.export()
        assert exported["options"]["boards"] == ["example-2p", "Our far side"]
    with Companion.open(tmp_path / "elsewhere.db") as elsewhere:
        elsewhere.championships.import_data(exported)
        assert elsewhere.championships.status().options["boards"] == ["example-2p", "Our far side"]


def test_the_halves_on_the_command_line(cli) -> None:
    code, out, err = cli("championship", "new", "--variant", "2", "Ann", "Bob", "Cid", "Dan",
                         "--boards", "example-2p", "example-2p-extra-mine")
    assert (code, err) == (0, "")
    code, out, err = cli("championship", "status", "--json")
    assert json.loads(out)["options"]["boards"] == ["example-2p", "example-2p-extra-mine"]
