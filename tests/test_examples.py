"""The example records replay through the real CLI with the expected summary values.

tests/data/examples holds one record per game (and Castelli Championship rounds) and the summary
values it must give; the comparison is order-free where docs/records.md says so.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import EXAMPLES

RECORDS = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))


def _normalise(key, value):
    if key in ("winners", "must_build"):
        return sorted(value or [])
    if key == "buildable" and isinstance(value, dict):
        return {p: sorted(sorted(tuple(s) for s in g) for g in gs) for p, gs in value.items()}
    if key == "valuations" and isinstance(value, list):
        return sorted((v["phase"], f["tower"], f.get("rank"), tuple(f.get("flag", [])),
                       tuple((a["player"], a["points"]) for a in f.get("awards", [])))
                      for v in value for f in v.get("flags", []))
    if key == "chips" and isinstance(value, dict):
        return {p: sorted(c, reverse=True) for p, c in value.items()}
    return value


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.stem)
def test_example_replays_to_expected_values(record, run_cli):
    expected = json.loads(record.with_name(record.stem + ".expected.json").read_text())
    code, out, err = run_cli("replay", str(record), "--json")
    assert code == 0, err
    summary = json.loads(out)
    for key, value in expected.items():
        if key == "groups":  # a Castelli Championship round: each group's expected fields
            assert len(summary["groups"]) == len(value)
            for number, (got, wanted) in enumerate(zip(summary["groups"], value, strict=True), start=1):
                for field, item in wanted.items():
                    got_item = got.get(field)
                    if field == "shortfalls":
                        got_item = [{k: s[k] for k in ("player", "source", "gained", "due")}
                                    for s in got_item]
                    assert _normalise(field, got_item) == _normalise(field, item), f"group {number}: {field}"
            continue
        assert _normalise(key, summary.get(key)) == _normalise(key, value), key


def test_there_is_an_example_for_every_game():
    from companion.registry import game_names

    games = {json.loads(p.read_text())["game"] for p in RECORDS}
    assert games == set(game_names())
