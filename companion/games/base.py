"""What every rules engine provides, and the two exceptions they raise.

An engine is a stateless object (one per game) with pure functions over an
immutable-by-convention state: ``start`` builds the opening state from the
players, options and setup of a record; ``apply`` returns the state after one
move, or raises :class:`IllegalMove` and leaves the given state untouched.
The session, the store, the CLI and the screens only talk to engines through
this interface, so a new game is one new package plus a line in the registry.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypedDict, TypeVar, cast

from companion.games.messages import Alternatives, Message

StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")
#: A move's spellings as words, one list per way of typing it (:meth:`Game._spelt_forms`).
Spelt = list[list[str]]


class TurnJson(TypedDict):
    """A summary's ``turn``: whose turn is in progress and who starts the next (:meth:`Turn.to_json`)."""

    player: str | None
    next: str | None


class Summary(TypedDict):
    """What every game's summary holds (records.md, "``companion replay --json``").

    Each game's summary is a subclass in its package's ``summary`` module (``<Game>Summary``) with
    its own fields, so a front end reads typed fields, not string keys. Values are JSON, or
    messages (:class:`~companion.games.messages.Message`, :class:`~companion.games.messages.Words`)
    that :func:`companion.i18n.summary_json` puts into words where the summary is written out.
    """

    game: str
    players: list[str]
    finished: bool
    scores: dict[str, int]
    winners: list[str]
    to_move: str | None
    #: ``None`` where no one turn is the game's (two games played at once on one table).
    turn: TurnJson | None


class _TemplateType(TypedDict):
    #: The record's move type (``"build"``, ``"reveal"``...): always present.
    type: str


# Two classes rather than ``Required[str]``: with postponed annotations (this module's
# ``from __future__ import annotations``) ``Required`` is invisible at run time, and
# ``MoveTemplate.__required_keys__`` would wrongly leave ``type`` out.
class MoveTemplate(_TemplateType, total=False):
    """A legal move as the front ends read it: the fields every game's templates share.

    ``legal_moves`` returns record JSON (records.md, "`companion moves`"), a
    plain ``dict`` per template, so that the JSON contract stays exactly what
    is printed. Front ends that only ask whose move a template is and of what
    type (the console, the OLED menus, the seat panels, the move picker) read
    it through this view (:meth:`Game.move_templates`), so a misspelt key is a
    type error rather than a ``KeyError`` at the table. The fields a game adds
    (``tower``, ``area``, ``at``...) are read by that game's own ``views``.
    ``tests/test_contract.py`` checks every template of every game fits.
    """

    #: The player whose move it is; absent for moves the table makes (a display refill).
    player: str


