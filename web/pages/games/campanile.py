"""Campanile's page: the towers with their heights, ranks, flags and markers, the chips, and per
player what the Intermezzo or the Finito would give if it came now, with the reasons for ties.

Nothing is valued here: the ranking and the flags are the engine's ``views.standings`` (each
tower's ``next_flag``, the one every front end shows), the "if it
came now" is its ``views.preview`` (what the touchscreen's valuation screen shows), the reasons are
the engine's explanation sentences.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.base import Game
from companion.games.campanile import words as tower_words
from companion.games.campanile.state import CampanileState, FlagResult
from companion.games.campanile.views import next_valuation, preview, standings
from web.pages.games import WebPart
from web.pages.people import Person
from web.pages.words import Words

#: The sentences of an explanation that a flag's line already says in figures (each group's
#: influence, the points given); the others (a tie and how the base broke it, who got nothing,
#: values left over, nobody under the tower) are written under it.
SAID_BY_THE_LINE = frozenset({"campanile.explain.influence", "campanile.explain.points"})
#: The box's towers, drawn in their own colours; a tower named otherwise is drawn plain.
BOX_TOWERS = frozenset({"grey", "brown", "red", "blue", "yellow"})


@dataclass(frozen=True)
class Influence:
    """A group under a flagged tower: whose, its influence, and the points it won (0: none)."""

    person: Person
    influence: int
    points: int


@dataclass(frozen=True)
class FlagLine:
    """One flagged tower at a valuation: its name, rank and flag, the groups, and the reasons."""

    tower: str
    css: str
    rank: int
    flag: str
    groups: tuple[Influence, ...]
    notes: tuple[str, ...]


@dataclass(frozen=True)
class Valuation:
    """A valuation (one that happened, or one "if it came now"): each player's points, best first,
    and the flagged towers, the biggest flag first."""

    phase: str
    totals: tuple[tuple[Person, int], ...]
    lines: tuple[FlagLine, ...]


def tower_css(tower: str) -> str:
    """The class a tower is drawn with (``tw-red``; ``tw-other`` for a name not in the box)."""
    return f"tw-{tower if tower in BOX_TOWERS else 'other'}"


def flag_text(flag: Sequence[int] | None) -> str:
    """A flag's figures as printed on it: ``6/4/2``."""
    return "/".join(str(value) for value in flag) if flag else ""


def valuation(phase: str, results: Sequence[FlagResult], players: Sequence[str],
              who: Mapping[str, Person], words: Words) -> Valuation:
    """``results`` (the engine's, lowest flag first) as a page shows them."""
    totals = dict.fromkeys(players, 0)
    lines = []
    for result in sorted(results, key=lambda r: r.rank):
        won = {award.player: award.points for award in result.awards}
        for player, points in won.items():
            totals[player] += points
        groups = tuple(Influence(who[player], influence, won.get(player, 0))
                       for player, influence in sorted(result.influence, key=lambda pair: -pair[1]))
        notes = tuple(words.say(sentence) for sentence in result.explanation
                      if sentence.code not in SAID_BY_THE_LINE)
        lines.append(FlagLine(words.say(tower_words.tower(result.tower)), tower_css(result.tower),
                              result.rank, flag_text(result.flag), groups, notes))
    ranked = sorted(players, key=lambda p: (-totals[p], players.index(p)))
    return Valuation(phase, tuple((who[p], totals[p]) for p in ranked), tuple(lines))


def context(game: Game[Any, Any], state: CampanileState, states: Sequence[Any],
            who: Mapping[str, Person], words: Words) -> dict[str, Any]:
    """The towers, the markers in supply, the chips, the valuations so far and those "if it came now"."""
    players = state.players
    next_phase = next_valuation(state) or "finito"  # once over, the flags the Finito gave
    towers = []
    for standing in standings(state):
        index = state.rules.tower_index(standing.tower)
        towers.append({
            "name": words.say(tower_words.tower(standing.tower)), "css": tower_css(standing.tower),
            "height": standing.height, "rank": standing.rank, "flag": flag_text(standing.next_flag),
            "stack": [(who[group.player], " ".join(str(m) for m in group.markers), group.influence)
                      for group in state.stacks[index]],
        })
    phases = [] if state.phase == "finished" else (
        ["intermezzo", "finito"] if state.phase == "opening" else ["finito"])
    return {
        "towers": towers,
        "flag_phase": words(f"campanile.now.phase.{next_phase}"),
        "finished": state.phase == "finished",
        "markers": [(who[p], state.markers_of(p)) for p in players],
        "chips": [(who[p], " · ".join(str(c) for c in sorted(chips, reverse=True)), sum(chips))
                  for p, chips in zip(players, state.chips, strict=True)],
        "if_now": [valuation(phase, preview(state, phase), players, who, words) for phase in phases],
        "happened": [valuation(done.phase, done.flags, players, who, words) for done in state.valuations],
    }


PART = WebPart("games/campanile.html", context)
