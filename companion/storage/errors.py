"""The store's exceptions: every refusal and every damaged value is a :class:`StoreError`.

Start-up catches :class:`StoreError` (whatever the data directory holds) and
offers the repair; so a value the store cannot read back — text that is not
UTF-8, JSON that does not parse or has the wrong shape, a time that is none —
is a :class:`DamagedRow` naming its table and row, never a bare
``UnicodeDecodeError``, ``JSONDecodeError``, ``ValueError`` or ``IndexError``.
"""

from __future__ import annotations

from companion.games.messages import Message


class StoreError(Exception):
    """The store cannot do what was asked (newer schema, no such session, damaged data)."""


class StaleLog(StoreError):
    """A save whose session was changed by someone else since it was read: refused, never merged."""


class DamagedRow(StoreError):
    """A stored row the store cannot read back (``store.damaged_row``: its table, its row, why);
    ``companion doctor`` names it and ``companion doctor --repair`` mends it or sets it aside."""

    @property
    def message(self) -> Message:
        found = self.args[0]
        assert isinstance(found, Message)
        return found
