"""Messages as data: a code and its parameters, rendered by the catalogues outside the engines.

Engines say *what* happened ("castelli.sell.mine_short" with ``silver=3``),
never in which words: the words live in the catalogues (``companion/locale``),
one per language, so the same refusal reads in English or Hungarian and a
``--json`` output carries the code and its parameters the same on every
machine. A parameter may itself be a :class:`Message` (a tower colour's word,
the reason of a tie-break); it is rendered in the same language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Message:
    """A message code (``game.topic.what``) and the parameters its texts use."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The code and parameters as JSON (nested messages as nested objects)."""
        return {"code": self.code,
                "params": {key: value.to_json() if isinstance(value, Message) else value
                           for key, value in self.params.items()}}


def msg(code: str, /, **params: Any) -> Message:
    """A :class:`Message` with ``params`` given as keywords: ``msg(code, player="Birgit")``."""
    return Message(code, params)
