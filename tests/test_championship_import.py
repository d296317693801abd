"""Imports know their own (issue 34, defect 17).

A Championship round exported alone (``companion export <round>``) and imported before its
championship's export was stored twice: once on its own, once as the championship's round. And
a championship's import took an ``options.game`` its rounds were not played with, ``"place":
true`` for place 1 (Python counts ``True`` as 1) and a championship without a round. Real stores
in temporary folders; the championship is played through the service as the table plays it.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from companion.games.base import RecordError
from companion.service.app import AppError, Companion
from companion.service.championship_import import same_json
from companion.service.championship_rules import OPTIONS, standings
from tests.test_championship import FOUR, play_round

Exports = dict[str, Any]


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> Exports:
    """Variant 1 with round 1 played (Bob wins group 1, Cid and Dan share group 2, Dan advances),
    round 2 being played: the championship's export, and each round exported alone."""
    folder = tmp_path_factory.mktemp("played")
    with Companion.open(folder / "s.sqlite3", clock_sure=lambda: True) as app:
        first = app.championships.new(1, FOUR)
        in_progress = app.championships.export()
        round_1_fresh = app.export_record(first.id)
        play_round(first, ["Bob", None])
        app.championships.decide("Dan")
        final = app.championships.next_round()
        data = {"championship": app.championships.export(), "round 1": app.export_record(first.id),
                "round 2": app.export_record(final.id), "in progress": in_progress,
                "round 1 fresh": round_1_fresh}
        play_round(final, ["Dan", "Ann"])
        data["finished"] = app.championships.export()
    return json.loads(json.dumps(data))  # as read back from the files


def _open(tmp_path: Path, name: str = "store") -> Companion:
    (tmp_path / name).mkdir()
    return Companion.open(tmp_path / name / "s.sqlite3")


def test_a_round_imported_alone_before_its_championship_becomes_its_round_not_a_second_game(
        exports, tmp_path) -> None:
    with _open(tmp_path) as app:
        alone = app.import_record(exports["round 1"])
        assert app.store.session(alone).championship is None
        championship = app.championships.import_data(exports["championship"])
        sessions = app.store.list_sessions()
        assert len(sessions) == 2  # round 1 (the game imported alone) and round 2: no copy
        rounds = app.store.championship_rounds(championship)
        assert rounds[0].id == alone and [r.championship_round for r in rounds] == [1, 2]
        assert app.championships.export(championship) == exports["championship"]  # the same championship
        with pytest.raises(AppError) as error:  # and the round alone once more is known
            app.import_record(exports["round 1"])
        assert error.value.args[0].code == "app.import.duplicate"


def test_every_round_alone_then_the_championship_and_the_other_order_store_each_game_once(
        exports, tmp_path) -> None:
    """The variation: both rounds alone first (the second one still being played), then the
    championship; and in another store the championship first, then a round alone (refused,
    naming the round's game)."""
    with _open(tmp_path, "rounds first") as app:
        ids = [app.import_record(exports["round 2"]), app.import_record(exports["round 1"])]
        championship = app.championships.import_data(exports["championship"])
        assert [r.id for r in app.store.championship_rounds(championship)] == ids[::-1]
        assert len(app.store.list_sessions()) == 2
        status = app.championships.status(championship)
        assert status.current is not None and status.current.session_id == ids[0]  # round 2 goes on
    with _open(tmp_path, "championship first") as app:
        championship = app.championships.import_data(exports["championship"])
        round_1 = app.store.championship_rounds(championship)[0].id
        with pytest.raises(AppError) as error:
            app.import_record(exports["round 1"])
        assert error.value.args[0].code == "app.import.duplicate"
        assert error.value.args[0].params["session"] == round_1
        assert len(app.store.list_sessions()) == 2


def test_a_fresh_round_alone_is_the_in_progress_championships_round_and_the_played_one_is_another(
        exports, tmp_path) -> None:
    """A round exported before a move was made, imported alone, is the round of the championship
    exported at the same moment; the championship exported later (its round 1 played) is another
    game and another championship here, and the fresh game stays the first one's round."""
    with _open(tmp_path) as app:
        fresh = app.import_record(exports["round 1 fresh"])
        going = app.championships.import_data(exports["in progress"])
        assert [r.id for r in app.store.championship_rounds(going)] == [fresh]
        assert len(app.store.list_sessions()) == 1
        played = app.championships.import_data(exports["championship"])
        assert fresh not in [r.id for r in app.store.championship_rounds(played)]
        assert app.store.session(fresh).championship == going
        assert len(app.store.list_sessions()) == 3


