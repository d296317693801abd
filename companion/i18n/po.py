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


def _unquote(literal: str, where: str) -> str:
    if len(literal) < 2 or not (literal.startswith('"') and literal.endswith('"')):
        raise PoError(f"{where}: a string must be in double quotes")
    body = literal[1:-1]
    if "\\" not in body and '"' not in body:
        return body  # most texts: nothing to undo (and no per-character loop at start-up)

    def undo(found: re.Match[str]) -> str:
        if found.group(0) == '"':
            raise PoError(f"{where}: a double quote inside a string must be escaped")
        if found.group(1) not in _ESCAPES:  # "" for a backslash that ends the string
            raise PoError(f"{where}: unknown escape in {literal}")
        return _ESCAPES[found.group(1)]

    return _ESCAPE_OR_QUOTE.sub(undo, body)


def parse_po(text: str, name: str = "<po>") -> list[PoEntry]:
    """The entries of a ``.po`` text, the header (``msgid ""``) included, in file order."""
    entries: list[PoEntry] = []
    entry: PoEntry | None = None
    target: tuple[str, int | None] | None = None  # the field a continuation line extends
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
        where = f"{name}:{number}"
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in (flag.strip() for flag in line[2:].split(",")):
                flags_fuzzy = True
            continue
        if (match := _KEYWORD.match(line)) is not None:
            keyword, index, literal = match.group(1), match.group(2), match.group(3)
            value = _unquote(literal, where)
            # msgctxt starts an entry; so does msgid, unless it follows that entry's msgctxt
            if keyword == "msgctxt" or (keyword == "msgid" and (target is None or target[0] != "msgctxt")):
                finish()
                entry = PoEntry(line=number, fuzzy=flags_fuzzy)
                flags_fuzzy = False
            if entry is None:
                raise PoError(f"{where}: {keyword} before msgid")
            if keyword == "msgctxt":
                entry.msgctxt = value
                target = ("msgctxt", None)
            elif keyword == "msgid":
                entry.msgid = value
                target = ("msgid", None)
            elif keyword == "msgid_plural":
                entry.msgid_plural = value
                target = ("msgid_plural", None)
            else:
                slot = int(index) if index is not None else 0
                entry.msgstr[slot] = value
                target = ("msgstr", slot)
            continue
        if (match := _CONTINUATION.match(line)) is not None and entry is not None and target is not None:
            value = _unquote(match.group(1), where)
            kind, continued = target
            if kind == "msgstr":
                entry.msgstr[continued or 0] += value
            else:
                setattr(entry, kind, (getattr(entry, kind) or "") + value)
            continue
        raise PoError(f"{where}: cannot read this line: {raw.strip()[:40]}")
    finish()
    return entries


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
