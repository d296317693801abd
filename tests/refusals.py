"""Checking a refusal or an explanation: its code, and its words in every language.

Every illegal-move test says which rule refuses the move by its message code
(``with refuses("campanile.marker.value", stories=2): ...``); the helper then
renders the reason in every language the companion speaks and fails on a text
that is missing, still has a placeholder, fell back to the code, or — in a
language other than English — reads exactly like the English one or keeps
English words. So every illegal-move test is also a Hungarian test.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from companion.games.base import IllegalMove, RecordError
from companion.games.messages import Message
from companion.i18n import DEFAULT_LANGUAGE, LANGUAGES, render

#: Words that give away an English sentence left in another language's text (not "a" or "is",
#: which are Hungarian words too).
ENGLISH_WORDS = frozenset({"the", "are", "not", "must", "cannot", "can", "only", "and", "or",
                           "of", "an", "to", "has", "have", "with", "this", "that", "no", "your",
                           "gets", "nothing", "points", "tower", "player", "move", "turn"})


def english_words_in(text: str, names: Iterator[str] | tuple[str, ...] = ()) -> set[str]:
    """The give-away English words in ``text``, after removing the ``names`` quoted from a record."""
    for name in names:
        text = text.replace(name, " ")
    return {word for word in re.findall(r"[A-Za-z]+", text) if word.lower() in ENGLISH_WORDS}


def assert_words(message: Message, names: tuple[str, ...] = ()) -> dict[str, str]:
    """``message`` rendered in every language, each checked; returns language → text."""
    assert isinstance(message, Message), f"still a plain sentence, not a message code: {message!r}"
    texts = {language: render(message, language) for language in LANGUAGES}
    names = names + tuple(str(value) for value in _flat_params(message))
    for language, text in texts.items():
        assert text.strip(), f"{message.code}: empty text in {language}"
        assert not text.startswith(f"{message.code}("), f"{message.code}: no text in {language}"
        assert "{" not in text and "}" not in text, \
            f"{message.code}: a placeholder left in {language}: {text}"
        if language != DEFAULT_LANGUAGE:
            assert text != texts[DEFAULT_LANGUAGE] or not english_words_in(text, names), \
                f"{message.code}: the {language} text is the English one: {text}"
            left = english_words_in(text, names)
            assert not left, f"{message.code}: English words {sorted(left)} in the {language} text: {text}"
    return texts


def _flat_params(message: Message) -> Iterator[Any]:
    for value in message.params.values():
        if isinstance(value, Message):
            yield from _flat_params(value)
        elif isinstance(value, (list, tuple)):
            yield from (item for item in value if not isinstance(item, Message))
        else:
            yield value


def assert_message(message: Message, code: str, **params: Any) -> dict[str, str]:
    """``message`` has ``code`` and (at least) ``params``, and reads well in every language."""
    assert isinstance(message, Message), f"still a plain sentence, not a message code: {message!r}"
    assert message.code == code, f"expected {code}, got {message.code} ({message.params})"
    for key, value in params.items():
        assert key in message.params, f"{code}: no parameter {key!r} in {dict(message.params)}"
        assert message.params[key] == value, f"{code}: {key}={message.params[key]!r}, expected {value!r}"
    return assert_words(message)


@contextmanager
def refuses(code: str, **params: Any) -> Iterator[pytest.ExceptionInfo[IllegalMove]]:
    """Expect an :class:`IllegalMove` with the message ``code`` (and ``params``), in every language."""
    with pytest.raises(IllegalMove) as caught:
        yield caught
    assert_message(caught.value.reason, code, **params)  # type: ignore[arg-type]


@contextmanager
def rejects_record(code: str, path: str | None = None,
                   **params: Any) -> Iterator[pytest.ExceptionInfo[RecordError]]:
    """Expect a :class:`RecordError` with the message ``code`` (at ``path``), in every language."""
    with pytest.raises(RecordError) as caught:
        yield caught
    if path is not None:
        assert caught.value.path == path, f"expected the path {path!r}, got {caught.value.path!r}"
    assert_message(caught.value.message, code, **params)  # type: ignore[arg-type]
