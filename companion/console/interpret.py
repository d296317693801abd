"""What the console makes of a line that is not a command: a number, the notation, or JSON.

``moves`` prints the numbered list of what may be entered now; a line may
then be a number from that list, a move in the game's notation
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


@dataclass
class ConsoleInput:
    """The console's memory between lines: a template awaiting the fields observed at the table.

    A number typed always means that entry of the game's current list of legal moves (what
    ``moves`` prints, in the engine's stable order), so it needs no memory of a listing.
    """

    #: A listed template or a text's meaning (record JSON), missing the fields observed at the table.
    waiting: MoveTemplate | dict[str, Any] | None = None

    def read(self, game: Game[StateT, Any], state: StateT, text: str) -> Reading | None:
        """The reading of ``text``, or ``None`` when it is JSON (the caller's path, as before)."""
        if text.lower() == "moves":
            return self._list(game, state)
        words = text.split()
        if len(words) == 2 and words[0].lower() == "moves" and _is_list_number(words[1]):
            return self._list(game, state, int(words[1]))
        if _is_json(text) and not _is_list_number(text):
            self.waiting = None
            return None
        if self.waiting is not None:
            return self._complete(game, state, text)
        if _is_list_number(text):
            # The list as it is now, typed `moves` or not: after a restart, an undo or another
            # front end's move, an old listing would give a number another meaning.
            listed = game.move_templates(state)
            number = int(text)
            if not 1 <= number <= len(listed):
                return Reading([say_text("console.list.no_such_number", number=number)])
            return self._chosen(game, state, listed[number - 1])
        try:
            chosen = game.parse_notation(state, text, current_language())
        except NotationError as error:
            return Reading([say_text("console.notation.refused", reason=one_line(str(error)))])
        return self._chosen(game, state, chosen)

    def _list(self, game: Game[StateT, Any], state: StateT, opened: int | None = None) -> Reading:
        """The numbered list of what may be entered now; moves the game gathers under a heading
        (a segment's many places) show as one line, ``moves N`` opens the heading of number N."""
        listed = game.move_templates(state)
        if not listed:
            return Reading([say_text("cli.moves.none_now")])
        language = current_language()
        headings = [game.listing_group(state, template, language) for template in listed]
        groups: dict[str, list[int]] = {}
        for number, heading in enumerate(headings, 1):
            if heading is not None:
                groups.setdefault(heading, []).append(number)
        opened_group = next((members for members in groups.values() if opened in members), None)
        if opened_group is not None:  # `moves N`: the places of that heading only
            return Reading([f"{n:>3}. {game.describe(state, listed[n - 1], language)}" for n in opened_group])
        lines = []
        for number, (template, heading) in enumerate(zip(listed, headings, strict=True), 1):
            members = groups.get(heading, []) if heading is not None else []
            if len(members) < 2:
                lines.append(f"{number:>3}. {game.describe(state, template, language)}")
            elif members[0] == number:  # the heading's line, at its first place's number
                lines.append(f"{number:>3}. " + say_text("console.list.group", heading=heading,
                                                         count=len(members), number=number))
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


def _is_list_number(text: str) -> bool:
    """Whether ``text`` is a number from the ``moves`` list: ASCII digits only ("²" is a digit to
    ``str.isdigit`` but not a number to ``int``)."""
    return text.isascii() and text.isdigit()
