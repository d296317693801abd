"""A Castelli Championship's standings when its rounds were played at club tables.

The standings are the project's own (:func:`companion.service.championship_rules.standings`),
fed with what the club holds: the championship's description (variant, readings, decisions, its
rounds' play ids, as the table published it) and the plays of its rounds (each a group's game,
validated and recomputed by :mod:`club.inbox`). The four players in the order named are round 1's
two groups, group 1 first (both variants pair the first two named and the other two); while a
round-1 group's play has not come yet, the groups a table's status shows for that championship
stand in. A group whose play has not come is unfinished; the standings are then as the rules say
of an unfinished game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from club.club_store import StoredPlay, StoredTable
from companion.service.championship_rules import (
    OPTIONS,
    ChampionshipError,
    Decision,
    GroupResult,
    check_options,
    standings,
)


def _group_result(play: StoredPlay | None, players: Sequence[str] | None) -> GroupResult | None:
    if play is not None and len(play.players) == 2:
        return GroupResult((play.players[0], play.players[1]), True, dict(play.scores), play.winners)
    if players is not None and len(players) == 2:
        return GroupResult((players[0], players[1]), False, {}, ())
    return None


def _status_groups(tables: Iterable[StoredTable], championship_id: str) -> dict[int, list[list[str]]]:
    """The groups each round has on a table's screen now, by round (from the tables' statuses)."""
    found: dict[int, list[list[str]]] = {}
    for table in tables:
        shown = table.status.get("championship") if table.online else None
        if isinstance(shown, dict) and shown.get("id") == championship_id:
            found[int(shown["round"])] = [list(group) for group in shown.get("groups") or []]
    return found


def _rounds(message: Mapping[str, Any], plays: Iterable[StoredPlay],
            tables: Iterable[StoredTable]) -> list[list[GroupResult]]:
    """The rounds as far as their players are known, each its two groups' results."""
    championship_id = str(message["id"])
    by_group: dict[tuple[int, int], StoredPlay] = {}
    for play in plays:
        told = play.championship
        if told is not None and told.get("id") == championship_id:
            by_group.setdefault((int(told["round"]), int(told["group"])), play)
    shown = _status_groups(tables, championship_id)
    numbers = sorted({int(r["round"]) for r in message.get("rounds") or ()} | {r for r, _ in by_group})
    rounds: list[list[GroupResult]] = []
    for number in range(1, (numbers[-1] if numbers else 0) + 1):
        groups = shown.get(number, [])
        results = [_group_result(by_group.get((number, group)),
                                 groups[group - 1] if len(groups) >= group else None) for group in (1, 2)]
        if any(result is None for result in results):
            break  # a round whose players are not known yet: the standings stop before it
        rounds.append([result for result in results if result is not None])
    return rounds


def championship_standings(message: Mapping[str, Any], plays: Iterable[StoredPlay],
                           tables: Iterable[StoredTable] = ()) -> dict[str, Any] | None:
    """The championship's standings as the page and ``club standings --json`` show them (``None``
    while its four players are not known yet)."""
    championship_id = str(message["id"])
    rounds = _rounds(message, plays, tables)
    if not rounds:
        return None
    players = [*rounds[0][0].players, *rounds[0][1].players]
    if len(set(players)) != 4:
        return None
    try:
        options = check_options({k: v for k, v in (message.get("options") or {}).items() if k in OPTIONS})
    except ChampionshipError:
        options = check_options({})
    decisions = [Decision(int(d["round"]), int(d["group"]), str(d["advances"]))
                 for d in message.get("decisions") or ()]
    lines = standings(int(message["variant"]), players, rounds, options, decisions)
    return {"id": championship_id, "table": message.get("table"), "game": message.get("game"),
            "variant": int(message["variant"]), "finished": bool(message.get("finished")),
            "rounds": len(rounds), "standings": [line.to_json() for line in lines]}


def all_standings(messages: Iterable[Mapping[str, Any]], plays: Sequence[StoredPlay],
                  tables: Sequence[StoredTable] = ()) -> list[dict[str, Any]]:
    """Every championship's standings that can be made, the most recently described first."""
    made = (championship_standings(message, plays, tables) for message in messages)
    return [found for found in made if found is not None]
