""""Did you mean …": the words a person probably meant when they typed one nobody knows.

One small module every front end may ask (the command line for commands, subcommands and
player names; the console for its own words), so that a typo gets the same kind of answer
everywhere: the closest known words by :mod:`difflib`'s ratio, never a list of everything.
Pure: the standard library and the message type only.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from companion.games.messages import Alternatives, Message, msg

#: How alike two words must be (difflib's ratio, 0..1) to be offered: ``sesions``/``sessions``
#: is 0.93, ``colur``/``colour`` 0.91, ``Ann``/``Anna`` 0.86; ``list``/``add`` is 0.
CUTOFF = 0.6
#: At most this many words are offered, and only those nearly as close as the closest: ``sesions``
#: offers `sessions` (0.93), not `settings` (0.67) as well.
MOST = 3
NEAR = 0.1


def close_words(typed: str, known: Iterable[str], most: int = MOST, cutoff: float = CUTOFF) -> list[str]:
    """The ``known`` words closest to ``typed``, best first (none when nothing is close).

    Case is ignored in the comparison ("anna" finds "Anna"), the known word is returned as it
    is spelt, and a word equal to ``typed`` is offered too (it may differ only in case).
    """
    spelt: dict[str, str] = {}
    for word in known:
        spelt.setdefault(word.casefold(), word)
    wanted = typed.casefold()
    scored = sorted(((difflib.SequenceMatcher(None, wanted, word).ratio(), word) for word in spelt),
                    key=lambda pair: -pair[0])  # (a stable sort: equals keep the order they were given in)
    if not scored or scored[0][0] < cutoff:
        return []
    best = scored[0][0]
    return [spelt[word] for score, word in scored[:most] if score >= max(cutoff, best - NEAR)]


def did_you_mean(typed: str, known: Iterable[str]) -> Message | None:
    """``did you mean `sessions`?`` for a mistyped word, each offered word marked as one to type;
    ``None`` when no known word is close (the caller then says what there is another way)."""
    found = close_words(typed, known)
    if not found:
        return None
    return msg("help.suggest.did_you_mean", words=Alternatives(f"`{word}`" for word in found),
               count=len(found))
