"""How the companion compares player names.

A record keeps each name exactly as it was entered, and replays compare
names exactly. At the table, though, people type "albert" for "Albert", and
a name typed on one keyboard may reach us composed ("é") or decomposed
("e" + a combining accent). So what a player types is matched by its *key*:
the name in Unicode NFC form, case-folded. For that to be safe no two
players of a new game may share a key; records that already hold such names
(from before this rule) still replay, and there an exact match decides.

Kept apart from the console so that every front end (the console, the app
service, the touchscreen) matches names the same way. What a name may hold
at all is one rule for every field (:mod:`companion.games.naming`, offered
here as :func:`name_problem` and :func:`check_name`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from companion.games.base import RecordError, one_line
from companion.games.messages import Message, msg
from companion.games.naming import (
    JOINERS,
    LIMITS,
    UNSAFE_CATEGORIES,
    character_name,
    check_name,
    name_problem,
    unsafe_character,
)

__all__ = ["LIMITS", "PlayerNameError", "character_name", "check_distinct", "check_name", "escaped",
           "initials", "join_or", "match_player", "name_key", "name_problem", "name_refusal", "same_name",
           "unsafe_character"]


def name_refusal(name: str) -> Message | None:
    """Why ``name`` may not be a player profile's name, or ``None``: the one name rule
    (:func:`~companion.games.naming.name_problem`) for the ``profile`` field."""
    return name_problem(name, "profile")


def _escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # JSON writes a character beyond the BMP as its UTF-16 surrogate pair
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def escaped(text: str, keep: str = "") -> str:
    """``text`` with every unsafe character (but those in ``keep``) written ``\\uXXXX``.

    That is JSON's own escape, so JSON text passed through this reads back as
    the same data, and any other text shows where the character was.
    """
    if text.isprintable():
        return text
    return "".join(_escape(ch) if ch not in keep and ch not in JOINERS
                   and unicodedata.category(ch) in UNSAFE_CATEGORIES else ch for ch in text)


class PlayerNameError(ValueError):
    """A typed name that matches no player, or more than one; ``str()`` is the one-line refusal."""


def name_key(name: str) -> str:
    """The form in which two names are compared: NFC, case-folded (and NFC again).

    Case folding can undo the composed form (``"ǰ".casefold()`` is two code
    points), hence the second normalisation.
    """
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def same_name(first: str, second: str) -> bool:
    """Whether two names are the same to the companion (equal keys)."""
    return name_key(first) == name_key(second)


def match_player(players: Sequence[str], typed: str) -> str:
    """The player ``typed`` stands for, in any case or Unicode form.

    An exact match wins (so an old game with both "Ann" and "ANN" still
    works); otherwise exactly one player must share the key. Raises
    :class:`PlayerNameError` naming the real players, or the candidates.
    """
    if typed in players:
        return typed
    key = name_key(typed)
    candidates = [name for name in players if name_key(name) == key]
    if len(candidates) == 1:
        return candidates[0]
    if candidates:
        raise PlayerNameError(msg("common.name.ambiguous", typed=one_line(typed),
                                  candidates=join_or(candidates)))
    raise PlayerNameError(msg("common.name.unknown", typed=one_line(typed), players=", ".join(players)))


def check_distinct(players: Sequence[str]) -> None:
    """Refuse a new game whose names the companion could not tell apart.

    Raises :class:`RecordError` at ``players[i]`` for the first name whose
    key an earlier name already has ("Ann" and "ANN", or "Zoë" composed and
    decomposed). Only new games are checked: records keep replaying.
    """
    seen: dict[str, str] = {}
    for index, name in enumerate(players):
        key = name_key(name)
        if key in seen and seen[key] != name:  # an exact duplicate is the record check's to refuse
            raise RecordError(msg("common.name.clash", name=name, other=seen[key]), f"players[{index}]")
        seen[key] = name


def join_or(names: Sequence[str]) -> Message:
    """``A or B``, ``A, B or C`` in the current language (the catalogue says the words)."""
    if len(names) <= 1:
        return msg("records.quoted", text="".join(names))
    return msg("common.list.or", first=", ".join(names[:-1]), last=names[-1])


def initials(players: Sequence[str]) -> dict[str, str]:
    """Each player's initials, unique at the table: ``Albert, Anna`` -> ``Al, An``.

    Screens pair a player's colour with these (never colour alone), on pieces as small as a San
    Gimignano token (24 px across): at most three characters. Two letters of the name (one for a
    one-letter name), title-cased; where two players would share them, the three-letter prefix or
    the words' initials ("Anna Maria" gives "AM" when "An" is taken), and for names neither tells
    apart ("Ann", "Anna"; "Anna", "Annamária" once gave "Annam", wider than a token) the two
    letters with the seat number ("An1", "An2").
    """
    keys = [name_key(name) for name in players]
    result: dict[str, str] = {}
    for seat, name in enumerate(players):
        others = [k for i, k in enumerate(keys) if i != seat]
        chosen = None
        for candidate in _initials_candidates(name):
            folded = name_key(candidate)
            if not any(_initials_could_be(folded, other) for other in others):
                chosen = candidate
                break
        if chosen is None:
            chosen = f"{_initials_candidates(name)[0]}{seat + 1}"
        result[name] = chosen
    shown = [name_key(value) for value in result.values()]
    if len(set(shown)) != len(shown):  # only names built to defeat the rule above get here
        result = {name: f"{value}{seat + 1}" for seat, (name, value) in enumerate(result.items())}
    return result


def _initials_candidates(name: str) -> list[str]:
    """Ways to abbreviate ``name``, shortest first: two letters, its words' initials, three letters."""
    letters = "".join(ch for ch in name.strip() if not ch.isspace()) or "?"

    def cased(prefix: str) -> str:
        return prefix[:1].upper() + prefix[1:].lower()

    words = name.split()
    found = [cased(letters[:2])]
    if len(words) > 1:
        found.append("".join(word[0].upper() for word in words[:3]))
    if len(letters) >= 3:
        found.append(cased(letters[:3]))
    return list(dict.fromkeys(found))


def _initials_could_be(candidate_key: str, other_key: str) -> bool:
    """Whether initials would also fit another player's name (its start, or its words' first letters)."""
    letters = "".join(other_key.split())
    acronym = "".join(word[0] for word in other_key.split()[:3])
    return letters.startswith(candidate_key) or acronym == candidate_key
