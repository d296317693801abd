"""The Castelli board, played by synthetic touches in an offscreen Kivy window.

Kivy allows one window per process, so every scenario of
:mod:`tests.ui_castelli_scenarios` runs in one child process
(:mod:`tests.ui_castelli_kit`), which checks the session and the widgets
after every move and writes a report and the screenshots; each test here
asserts that its scenario passed and checks the facts it reported against
the example's expected summary and the engine's own results.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.registry import get_game
from tests.refusals import english_words_in

pytest.importorskip("kivy", reason="the touchscreen needs the ui extra (kivy)")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "tests" / "data" / "examples" / "castelli.json"
EXPECTED = ROOT / "tests" / "data" / "examples" / "castelli.expected.json"
#: Seconds the child may take (every scenario on a loaded machine); a hang, not a measurement.
CHILD_LIMIT = 900
#: The taps the issue allows: a tile's four shields with silver and the confirmation, and any other move.
REVEAL_TAPS = 10
OTHER_TAPS = 2


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = Path(os.environ.get("COMPANION_UI_SHOTS") or tmp_path_factory.mktemp("ui-castelli"))
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
           "KIVY_HOME": str(tmp_path_factory.mktemp("kivy-home")), "COMPANION_LANG": "en"}
    done = subprocess.run([sys.executable, "-m", "tests.ui_castelli_kit", str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=CHILD_LIMIT, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    found: dict[str, Any] = json.loads((out / "report.json").read_text(encoding="utf-8"))
    found["_out"] = str(out)
    return found


#: A space's or an area's record name (s03, a22): never in what a player reads.
RECORD_NAME = re.compile(r"\b[as]\d+\b")

def facts(report: dict[str, Any], name: str) -> dict[str, Any]:
    result = report[name]
    assert result["ok"], result.get("error")
    return result["facts"]  # type: ignore[no-any-return]


def record_moves() -> list[dict[str, Any]]:
    """The example's moves as the engine writes them back (every field out)."""
    game = get_game("castelli")
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return [game.move_to_json(game.parse_move(move)) for move in record["moves"]]


def test_the_example_game_played_by_touch_is_the_record_and_ends_as_expected(report: dict[str, Any]) -> None:
    found = facts(report, "example_game")
    assert found["log"] == record_moves()
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    for key, value in found["summary"].items():
        assert value == expected[key], key
    assert found["summary"]["finished"] is True
    assert found["evaluations_shown"] >= 1


def test_every_move_of_the_example_takes_the_taps_the_issue_allows(report: dict[str, Any]) -> None:
    taps = facts(report, "example_game")["taps"]
    assert len(taps["reveal"]) == 12
    assert max(taps["reveal"]) <= REVEAL_TAPS
    for kind, counts in taps.items():
        if kind != "reveal":
            assert max(counts) <= OTHER_TAPS, (kind, counts)


def test_a_tie_is_shown_with_both_colours_and_the_engines_split(report: dict[str, Any]) -> None:
    found = facts(report, "tie_game")
    tie = next(e for e in found["engine"] if e["area"] == "a00")
    assert tie["influence"] == {"blue": 3, "red": 3}
    assert tie["awards"] == {"Csaba": {"wood": 1}, "Bela": {"wood": 1}}
    shown = next(row for row in found["shown"] if row["influence"] == tie["influence"])
    assert shown["why"] == tie["why"]
    assert "Csaba" in shown["why"] and "Bela" in shown["why"]
    assert any(tie["why"] in text for text in found["detail"]), "the area's detail does not explain its tie"


def test_refused_taps_say_the_engines_reason_and_change_nothing(report: dict[str, Any]) -> None:
    found = facts(report, "refused_taps_change_nothing")
    assert len(found["refusals"]) == 5
    assert all(text.strip() for text in found["refusals"])
    assert found["picker_problem"] == found["refusals"][0]
    assert found["area_problem"] == found["refusals"][-1]
    assert found["pad_problem"].strip()
    assert found["log"] == 1


def test_the_steward_turns_the_tile_just_revealed_in_two_taps(report: dict[str, Any]) -> None:
    found = facts(report, "steward_and_area_cards")
    assert found["log"] == 3
    assert len(found["turned"]) == 4


def test_the_board_speaks_hungarian(report: dict[str, Any]) -> None:
    found = facts(report, "hungarian")
    names = ("Anna", "Bela", "Csaba", "Dora")
    badges = {"An", "Be", "Cs", "Do"}  # the players' initials
    for text in [*found["buttons"], found["hint"], *found["build"], *found["area"], *found["evaluations"],
                 found["refusal"]]:
        assert not english_words_in(text, names) - badges, text
        assert not RECORD_NAME.search(text), text  # a place in words, never a22 or s03
    assert "Kiértékelések" in found["buttons"]
    assert found["refusal"].strip()


def test_every_scenario_ran_and_wrote_its_screenshots(report: dict[str, Any]) -> None:
    names = [name for name in report if not name.startswith("_")]
    assert all(report[name]["ok"] for name in names), [n for n in names if not report[n]["ok"]]
    shots = {p.name for p in Path(report["_out"]).glob("*.png")}
    for language in ("en", "hu"):
        for view in ("board-start", "first-reveal-pad", "dora-evaluation", "build-confirm", "card-picker",
                     "evaluations"):
            assert f"{language}-{view}.png" in shots, (language, view)
    assert {"en-tie-overlay.png", "en-tie-area.png", "en-steward-picker.png", "en-board-32.png",
            "en-peasant-area.png"} <= shots


def test_the_32_space_board_fits_with_cells_a_finger_can_hit(report: dict[str, Any]) -> None:
    found = facts(report, "full_board")
    assert found["cell"] >= 48
    assert found["taps"]["reveal"] and max(found["taps"]["reveal"]) <= REVEAL_TAPS
    # the area by what it is and where it lies on the drawn board, no record name anywhere in its detail
    assert found["area_lines"][0].startswith("Rock, row 2, column 2: ")
    assert not [text for text in found["area_lines"] if RECORD_NAME.search(text)]


def test_a_card_that_takes_an_area_is_played_on_the_board(report: dict[str, Any]) -> None:
    assert facts(report, "area_card")["log"] == 2
