"""The console's moves list, numbers, notation and the question for observed fields (real store)."""

from __future__ import annotations

import io

from companion.console.loop import headless_loop
from companion.service.app import Companion


def play(tmp_path, game, players, setup, lines, options=None):
    with Companion.open(tmp_path / "games.sqlite3") as app:
        session = app.start(game, players, options=options, setup=setup).session
        out = io.StringIO()
        headless_loop(session, lines, out)
        return out.getvalue().splitlines(), [session.game.move_to_json(m) for m in session.log]


def test_moves_then_a_number_then_the_notation(tmp_path):
    out, log = play(tmp_path, "campanile", ["Ann", "Bob", "Cid"], {},
                    ["moves", "2", "moves", "marker 2 under red", "Bob: blue +1"])
    assert out[0] == "  1. Ann: grey +1" and out[14] == " 15. Ann: yellow +3"
    assert out[15] == 'ok 1: Ann: grey +2'
    assert log == [{"type": "build", "player": "Ann", "tower": "grey", "stories": 2},
                   {"type": "influence", "player": "Ann", "tower": "red"},
                   {"type": "build", "player": "Bob", "tower": "blue", "stories": 1}]


def test_a_reveal_asks_for_the_tiles_shields_and_silver(tmp_path):
    out, log = play(tmp_path, "castelli", ["Ann", "Bob"], {"colors": {"Ann": "blue", "Bob": "red"},
                                                            "board": "example-2p"},
                    ["Ann: reveal s01", "N blue", "N blue 1, E red 2, S green card, W yellow 6, silver 2"])
    assert out[0].startswith("Ann: reveal row 1, column 2: type the tile's shields and silver")
    assert out[1].startswith("refused: that does not read as the tile's shields")
    assert out[2].startswith("ok 1: ")
    assert log == [{"type": "reveal", "player": "Ann", "space": "s01",
                    "shields": {"N": ["blue", 1], "E": ["red", 2], "S": ["green", "card"],
                                "W": ["yellow", 6]}, "silver": 2, "swap": False}]


def test_a_wrong_number_and_an_ambiguous_text_change_nothing(tmp_path):
    out, log = play(tmp_path, "campanile", ["Ann", "Bob", "Cid"], {}, ["moves", "99", "b +1"])
    assert out[15] == "refused: there is no move 99 in the list; type moves"
    assert out[16].startswith('refused: "b +1" could mean: ') and "Ann: brown +1" in out[16]
    assert log == []


def test_json_moves_still_work(tmp_path):
    _, log = play(tmp_path, "campanile", ["Ann", "Bob", "Cid"], {},
                  ['{"type": "build", "player": "Ann", "tower": "red", "stories": 1}'])
    assert log == [{"type": "build", "player": "Ann", "tower": "red", "stories": 1}]


def test_a_superscript_or_other_unicode_digit_is_not_taken_for_a_list_number(tmp_path):
    out, log = play(tmp_path, "campanile", ["Ann", "Bob", "Cid"], {}, ["moves", "²", "١"])
    assert out[-2].startswith("refused: ") and out[-1].startswith("refused: ")
    assert log == []
