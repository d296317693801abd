"""The phone page renders the engine's facts, as the other front ends do (issue 35, "one set of facts").

The Campanile part worked out which valuation came next and picked that flag itself; the last moves
were the notation's words ("robber-baron"); a Championship round's game over re-ranked each group's
game on its own and no page showed the tie-break's figure. Each is now read off the engine: a
tower's ``TowerStanding.next_flag``, ``move_words``, ``Outcome.groups`` and
``Outcome.placed_by_tiebreak``. The engine is made to say something no page could work out alone,
so a page that still works it out shows something else.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from companion.games.base import Outcome, rank_players
from companion.games.campanile import views
from companion.games.castelli.championship import groups_outcome
from companion.games.castelli.words import card
from companion.games.messages import msg
from companion.i18n import render
from companion.service.records import parse_record, replay
from web.pages import game as page
from web.pages.games import campanile as campanile_part
from web.pages.people import people
from web.pages.words import Words

DATA = Path(__file__).parent / "data"


def _record(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def _replayed(path: Path, cut: int | None = None) -> tuple[Any, list[Any], Any]:
    parsed = parse_record(_record(path))
    moves = parsed.moves if cut is None else parsed.moves[:cut]
    return parsed, replay(parsed.game, parsed.initial, moves), moves


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_campanile_towers_show_the_engines_next_flag(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed, states, _ = _replayed(DATA / "examples" / "campanile-3p.json", 10)
    state = states[-1]
    real = views.standings(state)
    assert state.phase == "opening" and any(s.next_flag for s in real)
    # a flag no rule gives: only a page that shows next_flag shows it
    marked = [dataclasses.replace(s, next_flag=(90 + n, n)) for n, s in enumerate(real)]
    monkeypatch.setattr(campanile_part, "standings", lambda _state: marked)
    who = people(parsed.game.name, parsed.players, parsed.setup, None)
    shown = campanile_part.context(parsed.game, state, states, who, Words(lang))
    assert [tower["flag"] for tower in shown["towers"]] == [f"{90 + n}/{n}" for n in range(len(real))]


def test_campanile_fifth_tower_has_no_flag_before_the_intermezzo() -> None:
    parsed, states, _ = _replayed(DATA / "examples" / "campanile-3p.json", 0)
    who = people(parsed.game.name, parsed.players, parsed.setup, None)
    shown = campanile_part.context(parsed.game, states[-1], states, who, Words("en"))
    flags = [tower["flag"] for tower in shown["towers"]]
    assert flags == [campanile_part.flag_text(s.next_flag) for s in views.standings(states[-1])]
    assert flags[-1] == ""  # the Intermezzo gives the fifth tower none


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_last_moves_name_cards_from_the_catalogue(lang: str) -> None:
    path = DATA / "played" / "castelli-4p-cards.json"
    parsed, states, moves = _replayed(path)
    who = people(parsed.game.name, parsed.players, parsed.setup, None)
    entries = page.last_moves(parsed.game, states, moves, who, Words(lang), shown=len(moves))
    played = [parsed.game.move_to_json(m) for m in moves]
    cards = {str(move["card"]) for move in played if move.get("card")}
    assert "robber-baron" in cards
    said = " ".join(entry.text for entry in entries)
    for value in cards:
        assert render(card(value), lang) in said
    assert "robber-baron" not in said and "tolvaj-báró" not in said


def _tied(path: str) -> tuple[Any, Any, Any]:
    parsed, states, _ = _replayed(DATA / "over" / path)
    state = states[-1]
    return parsed, state, parsed.game.outcome(state)


@pytest.mark.parametrize(("path", "lang"), [("campanile-5p-tiebreak.json", "en"),
                                            ("san-gimignano-4p-tiebreak.json", "hu"),
                                            ("castelli-4p-shared.json", "en")])
def test_the_standings_show_the_tiebreak_figure_of_the_players_it_placed(path: str, lang: str) -> None:
    parsed, state, outcome = _tied(path)
    placed = outcome.placed_by_tiebreak()
    assert placed  # these games end in ties
    who = people(parsed.game.name, parsed.players, parsed.setup, None)
    rows = page.standings(parsed.game, state, who, Words(lang))
    words = render(outcome.tiebreak_words(), lang)
    by = {s.player: s for s in outcome.standings}
    for row in rows:
        if row.person.name in placed:
            assert row.tiebreak == f"{words}: {by[row.person.name].tiebreak}"
        else:
            assert row.tiebreak == ""
    assert "_" not in " ".join(row.tiebreak for row in rows)  # no tie-break key


def _round(scores: dict[str, int], castles: dict[str, int]) -> Outcome:
    def group(players: tuple[str, str]) -> Outcome:
        return rank_players(players, scores, castles.__getitem__, "castles_built", True,
                            words=msg("castelli.tiebreak.castles_built"))
    return groups_outcome([group(("Anna", "Bela")), group(("Csaba", "Dora"))], True)


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_rounds_game_over_says_each_groups_winners_and_tiebreak_from_outcome_groups(
        lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed, states, _ = _replayed(DATA / "examples" / "castelli-round.json")
    game, state = parsed.game, states[-1]
    assert game.is_finished(state)
    # the round: Bela won his group 24-11, only Csaba and Dora tied, on castles built
    told = _round({"Anna": 11, "Bela": 24, "Csaba": 12, "Dora": 12},
                  {"Anna": 0, "Bela": 1, "Csaba": 2, "Dora": 2})
    real = type(game).outcome
    monkeypatch.setattr(type(game), "outcome",
                        lambda self, s: told if game.is_round(s) else real(self, s))
    who = people(game.name, parsed.players, parsed.setup, None)
    words = Words(lang)
    one, two = page.strips(game, state, who, words)
    assert one.person is not None and one.person.name == "Bela"
    assert "24" in one.sentence and "Csaba" not in one.sentence + one.headline
    assert two.person is None and two.headline == words("web.strip.shared")
    assert "Csaba" in two.sentence and "Dora" in two.sentence and "Bela" not in two.sentence
    rows = {row.person.name: row for row in page.standings(game, state, who, words)}
    castles = render(msg("castelli.tiebreak.castles_built"), lang)
    assert rows["Csaba"].tiebreak == rows["Dora"].tiebreak == f"{castles}: 2"
    assert rows["Anna"].tiebreak == rows["Bela"].tiebreak == ""
    assert rows["Bela"].group != rows["Csaba"].group
