"""A game's page: the record replayed with its engine, and what every game's page shows.

The record is the game exactly as ``companion export`` writes it (docs/records.md); the page asks
the engine what the touchscreen asks (``what_now``, ``next_up``, ``outcome``, ``describe``) and
words it in the page's language. A game's own part (:mod:`web.pages.games`) adds its towers, board
or map; a game without one still shows the turn, the standings and the moves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from markupsafe import Markup

from companion.games.base import Game, Outcome, RecordError, Standing, StateT, Turn, next_up
from companion.games.messages import Message
from companion.service.examples import example_setup
from companion.service.move_words import move_words
from companion.service.records import MoveRefusal, parse_record, replay
from web.pages.games import part_for
from web.pages.people import Person, people
from web.pages.svg import OUTLINE, SURFACE, TEXT, badge, drawing, element, piece_hex, points
from web.pages.words import Words

#: How many of the last moves a page lists (newest first): what was just done, not the whole game.
MOVES_SHOWN = 12


@dataclass(frozen=True)
class Strip:
    """The turn strip: whose badge (``None``: the table's or nobody's), the headline, the sentence,
    and "next: …" when naming the next player helps (``""``: not said); ``group`` names the group
    of a game played in groups (a Championship round: one strip a group), else ``""``."""

    person: Person | None
    headline: str
    sentence: str
    next: str = ""
    group: str = ""


@dataclass(frozen=True)
class Row:
    """One line of the standings; ``group`` names the group of a game played in groups (its ranks
    are the group's), else ``""``."""

    rank: int
    person: Person
    score: int
    group: str = ""
    #: The tie-break's figure in words ("castles built: 3") where it placed the player
    #: (:meth:`Outcome.placed_by_tiebreak`), as the game-over screen says it; else ``""``.
    tiebreak: str = ""


@dataclass(frozen=True)
class Entry:
    """One move of the list: its number (from 1), whose it was (``None``: the table's) and its words."""

    number: int
    person: Person | None
    text: str


@runtime_checkable
class Grouped(Protocol):
    """An engine whose games may be played in groups at once, each group with its own turn (a
    Championship round): the per-group API of docs/architecture.md."""

    def group_count(self, state: Any) -> int: ...
    def group_of(self, state: Any, player: str) -> int: ...
    def group_state(self, state: Any, group: int) -> Any: ...
    def group_turn(self, state: Any, group: int) -> Turn: ...
    def group_what_now(self, state: Any, group: int) -> Message | None: ...
    def group_legal_moves(self, state: Any, group: int) -> list[dict[str, Any]]: ...


def groups_of(game: Game[StateT, Any], state: StateT) -> int:
    """How many groups play ``state`` at once (1 for an engine without groups)."""
    return game.group_count(state) if isinstance(game, Grouped) else 1


def strips(game: Game[StateT, Any], state: StateT, who: Mapping[str, Person], words: Words) -> list[Strip]:
    """The turn strip, or, for groups playing at once, one strip a group (each group's step and who
    acts in it, or who won its game, as the engine's per-group API says: a group's game is decided
    on its own, so two groups' winners are never one shared win: each group's from the engine's
    :attr:`Outcome.groups`)."""
    count = groups_of(game, state)
    if count == 1 or not isinstance(game, Grouped):
        return [strip(game, state, who, words)]
    found = []
    parts = game.outcome(state).groups
    for group in range(1, count + 1):
        label = words("web.championship.group", number=group)
        alone = game.group_state(state, group)
        now = game.group_what_now(state, group)
        if now is None or game.is_finished(alone):
            over = _game_over(parts[group - 1] if len(parts) >= group else game.outcome(alone), who, words)
            found.append(Strip(over.person, over.headline, over.sentence, group=label))
            continue
        subject = now.params.get("player")
        following = next_up(game.group_turn(state, group), game.group_legal_moves(state, group), subject)
        found.append(Strip(who.get(subject or ""), subject or words("web.strip.table"), words.now(now),
                           words("web.strip.next", player=following) if following else "", label))
    return found


def strip(game: Game[StateT, Any], state: StateT, who: Mapping[str, Person], words: Words) -> Strip:
    """What the touchscreen's strip says, in the pages' words: who acts and what now, or who won."""
    if game.is_finished(state):
        return _game_over(game.outcome(state), who, words)
    now = game.what_now(state)
    if now is None:
        acting = game.turn(state).acting
        return Strip(who.get(acting or ""), acting or words("web.strip.table"), "")
    subject = now.params.get("player")
    following = next_up(game.turn(state), game.legal_moves(state), subject)
    return Strip(who.get(subject or ""), subject or words("web.strip.table"), words.now(now),
                 words("web.strip.next", player=following) if following else "")


def _game_over(outcome: Outcome, who: Mapping[str, Person], words: Words) -> Strip:
    """Who won one game (one group's, in a round) and how, from the engine's outcome."""
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


def standings(game: Game[StateT, Any], state: StateT, who: Mapping[str, Person], words: Words) -> list[Row]:
    """The engine's ranking (ties share a rank), best first; while groups play at once, group by
    group (each group ranks its own players). A player the tie-break placed
    (:meth:`Outcome.placed_by_tiebreak`: within its group in a round) shows its figure."""
    outcome = game.outcome(state)
    placed = outcome.placed_by_tiebreak()
    tiebreak = words.say(outcome.tiebreak_words())

    def figure(standing: Standing) -> str:
        if standing.player not in placed:
            return ""
        return words("web.game.tiebreak_figure", tiebreak=tiebreak, value=standing.tiebreak)

    ranked = outcome.standings
    if groups_of(game, state) == 1 or not isinstance(game, Grouped):
        return [Row(s.rank, who[s.player], s.score, tiebreak=figure(s)) for s in ranked]
    grouped = sorted(ranked, key=lambda s: (game.group_of(state, s.player), s.rank))
    return [Row(s.rank, who[s.player], s.score,
                words("web.championship.group", number=game.group_of(state, s.player)), figure(s))
            for s in grouped]


def last_moves(game: Game[Any, Any], states: Sequence[Any], moves: Sequence[Any],
               who: Mapping[str, Person], words: Words, shown: int = MOVES_SHOWN) -> list[Entry]:
    """The last ``shown`` moves in the players' words, newest first (each read against the state
    before it, as the history screen does): the notation with cards by name (:func:`move_words`)."""
    first = max(0, len(moves) - shown)
    entries = []
    for index in range(len(moves) - 1, first - 1, -1):
        move = moves[index]
        text = move_words(game, states[index], game.move_to_json(move), words.language)
        entries.append(Entry(index + 1, who.get(game.actor(move) or ""), text))
    return entries


#: The score chart's size in the drawing's units (scaled to the page's width) and its margins: the
#: figures on the left, the players' badges on the right.
CHART = (360.0, 200.0)
CHART_LEFT, CHART_RIGHT, CHART_PAD = 34.0, 40.0, 12.0


def progression(game: Game[Any, Any], states: Sequence[Any], players: Sequence[str]) -> dict[str, list[int]]:
    """Each player's score after every move (the first entry: before the first move), by the
    engine's ranking, as the touchscreen's statistics chart them."""
    series: dict[str, list[int]] = {player: [] for player in players}
    for state in states:
        scores = {standing.player: standing.score for standing in game.outcome(state).standings}
        for player in players:
            series[player].append(scores.get(player, 0))
    return series


def progression_svg(series: Mapping[str, Sequence[int]], who: Mapping[str, Person], words: Words) -> Markup:
    """The scores move by move: a line per player in their colour (over a light outline, so black and
    white lines both show), their badge at its end, the highest score and 0 on the left."""
    width, height = CHART
    steps = max((len(values) for values in series.values()), default=0)
    top = max((max(values) for values in series.values() if values), default=0) or 1
    inner_w, inner_h = width - CHART_LEFT - CHART_RIGHT, height - 2 * CHART_PAD

    def at(index: int, value: int) -> tuple[float, float]:
        x = CHART_LEFT + (inner_w * index / (steps - 1) if steps > 1 else 0.0)
        return x, CHART_PAD + inner_h * (1 - value / top)

    parts = [element("rect", x=f"{CHART_LEFT:.1f}", y=f"{CHART_PAD:.1f}", width=f"{inner_w:.1f}",
                     height=f"{inner_h:.1f}", fill=SURFACE),
             element("text", str(top), x=f"{CHART_LEFT - 6:.1f}", y=f"{CHART_PAD + 6:.1f}", fill=TEXT,
                     font_size="16", text_anchor="end"),
             element("text", "0", x=f"{CHART_LEFT - 6:.1f}", y=f"{height - CHART_PAD + 6:.1f}", fill=TEXT,
                     font_size="16", text_anchor="end")]
    for player, values in series.items():
        line = points(at(i, v) for i, v in enumerate(values))
        parts.append(element("polyline", points=line, fill="none", stroke=OUTLINE, stroke_width="4"))
        parts.append(element("polyline", points=line, fill="none", stroke=piece_hex(who[player].colour),
                             stroke_width="2.5"))
    ends: list[float] = []
    for player in sorted(series, key=lambda p: -(series[p][-1] if series[p] else 0)):
        y = at(steps - 1, series[player][-1] if series[player] else 0)[1]
        while any(abs(y - other) < 26 for other in ends):
            y += 26  # badges of players level on points stack downwards, the best on top
        ends.append(y)
        parts.append(badge((width - CHART_RIGHT / 2, y), 12, who[player].colour, who[player].tag))
    return drawing(width, height + max(0.0, max(ends, default=0.0) + 14 - height), parts,
                   words("web.game.chart"))


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
    example = example_setup(game.name, parsed.setup, parsed.options, parsed.players)
    return {
        "problem": "",
        "title": game.title,
        # the game is on an example board or layout: said once, under the strips
        "example": words.say(example.said["web"]) if example is not None else "",
        "finished": game.is_finished(state),
        "players": [who[p] for p in parsed.players],
        "people": dict(who),
        "strips": strips(game, state, who, words),
        "standings": standings(game, state, who, words),
        "moves": last_moves(game, states, parsed.moves, who, words),
        "move_count": len(parsed.moves),
        "chart": progression_svg(progression(game, states, parsed.players), who, words)
        if game.is_finished(state) else None,
        "part_template": part.template if part else None,
        "part": part.context(game, state, states, who, words) if part else {},
    }
