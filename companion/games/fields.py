"""Strict readers for the JSON objects of records: options, setup and moves.

Every engine checks its fields the same way, so a typo or a wrong type is
refused with a message that names the field, never silently ignored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.games.base import RecordError

_TYPE_WORDS = {
    dict: "an object", list: "a list", str: "a text", int: "a whole number", bool: "true or false",
}


def type_name(value: Any) -> str:
    """How a JSON value's type is said to a person."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    for kind, word in _TYPE_WORDS.items():
        if isinstance(value, kind):
            return word
    return type(value).__name__


def require_object(value: Any, path: str = "") -> Mapping[str, Any]:
    """``value`` itself, after checking that it is a JSON object."""
    if not isinstance(value, dict):
        raise RecordError(f"must be an object, not {type_name(value)}", path)
    return value


def check_keys(data: Mapping[str, Any], required: Iterable[str] = (),
               optional: Iterable[str] = (), path: str = "") -> None:
    """Refuse unknown keys and missing required keys (a missing key is named)."""
    required = tuple(required)
    allowed = set(required) | set(optional)
    for key in data:
        if key not in allowed:
            raise RecordError(f'unknown field "{key}"', path)
    for key in required:
        if key not in data:
            raise RecordError(f'"{key}" is missing', path)


def get_str(data: Mapping[str, Any], key: str, *, choices: Iterable[str] | None = None,
            default: str | None = None, required: bool = False, path: str = "") -> str | None:
    """A text field; ``None`` and missing both mean ``default``."""
    value = data.get(key)
    if value is None:
        if required:
            raise RecordError(f'"{key}" is missing', path)
        return default
    if not isinstance(value, str):
        raise RecordError(f"{key} must be a text, not {type_name(value)}", path)
    if choices is not None:
        options = list(choices)
        if value not in options:
            raise RecordError(f'{key} must be one of {", ".join(options)} (not "{value}")', path)
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
            raise RecordError(f'"{key}" is missing', path)
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{key} must be a whole number, not {type_name(value)}", path)
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            span = f"from {low} to {high}"
        elif low is not None:
            span = f"at least {low}"
        else:
            span = f"at most {high}"
        raise RecordError(f"{key} must be {span} (not {value})", path)
    return value


def get_bool(data: Mapping[str, Any], key: str, *, default: bool = False, path: str = "") -> bool:
    """A true/false field; ``None`` and missing mean ``default``."""
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise RecordError(f"{key} must be true or false, not {type_name(value)}", path)
    return value


def get_list(data: Mapping[str, Any], key: str, *, required: bool = False,
             path: str = "") -> list[Any] | None:
    """A list field; ``None`` and missing mean ``None`` unless required."""
    value = data.get(key)
    if value is None:
        if required:
            raise RecordError(f'"{key}" is missing', path)
        return None
    if not isinstance(value, list):
        raise RecordError(f"{key} must be a list, not {type_name(value)}", path)
    return value


def check_player(data: Mapping[str, Any], players: Iterable[str] | None = None,
                 key: str = "player", path: str = "") -> str:
    """The required ``player`` field (a text; one of ``players`` when given)."""
    name = get_str(data, key, required=True, path=path)
    assert name is not None
    if players is not None and name not in set(players):
        raise RecordError(f'{key} "{name}" is not one of the players', path)
    return name
