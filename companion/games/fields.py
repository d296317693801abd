"""Strict readers for the JSON objects of records: options, setup and moves.

Every engine checks its fields the same way, so a typo or a wrong type is
refused with a message that names the field, never silently ignored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.games.base import RecordError
from companion.games.messages import Message, msg

_TYPE_CODES = {
    dict: "records.type.object", list: "records.type.list", str: "records.type.text",
    int: "records.type.whole_number",
}
_TYPE_WORDS = {
    dict: "an object", list: "a list", str: "a text", int: "a whole number", bool: "true or false",
}


def type_message(value: object) -> Message:
    """How a JSON value's type is said to a person, as a message ("an object", "objektum")."""
    if value is None:
        return msg("records.type.null")
    if isinstance(value, bool):
        return msg("records.type.bool")
    for kind, code in _TYPE_CODES.items():
        if isinstance(value, kind):
            return msg(code)
    return msg("records.type.other", name=type(value).__name__)


def type_name(value: object) -> str:
    """A JSON value's type in English words, for sentences not yet moved onto codes (issue 10);
    a message takes :func:`type_message` as its parameter instead."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    for kind, word in _TYPE_WORDS.items():
        if isinstance(value, kind):
            return word
    return type(value).__name__


def require_object(value: object, path: str = "") -> Mapping[str, Any]:
    """``value`` itself, after checking that it is a JSON object."""
    if not isinstance(value, dict):
        raise RecordError(msg("records.not_object", kind=type_message(value)), path)
    return value


def check_keys(data: Mapping[str, Any], required: Iterable[str] = (),
               optional: Iterable[str] = (), path: str = "", *, listed: bool = False) -> None:
    """Refuse unknown keys and missing required keys (a missing key is named); ``listed``: the
    refusal of an unknown key lists the keys there are (a game's setup, typed on a command line)."""
    required = tuple(required)
    optional = tuple(optional)
    allowed = set(required) | set(optional)
    for key in data:
        if key not in allowed:
            if listed:
                known = [f"`{name}`" for name in dict.fromkeys((*required, *optional))]
                raise RecordError(msg("records.field.unknown_listed", key=key, keys=known), path)
            raise RecordError(msg("records.field.unknown", key=key), path)
    for key in required:
        if key not in data:
            raise RecordError(msg("records.field.missing", key=key), path)


def get_str(data: Mapping[str, Any], key: str, *, choices: Iterable[str] | None = None,
            default: str | None = None, required: bool = False, path: str = "") -> str | None:
    """A text field; ``None`` and missing both mean ``default``."""
    value = data.get(key)
    if value is None:
        if required:
            raise RecordError(msg("records.field.missing", key=key), path)
        return default
    if not isinstance(value, str):
        raise RecordError(msg("records.field.not_text", key=key, kind=type_message(value)), path)
    if choices is not None:
        options = list(choices)
        if value not in options:
            raise RecordError(msg("records.field.not_choice", key=key, choices=", ".join(options),
                                  value=value), path)
    return value


def get_text(data: Mapping[str, Any], key: str, *, choices: Iterable[str] | None = None,
             path: str = "") -> str:
    """A required text field (missing or ``null`` is an error naming it)."""
    value = get_str(data, key, choices=choices, required=True, path=path)
    assert value is not None  # required=True raises instead of returning None
    return value


def get_int(data: Mapping[str, Any], key: str, *, low: int | None = None, high: int | None = None,
            default: int | None = None, required: bool = False, path: str = "") -> int | None:
    """A whole-number field within ``[low, high]``; booleans are not numbers."""
    value = data.get(key)
    if value is None:
        if required:
            raise RecordError(msg("records.field.missing", key=key), path)
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(msg("records.field.not_whole_number", key=key, kind=type_message(value)), path)
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            span = msg("records.span.between", low=low, high=high)
        elif low is not None:
            span = msg("records.span.at_least", low=low)
        else:
            span = msg("records.span.at_most", high=high)
        raise RecordError(msg("records.field.out_of_range", key=key, span=span, value=value), path)
    return value


def get_bool(data: Mapping[str, Any], key: str, *, default: bool = False, path: str = "") -> bool:
    """A true/false field; ``None`` and missing mean ``default``."""
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise RecordError(msg("records.field.not_bool", key=key, kind=type_message(value)), path)
    return value


def get_list(data: Mapping[str, Any], key: str, *, required: bool = False,
             path: str = "") -> list[Any] | None:
    """A list field; ``None`` and missing mean ``None`` unless required."""
    value = data.get(key)
    if value is None:
        if required:
            raise RecordError(msg("records.field.missing", key=key), path)
        return None
    if not isinstance(value, list):
        raise RecordError(msg("records.field.not_list", key=key, kind=type_message(value)), path)
    return value


def check_player(data: Mapping[str, Any], players: Iterable[str] | None = None,
                 key: str = "player", path: str = "") -> str:
    """The required ``player`` field (a text; one of ``players`` when given)."""
    name = get_str(data, key, required=True, path=path)
    assert name is not None
    if players is not None and name not in set(players):
        raise RecordError(msg("records.field.not_a_player", key=key, name=name), path)
    return name
