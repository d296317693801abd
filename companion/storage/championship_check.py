"""Checking championships and their rounds, as the store reads them back and the service uses them.

Part of the doctor (:mod:`companion.storage.checking`). A championship row is
judged value by value as :func:`companion.storage.rows.championship_row` reads
it: a time, a source or a record hash that does not read is mended (as a
session's are); a variant, players, readings or decisions that do not read
make it one a repair keeps aside (``set_aside``, named, never dropped). A
round — a session naming a championship — must name one that exists and
reads, be a game played as a championship (the ``championship`` capability),
pair its players in two groups of the championship's players, and be
numbered so that the championship's rounds are 1, 2, … n: a round that is
none of these is kept as a game on its own (its marks cleared, named), and a
championship whose rounds are not 1…n is kept aside with its rounds freed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import RecordError, one_line
from companion.games.messages import Message, msg
from companion.registry import descriptor
from companion.storage import rows as read
from companion.storage.salvage import _columns, _salvage

#: The capability a game declares when its games are a championship's rounds.
CHAMPIONSHIP = "championship"
#: Stands for "the repair's time" among mended values (the same marker as a session's).
NOW = object()


@dataclass
class ChampionshipHealth:
    """One stored championship as the doctor found it."""

    id: int
    row: dict[str, Any] = field(repr=False)
    problem: Message | None = None
    #: Values that do not read, and what a repair writes instead (``NOW``: the repair's time).
    mend: dict[str, Any] = field(default_factory=dict, repr=False)
    #: It cannot be read at all (variant, players, readings or decisions): a repair keeps it aside.
    aside: bool = False
    #: Its rounds: session ids by round number.
    rounds: dict[int, int] = field(default_factory=dict)

    @property
    def is_good(self) -> bool:
        return self.problem is None


@dataclass
class RoundMend:
    """A session marked as a round it cannot be: kept as a game on its own, and why."""

    session: int
    championship: object
    problem: Message


def _judge_row(row: dict[str, Any]) -> ChampionshipHealth:
    health = ChampionshipHealth(int(row["id"]), row)
    for column, judge in (("variant", _variant), ("players", _four), ("options", read.json_object)):
        try:
            judge(row.get(column))
        except (ValueError, TypeError):
            health.aside = True
            health.problem = msg("doctor.championship.value", championship=health.id, column=column,
                                 value=_shown(row.get(column)))
            return health
    try:
        read.decisions(row.get("decisions"))
    except (ValueError, TypeError):
        health.mend["decisions"] = "[]"  # (the players are asked again for what the rounds call for)
    if not read.is_moment(row.get("created")):
        health.mend["created"] = NOW
    if row.get("abandoned") is not None and not read.is_moment(row["abandoned"]):
        health.mend["abandoned"] = NOW
    if row.get("record_hash") is not None and not read.is_text(row["record_hash"]):
        health.mend["record_hash"] = None
    if row.get("source") not in ("table", "import"):
        kept_hash = health.mend.get("record_hash", row.get("record_hash"))
        health.mend["source"] = "import" if read.is_text(kept_hash) else "table"
    if health.mend:
        column = next(iter(health.mend))
        health.problem = msg("doctor.championship.value", championship=health.id, column=column,
                             value=_shown(row.get(column)))
    return health


def _variant(value: object) -> int:
    if value not in (1, 2) or not read.is_integer(value):
        raise ValueError("a variant is 1 or 2")
    assert isinstance(value, int)
    return value


def _four(value: object) -> tuple[str, ...]:
    return read.four_names(value)


def _shown(value: object) -> str:
    return one_line(repr(value))[:40]


def _plays_championships(game: object) -> bool | None:
    """Whether ``game`` is played as championship rounds (``None``: not installed here, not judged)."""
    if not read.is_text(game):
        return False
    try:
        return CHAMPIONSHIP in descriptor(str(game)).capabilities
    except RecordError:
        return None


def _groups_of(setup: object, players: Sequence[str]) -> bool:
    """Whether a round's setup pairs its players in two groups of the championship's players."""
    try:
        groups = read.json_object(setup).get("groups")
    except (ValueError, TypeError):
        return False
    return (isinstance(groups, list) and len(groups) == 2
            and all(isinstance(g, list) and g and all(isinstance(p, str) and p in players for p in g)
                    for g in groups))


def judge_championships(db: sqlite3.Connection, tables: set[str], sessions: Sequence[dict[str, Any]],
                        aside_sessions: set[int]) -> tuple[list[ChampionshipHealth], list[RoundMend],
                                                           list[Message]]:
    """Every championship, the rounds that cannot be what they say, and what could not be read.

    ``sessions``: the sessions' rows; ``aside_sessions``: those a repair sets aside (they are no round).
    """
    if "championships" not in tables:
        return [], [], []
    columns = _columns(db, "championships")
    found, unreadable = _salvage(db, "championships", columns)
    championships = {int(values[0]): _judge_row(dict(zip(columns, values, strict=True))) for values in found}
    mends: list[RoundMend] = []
    for row in sessions:
        number, cid = row.get("championship_round"), row.get("championship")
        if cid is None and number is None:
            continue
        sid = int(row["id"])
        if sid in aside_sessions:
            continue
        held = championships.get(cid) if read.is_integer(cid) else None  # type: ignore[arg-type]
        problem = _round_problem(row, cid, number, held)
        if held is not None and held.aside and read.is_integer(number):
            held.rounds[int(number)] = sid  # type: ignore[arg-type]  # (named with it; freed below)
        elif problem is not None:
            mends.append(RoundMend(sid, cid, problem))
        elif held is not None:
            if number in held.rounds:
                mends.append(RoundMend(sid, cid, msg("doctor.round.twice", session=sid, number=number,
                                                     championship=held.id)))
            else:
                held.rounds[int(number)] = sid  # type: ignore[arg-type]
    for health in championships.values():
        if health.rounds and sorted(health.rounds) != list(range(1, len(health.rounds) + 1)):
            health.aside = True
            health.problem = msg("doctor.championship.rounds", championship=health.id,
                                 rounds=", ".join(str(n) for n in sorted(health.rounds)))
        if health.aside:  # its rounds are kept as games on their own
            mends += [RoundMend(sid, health.id,
                                msg("doctor.round.freed", session=sid, championship=health.id))
                      for sid in health.rounds.values()]
    return sorted(championships.values(), key=lambda h: h.id), mends, unreadable


def _round_problem(row: dict[str, Any], cid: object, number: object,
                   held: ChampionshipHealth | None) -> Message | None:
    sid = int(row["id"])
    if held is None:
        return msg("doctor.round.no_championship", session=sid, championship=_shown(cid))
    if held.aside:
        return msg("doctor.round.freed", session=sid, championship=held.id)
    if not read.is_integer(number) or number < 1:  # type: ignore[operator]
        return msg("doctor.round.number", session=sid, number=_shown(number), championship=held.id)
    plays = _plays_championships(row.get("game"))
    if plays is False:
        return msg("doctor.round.game", session=sid, game=_shown(row.get("game")), championship=held.id)
    players = read.names(held.row["players"])
    if plays and not _groups_of(row.get("setup"), players):
        return msg("doctor.round.groups", session=sid, championship=held.id)
    return None
