"""``companion doctor --json``: what the doctor found, and what a repair kept, as one JSON object.

Per session: its game, the moves stored, the moves saved (the bookkeeping
every save keeps; ``null`` for a store from before it), the moves a repair
keeps as the game's log, keeps aside with a session that cannot be started,
and loses; per championship what is wrong and whether it is (or would be) kept
aside; what earlier repairs set aside. Messages are given as their code and
parameters and as the text in the language in use (``render``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.games.messages import Message
from companion.storage.checking import Checkup, SessionHealth
from companion.storage.repairing import RepairReport, copies_aside

Render = Callable[[Message | str], str]


def _said(what: Message | str | None, render: Render) -> dict[str, Any] | None:
    if what is None:
        return None
    if isinstance(what, Message):
        return {**what.to_json(), "text": render(what)}
    return {"code": None, "params": {}, "text": render(what)}


def _state(health: SessionHealth) -> str:
    if health.not_installed:
        return "not_installed"
    if not health.replayable:
        return "set_aside"
    return "good" if health.is_good else "damaged"


def checkup_json(checkup: Checkup, render: Render) -> dict[str, Any]:
    """The checkup as JSON (see the module's docstring; documented in docs/storage.md)."""
    return {
        "store": str(checkup.path),
        "good": checkup.is_good,
        "pages": [_said(p, render) for p in checkup.pages],
        "unreadable": [_said(u, render) for u in [*checkup.unreadable, *checkup.bad_aside_lines]],
        "foreign": [_said(f, render) for f in checkup.foreign],
        "sessions": [{
            "id": h.id, "game": h.game, "players": list(h.players), "state": _state(h),
            "problem": _said(h.problem, render), "moves_stored": h.stored, "moves_saved": h.expected,
            "moves_kept": h.kept, "moves_set_aside": h.aside, "moves_lost": h.lost,
            "finished": h.finished,
        } for h in checkup.sessions],
        "championships": [{
            "id": c.id, "problem": _said(c.problem, render), "set_aside": c.aside,
            "rounds": {str(n): sid for n, sid in sorted(c.rounds.items())},
        } for c in checkup.championships],
        "rounds_freed": [{"session": r.session, "problem": _said(r.problem, render)} for r in checkup.rounds],
        "set_aside": [{"kind": e.kind, "id": e.id, "reason": _said(e.reason, render), "when": e.when}
                      for e in checkup.set_aside],
        "copies_aside": [str(p) for p in copies_aside(checkup.path)],
    }


def repair_json(report: RepairReport, path: Path, render: Render) -> dict[str, Any]:
    """A repair as JSON: the checkup of the store as it was, where it was copied, what each line said."""
    found = checkup_json(report.checkup, render)
    found["store"] = str(path)
    found["repair"] = {"aside": str(report.aside), "with_wal": report.with_wal,
                       "lines": [_said(line, render) for line in report.lines]}
    return found
