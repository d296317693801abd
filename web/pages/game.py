"""A game's page: the record replayed with its engine, and what every game's page shows.

The record is the game exactly as ``companion export`` writes it (docs/records.md); the page asks
the engine what the touchscreen asks (``what_now``, ``next_up``, ``outcome``, ``describe``) and
words it in the page's language. A game's own part (:mod:`web.pages.games`) adds its towers, board
or map; a game without one still shows the turn, the standings and the moves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.base import Game, RecordError, next_up
from companion.service.records import MoveRefusal, parse_record, replay
from web.pages.games import part_for
from web.pages.people import Person, people
from web.pages.words import Words

#: How many of the last moves a page lists (newest first): what was just done, not the whole game.
MOVES_SHOWN = 12


@dataclass(frozen=True)
class Strip:
    """The turn strip: whose badge (``None``: the table's or nobody's), the headline, the sentence,
    and "next: …" when naming the next player helps (``""``: not said)."""

    person: Person | None
    headline: str
    sentence: str
    next: str = ""


@dataclass(frozen=True)
class Row:
    """One line of the standings."""

    rank: int
    person: Person
    score: int


@dataclass(frozen=True)
class Entry:
    """One move of the list: its number (from 1), whose it was (``None``: the table's) and its words."""

    number: int
    person: Person | None
    text: str


def strip(game: Game[Any, Any], state: Any, who: Mapping[str, Person], words: Words) -> Strip:
    """What the touchscreen's strip says, in the pages' words: who acts and what now, or who won."""
    if game.is_finished(state):
        return _game_over(game, state, who, words)
    now = game.what_now(state)
    if now is None:
        acting = game.turn(state).acting
        return Strip(who.get(acting or ""), acting or words("web.strip.table"), "")
    subject = now.params.get("player")
    following = next_up(game.turn(state), game.legal_moves(state), subject)
    return Strip(who.get(subject or ""), subject or words("web.strip.table"), words.now(now),
                 words("web.strip.next", player=following) if following else "")


def _game_over(game: Game[Any, Any], state: Any, who: Mapping[str, Person], words: Words) -> Strip:
    outcome = game.outcome(state)
    winners = list(outcome.winners)
    best = outcome.standings[0].score if outcome.standings else 0
    if len(winners) == 1 and outcome.decided_by == "score":
        return Strip(who[winners[0]], winners[0], words("web.strip.won", player=winners[0], score=best))
    if len(winners) == 1:
        return Strip(who[winners[0]], winners[0], words("web.strip.won_tiebreak", player=winners[0],
                                                        score=best, tiebreak=outcome.tiebreak_words()))
    if winners:
        return Strip(None, words("web.strip.shared"),
                     words("web.strip.shared_by", players=winners, score=best))
    return Strip(None, words("web.strip.over"), "")


def standings(game: Game[Any, Any], state: Any, who: Mapping[str, Person]) -> list[Row]:
    """The engine's ranking (ties share a rank), best first."""
    return [Row(s.rank, who[s.player], s.score) for s in game.outcome(state).standings]


def last_moves(game: Game[Any, Any], states: Sequence[Any], moves: Sequence[Any],
               who: Mapping[str, Person], words: Words, shown: int = MOVES_SHOWN) -> list[Entry]:
    """The last ``shown`` moves in the notation's words, newest first (each read against the state
    before it, as the history screen does)."""
    first = max(0, len(moves) - shown)
    entries = []
    for index in range(len(moves) - 1, first - 1, -1):
        move = moves[index]
        text = game.describe(states[index], game.move_to_json(move), words.language)
        entries.append(Entry(index + 1, who.get(game.actor(move) or ""), text))
    return entries


def game_context(record: Mapping[str, Any], words: Words,
                 preferred: Mapping[str, str | None] | None = None) -> dict[str, Any]:
    """Everything ``game.html`` shows of ``record``; a record that does not replay gives ``problem``
    (one line, in the page's language) and the rest empty."""
    try:
        parsed = parse_record(dict(record))
        states = replay(parsed.game, parsed.initial, parsed.moves)
    except (RecordError, MoveRefusal) as error:
        said = error.as_message() if isinstance(error, RecordError) else error.message
        problem = words.say(said)
        return {"problem": problem, "title": "", "finished": False}
    game, state = parsed.game, states[-1]
    who = people(game.name, parsed.players, parsed.setup, preferred)
    part = part_for(game.name)
    return {
        "problem": "",
        "title": game.title,
        "finished": game.is_finished(state),
        "players": [who[p] for p in parsed.players],
        "strip": strip(game, state, who, words),
        "standings": standings(game, state, who),
        "moves": last_moves(game, states, parsed.moves, who, words),
        "move_count": len(parsed.moves),
        "groups": _groups(parsed.setup, who),
        "part_template": part.template if part else None,
        "part": part.context(game, state, states, who, words) if part else {},
    }


def _groups(setup: Mapping[str, Any], who: Mapping[str, Person]) -> list[list[Person]]:
    """A Championship round's groups when its setup names them (``setup.groups``: lists of players);
    the round engine (issue 23) decides the field, this only draws what it finds."""
    groups = setup.get("groups")
    if not isinstance(groups, list):
        return []
    return [[who[p] for p in group if isinstance(p, str) and p in who] for group in groups
            if isinstance(group, list)]
