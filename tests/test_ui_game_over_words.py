"""Game over says the tie-break in the game's words and keeps the winner on screen (issue 35, items 1-2).

The screen showed the tie-break's key ("Tied on points; the highest_chip decides.", "highest_chip:
5" under every player), and with four or five players the rows pushed the winner's line off the top
("Anna nyert!" gone in Hungarian) while a breakdown's words wrapped apart from their figures
("castles_built: / 0"). The records here are random games played to their end (tests/data/over:
Campanile with five long names decided by the highest chip, Castelli with four long names and a
shared win, San Gimignano decided by the tokens on the board and shared), each looked at in English
and in Hungarian on the real shell.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from companion import i18n
from companion.i18n import say
from companion.registry import get_game
from companion.service.records import final_state, parse_record
from tests.ui_fits import problems
from ui.layout_check import label_words

OVER = Path(__file__).parent / "data" / "over"
RECORDS = sorted(path.stem for path in OVER.glob("*.json"))

shell = pytest.fixture(kit.picker_shell, name="shell")


def _outcome(record: dict[str, Any]) -> Any:
    parsed = parse_record(record)
    return parsed.game.outcome(final_state(parsed))


def _laid_lines(label: Any) -> list[str]:
    """The lines Kivy laid the label out in (its words, markup tags taken out)."""
    core = label._label
    return ["".join(word.text for word in line.words) for line in getattr(core, "_cached_lines", [])]


def _labels(root: Any) -> list[Any]:
    from kivy.uix.label import Label

    return [w for w in root.walk(restrict=True) if isinstance(w, Label) and w.opacity > 0 and w.text]


def _opened(shell: Any, name: str) -> tuple[Any, Any, dict[str, Any]]:
    """The game-over screen of the record ``name``, its outcome and the record."""
    record = json.loads((OVER / f"{name}.json").read_text(encoding="utf-8"))
    outcome = _outcome(record)
    assert outcome.decided_by not in (None, "score"), f"{name}: the record must end in a tie"
    app = shell.table.app
    shell.table.open(app.open_game(app.import_record(record)))
    assert shell.screens.current == "over"
    return shell.screens.get_screen("over"), outcome, record


def _in(shell: Any, language: str) -> None:
    i18n.set_language(language)
    shell.redraw_all()
    kit.pump(4)


@pytest.mark.parametrize("name", RECORDS)
def test_game_over_says_the_tiebreak_in_the_games_words(shell: Any, name: str) -> None:
    """Item 1: the decided line and the figure under each player the tie-break placed say it in the
    catalogue's words (``<game>.tiebreak.<key>``); its key appears nowhere on the screen."""
    screen, outcome, _record = _opened(shell, name)
    placed = set(outcome.placed_by_tiebreak())
    assert set(outcome.winners) <= placed
    try:
        for language in ("en", "hu"):
            _in(shell, language)
            words = say(outcome.tiebreak_words())
            shown = [label_words(label) for label in _labels(screen)]
            assert not [s for s in shown if outcome.tiebreak in s], (language, shown)
            assert words in screen.decided, (language, screen.decided)
            for standing, line in zip(outcome.standings, screen.standing_rows, strict=True):
                row = label_words(line.ids.words)
                assert row.startswith(standing.player), row
                assert (words in row) == (standing.player in placed), (language, row)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("name", RECORDS)
def test_the_winner_stays_on_screen_and_each_figure_with_its_words(shell: Any, name: str) -> None:
    """Item 2: with four or five players (long names, Hungarian) the winner's line is inside the
    screen, every text fits (the layout check), and no laid-out line of a breakdown starts with a
    figure (a figure parted from the word it counts: "castles built: / 2")."""
    screen = _opened(shell, name)[0]
    try:
        for language in ("en", "hu"):
            _in(shell, language)
            winner = screen.parts["winner"]
            _left, bottom = winner.to_window(winner.x, winner.y)
            assert bottom >= 0 and bottom + winner.height <= 480, (language, winner.text)
            assert winner.font_size >= 36
            found = problems(screen, figures=(winner,))
            assert not found, (language, found)
            for line in screen.standing_rows:
                laid = _laid_lines(line.ids.words)
                assert not [t for t in laid if t.strip()[:1].isdigit()], (language, laid)
    finally:
        i18n.set_language("en")


def test_only_the_players_the_tiebreak_placed_get_its_figure() -> None:
    """The fact is the engine's (:meth:`Outcome.placed_by_tiebreak`): players sharing their points."""
    for name in RECORDS:
        record = json.loads((OVER / f"{name}.json").read_text(encoding="utf-8"))
        outcome = _outcome(record)
        points = [s.score for s in outcome.standings]
        expected = {s.player for s in outcome.standings if points.count(s.score) > 1}
        assert set(outcome.placed_by_tiebreak()) == expected, name
    game = get_game("campanile")
    record = json.loads((OVER / "campanile-5p-tiebreak.json").read_text(encoding="utf-8"))
    unfinished = game.start(record["players"], record["options"], record["setup"])
    assert game.outcome(unfinished).placed_by_tiebreak() == ()
