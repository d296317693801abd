"""Toy Tally: a game defined only here, to prove that a game needs nothing outside its own package.

It is registered by a test in one call (:func:`registered`, the registry's own), played through
the service, the console, the OLED with its buttons, a seat panel, the touchscreen's move
picker, the phone page, and a record's replay and ``moves``, and forgotten again. Its engine
(:mod:`tests.toy_game.engine`) follows the :class:`~companion.games.base.Game` contract; its
descriptor (:mod:`tests.toy_game.descriptor`) is all the companion is told, its words included
(its own catalogues, ``locale/<language>/toy.po``, named by the descriptor).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from companion.registry import registered as registered_game
from tests.toy_game.descriptor import DESCRIPTOR


@contextmanager
def registered() -> Iterator[None]:
    """Toy Tally known to the companion, with its words, for the ``with`` block only."""
    with registered_game(DESCRIPTOR):
        yield
