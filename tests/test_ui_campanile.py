"""The Campanile board, played by synthetic touches in an offscreen Kivy window.

Kivy allows one window per process, so every scenario of
:mod:`tests.ui_campanile_scenarios` runs in one child process
(:mod:`tests.ui_campanile_kit`), which checks the session and the widgets
after every tap and writes a report and the screenshots; each test here
asserts that its scenario passed and checks the facts it reported against
the engine's own results.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.registry import get_game
from tests.refusals import english_words_in

pytest.importorskip("kivy", reason="the touchscreen needs the ui extra (kivy)")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "tests" / "data" / "examples" / "campanile-3p.json"
EXPECTED = ROOT / "tests" / "data" / "examples" / "campanile-3p.expected.json"
#: Seconds the child may take (the whole set of scenarios on a loaded machine); a hang, not a measurement.
CHILD_LIMIT = 900


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = Path(os.environ.get("COMPANION_UI_SHOTS") or tmp_path_factory.mktemp("ui-campanile"))
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
           "KIVY_HOME": str(tmp_path_factory.mktemp("kivy-home")), "COMPANION_LANG": "en"}
    done = subprocess.run([sys.executable, "-m", "tests.ui_campanile_kit", str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=CHILD_LIMIT, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    found: dict[str, Any] = json.loads((out / "report.json").read_text(encoding="utf-8"))
    found["_out"] = str(out)
    return found


def facts(report: dict[str, Any], name: str) -> dict[str, Any]:
    result = report[name]
    assert result["ok"], result.get("error")
    return result["facts"]  # type: ignore[no-any-return]


def test_the_rulebook_game_played_by_touch_ends_as_its_record_does(report: dict[str, Any]) -> None:
    found = facts(report, "rulebook_game")
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert found["scores"] == expected["scores"]
    assert found["finished"] is True
    assert found["moves"] == len(record["moves"])
    # A build is one tap, a marker one more, a valuation card one hold: at most 2.5 taps a turn.
    assert found["taps"] == len(record["moves"])
    assert found["taps"] / found["turns"] <= 2.5


def test_four_players_meet_the_rulebooks_valuation_examples(report: dict[str, Any]) -> None:
    found = facts(report, "four_players")
    assert found["intermezzo_brown"] == [["Albert", 1]]
    assert found["finito_brown"] == [["Birgit", 5], ["Albert", 3], ["Franziska", 1]]
    # The engine's explanation of the Franziska-Helmut tie is on the valuation screen.
    assert any("Franziska" in text and "Helmut" in text for text in found["explanations_shown"])
    # The #1 tower, the biggest award, is the first row (the record keeps the rulebook's order).
    assert found["finito_ranks_shown"] == sorted(found["finito_ranks_shown"])
    assert found["finito_ranks_shown"][0] == 1


def test_refused_taps_say_why_flash_and_change_nothing(report: dict[str, Any]) -> None:
    found = facts(report, "refused_taps_change_nothing")
    assert len(found["refusals"]) == 3
    assert all(text.strip() for text in found["refusals"])
    assert found["log"] == 6


def test_undo_redraws_the_board(report: dict[str, Any]) -> None:
    found = facts(report, "undo_redraws")
    assert found["heights"] != found["after_undo"]


def test_the_intermezzo_preview_follows_the_game(report: dict[str, Any]) -> None:
    assert facts(report, "live_preview")["rows"] == 4


def test_the_board_speaks_hungarian(report: dict[str, Any]) -> None:
    found = facts(report, "hungarian")
    assert found["towers"] == ["piros", "kék", "sárga", "barna", "szürke"]
    for text in [*found["buttons"], found["preview_title"], *found["flag_labels"]]:
        assert not english_words_in(text, ("Intermezzo", "Finito")), text
    assert found["preview_title"] == "Ha most jönne a Finito"
    assert found["switched"] == ["red", "blue", "yellow", "brown", "grey"]
    assert found["switched_button"] == "If the Finito came now"


def test_a_tracked_display_takes_a_card_and_asks_for_the_refill(report: dict[str, Any]) -> None:
    found = facts(report, "display_tracked")
    assert found["display"] == ["red", "red", "yellow"]
    assert found["log"] == 8
    assert "grey" in found["refusal"]


def test_two_players_move_a_marker_in_three_taps(report: dict[str, Any]) -> None:
    found = facts(report, "two_player_relocation")
    assert found["red"] == [] and found["yellow"] == [["Albert", [2]]]
    assert found["flags"] == [[5, 2], [4, 1], [3], [2], [1]]


def test_the_2_player_flag_table_is_copied_from_the_cards_and_checked(report: dict[str, Any]) -> None:
    found = facts(report, "two_player_flag_table")
    assert found["stored"] == {"intermezzo": [[3, 1], [2, 1], [2], [1]],
                               "finito": [[5, 2], [4, 1], [3], [2], [1]]}
    assert found["empty"].startswith("Intermezzo #1: ")
    assert found["hu_problem"].startswith("Finito #3: ")


def test_the_screens_update_their_widgets_rather_than_make_new_ones(report: dict[str, Any]) -> None:
    """Each change reported as [widgets that appeared, widgets made]: a tap, a move under the preview,
    a tab, undo, the refill question and the flag form's keys make none. The one widget made is a
    group row (with its badge and figures) the first time a tower's stack grows that tall; what
    appears without being made is moved in from what the screen made once (a flag's tallies and
    awards, a valuation's tabs, the refill buttons in place of the display's cards)."""
    found = facts(report, "widgets_kept")
    assert found.pop("marker_new_group") == [3, 3]
    for change in ("build", "build_no_marker", "preview_follows_a_move", "flag_field", "flag_key",
                   "flags_refused"):
        assert found.pop(change) == [0, 0], change
    assert found and all(made == 0 for _appeared, made in found.values()), found


def test_every_scenario_ran_and_wrote_its_screenshots(report: dict[str, Any]) -> None:
    names = [name for name in report if not name.startswith("_")]
    assert all(report[name]["ok"] for name in names), [n for n in names if not report[n]["ok"]]
    shots = sorted(p.name for p in Path(report["_out"]).glob("*.png"))
    expected = {"en-start.png", "en-intermezzo.png", "en-finito.png", "hu-start.png", "hu-preview.png"}
    assert expected <= set(shots)


def test_the_engine_agrees_with_the_example_the_board_played() -> None:
    """The facts above are compared with the record's expected file; this checks that file is the engine's."""
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    game = get_game("campanile")
    state = game.start(record["players"], record["options"], record["setup"])
    for move in record["moves"]:
        state = game.apply(state, game.parse_move(move))
    assert state.scores == json.loads(EXPECTED.read_text(encoding="utf-8"))["scores"]


def test_the_valuation_screens_fit_and_read_biggest_first(report: dict[str, Any]) -> None:
    """Every valuation screen, both languages: nothing cut (checked in the child by tests/ui_fits.py),
    the #1 tower first, each line's awards and the totals biggest first, the chips one line a player."""
    found = facts(report, "valuations_fit")
    screens = [name for name in found if name not in ("over", "five-groups")]
    assert len(screens) == 6, screens
    for name in screens:
        seen = found[name]
        assert seen["ranks"] == sorted(seen["ranks"]) and seen["ranks"][0] == 1, (name, seen["ranks"])
        awards = seen["awards"]
        assert all(line == sorted(line, reverse=True) for line in awards), (name, awards)
        assert seen["totals"] == sorted(seen["totals"], reverse=True), (name, seen["totals"])
    # The rulebook's Finito: 11 chips given, the most (Albert's 14) first, as the engine counted them.
    assert found["en-finito"]["totals"] == [14, 10, 9] == found["hu-finito"]["totals"]
    assert found["en-finito"]["awards"][0] == [6, 4, 2]
    # Five groups under the #1 tower on one line; five flags and their ties fit without scrolling.
    assert found["five-groups"] == 5
    for name in screens:
        assert not found[name]["scrolls"], name
    assert found["en-finito"]["holdings_lines"] == 1


def test_the_board_offers_nothing_once_the_game_is_over(report: dict[str, Any]) -> None:
    over = facts(report, "valuations_fit")["over"]
    assert not over["builds_shown"] and not over["cards_shown"] and not over["preview_shown"], over
    assert over["offered"] == ["Valuations"], over["offered"]  # the valuations made, to look at
    assert not over["tap_changed"] and not over["flashed"], over


def test_a_recorded_move_is_lit_on_the_board_until_the_next_tap(report: dict[str, Any]) -> None:
    found = facts(report, "undo_redraws")["shown"]
    assert found["build"] is True and found["lit"] == ["brown"]
    assert found["valuation"] is False and found["still_lit"] == ["brown"]
    assert found["from_json"] is True
    assert found["relocation"] is True and sorted(found["lit_relocation"]) == ["blue", "red"]
    assert found["lit_after_tap"] == []
