"""What the console makes of a line that is not a command: a number, the notation, or JSON.

``moves`` prints the numbered list of what may be entered now (1, 2, 3...; a
line that gathers many places lists them as ``N.1``, ``N.2``... when its
number is typed); a line may then be a number from that list, a move in the game's notation
(``Albert: brown +3``, forgiving about case, prefixes and the acting
player's name), or the record JSON as before. A chosen template whose
observed fields are missing (the refill card's style, a tile's shields and
silver) is kept while the console asks for them on the next line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import Game, MoveTemplate, RecordError, StateT, one_line
from companion.games.notation import NotationError, tokens
from companion.i18n import current_language
from companion.i18n import text as say_text
from companion.registry import descriptor


def observed_hint(game: Game[Any, Any], move_type: str) -> str | None:
    """The message code of what to type for a template's observed fields (the game's descriptor's
    :attr:`~companion.games.descriptor.GameDescriptor.observed_hints`), or ``None``."""
    return descriptor(game.name).observed_hints.get(move_type)


@dataclass
class Reading:
    """What a line gave: words to print, a move object to propose, or neither."""

    say: list[str] = field(default_factory=list)
    move: Any = None
    #: The line read as no move at all (the notation refused it): a mistyped command, perhaps.
    unreadable: bool = False


@dataclass(frozen=True)
class Entry:
    """One numbered line of ``moves``: a move on its own, or a heading gathering several places
    (``members``, as indices into the game's list of legal moves)."""

    members: tuple[int, ...]
    heading: str | None = None


def entries(game: Game[StateT, Any], state: StateT, listed: list[MoveTemplate]) -> list[Entry]:
    """The lines ``moves`` numbers 1, 2, 3...: each legal move on its own, except those the game
    gathers under one heading (a segment's many places), which share one line at the first one's
    place in the list."""
    language = current_language()
    headings = [game.listing_group(state, template, language) for template in listed]
    groups: dict[str, list[int]] = {}
    for index, heading in enumerate(headings):
        if heading is not None:
            groups.setdefault(heading, []).append(index)
    found: list[Entry] = []
    for index, heading in enumerate(headings):
        members = groups.get(heading, []) if heading is not None else []
        if len(members) < 2:
            found.append(Entry((index,)))
        elif members[0] == index:
            found.append(Entry(tuple(members), heading))
    return found


@dataclass
class ConsoleInput:
    """The console's memory between lines: a template awaiting the fields observed at the table.

    A number typed always means that line of what ``moves`` prints for the game as it is now (the
    engine's stable order, numbered 1, 2, 3... without gaps), so it needs no memory of a listing:
    a move's number chooses it; a heading's number lists its places, numbered ``N.1``, ``N.2``...,
    and ``N.K`` chooses one of them.
    """

    #: A listed template or a text's meaning (record JSON), missing the fields observed at the table.
    waiting: MoveTemplate | dict[str, Any] | None = None

    def read(self, game: Game[StateT, Any], state: StateT, text: str) -> Reading | None:
        """The reading of ``text``, or ``None`` when it is JSON (the caller's path, as before)."""
        if text.lower() == "moves":
            return self._list(game, state)
        words = text.split()
        if len(words) == 2 and words[0].lower() == "moves" and _is_list_number(words[1]):
            return self._number(game, state, words[1], open_only=True)
        if _is_place_number(text):
            self.waiting = None
            return self._number(game, state, text)
        if _is_json(text) and not _is_list_number(text):
            self.waiting = None
            return None
        if self.waiting is not None:
            return self._complete(game, state, text)
        if _is_list_number(text):
            # The list as it is now, typed `moves` or not: after a restart, an undo or another
            # front end's move, an old listing would give a number another meaning.
            return self._number(game, state, text)
        try:
            chosen = game.parse_notation(state, text, current_language())
        except NotationError as error:
            refusal = say_text("console.notation.refused", reason=one_line(str(error)))
            return Reading([refusal], unreadable=True)
        return self._chosen(game, state, chosen)

    def _number(self, game: Game[StateT, Any], state: StateT, text: str, open_only: bool = False) -> Reading:
        """A number from ``moves``: ``N`` chooses line N's move or opens its heading (``moves N``
        only opens), ``N.K`` chooses the K-th place under heading N."""
        listed = game.move_templates(state)
        lines = entries(game, state, listed)
        number, _, place = text.partition(".")
        entry = lines[int(number) - 1] if 1 <= int(number) <= len(lines) else None
        if entry is None or (place and (entry.heading is None or not 1 <= int(place) <= len(entry.members))):
            return Reading([say_text("console.list.no_such_number", number=text)])
        if place:
            return self._chosen(game, state, listed[entry.members[int(place) - 1]])
        if entry.heading is not None:
            return self._opened(game, state, listed, entry, int(number))
        if open_only:
            return Reading([say_text("console.list.not_a_heading", number=number)])
        return self._chosen(game, state, listed[entry.members[0]])

    @staticmethod
    def _opened(game: Game[StateT, Any], state: StateT, listed: list[MoveTemplate], entry: Entry,
                number: int) -> Reading:
        """The places gathered under heading ``number``, numbered ``number.1``, ``number.2``..."""
        language = current_language()
        return Reading([f"{f'{number}.{place}':>6}. {game.describe(state, listed[index], language)}"
                        for place, index in enumerate(entry.members, 1)])

    def _list(self, game: Game[StateT, Any], state: StateT) -> Reading:
        """The numbered list of what may be entered now; moves the game gathers under a heading
        (a segment's many places) show as one line, whose number lists them."""
        listed = game.move_templates(state)
        if not listed:
            return Reading([say_text("cli.moves.none_now")])
        language = current_language()
        lines = []
        for number, entry in enumerate(entries(game, state, listed), 1):
            if entry.heading is None:
                lines.append(f"{number:>3}. {game.describe(state, listed[entry.members[0]], language)}")
            else:
                lines.append(f"{number:>3}. " + say_text("console.list.heading", heading=entry.heading,
                                                         count=len(entry.members), number=number))
        return Reading(lines)

    def _chosen(self, game: Game[StateT, Any], state: StateT, data: MoveTemplate | dict[str, Any]) -> Reading:
        try:
            return Reading(move=game.parse_move(data))
        except RecordError as error:
            code = observed_hint(game, data["type"])
            if code is None:  # not a template: a malformed move
                return Reading([say_text("console.refused", reason=one_line(str(error)))])
            refusal = game.refusal_before_observed(state, data)
            if refusal is not None:  # no tile could make it legal: say so before asking for one
                return Reading([say_text("console.refused", reason=refusal)])
            hint = say_text(code)
            self.waiting = data
            move = game.describe(state, data, current_language())
            return Reading([say_text("console.observed.ask", move=move, hint=hint)])

    def _complete(self, game: Game[StateT, Any], state: StateT, text: str) -> Reading:
        template = self.waiting
        assert template is not None
        filled = game.read_observed(state, template, tokens(text))
        if filled is None and not _is_json(text):
            try:  # not the fields asked for, but a move of its own: the table changed its mind
                chosen = game.parse_notation(state, text, current_language())
            except NotationError:
                chosen = None
            if chosen is not None:
                self.waiting = None
                return self._chosen(game, state, chosen)
        if filled is None:
            hint = say_text(observed_hint(game, template["type"]) or "console.observed.rest")
            return Reading([say_text("console.observed.unreadable", hint=hint)])
        self.waiting = None
        return Reading(move=game.parse_move(filled))


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return text.startswith(("{", "["))
    return True


def _is_place_number(text: str) -> bool:
    """Whether ``text`` is a place under a heading of the ``moves`` list: ``3.2``."""
    number, dot, place = text.partition(".")
    return bool(dot) and _is_list_number(number) and _is_list_number(place)


def _is_list_number(text: str) -> bool:
    """Whether ``text`` is a number from the ``moves`` list: ASCII digits only ("²" is a digit to
    ``str.isdigit`` but not a number to ``int``)."""
    return text.isascii() and text.isdigit()
