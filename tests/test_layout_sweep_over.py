"""The layout check over game over and the OLED's pages of finished random games that end in ties
(tests/data/over: four and five players, long names, decided by the tie-break and shared) and of a
game with character cards (tests/data/played), each in one language, alternating: what the
examples never reach (issue 35: the winner cut off, tie-break keys and card values shown).

It runs ``companion snapshot --check``'s writers in this process, on the one shared window.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests import ui_kit as kit  # first: it prepares Kivy

# isort: split
from companion import i18n
from companion.service.records import final_state, load_record
from hardware.snapshot import write_oled
from ui.snapshot import write_screens

del kit  # imported for the window it opens

DATA = Path(__file__).parent / "data"
RECORDS = sorted([*DATA.glob("over/*.json"), *DATA.glob("played/*.json")])
CASES = [(path, i18n.LANGUAGES[index % 2]) for index, path in enumerate(RECORDS)]


@pytest.mark.parametrize(("path", "language"), CASES, ids=[f"{p.stem}-{lang}" for p, lang in CASES])
def test_game_over_and_the_oled_pass_the_layout_check(path: Path, language: str, tmp_path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    problems: list[str] = []
    i18n.set_language(language)
    try:
        parsed = load_record(str(path))
        write_oled(parsed, final_state(parsed), tmp_path, problems)
        write_screens(record, tmp_path, language, problems, ("game-over.png", "history.png"))
    finally:
        i18n.set_language("en")
    # the board's own views too (Castelli's evaluation and area overlays, its second group): the
    # shields' and the mine's figures on a small board meet the contrast (issue 35, item 10)
    assert problems == [], "\n".join(problems)
