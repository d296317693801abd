"""The OLED at the end of a Championship round: each group's winners and scores on its own page
(issue 35, item 4).

It said "Game over / Bela and Csaba / tied: castles built / Be 24 An 11 Cs 12 Do 12" when Bela
won his group 24-11 and only Csaba and Dora tied: both groups' winners as one shared win, both
groups' scores in one unlabelled list. The groups' outcomes are the engine's
(:attr:`Outcome.groups`, from ``championship.groups_outcome``); the pages only say them. Checked on
the issue's case (the engine's own ranking of made-up scores), on the example round played to its end
at a real table (drawn on luma's dummy device), and for several tie shapes, in English and Hungarian.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from luma.core.device import dummy

from companion.games.base import Outcome, rank_players
from companion.games.castelli.championship import groups_outcome
from companion.games.messages import msg
from companion.i18n import current_language, say, set_language, text
from companion.service.app import Companion
from companion.service.names import initials
from companion.service.table import Table
from hardware.oled_pages import outcome_pages, status_pages
from hardware.oled_render import draw
from tests.championship_kit import round_moves

PLAYERS = ("Anna", "Bela", "Csaba", "Dora")


@pytest.fixture
def language() -> Iterator[Any]:
    before = current_language()
    yield set_language
    set_language(before)


def _group(players: tuple[str, str], scores: dict[str, int], castles: dict[str, int]) -> Outcome:
    return rank_players(players, scores, castles.__getitem__, "castles_built", True,
                        words=msg("castelli.tiebreak.castles_built"))


def _round(scores: dict[str, int], castles: dict[str, int]) -> Outcome:
    groups = [_group(("Anna", "Bela"), scores, castles), _group(("Csaba", "Dora"), scores, castles)]
    return groups_outcome(groups, True)


def _read(pages: list[Any]) -> list[list[str]]:
    """Each group's lines, its title first (a group whose scores went onto a page of their own, under
    the same title, read as one)."""
    groups: dict[str, list[str]] = {}
    for page in pages:
        title, *lines = page.text().splitlines()
        groups.setdefault(title, [title]).extend(lines)
    return list(groups.values())


def _says(lines: list[str], words: str) -> bool:
    """Whether ``words`` are said whole in ``lines`` (wrapped over several, never cut)."""
    return words in " ".join(lines)


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_issues_round_names_each_groups_winner_and_labels_its_scores(lang: str, language: Any) -> None:
    language(lang)
    outcome = _round({"Bela": 24, "Anna": 11, "Csaba": 12, "Dora": 12},
                     {"Bela": 0, "Anna": 0, "Csaba": 2, "Dora": 1})
    one, two = _read(outcome_pages(outcome))
    short = initials(PLAYERS)
    assert one[0] == text("oled.over.group", group=1) and two[0] == text("oled.over.group", group=2)
    assert one[1] == "Bela" and one[2] == text("oled.over.score")  # won 24-11: no tie in group 1
    assert one[-1] == f"{short['Bela']} 24  {short['Anna']} 11"
    assert two[1] == "Csaba"  # the tie was Csaba's and Dora's, decided by the castles built
    assert _says(two, text("oled.over.tiebreak", tiebreak=say(msg("castelli.tiebreak.castles_built"))))
    assert two[-1] == f"{short['Csaba']} 12  {short['Dora']} 12"
    assert "Cs" not in " ".join(one) and "Be" not in " ".join(two)  # no group's scores on the other's page


@pytest.mark.parametrize(("scores", "castles", "winners", "decided"), [
    ({"Anna": 9, "Bela": 9, "Csaba": 20, "Dora": 3}, {"Anna": 1, "Bela": 1, "Csaba": 0, "Dora": 0},
     (("Anna", "Bela"), ("Csaba",)), ("shared", "score")),
    ({"Anna": 5, "Bela": 7, "Csaba": 8, "Dora": 8}, {"Anna": 0, "Bela": 0, "Csaba": 1, "Dora": 1},
     (("Bela",), ("Csaba", "Dora")), ("score", "shared")),
    ({"Anna": 6, "Bela": 6, "Csaba": 4, "Dora": 4}, {"Anna": 0, "Bela": 2, "Csaba": 3, "Dora": 0},
     (("Bela",), ("Csaba",)), ("castles_built", "castles_built")),
])
@pytest.mark.parametrize("lang", ["en", "hu"])
def test_each_group_says_its_own_tie(lang: str, language: Any, scores: dict[str, int],
                                     castles: dict[str, int], winners: tuple[tuple[str, ...], ...],
                                     decided: tuple[str, str]) -> None:
    language(lang)
    outcome = _round(scores, castles)
    assert tuple(g.winners for g in outcome.groups) == winners
    pages = _read(outcome_pages(outcome))
    assert len(pages) == 2
    castles_words = say(msg("castelli.tiebreak.castles_built"))
    words = {"score": text("oled.over.score"),
             "shared": text("oled.over.shared", tiebreak=castles_words),
             "castles_built": text("oled.over.tiebreak", tiebreak=castles_words)}
    for lines, group_winners, how in zip(pages, winners, decided, strict=True):
        assert all(player in " ".join(lines[1:3]) for player in group_winners), lines
        assert _says(lines, words[how]), lines
    placed = set(outcome.placed_by_tiebreak())
    assert placed == {p for g in outcome.groups for p in g.placed_by_tiebreak()}


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_round_played_to_its_end_shows_a_page_per_group(lang: str, language: Any, tmp_path: Path,
                                                          shots: Path) -> None:
    app = Companion.open(tmp_path / "store.db")
    try:
        table = Table(app)
        table.open(app.championships.new(2, list(PLAYERS)))
        session = table.session
        assert session is not None
        for move in round_moves(session.game, session.state, ["Anna", "Csaba"]):
            table.propose(session.game.parse_move(move), "console")
        assert session.game.is_finished(session.state)
        language(lang)
        outcome = session.game.outcome(session.state)
        pages = status_pages(session.game, session.state)
        device = dummy(width=128, height=64, mode="1")
        for number, page in enumerate(pages, start=1):
            device.display(draw(page))
            shots.mkdir(parents=True, exist_ok=True)
            device.image.save(shots / f"round-over-{lang}-{number}.png")
        for number, (lines, group) in enumerate(zip(_read(pages), outcome.groups, strict=True), start=1):
            assert lines[0] == text("oled.over.group", group=number)
            assert all(player in " ".join(lines[1:3]) for player in group.winners), lines
            group_players = [s.player for s in group.standings]
            others = [initials(PLAYERS)[p] for p in PLAYERS if p not in group_players]
            assert not any(f"{tag} " in lines[-1] for tag in others), lines
    finally:
        app.close()
