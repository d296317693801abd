"""Toy Tally: a game defined only here, to prove that a game needs nothing outside its own package.

It is registered by a test (:func:`registered`), played through the service,
the console, the OLED and the touchscreen's move picker, and forgotten
again. Its engine (:mod:`tests.toy_game.engine`) follows the
:class:`~companion.games.base.Game` contract; its descriptor
(:mod:`tests.toy_game.descriptor`) is all the core is told; its words are its
own catalogues (``locale/<language>/toy.po``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from companion import i18n
from companion.games.registry import registered as registered_game
from tests.toy_game.descriptor import DESCRIPTOR

LOCALE = Path(__file__).with_name("locale")


@contextmanager
def registered() -> Iterator[None]:
    """Toy Tally known to the companion, with its words, for the ``with`` block only."""
    message_files = i18n.message_files

    def with_toy(language: str) -> list[Path]:
        own = LOCALE / language / "toy.po"
        return [*message_files(language), *([own] if own.exists() else [])]

    i18n.message_files = with_toy
    i18n.catalogue.cache_clear()
    try:
        with registered_game(DESCRIPTOR):
            yield
    finally:
        i18n.message_files = message_files
        i18n.catalogue.cache_clear()
