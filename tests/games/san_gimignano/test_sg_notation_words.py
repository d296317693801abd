"""San Gimignano's notation in the words of the map (issue 20): a space is its guild's name and its
segment's letter, a place for a segment a side of a laid one, never record coordinates; both
languages read back, and the coordinates players typed before are still read."""

from __future__ import annotations

import json
from pathlib import Path

from companion.registry import get_game

EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "examples" / "san-gimignano.json"


def test_moves_read_as_the_map_shows_them_in_both_languages_and_read_back() -> None:
    game = get_game("san-gimignano")
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    state = game.start(record["players"], record["options"], record["setup"])
    token, segment = record["moves"][0], record["moves"][1]
    said = {lang: game.describe(state, token, lang) for lang in ("en", "hu")}
    assert said == {"en": "Ada: token Guild 4 on A", "hu": "Ada: korong A tábla 4. céh"}
    for text in [*said.values(), "Ada: token 0,0 guild-4", "token guild 4 on a"]:
        assert game.parse_notation(state, text) == token, text
    state = game.apply(state, game.parse_move(token))
    said = {lang: game.describe(state, segment, lang) for lang in ("en", "hu")}
    assert said == {"en": "Ada: segment above right of A: Guild 1 bottom, Guild 3 left, Guild 4 right",
                    "hu": "Ada: tábla A mellett jobbra fent: 1. céh lent, 3. céh balra, 4. céh jobbra"}
    for text in said.values():
        assert game.parse_notation(state, text) == segment, text
    # the table's own guild names are written as they are
    guilds = ["wool", "bread", "stone", "wine"]
    laid = [{"at": s["at"], "edges": [guilds[int(g[-1]) - 1] for g in s["edges"]]}
            for s in record["setup"]["segments"]]
    named = {**record["setup"], "guilds": guilds, "segments": laid}
    state = game.start(record["players"], record["options"], named)
    wine = {"type": "token", "player": "Ada", "space": [0, 0, "wine"]}
    assert game.describe(state, wine, "hu") == "Ada: korong A tábla wine"
    assert game.parse_notation(state, "Ada: token wine on A") == wine
