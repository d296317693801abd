"""Reading gettext ``.po`` catalogues at run time, without compiling them to ``.mo``.

The catalogues are kept in the repository as ``.po`` text (what translators
edit and reviewers read); compiling them at build time would need a build step
that an editable install does not run. Reading a few hundred entries takes
about a millisecond, inside the cold-start budget, and only the language in use
is read. Fuzzy entries are skipped, as ``msgfmt`` skips them: a translation a
translator has not confirmed is not shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_KEYWORD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")\s*$')
_CONTINUATION = re.compile(r'^(".*")\s*$')
_ESCAPE_OR_QUOTE = re.compile(r'\\(.?)|"', re.DOTALL)


class PoError(ValueError):
    """A ``.po`` file that cannot be read; the message names the file and line."""


@dataclass
class PoEntry:
    """One message of a catalogue: its context, id, plural id and translations (by plural index)."""

    msgid: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    fuzzy: bool = False
    line: int = 0

    @property
    def key(self) -> tuple[str | None, str]:
        return self.msgctxt, self.msgid


def _unquote(literal: str, name: str, number: int) -> str:
    """The text of a quoted string on line ``number`` of ``name`` (the place is spelled out to refuse)."""
    if len(literal) < 2 or not (literal.startswith('"') and literal.endswith('"')):
        raise PoError(f"{name}:{number}: a string must be in double quotes")
    body = literal[1:-1]
    if "\\" not in body and '"' not in body:
        return body  # most texts: nothing to undo (and no per-character loop at start-up)

    def undo(found: re.Match[str]) -> str:
        if found.group(0) == '"':
            raise PoError(f"{name}:{number}: a double quote inside a string must be escaped")
        if found.group(1) not in _ESCAPES:  # "" for a backslash that ends the string
            raise PoError(f"{name}:{number}: unknown escape in {literal}")
        return _ESCAPES[found.group(1)]

    return _ESCAPE_OR_QUOTE.sub(undo, body)


#: The field a continuation line extends: its keyword and, for ``msgstr``, the plural index.
_Target = tuple[str, "int | None"]


def parse_po(text: str, name: str = "<po>") -> list[PoEntry]:
    """The entries of a ``.po`` text, the header (``msgid ""``) included, in file order."""
    entries: list[PoEntry] = []
    entry: PoEntry | None = None
    target: _Target | None = None  # the field a continuation line extends
    flags_fuzzy = False

    def finish() -> None:
        nonlocal entry
        if entry is not None:
            if not entry.msgstr:
                raise PoError(f"{name}:{entry.line}: msgid without msgstr")
            entries.append(entry)
        entry = None

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if _marks_fuzzy(line):
                flags_fuzzy = True
            continue
        if (match := _KEYWORD.match(line)) is not None:
            keyword, index, literal = match.group(1), match.group(2), match.group(3)
            value = _unquote(literal, name, number)
            if _starts_entry(keyword, target):
                finish()
                entry = PoEntry(line=number, fuzzy=flags_fuzzy)
                flags_fuzzy = False
            if entry is None:
                raise PoError(f"{name}:{number}: {keyword} before msgid")
            target = _set_field(entry, keyword, index, value)
            continue
        if (match := _CONTINUATION.match(line)) is not None and entry is not None and target is not None:
            _extend_field(entry, target, _unquote(match.group(1), name, number))
            continue
        raise PoError(f"{name}:{number}: cannot read this line: {raw.strip()[:40]}")
    finish()
    return entries


def _marks_fuzzy(comment: str) -> bool:
    """Whether a comment line is a flags line (``#, ...``) that holds ``fuzzy``."""
    return comment.startswith("#,") and "fuzzy" in (flag.strip() for flag in comment[2:].split(","))


def _starts_entry(keyword: str, target: _Target | None) -> bool:
    """``msgctxt`` starts an entry; so does ``msgid``, unless it follows that entry's ``msgctxt``."""
    return keyword == "msgctxt" or (keyword == "msgid" and (target is None or target[0] != "msgctxt"))


def _set_field(entry: PoEntry, keyword: str, index: str | None, value: str) -> _Target:
    """Store ``value`` in the field ``keyword`` names (``msgstr[n]`` by its index); returns that field."""
    if keyword == "msgctxt":
        entry.msgctxt = value
        return ("msgctxt", None)
    if keyword == "msgid":
        entry.msgid = value
        return ("msgid", None)
    if keyword == "msgid_plural":
        entry.msgid_plural = value
        return ("msgid_plural", None)
    slot = int(index) if index is not None else 0
    entry.msgstr[slot] = value
    return ("msgstr", slot)


def _extend_field(entry: PoEntry, target: _Target, value: str) -> None:
    """Append a continuation line's text to the field the lines before it started."""
    kind, continued = target
    if kind == "msgstr":
        entry.msgstr[continued or 0] += value
    else:
        setattr(entry, kind, (getattr(entry, kind) or "") + value)


def read_po(path: Path) -> list[PoEntry]:
    """The entries of the ``.po`` file at ``path`` (UTF-8)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise PoError(f"{path}: cannot read the catalogue: {error}") from None
    return parse_po(text, str(path))


def header_fields(entries: list[PoEntry]) -> dict[str, str]:
    """The header entry's fields (``Plural-Forms``, ``Language`` ...), empty when there is none."""
    for entry in entries:
        if entry.msgid == "" and entry.msgctxt is None:
            fields = {}
            for line in entry.msgstr.get(0, "").splitlines():
                key, sep, value = line.partition(":")
                if sep:
                    fields[key.strip()] = value.strip()
            return fields
    return {}
