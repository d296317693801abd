"""``companion doctor [--repair | --restore FILE]`` and ``companion backup DIR``.

``doctor`` only reads: it checks every page (``integrity_check``) and
replays every session, and says which are good and which are damaged
(exit 0 when all is good, 3 when something is damaged). ``--repair`` and
``--restore`` take the store's writer lock, so they are refused while the
app runs. ``backup`` copies the store with SQLite's online backup API, so it
works while a game is played.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path

from companion.cli.commands.library import open_store, store_errors, title
from companion.cli.main import UserError
from companion.console.display import shown_line
from companion.games.messages import msg
from companion.i18n import text
from companion.storage import doctor, report
from companion.storage.doctor import Checkup, RepairReport, SessionHealth
from companion.storage.paths import DataDirError, database_path

EXIT_DAMAGED = 3


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    doctor = subparsers.add_parser(
        "doctor", help="cli.doctor.help",
        description="cli.doctor.description")
    action = doctor.add_mutually_exclusive_group()
    action.add_argument("--repair", action="store_true",
                        help="cli.doctor.repair.help")
    action.add_argument("--restore", metavar="FILE",
                        help="cli.doctor.restore.help")
    doctor.add_argument("--json", action="store_true", help="cli.doctor.json.help")
    doctor.set_defaults(handler=run_doctor)

    backup = subparsers.add_parser(
        "backup", help="cli.backup.help",
        description="cli.backup.description")
    backup.add_argument("directory", metavar="DIR", help="cli.backup.directory.help")
    backup.set_defaults(handler=run_backup)


def _store_path(args: argparse.Namespace) -> Path:
    try:
        return database_path(getattr(args, "data_dir", None), create=False)
    except DataDirError as error:
        raise UserError(*error.args) from None


@store_errors
def run_doctor(args: argparse.Namespace) -> int:
    """Restore a backup, repair the store or only check it; the exit status says whether all is good."""
    path = _store_path(args)
    if args.restore is not None:
        restored = doctor.restore(path, Path(args.restore))
        for line in restored.lines:
            print(line)
        print(text("doctor.restored", backup=args.restore, path=str(path)))
        if restored.aside is not None:
            print(text("doctor.restored_aside", path=str(restored.aside)))
        return 0
    if not path.exists():
        if args.repair:
            raise UserError(msg("doctor.repair.no_store", path=str(path)))
        print(text("doctor.no_store", path=str(path.parent)))
        return 0
    as_json = getattr(args, "json", False)
    try:
        if args.repair:
            repaired = doctor.repair(path)
            if as_json:
                print(json.dumps(report.repair_json(repaired, path, str), ensure_ascii=False, indent=1))
            else:
                _say_repaired(repaired, path)
            return 0
        checkup = doctor.examine(path)
    except doctor.Unusable as error:
        print(f"companion: {shown_line(str(error))}", file=sys.stderr)
        return EXIT_DAMAGED
    if as_json:
        print(json.dumps(report.checkup_json(checkup, str), ensure_ascii=False, indent=1))
    else:
        _say_checkup(checkup)
    return 0 if checkup.is_good else EXIT_DAMAGED


def _say_repaired(report: RepairReport, path: Path) -> None:
    """Where the damaged store was copied, what was kept of each session, and how many were whole."""
    if report.checkup.is_good:
        print(text("doctor.repair.aside_sound", path=str(report.aside)))
    else:
        print(text("doctor.repair.aside_wal" if report.with_wal else "doctor.repair.aside",
                   path=str(report.aside)))
    for line in report.lines:
        print(line)
    kept = sum(1 for s in report.checkup.sessions if s.is_good)
    print(text("doctor.repair.rebuilt", path=str(path), kept=kept,
               count=len(report.checkup.sessions)))


def _say_checkup(checkup: Checkup) -> None:
    """The pages, then each session (good, or damaged with the reason), then the verdict."""
    print(text("doctor.pages.sound") if not checkup.pages
          else text("doctor.pages.damaged", problems="; ".join(str(page) for page in checkup.pages[:3])))
    for lost in checkup.unreadable:
        print(text("doctor.unreadable", what=lost))
    for health in checkup.sessions:
        print(_session_line(health))
    _say_other_damage(checkup)
    for entry in checkup.set_aside:
        said = "doctor.session.set_aside" if entry.kind == "session" else \
            "doctor.session.championship_set_aside"
        print(text(said, session=entry.id, when=entry.when, reason=entry.reason))
    for aside in doctor.copies_aside(checkup.path):
        print(text("doctor.aside_file", path=str(aside)))
    print(_verdict(checkup))


def _session_line(health: SessionHealth) -> str:
    """One session's line: not installed (kept as it is), good (finished or not), or damaged and why."""
    who = ", ".join(health.players)
    if health.not_installed:
        return text("doctor.session.not_installed", session=health.id, game=health.game, count=health.stored)
    if health.is_good:
        good = "doctor.session.good_finished" if health.finished else "doctor.session.good_in_progress"
        return text(good, session=health.id, game=title(health.game), players=who, count=health.good)
    return text("doctor.session.damaged_some" if health.good else "doctor.session.damaged_none",
                session=health.id, game=title(health.game), players=who, problem=health.problem,
                good=health.good)


def _say_other_damage(checkup: Checkup) -> None:
    """Damage beside the sessions: foreign objects, set-aside rows, championships that do not read."""
    for lost in [*checkup.foreign, *checkup.bad_aside_lines]:
        print(text("doctor.unreadable", what=lost))
    for championship in checkup.championships:
        if championship.problem is not None:
            print(text("doctor.unreadable", what=championship.problem))


def _verdict(checkup: Checkup) -> str:
    """The last line: all good, or damaged — naming the pages or the rows when they are what is damaged."""
    if checkup.is_good:
        return text("doctor.all_good", count=len(checkup.sessions))
    damaged = [h for h in checkup.sessions if not h.is_good]
    rows = checkup.unreadable or checkup.foreign or checkup.bad_aside or \
        any(not c.is_good for c in checkup.championships)
    said = ("doctor.damaged_pages" if checkup.pages
            else "doctor.damaged_rows" if rows else "doctor.damaged")
    return text(said, damaged=len(damaged), count=len(checkup.sessions))


@store_errors
def run_backup(args: argparse.Namespace) -> int:
    target = Path(args.directory)
    if not target.is_dir():
        raise UserError(msg("doctor.backup.not_a_directory", path=args.directory))
    path = _store_path(args)
    if not path.exists():
        raise UserError(msg("doctor.backup.nothing", path=str(path.parent)))
    with open_store(args, write=False) as store:
        name = f"companion-{datetime.now().astimezone():%Y-%m-%d-%H%M%S}.sqlite3"
        written = store.copy_to(target / name)
    print(text("doctor.backup.done", path=str(written)))
    return 0
