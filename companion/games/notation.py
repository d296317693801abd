"""The move notation's machinery, shared by every game: words, matching, ambiguity.

Each game describes its moves in a short notation (``Albert: brown +3``),
its words kept as data per language in its own ``notation`` module so the
message catalogues (issue 10) can take them over. Parsing does not read the
text with a grammar: it describes every legal move (in every language) and
looks for the ones the text could mean, forgivingly — any case, words
shortened to a unique prefix, the acting player's name left out. A template
whose observed fields are missing (a tile revealed without its shields) is
matched by its beginning and the game reads the rest.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable, Iterator, Mapping

#: The languages the notation speaks; parsing accepts the words of any of them.
LANGUAGES: tuple[str, ...] = ("en", "hu")

#: A game's notation words: key -> language -> word.
Vocabulary = Mapping[str, Mapping[str, str]]

_SEPARATORS = str.maketrans({":": " ", ",": " ", ";": " "})


class NotationError(ValueError):
    """A text that is no legal move now, or could be several; the message says which."""


def word(vocabulary: Vocabulary, key: str, lang: str) -> str:
    """``key`` in ``lang`` (English when the language lacks it; the key itself for record names)."""
    entry = vocabulary.get(key)
    if entry is None:
        return key
    return entry.get(lang) or entry["en"]


def reading(vocabulary: Vocabulary, said: str, keys: tuple[str, ...]) -> str | None:
    """The one key of ``keys`` whose word, in any language, starts with ``said`` (exact wins)."""
    spelled = {key: [tokens(word(vocabulary, key, lang)) for lang in LANGUAGES] for key in keys}
    hits = {key for key, forms in spelled.items()
            if any(len(f) == 1 and f[0].startswith(said) for f in forms)}
    exact = {key for key in hits if [said] in spelled[key]}
    if len(exact) == 1:
        return exact.pop()
    return hits.pop() if len(hits) == 1 else None


def tokens(text: str) -> list[str]:
    """Words compared case-free after NFC; ``:``, ``,`` and ``;`` only separate."""
    return list(_tokens(text))


@functools.lru_cache(maxsize=8192)
def _tokens(text: str) -> tuple[str, ...]:
    """:func:`tokens`, kept: reading one text spells the same names and words hundreds of times."""
    return tuple(unicodedata.normalize("NFC", text).casefold().translate(_SEPARATORS).split())


def prefix_match(said: list[str], form: list[str]) -> bool:
    """Whether each said word starts the word of ``form`` at its place (same number of words)."""
    # map, not a generator: reading one text compares millions of words
    return len(said) == len(form) and all(map(str.startswith, form, said))


def mentioned(said: list[str], names: Iterable[str]) -> list[str]:
    """The record names (areas, spaces...) that some said word could be the start of."""
    return [name for name in names
            if any(part.startswith(s) for part in tokens(name) for s in said)]


def after_word(vocabulary: Vocabulary, said: list[str], key: str) -> Iterator[list[str]]:
    """The words that follow each said word that reads as ``key``'s word, in any language."""
    for index, said_word in enumerate(said):
        if reading(vocabulary, said_word, (key,)) == key:
            yield said[index + 1:]


def number(said_word: str) -> int | None:
    """A said word as a whole number (``-1`` too), or ``None``."""
    try:
        return int(said_word)
    except ValueError:
        return None
