"""Reading a ``companion-championship/1`` export back: every field checked, the refusal naming it.

An export (:meth:`Championships.export <companion.service.championship.Championships.export>`)
carries the championship's rounds as complete game records, its decisions and
its standings. Nothing of it is taken on trust: each round is parsed and
replayed as ``companion import`` does a record, its groups must be the pairings
the variant asks for after the rounds before it, each decision must be one the
rounds called for, and the standings must be the ones the rounds give. The
first thing wrong is a :class:`RecordError` naming the field
(``rounds[2].setup.groups``), and nothing is stored.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.base import RecordError
from companion.games.messages import Message, msg
from companion.games.naming import check_name
from companion.service.championship_rules import (
    OPTIONS,
    ROUNDS,
    VARIANTS,
    ChampionshipError,
    Decision,
    GroupResult,
    check_options,
    group_results,
    next_groups,
    pending_decision,
    standings,
)
from companion.service.parts import championship_game
from companion.service.records import Record, final_state, parse_record

#: The ``format`` of a championship's export.
FORMAT = "companion-championship/1"
#: Its fields, each required.
FIELDS = ("format", "variant", "players", "options", "rounds", "decisions", "standings")

Results = Callable[[Any, Sequence[str], Any], Any]


@dataclass(frozen=True)
class ReadChampionship:
    """A checked export: what the store keeps of it, each round as :meth:`Store.insert_session`'s keywords
    (plus its ``fingerprint``, for telling a championship imported twice)."""

    variant: int
    players: list[str]
    options: dict[str, Any]
    decisions: list[dict[str, Any]]
    rounds: list[dict[str, Any]]


def _refuse(field: str, reason: Message) -> RecordError:
    """The refusal of ``field``: ``str()`` reads ``field: reason``."""
    return RecordError(reason, field)


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _halves(boards: object) -> list[str]:
    """``options.boards``: the two halves the championship was started on, by name."""
    if not (isinstance(boards, list) and len(boards) == 2 and all(isinstance(b, str) for b in boards)):
        raise _refuse("options.boards", msg("championship.option.boards"))
    return [check_name(name, "board", f"options.boards[{index}]") for index, name in enumerate(boards)]


def _whole(value: object) -> bool:
    """A whole number, not ``true`` or ``false`` (which Python counts as 1 and 0)."""
    return isinstance(value, int) and not isinstance(value, bool)


def same_json(first: object, second: object) -> bool:
    """Whether two decoded JSON values are the same data: ``true`` is not ``1`` (Python says it is),
    while ``1`` and ``1.0`` are the same number, as JSON has only one kind of number."""
    if isinstance(first, bool) or isinstance(second, bool):
        return type(first) is type(second) and first == second
    if isinstance(first, dict) and isinstance(second, dict):
        return first.keys() == second.keys() and all(same_json(first[k], second[k]) for k in first)
    if isinstance(first, list) and isinstance(second, list):
        return len(first) == len(second) and all(same_json(a, b) for a, b in zip(first, second, strict=True))
    if isinstance(first, (int, float)) and isinstance(second, (int, float)):
        return first == second
    return type(first) is type(second) and first == second


def _head(data: object) -> tuple[int, list[str], dict[str, Any]]:
    """The format, variant, players and options, checked."""
    if not isinstance(data, dict):
        raise RecordError(msg("championship.import.not_object"))
    missing = [name for name in FIELDS if name not in data]
    if missing:
        raise _refuse(missing[0], msg("championship.import.missing"))
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise _refuse(str(unknown[0]), msg("championship.import.unknown"))
    if data["format"] != FORMAT:
        raise _refuse("format", msg("championship.import.format", expected=FORMAT))
    variant = data["variant"]
    if isinstance(variant, bool) or variant not in VARIANTS:
        raise _refuse("variant", msg("championship.variant", variant=str(variant)))
    players = data["players"]
    if not isinstance(players, list) or len(players) != 4 or not all(isinstance(p, str) for p in players):
        raise _refuse("players", msg("championship.import.players"))
    for index, name in enumerate(players):  # the one name rule, as for the rounds' players
        check_name(name, "player", f"players[{index}]")
    if len({p.casefold() for p in players}) != 4:
        raise _refuse("players", msg("championship.import.players"))
    return int(variant), list(players), _options(data["options"])


def _options(options: object) -> dict[str, Any]:
    """``options``: the readings written out, the rounds' game options, the halves if named."""
    if not isinstance(options, dict):
        raise _refuse("options", msg("championship.import.object"))
    readings = {k: v for k, v in options.items() if k not in ("game", "boards")}
    try:
        checked: dict[str, Any] = check_options(readings)
    except ChampionshipError as error:
        raise _refuse("options", error.message) from None
    if not isinstance(options.get("game", {}), dict):
        raise _refuse("options.game", msg("championship.import.object"))
    checked["game"] = dict(options.get("game", {}))
    if options.get("boards") is not None:
        checked["boards"] = _halves(options["boards"])
    return checked


