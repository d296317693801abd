"""Reading what a person types: console lines, the words of a command, JSON values.

Whatever arrives - a byte-order mark from a Windows editor, bytes that are
not UTF-8, a thousand nested brackets, a number with ten thousand digits -
must end in one clear refusal, never in Python's own error text and never
in the console stopping. The refusals are :class:`InputError`, whose text is
in player words.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.console.errors import InputError
from companion.games.messages import msg
from companion.service.names import match_player

#: Move fields that hold a player's name, matched in any case or Unicode form.
PLAYER_FIELDS = ("player", "target")

#: No move needs more; far below where Python's JSON reader and ``int()`` give up.
MAX_DEPTH = 100
MAX_DIGITS = 1000

_BYTE_ORDER_MARK = "\ufeff"
_CLOSING = {"[": "]", "{": "}"}
_QUOTES = "\"'"


def clean_line(raw: str) -> str:
    """One console line, stripped of spaces and of a leading byte-order mark.

    Standard input is read with ``surrogateescape``, so bytes that are not
    UTF-8 arrive as lone surrogates: such a line is refused as a whole. So is
    a line nested deeper than :data:`MAX_DEPTH` or holding a number longer
    than :data:`MAX_DIGITS`, before any reader (JSON, notation, a move's
    number) can fail on it in its own way.
    """
    text = raw.strip()
    while text.startswith(_BYTE_ORDER_MARK):
        text = text[1:].strip()
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        raise InputError(msg("console.input.not_utf8"))
    _check_size(text)
    return text


def _check_size(text: str) -> None:
    """Refuse brackets nested deeper than MAX_DEPTH and digit runs longer than MAX_DIGITS.

    Brackets and digits inside a JSON string are only text and do not count.
    """
    depth = digits = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        digits = digits + 1 if ch.isdigit() else 0
        if digits > MAX_DIGITS:
            raise InputError(msg("console.input.too_many_digits", digits=MAX_DIGITS))
        if ch == '"':
            in_string = True
        elif ch in _CLOSING:
            depth += 1
            if depth > MAX_DEPTH:
                raise InputError(msg("console.input.too_deep", depth=MAX_DEPTH))
        elif ch in _CLOSING.values():
            depth = max(depth - 1, 0)


def decode_json(text: str, what: str | None = None) -> Any:
    """``json.loads(text)``; too deep or too long a number is an :class:`InputError`.

    A syntax error stays a :class:`json.JSONDecodeError`: callers say it their
    own way (the console "not a JSON move", ``--option`` takes it as text).
    ``what`` names the value in the refusal (``--setup towers``).
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        message = msg("console.input.too_deep", depth=MAX_DEPTH) if what is None \
            else msg("console.input.value_too_deep", what=what)
        raise InputError(message) from None
    except ValueError:  # Python refuses to convert integers of more than 4,300 digits
        message = msg("console.input.too_many_digits", digits=MAX_DIGITS) if what is None \
            else msg("console.input.value_too_many_digits", what=what)
        raise InputError(message) from None


def split_words(text: str) -> list[str]:
    """The words of a console command, as a shell would split them but keeping JSON intact.

    Spaces separate words except inside quotes or brackets, so
    ``--setup towers=["red", "blue"]`` stays one word with its quotes (the
    value is then JSON, as on the command line). A word that is one quoted
    text as a whole (``"Anna Maria"``, ``'towers=[...]'``) loses its quotes.
    """
    splitter = _WordSplitter()
    for ch in text:
        splitter.feed(ch)
    return splitter.finish()


@dataclass
class _WordSplitter:
    """What :func:`split_words` knows between two characters: the words so far and what is open.

    A character means something else inside a quote, inside brackets and
    outside both; one method per place keeps each rule next to its reason.
    """

    words: list[str] = dataclasses.field(default_factory=list)
    current: list[str] = dataclasses.field(default_factory=list)
    brackets: list[str] = dataclasses.field(default_factory=list)  # the open ones, innermost last
    quote: str | None = None
    escaped: bool = False

    def feed(self, ch: str) -> None:
        """Take one character of the line."""
        if self.quote is not None:
            self._in_quote(ch)
        elif ch.isspace() and not self.brackets:
            self._end_word()
        else:
            self.current.append(ch)
            self._open_or_close(ch)

    def finish(self) -> list[str]:
        """The words, once the line has ended; a quote or bracket left open is refused."""
        if self.quote is not None:
            raise InputError(msg("console.input.open_quote", quote=self.quote))
        if self.brackets:
            raise InputError(msg("console.input.open_bracket", opening=self.brackets[-1],
                                 closing=_CLOSING[self.brackets[-1]]))
        self._end_word()
        return self.words

    def _in_quote(self, ch: str) -> None:
        """Inside quotes every character is kept; only the unescaped closing quote ends them."""
        self.current.append(ch)
        if self.escaped:
            self.escaped = False
        elif ch == "\\":
            self.escaped = True
        elif ch == self.quote:
            self.quote = None

    def _end_word(self) -> None:
        if self.current:
            self.words.append(_unquoted("".join(self.current)))
            self.current = []

    def _open_or_close(self, ch: str) -> None:
        """A quote or bracket opens only where a value starts (or inside brackets); else it is a letter."""
        current, brackets = self.current, self.brackets
        starts_value = len(current) == 1 or current[-2] == "="
        if ch in _QUOTES and (starts_value or (brackets and ch == '"')):
            self.quote = ch  # an apostrophe inside a word (O'Brien) is a letter
        elif ch in _CLOSING and (starts_value or brackets):
            brackets.append(ch)  # a bracket inside a word (Ann[2]) is a letter too
        elif ch in _CLOSING.values() and brackets:
            opening = brackets.pop()
            if _CLOSING[opening] != ch:
                raise InputError(msg("console.input.wrong_bracket", opening=opening, closing=ch))


def _unquoted(word: str) -> str:
    """A word that is one quoted text, without its quotes (JSON escapes read); any other as it is."""
    if len(word) >= 2 and word[0] == word[-1] and word[0] in _QUOTES:
        if word[0] == '"':
            try:
                value = json.loads(word)
            except ValueError:
                value = None
            if isinstance(value, str):
                return value
        if word[0] not in word[1:-1]:
            return word[1:-1]
    return word


def with_player_names(data: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
    """The move ``data`` with each typed name replaced by the player's name as entered.

    Raises :class:`~companion.service.names.PlayerNameError` naming the real players
    when a name matches nobody.
    """
    result = dict(data)
    for field in PLAYER_FIELDS:
        if isinstance(result.get(field), str):
            result[field] = match_player(players, result[field])
    return result
