"""Why the winners won, in words: each game's tie-break is a key the catalogues put into words."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from companion.registry import GAMES, get_game
from companion.service.records import final_state, parse_record
from tests.refusals import assert_words

EXAMPLES = Path(__file__).parent / "data" / "examples"


@pytest.mark.parametrize("name", GAMES)
def test_every_tiebreak_is_a_key_with_words_in_every_language(name: str) -> None:
    record = next(parse_record(json.loads(path.read_text(encoding="utf-8")))
                  for path in sorted(EXAMPLES.glob("*.json"))
                  if json.loads(path.read_text(encoding="utf-8")).get("game") == name)
    outcome = record.game.outcome(final_state(record))
    assert outcome.tiebreak.isidentifier(), f"{name}: the tie-break is words, not a key: {outcome.tiebreak}"
    assert_words(outcome.tiebreak_words())
    for decided in ("score", "shared", outcome.tiebreak):
        texts = assert_words(replace(outcome, decided_by=decided).reason())
        assert "{" not in texts["hu"]
    assert get_game(name).name == name