def one_line(text: str) -> str:
    """``text`` with line breaks and other control characters escaped (``\\n``).

    Messages quote what a record or a player typed; a name or field holding a
    line break must not turn the promised one-line error into several.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                   for ch in text)


class IllegalMove(Exception):
    """The rules refuse a move.

    ``reason`` is the rule that refuses it as a :class:`Message` (a code and
    its parameters, such as a code ``<game>.marker.value`` with ``stories=2``), put into a
    player's words by the catalogues; ``str(refusal)`` gives those words in the
    current language ("a 2-story raise lets you place only a value-2 marker").
    Callers add which move and whose it was. This is the one exception type
    every engine raises for an illegal move.

    A plain string is accepted only so that a caller's mistake still shows
    as words; every engine raises codes, and AST scans in the tests fail on
    a sentence raised in the engines or the core.
    """

    def __init__(self, reason: Message | str) -> None:
        self.reason: Message | str = reason if isinstance(reason, Message) else one_line(reason)
        super().__init__(self.reason)

    def __str__(self) -> str:
        return one_line(str(self.reason))


def require_player(players: Sequence[str], name: str) -> None:
    """Refuse a move that names someone who is not at the table (one wording for every game)."""
    if name not in players:
        raise IllegalMove(Message("common.player.not_playing", {"player": name}))


class RecordError(ValueError):
    """A record, option, setup field or move that is not well formed.

    ``path`` is the JSON path of the offending field (``players[1]``,
    ``setup.towers[2]``, ``move 7``); ``str()`` gives ``"path: message"``.
    ``message`` is a :class:`Message` (code and parameters) put into words by
    the catalogues in the current language (a plain string is accepted only
    so that a caller's mistake still shows as words; the tests forbid it).
    """

    def __init__(self, message: Message | str, path: str = "") -> None:
        message = message if isinstance(message, Message) else one_line(message)
        path = one_line(path)
        super().__init__(message)
        self.message: Message | str = message
        self.path = path

    @property
    def text(self) -> str:
        """The message in words, in the current language (without the path)."""
        return one_line(str(self.message))

    def as_message(self) -> Message:
        """The error as one message, its path in front (``towers[2]: ...``), for an error about a
        larger thing to quote."""
        if not self.path:
            return self.message if isinstance(self.message, Message) else Message("records.quoted",
                                                                                   {"text": self.message})
        return Message("records.at", {"path": self.path, "reason": self.message})

    def within(self, prefix: str) -> RecordError:
        """The same error, its path placed under ``prefix`` (``setup`` + ``towers[2]``)."""
        if not self.path:
            return RecordError(self.message, prefix)
        joiner = "" if self.path.startswith("[") else "."
        return RecordError(self.message, f"{prefix}{joiner}{self.path}")

    def __str__(self) -> str:
        return f"{self.path}: {self.text}" if self.path else self.text


@dataclass(frozen=True)
class Turn:
    """Whose turn is in progress and who starts the next one (``Game.turn``).

    ``player`` is ``None`` between turns; then ``may`` lists what the table
    (not a player) may enter, such as a display refill after a valuation.
    ``next`` is ``None`` when no further turn will start.
    """

    player: str | None
    may: tuple[str, ...]
    next: str | None

    @property
    def acting(self) -> str | None:
        """The player every screen marks: the one who may move now.

        That is the player whose turn is in progress while they still may do
        something; once they may do nothing more (their turn stays open only
        until the next one starts), or between turns, it is the next player.
        """
        if self.player is not None and (self.may or self.next is None):
            return self.player
        return self.next if self.next is not None else self.player

    def to_json(self) -> TurnJson:
        """The summary's ``turn`` field."""
        return {"player": self.player, "next": self.next}


def turn_from(templates: Sequence[Mapping[str, Any]], player: str | None, following: str | None) -> Turn:
    """A :class:`Turn` whose ``may`` holds the move types ``player`` (or the table) may enter now."""
    may = dict.fromkeys(t["type"] for t in templates if t.get("player") == player)
    return Turn(player, tuple(may), following)


def kinds_for(templates: Sequence[Mapping[str, Any]], player: str | None) -> tuple[str, ...]:
    """The move types ``player`` (``None``: the table) may enter among ``templates``, in their order."""
    return tuple(dict.fromkeys(t["type"] for t in templates if t.get("player") == player))


def next_up(turn: Turn, templates: Sequence[Mapping[str, Any]], subject: str | None) -> str | None:
    """Who the screens name as "next: Birgit" under a :meth:`Game.what_now` about ``subject``
    (its ``player``; ``None``: the table), or ``None`` when saying it would not help.

    It helps in two cases only: the next player may already move now (what is left of the
    acting player's turn is optional, so either may tap), or the table acts now and the
    next player follows it. Otherwise the next player is plain from the seating and the words
    would only push the instruction off the line. One rule, so every screen (the touchscreen's
    strip, the OLED's first page) says it alike.
    """
    following = turn.next
    if following is None or following == subject:
        return None
    if subject is None or any(t.get("player") == following for t in templates):
        return following
    return None


@dataclass(frozen=True)
class Standing:
    """One player's place in the ranking: players still tied after the tie-break share a rank."""

    player: str
    rank: int
    score: int
    #: The tie-break figure (the highest chip, castles built, tokens on the board).
    tiebreak: int


@dataclass(frozen=True)
class Outcome:
    """The ranking, the winners and the tie-break that decided them (``Game.outcome``).

    ``decided_by`` is ``"score"`` when the winner has the most points alone,
    the tie-break's name when it decided a tie for first, ``"shared"`` when
    the players tied for first are still tied after it, and ``None`` while
    the game is not finished (``winners`` is then empty).
    """

    standings: tuple[Standing, ...]
    winners: tuple[str, ...]
    decided_by: str | None
    #: The tie-break's key (``highest_chip``, ``castles_built``, ``tokens_on_board``), as records and
    #: ``replay --json`` name it.
    tiebreak: str
    #: The tie-break in words, a message of the game's own catalogue (``<game>.tiebreak.<key>``:
    #: the words are the game's, as everything only one game says); ``None``: ``common.tiebreak.<key>``.
    words: Message | None = field(default=None, compare=False)
    #: A game played in groups at once (a Championship round's two games): each group's own outcome,
    #: in the groups' order (group 1 first); ``()`` for a game of one group. The fields above then
    #: merge the groups (every group's winners), so a front end that names winners or a tie says it
    #: per group from these: Bela won his group, only Csaba and Dora tied in theirs.
    groups: tuple[Outcome, ...] = ()

    def tiebreak_words(self) -> Message:
        """The tie-break in words ("the highest chip"), for screens and reports."""
        return self.words if self.words is not None else Message(f"common.tiebreak.{self.tiebreak}")

    def placed_by_tiebreak(self) -> tuple[str, ...]:
        """The players whose place the tie-break settled: each shares its points with another, so its
        tie-break figure says why it stands where it does (``()`` while the game is not finished).
        Front ends show the figure for these players only, each the same."""
        if self.decided_by is None:
            return ()
        if self.groups:  # points are compared within a group only
            return tuple(player for group in self.groups for player in group.placed_by_tiebreak())
        points = [s.score for s in self.standings]
        return tuple(s.player for s in self.standings if points.count(s.score) > 1)

    def reason(self) -> Message:
        """Why the winners won, in a few words."""
        if self.decided_by is None:
            return Message("common.outcome.unfinished")
        if self.decided_by == "score":
            return Message("common.outcome.score")
        if self.decided_by == "shared":
            return Message("common.outcome.shared", {"tiebreak": self.tiebreak_words()})
        return Message("common.outcome.tiebreak", {"tiebreak": self.tiebreak_words()})


def rank_players(players: Sequence[str], scores: Mapping[str, int], tiebreak: Callable[[str], int],
                 tiebreak_name: str, finished: bool, *, words: Message | None = None) -> Outcome:
    """The :class:`Outcome` for most points first, then the higher ``tiebreak`` figure (``words``: the
    tie-break in the game's words, :attr:`Outcome.words`)."""
    figures = {p: (scores[p], tiebreak(p)) for p in players}
    ordered = sorted(players, key=lambda p: figures[p], reverse=True)
    standings = tuple(Standing(p, 1 + sum(1 for q in players if figures[q] > figures[p]),
                               scores[p], figures[p][1]) for p in ordered)
    if not finished:
        return Outcome(standings, (), None, tiebreak_name, words)
    winners = tuple(s.player for s in standings if s.rank == 1)
    best = figures[ordered[0]][0]
    tied_on_points = sum(1 for p in players if scores[p] == best)
    if tied_on_points == 1:
        decided = "score"
    elif len(winners) > 1:
        decided = "shared"
    else:
        decided = tiebreak_name
    return Outcome(standings, winners, decided, tiebreak_name, words)


class Game(ABC, Generic[StateT, MoveT]):
    """One game's rules engine.

    Subclasses set the class attributes and implement the abstract methods.
    States and moves are engine-specific objects (``StateT``, ``MoveT``: a
    subclass names its own, ``Game[State, Move]``); callers treat
    them as opaque values, never mutate them, and ask the engine about them.
    """

    #: The record's ``game`` value, the name its descriptor is registered under.
    name: ClassVar[str]
    #: The name players know the game by, for screens.
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    @abstractmethod
    def start(self, players: Sequence[str], options: Mapping[str, Any],
              setup: Mapping[str, Any]) -> StateT:
        """The state before the first move.

        ``players`` are already validated (unique names, count in range).
        Raises :class:`RecordError` with a path such as ``options.flags`` or
        ``setup.towers[2]`` when an option or setup field is not valid.
        """

    @abstractmethod
    def parse_move(self, data: object) -> MoveT:
        """A move object from its record JSON (a dict), checking its structure only.

        Raises :class:`RecordError`; its message names the field in words
        ("stories must be 1, 2 or 3", 'unknown field "storeys"'). The caller
        adds ``move N``. Whether the move is legal now is ``apply``'s job.
        """

    @abstractmethod
    def move_to_json(self, move: MoveT) -> dict[str, Any]:
        """The record JSON of a move; ``parse_move(move_to_json(m)) == m``."""

    @abstractmethod
    def apply(self, state: StateT, move: MoveT) -> StateT:
        """The state after ``move``. Raises :class:`IllegalMove`; never mutates ``state``."""

    @abstractmethod
    def summary(self, state: StateT) -> Summary:
        """The ``companion replay --json`` summary of ``state`` (see records.md): the game's own
        :class:`Summary` subclass, written out by :func:`companion.i18n.summary_json`."""

    @abstractmethod
    def options_json(self, state: StateT) -> dict[str, Any]:
        """Every rule option of the game, defaults written out, for export."""

    @abstractmethod
    def setup_json(self, state: StateT) -> dict[str, Any]:
        """The setup of the game, defaults written out (boards inline), for export."""

    def actor(self, move: MoveT) -> str | None:
        """Whose move this is, for messages; ``None`` for table-wide moves."""
        return getattr(move, "player", None)

    @abstractmethod
    def report(self, state: StateT) -> str:
        """A readable account of the state for people (``companion replay`` without ``--json``)."""

    @abstractmethod
    def is_finished(self, state: StateT) -> bool:
        """Whether the game has ended (no move may follow)."""

    @abstractmethod
    def to_move(self, state: StateT) -> str | None:
        """The player expected to act next, for screens and the OLED; ``None`` when finished.

        Kept for compatibility (the summaries' ``to_move``); :meth:`turn` says more.
        """

    @abstractmethod
    def legal_moves(self, state: StateT) -> list[dict[str, Any]]:
        """What may be entered now, as move templates (records.md, "`companion moves`").

        Each template is record JSON in its minimal form: ``type``, ``player``
        where the move has one, and the chosen fields whose value is not
        ``null`` or ``false``; fields observed at the table (a tile's
        shields and silver, a card turned over) are left out. The list
        is complete (every move ``apply`` accepts now, by anyone who may act,
        has its template) and sound (every template, its observed fields
        filled in, is accepted), without duplicates. Engines build it with
        generators that follow their rules, never by trying candidates.
        """

    def move_templates(self, state: StateT) -> list[MoveTemplate]:
        """:meth:`legal_moves` typed for the front ends that read ``type`` and ``player``.

        The same dicts (not copies): a front end may hand one back to
        :meth:`parse_move`, :meth:`describe` or the session as it is.
        """
        return cast(list[MoveTemplate], self.legal_moves(state))

    @abstractmethod
    def describe(self, state: StateT, move: Mapping[str, Any], lang: str = "en") -> str:
        """A move or template (record JSON) in the short notation of ``lang`` (``Albert: brown +3``).

        A template is described as far as it goes (``Anna: reveal s32``).
        """

    def record_words(self, state: StateT, move: Mapping[str, Any], lang: str) -> list[tuple[str, Message]]:
        """The words of :meth:`describe`'s text in ``lang`` that are record values players would not
        say (a card's ``robber-baron``), each with the message they read in its place (the game's
        ``<game>.card.robber-baron``: "Robber baron"). Screens that only show a move (the history,
        the OLED's "saved") say those; the notation itself, which the console reads, keeps them.
        ``[]``: the notation is already in players' words."""
        return []

    def notation_forms(self, state: StateT, move: Mapping[str, Any], lang: str) -> list[str]:
        """Every text that spells ``move`` in ``lang`` (:meth:`describe`'s first): a game whose
        language allows two word orders lists both, and :meth:`parse_notation` reads either."""
        return [self.describe(state, move, lang)]

    def read_observed(self, state: StateT, template: Mapping[str, Any],
                      said: list[str]) -> dict[str, Any] | None:
        """``template`` with its observed fields read from the words ``said`` after it.

        ``None`` when the words do not read as those fields.

        Only games with observed fields override this.
        """
        return None

    def observed_problem(self, state: StateT, template: Mapping[str, Any], said: list[str]) -> Message | None:
        """What is wrong with the words ``said`` for ``template``'s observed fields, when
        :meth:`read_observed` cannot read them (a misspelt colour, a value no tile has), so that
        the refusal names the part. ``None``: nothing more precise than "not a move"."""
        return None

    def refusal_before_observed(self, state: StateT, template: Mapping[str, Any]) -> Message | None:
        """Why ``template`` would be refused whatever its observed fields say (a second reveal in
        one turn), so that a front end refuses it before asking the table for them; ``None`` when
        the fields could still make it legal. Games with observed fields override it."""
        return None

    def notation_shapes(self, state: StateT, said: list[str]) -> Iterable[dict[str, Any]]:
        """Well-formed moves (record JSON, or templates) the words ``said`` could mean, legal or not.

        :meth:`parse_notation` turns to them when no legal move matches, so
        that a move typed in the notation that breaks a rule reaches
        :meth:`apply`, and the player reads the rule instead of "not a move".
        A game may use ``said`` to leave out what the words cannot mean (names
        they do not mention) or to read values from them; the matching itself
        stays :meth:`parse_notation`'s. None by default.
        """
        return ()

    def parse_notation(self, state: StateT, text: str, lang: str = "en") -> dict[str, Any]:
        """The move that ``text`` means (record JSON, minimal form), or a template.

        Accepts the words of every language, any case, unique prefixes and the
        acting player's name left out. A template comes back when its observed
        fields are not in the text: the caller asks for them. The legal moves
        are matched first; when none fits, the well-formed moves of
        :meth:`notation_shapes`, so a move that breaks a rule comes back too and
        :meth:`apply` refuses it naming the rule. Raises
        :class:`~companion.games.notation.NotationError` (message in ``lang``'s
        notation) for a text that means no move at all, or several.
        """
        from companion.games import notation  # not at start-up: replay never reads notation

        said = notation.tokens(text)
        if not said:
            raise notation.NotationError(Message("console.notation.empty"))
        acting = self.turn(state).acting
        # A legal move may leave out the name of whoever may make it (a player who skipped the
        # rest of a turn is still "acting", yet the next player's build is meant); a move that
        # breaks a rule may leave out only the acting player's, whom the refusal then names.
        found = self._notation_matches(state, said, self.legal_moves(state), None)
        if not found:
            named: dict[str | None, bool] = {}  # per player, not per shape: a game has hundreds of shapes

            def may_be_named(player: str | None) -> bool:
                if player not in named:
                    named[player] = _may_be_named(player, said, acting)
                return named[player]

            found = self._notation_matches(state, said, (
                shape for shape in self.notation_shapes(state, said) if may_be_named(shape.get("player"))),
                acting)
        if len(found) > 1 and any(exact for _, exact in found.values()):
            found = {k: v for k, v in found.items() if v[1]}
        if len(found) == 1:
            return next(iter(found.values()))[0]
        if not found:
            self._check_named_player(state, text)
            problem = self._observed_problem(state, said)
            if problem is not None:
                raise notation.NotationError(Message("console.notation.observed", {
                    "text": one_line(text), "problem": problem}))
            examples = [self.describe(state, t, lang) for t in self.legal_moves(state)[:3]]
            if examples:
                raise notation.NotationError(Message("console.notation.no_move", {
                    "text": one_line(text), "examples": "; ".join(examples)}))
            raise notation.NotationError(Message("console.notation.no_move_now", {"text": one_line(text)}))
        meanings = [self.describe(state, m, lang) for m, _ in found.values()]
        if len(meanings) > 6:
            raise notation.NotationError(Message("console.notation.ambiguous_more", {
                "text": one_line(text), "meanings": "; ".join(meanings[:6]), "count": len(meanings) - 6}))
        raise notation.NotationError(Message("console.notation.ambiguous", {
            "text": one_line(text), "meanings": "; ".join(meanings)}))

    def _observed_problem(self, state: StateT, said: list[str]) -> Message | None:
        """The first problem :meth:`observed_problem` names for a legal template whose beginning
        ``said`` spells out (its observed fields then unreadable), or ``None``."""
        from companion.games import notation  # not at start-up: replay never reads notation

        for template in self.legal_moves(state):
            for shape in self._spellings(state, template, None):
                if len(said) > len(shape) and notation.prefix_match(said[:len(shape)], shape):
                    problem = self.observed_problem(state, template, said[len(shape):])
                    if problem is not None:
                        return problem
        return None

    def _spellings(self, state: StateT, template: Mapping[str, Any], unnamed: str | None) -> list[list[str]]:
        """Every way ``template`` may be typed, as words: each of its :meth:`notation_forms` in every
        language, and each without the player's name when it may be left out (any player's when
        ``unnamed`` is ``None``, else only ``unnamed``'s). The lists are kept: read them, never change
        them."""
        player = template.get("player")
        named, bare = self._spelt_forms(state, template)
        if player is not None and unnamed in (None, player):
            return named + bare
        return named

    def _spelt_forms(self, state: StateT, template: Mapping[str, Any]) -> tuple[Spelt, Spelt]:
        """:meth:`notation_forms` of ``template`` in every language, as words, and the same without the
        player's name (none for a template without a player), kept for the last state read: a console
        or a test reads many texts against one state, and each reading spells every legal move (and
        every well-formed move a rule may refuse) in both languages (holding the state keeps its ``id``
        from being reused). Keyed by the template's ``repr``: two equal templates whose keys come in
        another order are only spelt twice."""
        kept: tuple[Any, dict[str, tuple[Spelt, Spelt]]] | None = getattr(self, "_forms_kept", None)
        if kept is None or kept[0] is not state:
            kept = (state, {})
            self._forms_kept = kept
        key = repr(template)
        forms = kept[1].get(key)
        if forms is None:
            from companion.games import notation  # not at start-up: replay never reads notation

            named = [notation.tokens(text) for language in notation.LANGUAGES
                     for text in self.notation_forms(state, template, language)]
            player = template.get("player")
            skip = len(notation.tokens(player)) if player is not None else 0
            forms = (named, [form[skip:] for form in named] if player is not None else [])
            kept[1][key] = forms
        return forms

    def _check_named_player(self, state: StateT, text: str) -> None:
        """Refuse a text whose name (before the colon, ``Zoe: red +1``) is nobody's, listing the players.

        Without it a typo in a name reads as "not a move", and the player
        looks for the mistake in the move rather than in the name.
        """
        from companion.games import notation  # not at start-up: replay never reads notation

        if ":" not in text:
            return
        named = notation.tokens(text.split(":", 1)[0])
        players = list(self.summary(state)["players"])
        if named and not any(notation.prefix_match(named, notation.tokens(p)) for p in players):
            raise notation.NotationError(Message("common.name.unknown", {
                "typed": one_line(text.split(":", 1)[0].strip()), "players": ", ".join(players)}))

    def _notation_matches(self, state: StateT, said: list[str], moves: Iterable[dict[str, Any]],
                          unnamed: str | None) -> dict[str, tuple[dict[str, Any], bool]]:
        """The moves among ``moves`` that ``said`` could mean, each with whether it was spelt out.

        The player's name may be left out of any move when ``unnamed`` is ``None``, else only
        out of the moves of ``unnamed``.
        """
        from companion.games import notation  # not at start-up: replay never reads notation

        found: dict[str, tuple[dict[str, Any], bool]] = {}
        first, length = (said[0] if said else ""), len(said)
        for template in moves:
            for shape in self._spellings(state, template, unnamed):
                # the length and the first word before the whole comparison: most shapes fail there
                if shape and (length < len(shape) or not shape[0].startswith(first)):
                    continue
                head = said[:len(shape)]
                if not notation.prefix_match(head, shape):
                    continue
                exact = head == shape
                move: dict[str, Any] | None = dict(template)
                if len(said) > len(shape):
                    move = self.read_observed(state, template, said[len(shape):])
                if move is not None:
                    key = json.dumps(move, sort_keys=True)
                    found[key] = (move, exact or found.get(key, (None, False))[1])
        return found

    def listing_group(self, state: StateT, template: Mapping[str, Any], lang: str) -> str | None:
        """A heading under which a long list of legal moves gathers ``template`` ("Ada: segment
        guild-1 guild-1 …": one segment, its many places), so that the console lists the kinds
        first and the places on request; ``None``: listed on its own line (the default)."""
        return None

    def effects(self, before: StateT, after: StateT) -> list[Message]:
        """What a move caused beyond itself, in words the console prints after confirming it (the
        areas a revealed tile evaluated and who gained what). None by default: most moves show
        what they did in their own notation."""
        return []

    def may_word(self, move_type: str) -> Message:
        """A move type of :attr:`Turn.may` in words ("place a marker" for ``influence``).

        A game overrides it with its catalogue's words; by default the record's type is shown as it is.
        """
        return Message("common.may.type", {"type": move_type})

    def what_now(self, state: StateT) -> Message | None:
        """What is to be done now and by whom, as one message code with its parameters (``player``:
        who is to do it; absent when the table is, as for a display refill); ``None`` once the game is over.

        :meth:`turn` and :meth:`legal_moves` say who may move and which moves are legal, but a
        front end that words an instruction from them alone must re-derive the rules' stages (the
        marker's value after a 3-story build, a tower the rulebook forces, a refill owed before the
        next build), and each front end did it its own way, so two lines on one screen could name
        different players. The engine decides it once here; each front end only words the code for
        itself (:func:`companion.i18n.render_for`: the touchscreen says where to tap, the OLED
        what the encoder does) and names who follows with :func:`next_up`.

        By default: the acting player's move types (or, when they have none, the table's) as
        alternatives in :meth:`may_word`'s words; a game overrides it with its own codes
        (``<game>.now.*``).
        """
        if self.is_finished(state):
            return None
        templates = self.legal_moves(state)
        acting = self.turn(state).acting
        kinds = kinds_for(templates, acting) if acting is not None else ()
        if kinds:
            return Message("common.now.may", {"player": acting,
                                              "things": Alternatives(self.may_word(k) for k in kinds)})
        table = kinds_for(templates, None)
        if table:
            return Message("common.now.table", {"things": Alternatives(self.may_word(k) for k in table)})
        return None

    @abstractmethod
    def turn(self, state: StateT) -> Turn:
        """Whose turn is in progress, what that player may still do in it, who starts the next.

        "The acting player" of a screen is ``turn.player``, else ``turn.next``.
        """

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome:
        """The ranking, the winners and the tie-break that decided them (agrees with the summary)."""


def _may_be_named(player: str | None, said: list[str], acting: str | None) -> bool:
    """Whether a move by ``player`` could be what ``said`` means: the acting player's, or named first."""
    from companion.games import notation  # not at start-up: replay never reads notation

    if player is None or player == acting:
        return True
    name = notation.tokens(player)
    return notation.prefix_match(said[:len(name)], name)
