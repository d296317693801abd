"""The one argparse type for an id the store gave (a session's, a championship's).

SQLite keeps an id as a signed 64-bit integer, so ``export 99999999999999999999999`` used to reach
the store and fail there with Python's "int too large to convert" (exit 1, "unexpected error").
Every command that reads an id from its arguments uses :func:`store_id` instead of ``int``: an id
is written in the digits 0-9 only (no sign, no spaces, no ``1_000``, no other script's digits)
and lies between 1 and :data:`LARGEST`; anything else is a one-line refusal in the player's
language, exit 2, before the store is opened.
"""

from __future__ import annotations

import argparse

from companion.games.base import one_line
from companion.i18n import text

#: The largest id SQLite can hold (a signed 64-bit integer).
LARGEST = 2 ** 63 - 1
#: How much of a refused value the refusal quotes.
_QUOTED = 30


def store_id(value: str) -> int:
    """``value`` as an id (1 to :data:`LARGEST`); :class:`argparse.ArgumentTypeError` saying why not."""
    if value.isascii() and value.isdigit() and len(value) <= len(str(LARGEST)):
        number = int(value)
        if 1 <= number <= LARGEST:
            return number
    shown = one_line(value if len(value) <= _QUOTED else value[:_QUOTED] + "…")
    raise argparse.ArgumentTypeError(text("cli.id.invalid", value=shown, largest=LARGEST))
