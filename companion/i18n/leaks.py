"""What must never reach a text a player reads: the words the catalogues did not put in.

A screen, an OLED page or a console line that shows ``oled.turn.may(moves=3)``,
``{count}``, ``moves=``, ``highest_chip`` or ``a12`` has leaked something meant for the
program: a message code that was not rendered, a placeholder left unfilled, a parameter
passed under a name the text does not use, one of the companion's own names (a
tie-break's key, a summary's field, a record value such as ``robber-baron``: the
catalogues' codes end in each) where its words belong, or an internal id or coordinate
(an area ``a12`` or a space ``s03`` of a checkerboard, a frame piece
``frame:…``, a hex space ``2,0`` or a guild ``guild-2``) where players need words. The
touchscreen's layout check (``ui.layout_check``) and the OLED snapshot
(``hardware.snapshot``) both ask :func:`leaks`, so the two fronts are held to
the same rules. Pure: no Kivy, no I/O but the catalogue's first reading.

The rules are written for the words the companion makes, not for any text
whatever: a message code is three or more dotted lowercase parts whose first is
an area the catalogues use (so ``app.bgstats.com`` is not one); a coordinate
is two integers joined by a comma, except where the comma is a decimal one
(Hungarian ``2,5``: one digit after a comma with no sign or space) or a
thousands separator (English ``1,000``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

#: ``area.topic.what`` (lowercase, digits and ``_``), optionally with a ``(`` after it.
_CODE = re.compile(r"(?<![\w./:])([a-z][a-z0-9_]*)\.[a-z0-9_]+\.[a-z0-9_.]*?([a-z0-9_]+)(?![\w./])")
#: The last parts of a web address (``app.bgstats.com``), which a message code never ends with.
_DOMAINS = frozenset({"com", "org", "net", "io", "app", "eu", "hu", "de", "uk"})
#: A ``str.format`` field left in: ``{count}``, ``{player!r}``, ``{0}``, ``{}``.
_PLACEHOLDER = re.compile(r"\{[A-Za-z0-9_]*(?:![rsa])?(?::[^{}]*)?\}")
#: ``moves=`` (a parameter's name and its equals sign, as a ``repr`` of a call writes it).
_PARAMETER = re.compile(r"(?<![\w=!<>])([a-z][a-z0-9_]*)=(?![=])")
#: A checkerboard's area and space ids (``a12``, ``s03``) and frame pieces (``frame:…``), the
#: hex map's guild ids (``guild-2``).
_ID = re.compile(r"(?<![\w-])(?:[as]\d{2}|frame:\S+|guild-\d+)(?![\w-])")
#: A word shaped as one of the companion's own names: lowercase parts joined by ``_`` or ``-``
#: (``highest_chip``, ``robber-baron``); it leaks only when it is one (:func:`_own_names`).
_OWN = re.compile(r"(?<![\w-])[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+(?![\w-])")
#: Two integers joined by a comma (``2,0``, ``-1, 2``, ``[1, 0]``).
_PAIR = re.compile(r"(?<![\w.,])(-?)(\d+),(\s?)(-?)(\d+)(?![\w.,])")


@dataclass(frozen=True)
class Leak:
    """One thing a text holds that a player should not read: what kind (a message code of
    ``hardware.check.*``, the words of the report) and the piece of text itself."""

    kind: str
    fragment: str


@cache
def _areas() -> frozenset[str]:
    """The first parts of every message code the English catalogues hold (``ui``, ``oled``…)."""
    from companion.i18n import catalogue  # the catalogues read only when a text is checked

    return frozenset(msgid.partition(".")[0] for _, msgid in catalogue("en").msgids if "." in msgid)


@cache
def _own_names() -> frozenset[str]:
    """The companion's own names, which a text shows only in words: the last part of every message
    code of the catalogues shaped as a name rather than a word (a tie-break's key, ``castles_built``,
    from ``<game>.tiebreak.castles_built``; a summary's field, ``starting_tile``; a record value,
    ``robber-baron``, from ``<game>.card.robber-baron``). A name people typed ("Anna-Maria", a
    board called "big_board") is none of them and passes."""
    from companion.i18n import catalogue  # the catalogues read only when a text is checked

    return frozenset(last for lang in ("en", "hu") for _, msgid in catalogue(lang).msgids
                     if _OWN.fullmatch(last := msgid.rpartition(".")[2]))


def _is_coordinate(found: re.Match[str], language: str) -> bool:
    sign_before, _, space, sign_after, after = found.groups()
    if sign_before or sign_after or space:
        return True
    if language == "hu" and len(after) == 1:
        return False  # a Hungarian decimal (2,5)
    return not (language != "hu" and len(after) == 3)  # an English thousands separator (1,000)


def leaks(text: str, language: str = "en") -> list[Leak]:
    """What ``text`` (in ``language``) holds that only the program should see, in reading order."""
    found: list[tuple[int, Leak]] = []
    areas = _areas() if "." in text else frozenset()
    for match in _CODE.finditer(text):
        if match.group(1) in areas and match.group(2) not in _DOMAINS:
            found.append((match.start(), Leak("hardware.check.code", match.group(0))))
    codes = [m.span() for m in _CODE.finditer(text)]
    found += [(m.start(), Leak("hardware.check.own_name", m.group(0))) for m in _OWN.finditer(text)
              if m.group(0) in _own_names() and not any(a <= m.start() < b for a, b in codes)]
    for kind, pattern in (("placeholder", _PLACEHOLDER), ("parameter", _PARAMETER), ("id", _ID)):
        found += [(m.start(), Leak(f"hardware.check.{kind}", m.group(0))) for m in pattern.finditer(text)]
    found += [(m.start(), Leak("hardware.check.id", m.group(0))) for m in _PAIR.finditer(text)
              if _is_coordinate(m, language)]
    return [leak for _, leak in sorted(found, key=lambda pair: pair[0])]