def _decisions(data: object) -> list[Decision]:
    if not isinstance(data, list):
        raise _refuse("decisions", msg("championship.import.list"))
    found = []
    for index, entry in enumerate(data):
        where = f"decisions[{index}]"
        if (not isinstance(entry, dict) or set(entry) != {"round", "group", "advances"}
                or not _whole(entry["round"]) or not _whole(entry["group"])
                or not isinstance(entry["advances"], str)):
            raise _refuse(where, msg("championship.import.decision"))
        found.append(Decision(entry["round"], entry["group"], entry["advances"]))
    return found


def read_championship(data: object, results_of: Results) -> ReadChampionship:
    """The export ``data`` checked field by field (:class:`RecordError` naming the first one wrong)."""
    variant, players, options = _head(data)
    assert isinstance(data, dict)  # _head refused anything else
    decisions = _decisions(data["decisions"])
    readings = {name: str(options[name]) for name in OPTIONS}
    rounds = data["rounds"]
    if not isinstance(rounds, list) or len(rounds) > ROUNDS[variant]:
        raise _refuse("rounds", msg("championship.import.rounds", most=ROUNDS[variant]))
    if not rounds:  # a championship is stored with its round 1 started (Championships.new)
        raise _refuse("rounds", msg("championship.import.no_rounds"))
    results: list[tuple[GroupResult, GroupResult]] = []
    stored: list[dict[str, Any]] = []
    for index, record_data in enumerate(rounds):
        where = f"rounds[{index}]"
        expected = next_groups(variant, players, results, readings, decisions)
        if expected is None:
            raise _refuse(where, msg("championship.import.round_early"))
        try:
            record = parse_record(record_data)
            state = final_state(record)
        except RecordError as error:
            raise _refuse(where, error.as_message()) from None
        except Exception as error:  # ReplayError and the like: the record's own line
            raise _refuse(where, msg("championship.import.reason", reason=str(error))) from None
        if record.game.name != championship_game():
            raise _refuse(f"{where}.game", msg("championship.import.game", game=championship_game()))
        _check_round_options(record, options["game"], where)
        groups = [list(pair) for pair in expected]
        if [list(pair) for pair in record.setup.get("groups", [])] != groups:
            raise _refuse(f"{where}.setup.groups", msg("championship.import.groups", groups=groups))
        results.append(group_results(groups, record.game.summary(state)))
        stored.append(_round_row(record, state, results_of))
    _check_decisions(variant, players, results, readings, decisions)
    expected_standings = [s.to_json() for s in standings(variant, players, results, readings, decisions)]
    if not same_json(data["standings"], expected_standings):  # "place": true is not place 1
        raise _refuse("standings", msg("championship.import.standings"))
    return ReadChampionship(variant, players, options, [d.to_json() for d in decisions], stored)


def _check_round_options(record: Record[Any, Any], game_options: Mapping[str, Any], where: str) -> None:
    """Every round is started with the championship's ``options.game`` (``next_round``): a round
    whose game options differ is not this championship's round."""
    engine = record.game
    try:
        started = engine.start(record.players, dict(game_options), record.setup)
    except RecordError as error:
        raise _refuse("options.game", error.as_message()) from None
    if not same_json(engine.options_json(started), engine.options_json(record.initial)):
        raise _refuse(f"{where}.options", msg("championship.import.round_options"))


def _round_row(record: Record[Any, Any], state: object, results_of: Results) -> dict[str, Any]:
    engine = record.game
    moves = [engine.move_to_json(m) for m in record.moves]
    options = engine.options_json(record.initial)
    setup = engine.setup_json(record.initial)
    fingerprint = hashlib.sha256(_dumps([engine.name, list(record.players), options, setup, moves])
                                 .encode()).hexdigest()
    return {"game": engine.name, "players": list(record.players), "options": options, "setup": setup,
            "moves": moves, "results": results_of(engine, record.players, state), "fingerprint": fingerprint}


def _check_decisions(variant: int, players: Sequence[str], results: Sequence[tuple[GroupResult, GroupResult]],
                     readings: Mapping[str, str], decisions: Sequence[Decision]) -> None:
    """Each decision is one the rounds called for, made once, for one of the players it was between."""
    for index, decision in enumerate(decisions):
        earlier = list(decisions[:index])
        pending = pending_decision(variant, results, readings, earlier)
        if (pending is None or (pending.round, pending.group) != (decision.round, decision.group)
                or decision.advances not in pending.players):
            raise _refuse(f"decisions[{index}]", msg("championship.import.decision_unasked"))
