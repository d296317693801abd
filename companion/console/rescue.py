"""The console's words for a store that needs attention: ``repair``, ``restore``, ``fresh``, ``backup``.

At start (``companion run``) the console says what is wrong with the store,
if anything, and which of these words can help (:func:`trouble_line`); the
loop (:func:`companion.console.loop.headless_loop`) hands each word to
:class:`TableRescue`, which runs it at the table
(:func:`companion.service.damage.act`) and answers in one line. Each word
has its Hungarian twin in the catalogue (``console.command.repair`` ...).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from companion.games.messages import Message, msg
from companion.i18n import current_language, join_list, render
from companion.service import damage
from companion.storage.stick import DEFAULT_MOUNT
from companion.storage.store import StoreError

if TYPE_CHECKING:
    from companion.service.app import Companion
    from companion.service.session import AnySession
    from companion.service.table import Table


def _words(actions: list[damage.Action]) -> str:
    """The actions as the console takes them, in the table's language (``javít``, ``friss`` ...)."""
    language = current_language()
    return join_list([f"`{render(Message(f'console.command.{action}'), language)}`" for action in actions],
                     language, "common.list.or")


def trouble_line(app: Companion) -> Message:
    """What is wrong with the store and the words that help, for the console (called when
    :func:`companion.service.damage.damage` found something)."""
    found = damage.damage(app)
    actions = damage.offers(app)
    if not actions:
        return msg("console.trouble.nothing_to_do", trouble=found)
    return msg("console.trouble", trouble=found, words=_words(actions))


class TableRescue:
    """The console's rescue words, run at ``table``; backups and restores use the stick at ``mount``."""

    def __init__(self, table: Table, mount: str | Path = DEFAULT_MOUNT) -> None:
        self.table = table
        self.mount = mount

    def trouble(self) -> Message | None:
        """What ``status`` says when there is no game to report, or the store needs attention."""
        if damage.damage(self.table.app) is None:
            return None
        return trouble_line(self.table.app)

    def act(self, action: damage.Action) -> str:
        """Run ``action``; the line that answers it (what was done, or why not, and what is wrong now)."""
        app = self.table.app
        if action not in damage.offers(app):
            if damage.damage(app) is None:
                return str(msg("console.trouble.none"))
            return str(msg("console.trouble.not_here", word=_words([action]), trouble=trouble_line(app)))
        try:
            done: Message = damage.act(self.table, action, self.mount)
        except StoreError as error:
            return str(msg("console.refused", reason=error.args[0]))
        after = damage.damage(app)
        if after is None:
            return str(done)
        return str(msg("console.trouble.after", done=done, trouble=trouble_line(app)))

    @property
    def session(self) -> AnySession | None:
        """The game open at the table now (a repair or a restore may have opened one)."""
        return self.table.session
