"""The one rule for every name a person types or imports: what it may hold and how long it may be.

A player's name, a profile's, the table's, a guild's, a board's, a
colour's: each reaches a terminal, the touchscreen, the OLED and the
phone page. A character a person cannot see may do harm on its way there: a
bidi override (U+202E) or isolate (U+2066–U+2069) reverses the text around it,
ESC or a C1 control clears or recolours a terminal, a zero-width space makes
two names look alike, a lone surrogate cannot even be written as UTF-8. So
every front end and every import asks :func:`name_problem` (or
:func:`check_name`) with the *field* the name is for, and the refusal says
which field and why in player words (``common.name.*``).

It lives with the engines (which may import only the standard library and
``companion.games``) because a record's own names — its players, its guilds —
are checked where the record is read; :mod:`companion.service.names` offers the
same functions to the rest of the companion.
"""

from __future__ import annotations

import unicodedata

from companion.games.base import RecordError
from companion.games.fields import type_message
from companion.games.messages import Message, msg

#: The zero-width joiners are kept: some scripts and emoji sequences need them, and they move nothing.
JOINERS = frozenset("\u200c\u200d")
#: The Unicode categories of characters a name may not hold: controls (C0, DEL, C1), formats (bidi
#: overrides and isolates, zero-width spaces), surrogates, private use, unassigned, and line and
#: paragraph separators. A terminal acts on some of them, and none can be seen.
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

#: Each field a name is typed or imported for, with the most characters it may have. A player's name
#: in a game is short enough for a seat panel's line and the OLED; a profile may be longer (it
#: is shortened where it is shown), and the table's name is a BG Stats location. A guild's name
#: may be as long as the guild setting allowed all four (120): games started with such names
#: before the rule keep replaying.
LIMITS: dict[str, int] = {
    "player": 24,
    "profile": 40,
    "table": 60,
    "club": 60,
    "guild": 120,
    "board": 40,
    "colour": 24,
}


def unsafe_character(text: str) -> str | None:
    """The first character of ``text`` that must not reach a terminal or a screen as it is, or ``None``.

    Such a character in a name could clear or recolour a terminal (ESC, a C1
    CSI), reverse the text around it (a bidi override), or make two names
    look the same (a zero-width space). A no-break space is no trouble, and stays allowed.
    """
    for ch in text:
        if ch not in JOINERS and unicodedata.category(ch) in UNSAFE_CATEGORIES:
            return ch
    return None


#: The controls people meet, by their Unicode aliases (the character database gives controls no name).
_CONTROL_NAMES = {"\x00": "NULL", "\t": "CHARACTER TABULATION", "\n": "LINE FEED", "\r": "CARRIAGE RETURN",
                  "\x1b": "ESCAPE", "\x7f": "DELETE"}


def character_name(ch: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``: how a refusal names a character (``U+000A LINE FEED``;
    a control without a common name by its number alone)."""
    name = unicodedata.name(ch, "") or _CONTROL_NAMES.get(ch, "")
    return f"U+{ord(ch):04X} {name}" if name else f"U+{ord(ch):04X}"


def field_word(field: str) -> Message:
    """The field a name is for, in player words ("a guild's name", "a céh neve")."""
    return msg(f"common.name.field.{field}")


def name_problem(value: object, field: str) -> Message | None:
    """Why ``value`` may not be a name for ``field`` (a key of :data:`LIMITS`), or ``None`` if it may.

    Refused: anything but text, text that is empty or only spaces, text longer than the field's
    limit, and text holding a character :func:`unsafe_character` finds (a bidi control, any other
    control or format character, a lone surrogate, a line or paragraph separator). The
    name is judged as given: whether spaces around it are trimmed is the caller's to say.
    """
    limit = LIMITS[field]
    if not isinstance(value, str):
        return msg("common.name.not_text", field=field_word(field), kind=type_message(value))
    found = unsafe_character(value)
    if found is not None:
        return msg("common.name.unsafe_in", field=field_word(field), character=character_name(found))
    if not value.strip():
        return msg("common.name.empty", field=field_word(field))
    if len(value) > limit:
        return msg("common.name.too_long", field=field_word(field), limit=limit, length=len(value))
    return None


def check_name(value: object, field: str, path: str = "") -> str:
    """``value`` when it may be a name for ``field``; :class:`RecordError` at ``path`` saying why not."""
    problem = name_problem(value, field)
    if problem is not None:
        raise RecordError(problem, path)
    assert isinstance(value, str)  # name_problem refused anything else
    return value
