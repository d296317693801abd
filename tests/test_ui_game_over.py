"""Game over read from across the table, for every game: the winner named large, the totals at 36 px,
each player's breakdown on one line (Campanile's chips), nothing cut at 800×480 in either language.

One shell on the shared window (``tests/ui_kit.py``); finished records are imported and opened one
after the other, each looked at in English and in Hungarian (the screen redrawn in place).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from companion import i18n
from tests.ui_fits import problems
from ui.layout_check import label_words
from ui.screens.game_over import KEEP

EXAMPLES = Path(__file__).parent / "data" / "examples"

#: Five players with long names, each a marker under red (Bernadett and Franziska tied), the
#: Intermezzo, a second round, the Finito: every standing line, the chips, a Hungarian tie-break.
FIVE = ["Alexandra", "Bernadett", "Franziska", "Zsuzsanna", "Krisztina"]
ROUNDS = [[("Alexandra", "red", 3), ("Bernadett", "red", 2), ("Franziska", "blue", 2),
           ("Zsuzsanna", "blue", 1), ("Krisztina", "yellow", 1)],
          [("Alexandra", "grey", 2), ("Bernadett", "blue", 3), ("Franziska", "red", 3),
           ("Zsuzsanna", "brown", 2), ("Krisztina", "grey", 2)]]


def five_player_record() -> dict[str, Any]:
    moves: list[dict[str, Any]] = []
    for turns, phase in zip(ROUNDS, ("intermezzo", "finito"), strict=True):
        for player, tower, stories in turns:
            moves += [{"type": "build", "player": player, "tower": tower, "stories": stories},
                      {"type": "influence", "player": player, "tower": tower}]
        moves.append({"type": "valuation", "phase": phase})
    return {"format": "companion-record/1", "game": "campanile", "players": FIVE, "options": {},
            "setup": {"towers": ["grey", "brown", "red", "blue", "yellow"]}, "moves": moves}


shell = pytest.fixture(kit.picker_shell, name="shell")


def looked_at(shell: Any, language: str, one_line: bool) -> dict[str, Any]:
    """The game-over screen in ``language``: its problems (:mod:`tests.ui_fits`) and what it shows;
    with ``one_line``, a breakdown (Campanile's chips) that wraps is one of them."""
    i18n.set_language(language)
    shell.redraw_all()
    screen = shell.screens.get_screen("over")
    kit.pump(4)
    winner = screen.parts["winner"]
    lines = screen.standing_rows
    scores = [line.children[0] for line in lines]  # the score, last in each line
    found = problems(screen, figures=(winner, *scores), one_line=(winner, *scores))
    words = [line.ids.words for line in lines]
    # the chips (the part after the name) on one laid-out line, not wrapped
    for label in words if one_line else ():
        laid = ["".join(word.text for word in line.words) for line in label._label._cached_lines]
        chips = label_words(label).split(KEEP, 1)[-1].strip()
        if not any(chips in line for line in laid):
            found.append(f"{chips!r} wraps: {laid}")
    return {"problems": found, "winner": winner.text, "winner_size": winner.font_size,
            "scores": [(s.text, s.font_size) for s in scores],
            "words": [label_words(w).replace(KEEP, " ") for w in words]}


def test_game_over_names_the_winner_large_and_fits_in_both_languages(shell: Any, shots: Path) -> None:
    app = shell.table.app
    records = {"campanile": json.loads((EXAMPLES / "campanile-3p.json").read_text(encoding="utf-8")),
               "castelli": json.loads((EXAMPLES / "castelli.json").read_text(encoding="utf-8")),
               "campanile-5": five_player_record()}
    seen: dict[str, Any] = {}
    for name, record in records.items():
        shell.table.open(app.open_game(app.import_record(record)))
        assert shell.screens.current == "over", name
        for language in ("en", "hu"):
            # Castelli's breakdown may wrap beside the QR code (a line as tall as its words); chips may not
            seen[f"{name}-{language}"] = looked_at(shell, language, one_line=name.startswith("campanile"))
            kit.screenshot(shots / f"{language}-over-{name}.png")
        i18n.set_language("en")
    for name, found in seen.items():
        assert not found["problems"], (name, found["problems"])
        assert found["winner_size"] >= 44, name  # larger than every other figure on the screen
        assert all(size >= 36 for _, size in found["scores"]), (name, found["scores"])
    assert seen["campanile-en"]["winner"] == "Albert wins!"
    assert [text for text, _ in seen["campanile-en"]["scores"]] == ["21", "14", "10"]
    assert "chips 5 4 3 2 2 2 2 1" in seen["campanile-en"]["words"][0]
    assert "zsetonok: 5 4 3 2 2 2 2 1" in seen["campanile-hu"]["words"][0]
    assert len(seen["campanile-5-hu"]["scores"]) == 5, seen["campanile-5-hu"]
