"""A move as the screens that only show it say it: the notation, with the record values in it that
players would not say (a card's ``robber-baron``) in the catalogue's words instead.

The history, the OLED's "saved" notice and the phone's last moves read a move; the console and the
notation field read and write the notation itself (``Game.describe``), which keeps its words. The
engine names which words are record values (``Game.record_words``); this only puts them in words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from companion.games.base import Game, StateT
from companion.i18n import render


def move_words(game: Game[StateT, Any], state: StateT, move: Mapping[str, Any], lang: str) -> str:
    """``move`` (record JSON, played at ``state``) in the words of ``lang``: the engine's notation
    with each record value it names (:meth:`~companion.games.base.Game.record_words`) replaced, as a
    whole word, by its message in ``lang``."""
    said = game.describe(state, move, lang)
    for value, message in game.record_words(state, move, lang):
        said = render(message, lang).join(re.split(rf"(?<![\w-]){re.escape(value)}(?![\w-])", said))
    return said