def _refused(app: Companion, data: Exports, path: str, code: str) -> None:
    before = (len(app.championships.list()), len(app.store.list_sessions()))
    with pytest.raises(RecordError) as error:
        app.championships.import_data(data)
    assert (error.value.path, getattr(error.value.message, "code", None)) == (path, code), str(error.value)
    assert "\n" not in str(error.value)
    assert (len(app.championships.list()), len(app.store.list_sessions())) == before  # nothing stored


def test_a_championship_whose_rounds_were_played_with_other_game_options_is_refused(exports,
                                                                                    tmp_path) -> None:
    with _open(tmp_path) as app:
        data = copy.deepcopy(exports["championship"])
        data["options"]["game"] = {"spares": "split"}  # the rounds were played with the shared spares
        _refused(app, data, "rounds[0].options", "championship.import.round_options")
        data["options"]["game"] = {"spares": "hoarded"}  # options no round could be started with
        with pytest.raises(RecordError) as error:
            app.championships.import_data(data)
        assert error.value.path == "options.game" and "spares" in str(error.value)
        data["options"]["game"] = {"spares": "shared"}  # written out, the same options: the same rounds
        assert app.championships.import_data(data) > 0


@pytest.mark.parametrize("change", [
    lambda data: data["standings"][0].__setitem__("place", True),
    lambda data: data["standings"][3].__setitem__("won", True),
    lambda data: data["standings"][2].__setitem__("played", 2.0) or data["standings"][0].__setitem__(
        "place", 1.0) or data["standings"][1].__setitem__("place", True),
], ids=["place", "won", "place among numbers"])
def test_true_is_not_a_number_in_the_standings(exports, tmp_path, change) -> None:
    with _open(tmp_path) as app:
        data = copy.deepcopy(exports["finished"])
        assert [line["place"] for line in data["standings"]] == [1, 2, 3, 4]
        assert [line["won"] for line in data["standings"]][3] == 1
        broken = copy.deepcopy(data)
        change(broken)
        _refused(app, broken, "standings", "championship.import.standings")
        data["standings"][1]["points"] = int(data["standings"][1]["points"])  # 1 for 1.0: the same number
        assert app.championships.import_data(data) > 0


def test_a_decision_with_true_for_its_round_is_refused(exports, tmp_path) -> None:
    with _open(tmp_path) as app:
        data = copy.deepcopy(exports["championship"])
        data["decisions"][0]["round"] = True
        _refused(app, data, "decisions[0]", "championship.import.decision")


def test_a_championship_without_a_round_is_refused(exports, tmp_path) -> None:
    with _open(tmp_path) as app:
        data = copy.deepcopy(exports["in progress"])
        data["rounds"] = []
        readings = {name: str(data["options"][name]) for name in OPTIONS}
        data["standings"] = [s.to_json() for s in standings(1, FOUR, [], readings, [])]
        _refused(app, data, "rounds", "championship.import.no_rounds")


@pytest.mark.parametrize(("field", "value", "path"), [
    ("players", ["Ann", "B\u202eob", "Cid", "Dan"], "players[1]"),
    ("players", ["Ann", "Bob", "Cid", "Dan\u2066"], "players[3]"),
    ("players", ["Ann", "Bob", "Cid", "D" * 25], "players[3]"),
])
def test_a_championships_names_are_judged_by_the_one_name_rule(exports, tmp_path, field, value, path) -> None:
    with _open(tmp_path) as app:
        data = copy.deepcopy(exports["championship"])
        data[field] = value
        with pytest.raises(RecordError) as error:
            app.championships.import_data(data)
        assert error.value.path == path and error.value.message.code.startswith("common.name.")


def test_same_json_tells_true_from_1_but_not_1_from_1_point_0() -> None:
    assert same_json({"a": [1, 2.0]}, {"a": [1.0, 2]})
    assert not same_json({"a": True}, {"a": 1}) and not same_json([0], [False])
    assert not same_json({"a": 1}, {"a": 1, "b": 2}) and not same_json([1], [1, 1])
    assert not same_json("1", 1) and same_json(None, None) and not same_json(None, 0)
