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
import sys
from pathlib import Path

from companion.cli import UserError
from companion.commands.library import open_store, store_errors, title
from companion.i18n import text

EXIT_DAMAGED = 3


def register(subparsers: argparse._SubParsersAction) -> None:
    doctor = subparsers.add_parser(
        "doctor", help="check the stored games; repair a damaged store or restore a backup",
        description="Check every page of the game store and replay every stored game; each is "
                    "reported good or damaged (exit 0: all good, 3: something is damaged). Only "
                    "reads, unless --repair or --restore is given.")
    action = doctor.add_mutually_exclusive_group()
    action.add_argument("--repair", action="store_true",
                        help="copy the damaged store aside and rebuild it from everything that can "
                             "still be read")
    action.add_argument("--restore", metavar="FILE",
                        help="put a backup (from `companion backup`) in place of the store; the "
                             "current store is copied aside first")
    doctor.set_defaults(handler=run_doctor)

    backup = subparsers.add_parser(
        "backup", help="copy the game store into a directory (a USB stick, say)",
        description="Write a consistent copy of the game store into DIR as "
                    "companion-YYYY-MM-DD-HHMMSS.sqlite3; it works while a game is being played. "
                    "`companion doctor --restore FILE` puts it back.")
    backup.add_argument("directory", metavar="DIR", help="an existing directory")
    backup.set_defaults(handler=run_backup)


def _store_path(args: argparse.Namespace) -> Path:
    from companion.paths import DataDirError, database_path

    try:
        return database_path(getattr(args, "data_dir", None), create=False)
    except DataDirError as error:
        raise UserError(str(error)) from None


@store_errors
def run_doctor(args: argparse.Namespace) -> int:
    from companion import doctor

    path = _store_path(args)
    if args.restore is not None:
        aside = doctor.restore(path, Path(args.restore))
        print(f"restored {args.restore} as the game store {path}")
        if aside is not None:
            print(f"the store it replaced was copied to {aside}")
        return 0
    if not path.exists():
        if args.repair:
            raise UserError(f"there is no game store at {path} to repair")
        print(f"no games are stored in {path.parent} yet; nothing to check")
        return 0
    try:
        if args.repair:
            report = doctor.repair(path)
            print(f"copied the damaged store to {report.aside}{' (and its -wal)' if report.with_wal else ''}")
            for line in report.lines:
                print(line)
            kept = sum(1 for s in report.checkup.sessions if s.is_good)
            print(f"rebuilt {path}: {kept} of {len(report.checkup.sessions)} sessions whole")
            return 0
        checkup = doctor.examine(path)
    except doctor.Unusable as error:
        from companion.display import shown_line

        print(f"companion: {shown_line(str(error))}", file=sys.stderr)
        return EXIT_DAMAGED
    print(f"pages: {'sound' if not checkup.pages else 'damaged: ' + '; '.join(checkup.pages[:3])}")
    for lost in checkup.unreadable:
        print(f"cannot be read: {lost}")
    for health in checkup.sessions:
        who = ", ".join(health.players)
        state = "finished" if health.finished else "in progress"
        if health.is_good:
            print(f"session {health.id}, {title(health.game)}, {who}: good, {health.good} moves, {state}")
        else:
            replay = f"moves 1-{health.good} replay" if health.good else "no move replays"
            print(f"session {health.id}, {title(health.game)}, {who}: damaged: {health.problem}; {replay}")
    damaged = [h for h in checkup.sessions if not h.is_good]
    if checkup.is_good:
        print(text("doctor.all_good", count=len(checkup.sessions)))
        return 0
    print(f"damaged: {len(damaged)} of {len(checkup.sessions)} sessions"
          f"{', and pages' if checkup.pages or checkup.unreadable else ''}; "
          "`companion doctor --repair` keeps every good session and the moves before the damage")
    return EXIT_DAMAGED


@store_errors
def run_backup(args: argparse.Namespace) -> int:
    target = Path(args.directory)
    if not target.is_dir():
        raise UserError(f"{args.directory} is not a directory (give the folder to write the backup into)")
    path = _store_path(args)
    if not path.exists():
        raise UserError(f"there are no stored games in {path.parent} to back up yet")
    with open_store(args, write=False) as store:
        from datetime import datetime

        name = f"companion-{datetime.now().astimezone():%Y-%m-%d-%H%M%S}.sqlite3"
        written = store.copy_to(target / name)
    print(f"backed up the game store to {written}")
    return 0
