"""A whole game of each of the three, typed in the console as players type: in Hungarian with no
English word printed, and in English with the name left out wherever only one player may make the
move. Each ends as the example record ends (its expected summary values)."""

from __future__ import annotations

import io
import json

import pytest

from companion.console.loop import headless_loop
from companion.games.notation import NotationError
from companion.i18n import set_language
from companion.registry import get_game
from companion.service.app import Companion
from tests.conftest import EXAMPLES
from tests.refusals import english_words_in

GAMES = {"campanile": "campanile-3p", "castelli": "castelli", "san-gimignano": "san-gimignano"}


def _typed(name: str, language: str, leave_names_out: bool) -> tuple[dict, list[str]]:
    """The example record and its moves as a player would type them in ``language``."""
    record = json.loads((EXAMPLES / f"{GAMES[name]}.json").read_text(encoding="utf-8"))
    game = get_game(name)
    state = game.start(record["players"], record.get("options", {}), record.get("setup", {}))
    lines = []
    for move in record["moves"]:
        text = game.describe(state, move, language)
        player = move.get("player")
        if leave_names_out and player is not None and text.startswith(f"{player}: "):
            nameless = text[len(player) + 2:]
            try:
                meant = game.parse_notation(state, text, language)
                same = game.parse_notation(state, nameless, language) == meant
            except NotationError:
                same = False  # several players could make it: the name stays
            if same:
                text = nameless
        lines.append(text)
        state = game.apply(state, game.parse_move(move))
    return record, lines


def _played(tmp_path, record, lines, language):
    set_language(language)
    with Companion.open(tmp_path / "store.sqlite3") as app:
        live = app.start(record["game"], record["players"], options=record.get("options", {}),
                         setup=record.get("setup", {}))
        out = io.StringIO()
        headless_loop(live.session, [*lines, "status"], out)
        summary = live.session.game.summary(live.session.state)
    return out.getvalue().splitlines(), summary


def _as_expected(name, summary):
    """The example's expected values (winners and whatever else it names) all hold."""
    expected = json.loads((EXAMPLES / f"{GAMES[name]}.expected.json").read_text(encoding="utf-8"))
    assert summary["finished"] == expected["finished"]
    assert sorted(summary["winners"]) == sorted(expected["winners"])
    for field in ("scores", "towers", "tokens"):
        if field in expected:
            assert summary[field] == expected[field], field


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_whole_game_in_hungarian_prints_no_english_word(name, tmp_path):
    record, lines = _typed(name, "hu", leave_names_out=False)
    out, summary = _played(tmp_path, record, lines, "hu")
    confirmed = [line for line in out if line.startswith("rendben ")]
    assert len(confirmed) == len(record["moves"]), [line for line in out if line.startswith("elutasítva")]
    _as_expected(name, summary)
    # ids of the record (spaces, areas, guild names) are the record's, not English words
    ids = json.dumps(record.get("setup", {})).replace('"', " ").replace(",", " ").split()
    names = (*record["players"], *(word for word in ids if any(ch.isdigit() for ch in word)))
    left = {line: english_words_in(line, names) for line in out}
    assert {line: words for line, words in left.items() if words} == {}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_whole_game_in_english_with_names_left_out_where_only_one_player_may_act(name, tmp_path):
    record, lines = _typed(name, "en", leave_names_out=True)
    named = [line for line, move in zip(lines, record["moves"], strict=True)
             if move.get("player") and line.startswith(f"{move['player']}: ")]
    assert len(named) < len([m for m in record["moves"] if m.get("player")]) / 2  # most left out
    out, summary = _played(tmp_path, record, lines, "en")
    assert len([line for line in out if line.startswith("ok ")]) == len(record["moves"]), \
        [line for line in out if line.startswith("refused")]
    _as_expected(name, summary)
