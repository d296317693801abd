"""The layout check over every screen players see: each example record at its end and cut in
mid-game (the San Gimignano cut at its first forced build among them), in both languages, with the
boards' own views (Campanile's valuations, Castelli's evaluation and area overlays, San
Gimignano's segment and build views), game over and the OLED's pages.

It runs ``companion snapshot --check``'s writers in this process, on the one shared window.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from companion import i18n
from companion.service.records import final_state, load_record
from hardware.snapshot import write_oled
from tests.conftest import EXAMPLES
from ui.snapshot import write_screens

del kit  # imported for the window it opens

#: Where each example is cut (a number of moves; "forced": just before the first tower, which the
#: rules force). The ends are checked in both languages, each cut in one language, alternating, and
#: only the screens that show the game, to keep the suite's time (docs/performance.md).
CUTS: dict[str, tuple[int | str, ...]] = {
    "campanile-3p": (31, 50),
    "castelli": (9, 14),
    "san-gimignano": ("forced", 25),
}
#: The screens that show the game: the board and its history, game over (a board adds its own views).
GAME_SCREENS = ("screen.png", "history.png", "game-over.png")
#: The example whose end is checked with every screen (home, settings and the tools look the same
#: whatever the record; once per language is enough).
EVERY_SCREEN = "campanile-3p"
CASES = [(game, None, language) for game in CUTS for language in i18n.LANGUAGES] + [
    (game, cut, i18n.LANGUAGES[index % 2]) for game, cuts in CUTS.items() for index, cut in enumerate(cuts)]


def _cut(record: dict[str, Any], cut: int | str | None) -> dict[str, Any]:
    if cut is None:
        return record
    moves = record["moves"]
    count = next(i for i, m in enumerate(moves) if m["type"] == "tower") if cut == "forced" else int(cut)
    rest = {key: value for key, value in record.items() if key not in ("summary", "result")}
    return {**rest, "moves": moves[:count]}


@pytest.mark.parametrize(("game", "cut", "language"), CASES)
def test_every_screen_passes_the_layout_check(game: str, cut: int | str | None, language: str,
                                              tmp_path: Path) -> None:
    record = _cut(json.loads((EXAMPLES / f"{game}.json").read_text(encoding="utf-8")), cut)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    problems: list[str] = []
    i18n.set_language(language)
    try:
        parsed = load_record(str(path))
        write_oled(parsed, final_state(parsed), tmp_path, problems)
        every = cut is None and game == EVERY_SCREEN
        write_screens(record, tmp_path, language, problems, None if every else GAME_SCREENS)
    finally:
        i18n.set_language("en")
    assert problems == [], "\n".join(problems)
