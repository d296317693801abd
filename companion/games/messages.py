"""Messages as data: a code and its parameters, rendered by the catalogues outside the engines.

Engines say *what* happened (a code such as ``<game>.sell.mine_short`` with ``silver=3``),
never in which words: the words live in the catalogues (``companion/locale``),
one per language, so the same refusal reads in English or Hungarian and a
``--json`` output carries the code and its parameters the same on every
machine. A parameter may itself be a :class:`Message` (a tower colour's word,
the reason of a tie-break); it is rendered in the same language. A list or
tuple of names is joined the language's way ("A, B and C", "A, B és C").

``str(message)`` gives the words in the front end's current language: the
engines return messages, the front ends and error paths put them into words
(an engine's readable ``report`` is the one engine text, and it too is put
into words by ``str``). The renderer is installed by :mod:`companion.i18n`
when that module is imported, which every front end does (the command line's
``main``, the service, the screens): this module never imports it, so the
engines import no catalogue code and no module imports in a circle. Without a
renderer (an engine used on its own) a message reads as its code and
parameters, as a code missing from the catalogues does.

A summary's field that the ``replay --json`` output carries as English text
(records.md: an explanation's ``text``) is a :class:`Words`: the messages to
say, put into words where the summary is written out
(:func:`companion.i18n.summary_json`), not by the engine.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Message:
    """A message code (``game.topic.what``) and the parameters its texts use."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The code and parameters as JSON (nested messages as nested objects, lists as lists)."""
        return {"code": self.code,
                "params": {key: _param_json(value) for key, value in self.params.items()}}

    def __str__(self) -> str:
        if not _renderers:
            return plain(self)
        return _renderers[-1](self)


@dataclass(frozen=True)
class Words:
    """Messages a summary shows as one text, in the record's language (English), ``separator`` between.

    The engine says which messages; :func:`companion.i18n.summary_json` puts
    them into words when the summary is written out, so the engines render nothing.
    """

    messages: tuple[Message, ...]
    separator: str = " "


class Alternatives(tuple[Any, ...]):
    """A parameter joined as alternatives ("A, B or C"), where a plain tuple or list is joined as a
    list ("A, B and C"): what a player may do next is one thing *or* another, in every language."""

    __slots__ = ()


def plain(message: Message) -> str:
    """``code(key=value, ...)``: a message with no renderer installed, visible and never an error."""
    shown = ", ".join(f"{key}={value}" for key, value in message.params.items())
    return f"{message.code}({shown})"


def _param_json(value: object) -> object:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [_param_json(item) for item in value]
    return value


_renderers: list[Callable[[Message], str]] = []


def install_renderer(renderer: Callable[[Message], str]) -> None:
    """Make ``str(message)`` use ``renderer`` (the catalogues, in the current language)."""
    _renderers.append(renderer)


def msg(code: str, /, **params: object) -> Message:
    """A :class:`Message` with ``params`` given as keywords: ``msg(code, player="Birgit")``."""
    return Message(code, params)


#: Python's JSON error texts (their start) -> the message code saying the same in player words.
_JSON_PROBLEMS = {
    "Expecting ':' delimiter": "json.problem.colon",
    "Expecting ',' delimiter": "json.problem.comma",
    "Expecting property name enclosed in double quotes": "json.problem.name",
    "Expecting value": "json.problem.value",
    "Unterminated string": "json.problem.open_string",
    "Invalid control character": "json.problem.control",
    "Extra data": "json.problem.extra",
    "Invalid \\escape": "json.problem.escape",
    "Invalid \\uXXXX escape": "json.problem.escape",
}


def json_problem(error: json.JSONDecodeError) -> Message:
    """What is wrong with a JSON text, in words (Python's ``Expecting ',' delimiter`` is English
    and speaks of a parser), for every front end that reads JSON a person wrote."""
    for start, code in _JSON_PROBLEMS.items():
        if error.msg.startswith(start):
            return msg(code)
    return msg("json.problem.other")
