"""Every message the club server reads, validated like a record before anything is kept.

A table is a box on a shared network, and anyone who can write to the broker can write a club
topic: so nothing read from it is trusted. Each message is checked as :mod:`companion.service.records`
checks a record — the topic's shape, a bounded size (the contract's: a status 64 KiB, a championship
256 KiB, a play 1 MiB), UTF-8 JSON whose numbers have at most 1,000 digits, an object with known
fields only, each of its type — and a play's record is parsed and replayed by the engine of its
game, its summary computed here and compared with the one the table sent: a table cannot claim
a score its moves do not give. A play of a game not installed here cannot be replayed: it is kept
and listed but not ranked.

What fails is a :class:`Refused` with one line saying why (the subscriber logs it); nothing
here raises anything else, whatever the bytes (the fuzz tests hold it to that).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from companion.games.base import RecordError
from companion.games.naming import name_problem, unsafe_character
from companion.i18n import say, summary_json
from companion.registry import find, looks_like_a_name
from companion.service.records import MAX_DIGITS, MoveRefusal, final_state, parse_record

#: The most bytes a message of each kind may have (the contract between table and club server).
MAX_BYTES = {"status": 64 * 1024, "championship": 256 * 1024, "play": 1024 * 1024}
#: The topics' root: ``companion/<club>/...``.
ROOT = "companion"
#: A play's, a championship's id: a UUID in lower case with its hyphens.
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
#: What MQTT reads in a topic (never in a club's or a table's name).
MQTT_SPECIAL = frozenset("+#/")
#: The summary's fields a play is ranked by: the table's must be the engine's.
SCORED = ("game", "players", "finished", "scores", "winners")
#: The fields of a Championship round's group that the round's standings read.
GROUP_SCORED = ("players", "finished", "scores", "winners")
#: The largest score, round or count taken from a message (a real game's are far smaller).
MAX_NUMBER = 10 ** 9
#: The most players a status lists, and characters of a move's text.
MAX_SEATS = 24
MAX_TEXT = 1000

STATUS_FIELDS = ("v", "kind", "club", "table", "online", "sent_at", "clock_sure", "language", "game",
                 "play", "players", "turn", "finished", "last_move", "championship")
OFFLINE_FIELDS = ("v", "kind", "club", "table", "online")
PLAY_FIELDS = ("v", "kind", "id", "club", "table", "finished_at", "clock_sure", "record", "summary",
               "championship")
CHAMPIONSHIP_FIELDS = ("v", "kind", "id", "club", "table", "game", "variant", "options", "decisions",
                       "rounds", "finished")


class Refused(Exception):
    """A message the club server does not keep; ``str()`` is why, in one line (for the log)."""


@dataclass(frozen=True)
class Topic:
    """A club topic read: its kind (``status``, ``play``, ``championship``, or ``home``: a table's
    values for Home Assistant, which the club server leaves alone) and whose it is (the table's name
    for a status or its values, the id for a play or a championship)."""

    kind: str
    club: str
    key: str


@dataclass(frozen=True)
class Status:
    """A table's status, as sent (validated)."""

    table: str
    online: bool
    message: dict[str, Any]


@dataclass(frozen=True)
class Play:
    """A finished play, validated; ``players``/``scores``/``winners`` are the play's own (a
    Championship round's group: that group's), ``summary`` the one computed here (or, for a game
    not installed, the table's, unranked)."""

    id: str
    table: str
    game: str
    ranked: bool
    finished_at: datetime
    clock_sure: bool
    players: tuple[str, ...]
    scores: dict[str, int]
    winners: tuple[str, ...]
    championship: dict[str, Any] | None
    record: dict[str, Any]
    summary: dict[str, Any]


@dataclass(frozen=True)
class Championship:
    """A championship's description, validated."""

    id: str
    table: str
    message: dict[str, Any]


Message = Status | Play | Championship


def read_topic(topic: str, club: str) -> Topic:
    """The kind and key of a topic under ``companion/<club>/``; :class:`Refused` for any other."""
    parts = topic.split("/")
    if len(parts) < 4 or parts[0] != ROOT or parts[1] != club:
        raise Refused(f"not a topic of the club {club!r}")
    if len(parts) == 5 and parts[2] == "tables" and parts[4] == "status":
        _club_name(parts[3], "the topic's table")
        return Topic("status", club, parts[3])
    if len(parts) == 5 and parts[2] == "tables" and parts[4] == "home":
        _club_name(parts[3], "the topic's table")
        return Topic("home", club, parts[3])  # Home Assistant's values: for it, not for the club
    if len(parts) == 4 and parts[2] in ("plays", "championships"):
        if not UUID.fullmatch(parts[3]):
            raise Refused("the topic's id is not a UUID")
        return Topic("play" if parts[2] == "plays" else "championship", club, parts[3])
    raise Refused("not a topic the club server reads")


