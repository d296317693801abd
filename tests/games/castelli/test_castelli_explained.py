"""A summary's explanation lines: each caller gets its own copy, equal to the summary's.

(The English line is put into words where the summary is written out, not by the engine.)
"""

from __future__ import annotations

import json
from pathlib import Path

from companion.games.castelli.game import explained, explanation_json
from companion.service.records import final_state, parse_record

EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "examples" / "castelli.json"


def test_an_evaluation_is_explained_once_and_each_caller_gets_its_own_copy() -> None:
    state = final_state(parse_record(json.loads(EXAMPLE.read_text(encoding="utf-8"))))
    evaluation = state.evaluations[0]
    first = explained(state.board, evaluation)
    assert first == explanation_json(state.board, evaluation.area, evaluation.kind, evaluation.explanation)
    first["text"] = "changed by a caller"
    again = explained(state.board, evaluation)
    assert again["text"] != "changed by a caller" and again is not first
    summary = parse_record(json.loads(EXAMPLE.read_text(encoding="utf-8"))).game.summary(state)
    assert summary["explanations"][0] == again
