"""A Championship round's group ending in words on the screens that show moves (issue 35, item 7).

The history said "45. end 1" (the notation, which the console reads); the screens that only show
a move (the history, the OLED's "saved", the phone's last moves: ``move_words``) now say "Group 1's
game ends" ("1. csoport: vége a játéknak"); the notation itself does not change.
"""

from __future__ import annotations

import json

import pytest

from companion.service.move_words import move_words
from companion.service.records import parse_record, replay
from tests.conftest import EXAMPLES


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("en", "Group 1's game ends", "Group 2's game ends"),
    ("hu", "1. csoport: vége a játéknak", "2. csoport: vége a játéknak")])
def test_a_groups_end_is_said_in_words_and_the_notation_keeps_end_n(lang: str, one: str, two: str) -> None:
    parsed = parse_record(json.loads((EXAMPLES / "castelli-round.json").read_text(encoding="utf-8")))
    states = replay(parsed.game, parsed.initial, parsed.moves)
    ends = [(states[i], parsed.game.move_to_json(m)) for i, m in enumerate(parsed.moves)
            if parsed.game.move_to_json(m).get("type") == "end"]
    assert [move["group"] for _, move in ends] == [1, 2]
    said = [move_words(parsed.game, state, move, lang) for state, move in ends]
    assert said == [one, two]
    for state, move in ends:
        described = parsed.game.describe(state, move, lang)
        assert described == f"{'end' if lang == 'en' else 'vége'} {move['group']}"  # the notation
        assert parsed.game.parse_notation(state, described, lang) is not None