def read_message(topic: str, payload: bytes, club: str) -> Message:
    """The validated message of ``payload`` on ``topic``; :class:`Refused` saying why not."""
    where = read_topic(topic, club)
    if where.kind not in MAX_BYTES:
        raise Refused(f"a {where.kind} topic carries nothing the club server keeps")
    if len(payload) > MAX_BYTES[where.kind]:
        raise Refused(f"{len(payload)} bytes, more than a {where.kind} may have ({MAX_BYTES[where.kind]})")
    data = _decode(payload)
    try:
        if where.kind == "status":
            return _status(data, where)
        if where.kind == "play":
            return _play(data, where)
        return _championship(data, where)
    except RecursionError:  # (a structure nested deeper than any engine walks)
        raise Refused("nested too deeply") from None


# -- the bytes ---------------------------------------------------------------------------------

def _whole_number(text: str) -> int:
    if len(text) - text.startswith("-") > MAX_DIGITS:
        raise ValueError("a number of too many digits")
    return int(text)


def _no_constant(text: str) -> object:
    raise ValueError(f"{text} is not JSON")


def _decode(payload: bytes) -> dict[str, Any]:
    try:
        data = json.loads(payload.decode("utf-8"), parse_int=_whole_number, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise Refused("not UTF-8") from None
    except RecursionError:
        raise Refused("nested too deeply") from None
    except ValueError as error:  # (JSONDecodeError is one)
        raise Refused(f"not JSON: {str(error)[:120]}") from None
    if not isinstance(data, dict):
        raise Refused("not a JSON object")
    return data


# -- the fields --------------------------------------------------------------------------------

def _fields(data: Mapping[str, Any], known: tuple[str, ...], required: tuple[str, ...], kind: str) -> None:
    for key in data:
        if key not in known:
            raise Refused(f"unknown field {str(key)[:40]!r}")
    for key in required:
        if key not in data:
            raise Refused(f"no field {key!r}")
    if type(data["v"]) is not int or data["v"] != 1:
        raise Refused("v is not 1")
    if data["kind"] != kind:
        raise Refused(f"kind is not {kind!r}")


def _text(value: object, what: str, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str):
        raise Refused(f"{what} is not a text")
    if len(value) > limit:
        raise Refused(f"{what} is longer than {limit} characters")
    found = unsafe_character(value)
    if found is not None:
        raise Refused(f"{what} holds the character U+{ord(found):04X}")
    return value


def _name(value: object, what: str, field: str = "player") -> str:
    problem = name_problem(value, field)
    if problem is not None:
        raise Refused(f"{what}: {say(problem)}")
    assert isinstance(value, str)
    return value


def _club_name(value: object, what: str) -> str:
    """A club's or a table's name: the one name rule (a table's, 60 characters), no ``+ # /``."""
    name = _name(value, what, "table")
    if MQTT_SPECIAL & set(name):
        raise Refused(f"{what} holds + # or /")
    return name


def _boolean(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise Refused(f"{what} is not true or false")
    return value


def _whole(value: object, what: str, low: int = -MAX_NUMBER, high: int = MAX_NUMBER) -> int:
    if type(value) is not int or not low <= value <= high:
        raise Refused(f"{what} is not a whole number from {low} to {high}")
    return value


def _moment(value: object, what: str) -> datetime:
    text = _text(value, what, 40)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise Refused(f"{what} is not a date and time") from None
    if moment.tzinfo is None:
        raise Refused(f"{what} has no time zone")
    return moment


def _uuid(value: object, what: str) -> str:
    if not isinstance(value, str) or not UUID.fullmatch(value):
        raise Refused(f"{what} is not a UUID")
    return value


def _object(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Refused(f"{what} is not an object")
    return value


def _list(value: object, what: str, limit: int) -> list[Any]:
    if not isinstance(value, list):
        raise Refused(f"{what} is not a list")
    if len(value) > limit:
        raise Refused(f"{what} has more than {limit} entries")
    return value


def _whose(data: Mapping[str, Any], where: Topic) -> str:
    if _club_name(data["club"], "club") != where.club:
        raise Refused("the club is not the topic's")
    table = _club_name(data["table"], "table")
    if where.kind == "status" and table != where.key:
        raise Refused("the table is not the topic's")
    if where.kind != "status" and _uuid(data["id"], "id") != where.key:
        raise Refused("the id is not the topic's")
    return table


# -- a status ----------------------------------------------------------------------------------

def _status(data: dict[str, Any], where: Topic) -> Status:
    online = data.get("online")
    _fields(data, STATUS_FIELDS, STATUS_FIELDS if online is True else OFFLINE_FIELDS, "status")
    table = _whose(data, where)
    if not _boolean(online, "online"):
        return Status(table, False, {key: data[key] for key in OFFLINE_FIELDS})
    _moment(data["sent_at"], "sent_at")
    _boolean(data["clock_sure"], "clock_sure")
    _boolean(data["finished"], "finished")
    _text(data["language"], "language", 16)
    if data["game"] is not None and not looks_like_a_name(data["game"]):
        raise Refused("game is not a game's name")
    if data["play"] is not None:
        _uuid(data["play"], "play")
    _seats(data["players"])
    if data["turn"] is not None:
        _name(data["turn"], "turn")
    if data["last_move"] is not None:
        _last_move(data["last_move"])
    if data["championship"] is not None:
        _round_shown(data["championship"])
    return Status(table, True, data)


def _seats(players: object) -> None:
    for index, seat in enumerate(_list(players, "players", MAX_SEATS)):
        what = f"players[{index}]"
        seat = _object(seat, what)
        if set(seat) - {"name", "colour", "score"} or "name" not in seat:
            raise Refused(f"{what} has unknown or missing fields")
        _name(seat["name"], f"{what}.name")
        if seat.get("colour") is not None:
            _name(seat["colour"], f"{what}.colour", "colour")
        if seat.get("score") is not None:
            _whole(seat["score"], f"{what}.score")


def _last_move(value: object) -> None:
    move = _object(value, "last_move")
    if set(move) - {"player", "text"} or "text" not in move:
        raise Refused("last_move has unknown or missing fields")
    if move.get("player") is not None:
        _name(move["player"], "last_move.player")
    _text(move["text"], "last_move.text")


def _round_shown(value: object) -> None:
    """A status's Championship round: its id, its number and the groups at the table."""
    championship = _object(value, "championship")
    if set(championship) != {"id", "round", "groups"}:
        raise Refused("championship has unknown or missing fields")
    _uuid(championship["id"], "championship.id")
    _whole(championship["round"], "championship.round", 1, 3)
    for index, group in enumerate(_list(championship["groups"], "championship.groups", 2)):
        for seat, name in enumerate(_list(group, f"championship.groups[{index}]", 4)):
            _name(name, f"championship.groups[{index}][{seat}]")


# -- a play ------------------------------------------------------------------------------------

def _play(data: dict[str, Any], where: Topic) -> Play:
    _fields(data, PLAY_FIELDS, PLAY_FIELDS, "play")
    table = _whose(data, where)
    finished_at = _moment(data["finished_at"], "finished_at")
    clock_sure = _boolean(data["clock_sure"], "clock_sure")
    record = _object(data["record"], "record")
    claimed = _object(data["summary"], "summary")
    championship = None
    if data["championship"] is not None:
        championship = _object(data["championship"], "championship")
        if set(championship) != {"id", "round", "group"}:
            raise Refused("championship has unknown or missing fields")
        _uuid(championship["id"], "championship.id")
        _whole(championship["round"], "championship.round", 1, 3)
        _whole(championship["group"], "championship.group", 1, 2)
    game = record.get("game")
    if looks_like_a_name(game) and find(str(game)) is None:
        summary, ranked = _unranked(record, claimed), False
    else:
        summary, ranked = _recomputed(record, claimed), True
    players, scores, winners = _own_part(summary, championship)
    return Play(where.key, table, str(game), ranked, finished_at, clock_sure, players, scores, winners,
                championship, record, summary)


def _recomputed(record: dict[str, Any], claimed: dict[str, Any]) -> dict[str, Any]:
    """The summary the engine gives the record, when the table's agrees with it on every scored field."""
    try:
        parsed = parse_record(record)
        computed = summary_json(parsed.game.summary(final_state(parsed)))
    except RecordError as error:
        raise Refused(f"the record is not valid: {_one_line(str(error))}") from None
    except MoveRefusal as error:
        raise Refused(f"the record's moves are not legal: {_one_line(str(error))}") from None
    if not isinstance(computed, dict):  # (an engine's summary is always an object)
        raise Refused("the engine gave no summary")
    if computed.get("finished") is not True:
        raise Refused("the record's game is not finished")
    for key in SCORED:
        if _canonical(claimed.get(key)) != _canonical(computed.get(key)):
            raise Refused(f"the summary's {key} is not what the record gives")
    groups = computed.get("groups")
    if isinstance(groups, list):
        told = claimed.get("groups")
        if not isinstance(told, list) or len(told) != len(groups):
            raise Refused("the summary's groups are not what the record gives")
        for index, (mine, theirs) in enumerate(zip(groups, told, strict=True)):
            for key in GROUP_SCORED:
                if not isinstance(theirs, dict) or _canonical(theirs.get(key)) != _canonical(mine.get(key)):
                    raise Refused(f"the summary's groups[{index}].{key} is not what the record gives")
    return computed


def _unranked(record: dict[str, Any], claimed: dict[str, Any]) -> dict[str, Any]:
    """A play of a game not installed here: its record cannot be replayed, so only the shape of
    what is listed is checked (players by the name rule, whole scores, winners among the players)."""
    players = _list(record.get("players"), "record.players", MAX_SEATS)
    for index, name in enumerate(players):
        _name(name, f"record.players[{index}]")
    if _canonical(claimed.get("players")) != _canonical(players):
        raise Refused("the summary's players are not the record's")
    if claimed.get("game") != record.get("game"):
        raise Refused("the summary's game is not the record's")
    scores = _object(claimed.get("scores"), "summary.scores")
    if set(scores) - set(players):
        raise Refused("summary.scores names a player the record does not")
    for name, score in scores.items():
        _whole(score, f"summary.scores[{name!r}]")
    winners = _list(claimed.get("winners"), "summary.winners", MAX_SEATS)
    if any(winner not in players for winner in winners):
        raise Refused("summary.winners names a player the record does not")
    return {"game": record["game"], "players": players, "finished": True, "scores": scores,
            "winners": winners}


Part = tuple[tuple[str, ...], dict[str, int], tuple[str, ...]]


def _own_part(summary: Mapping[str, Any], championship: Mapping[str, Any] | None) -> Part:
    """The players, scores and winners the play counts for: a Championship round's group's when
    the play names its group and the round's summary has groups, else the whole play's."""
    part: Mapping[str, Any] = summary
    groups = summary.get("groups")
    if championship is not None and isinstance(groups, list) and len(groups) >= championship["group"]:
        part = groups[championship["group"] - 1]
    players = tuple(str(p) for p in part.get("players") or ())
    scores = {str(p): int(s) for p, s in (part.get("scores") or {}).items() if p in players}
    winners = tuple(str(p) for p in part.get("winners") or () if p in players)
    return players, scores, winners


def _canonical(value: object) -> str:
    """A value as JSON with its keys sorted and ``true`` told apart from ``1`` (``True == 1`` in Python)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _one_line(text: str) -> str:
    return " ".join(text.split())[:300]


# -- a championship ----------------------------------------------------------------------------

def _championship(data: dict[str, Any], where: Topic) -> Championship:
    _fields(data, CHAMPIONSHIP_FIELDS, CHAMPIONSHIP_FIELDS, "championship")
    table = _whose(data, where)
    if not looks_like_a_name(data["game"]):
        raise Refused("game is not a game's name")
    _whole(data["variant"], "variant", 1, 2)
    options = _object(data["options"], "options")
    for key, value in options.items():
        if not isinstance(key, str) or len(key) > 40:
            raise Refused("options has a key that is not a short text")
        if isinstance(value, str):
            _text(value, f"options.{key}", 40)
    for index, decision in enumerate(_list(data["decisions"], "decisions", 8)):
        decision = _object(decision, f"decisions[{index}]")
        if set(decision) != {"round", "group", "advances"}:
            raise Refused(f"decisions[{index}] has unknown or missing fields")
        _whole(decision["round"], f"decisions[{index}].round", 1, 3)
        _whole(decision["group"], f"decisions[{index}].group", 1, 2)
        _name(decision["advances"], f"decisions[{index}].advances")
    for index, round_ in enumerate(_list(data["rounds"], "rounds", 3)):
        round_ = _object(round_, f"rounds[{index}]")
        if set(round_) != {"round", "plays"}:
            raise Refused(f"rounds[{index}] has unknown or missing fields")
        _whole(round_["round"], f"rounds[{index}].round", 1, 3)
        for seat, play in enumerate(_list(round_["plays"], f"rounds[{index}].plays", 2)):
            _uuid(play, f"rounds[{index}].plays[{seat}]")
    _boolean(data["finished"], "finished")
    return Championship(where.key, table, data)
