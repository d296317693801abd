"""The library of stored games: ``export``, ``import``, ``sessions`` and ``stats``.

Every command opens the store in the data directory (``--data-dir``, else
``$COMPANION_DATA``, ...; see :mod:`companion.storage.paths`). Errors a person can
fix end with exit 2 and one line.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import sqlite3
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from companion.cli.ids import store_id
from companion.cli.main import UserError
from companion.console.display import shown_line
from companion.games.messages import json_problem, msg
from companion.i18n import choose_language, set_language, text
from companion.registry import game_names
from companion.registry import title as registry_title
from companion.service.app import AppError, Companion
from companion.service.bgstats import write_qr
from companion.service.championship import FORMAT as CHAMPIONSHIP_FORMAT
from companion.service.records import read_json
from companion.service.settings import LANGUAGE
from companion.service.stats import format_stats, player_stats
from companion.storage.paths import DataDirError, database_path, ensure_data_dir
from companion.storage.store import SessionRow, Store, StoreError, damaged_message

if TYPE_CHECKING:
    from datetime import datetime


def store_errors(handler: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Report a :class:`StoreError` from ``handler`` as a one-line :class:`UserError` (exit 2)."""

    @functools.wraps(handler)
    def wrapped(args: argparse.Namespace) -> int:
        try:
            code = handler(args)
        except (StoreError, AppError) as error:
            raise UserError(*error.args) from None
        except sqlite3.Error as error:  # locked, disk full, not a database ...
            damaged = getattr(args, "damaged_store", None)
            raise UserError(damaged or msg("store.unusable", reason=str(error))) from None
        except json.JSONDecodeError as error:
            raise UserError(msg("store.damaged_data", reason=json_problem(error))) from None
        if getattr(args, "created_data_dir", None):
            print(f"companion: {text('cli.data_dir.created', path=str(args.created_data_dir))}",
                  file=sys.stderr)
        if getattr(args, "damaged_store", None):  # it still worked: say so, once, at the end
            print(f"companion: {text('cli.warning', reason=args.damaged_store)}", file=sys.stderr)
        return code

    return wrapped


def open_store(args: argparse.Namespace, config_value: str | None = None, *, write: bool = True,
               damaged_ok: bool = False) -> Store:
    """The store of the data directory chosen by ``--data-dir`` and the environment.

    ``write=False`` (reading commands) takes no lock, creates nothing and
    never writes, so it works while the app runs and on a read-only card. A
    writing command creates a missing data directory, and says so.
    """

    try:
        path = database_path(getattr(args, "data_dir", None), config_value=config_value, create=False)
        if write and not path.parent.exists():
            ensure_data_dir(path.parent)
            args.created_data_dir = path.parent  # named by @store_errors once the command worked
    except (OSError, DataDirError) as error:
        raise UserError(error.args[0] if isinstance(error, DataDirError) and error.args
                        else str(error)) from None
    try:
        store = Store.open(path, read_only=not write)
    except StoreError as error:
        raise UserError(*error.args) from None
    if store.damage:
        if write and not damaged_ok:  # (the appliance starts anyway: it says so and offers the repair)
            store.close()
            raise UserError(damaged_message(path, store.damage))
        args.damaged_store = damaged_message(path, store.damage)  # reported by @store_errors
    speak_the_tables_language(args, store)
    return store


def speak_the_tables_language(args: argparse.Namespace, store: Store) -> None:
    """The table's language setting speaks when neither ``--lang`` nor ``$COMPANION_LANG`` did.

    Only commands that open the store anyway ask it; ``replay`` and ``moves`` never do.
    """

    set_language(choose_language(getattr(args, "lang", None), os.environ,
                                 lambda: store.get_setting(LANGUAGE)))


def open_app(args: argparse.Namespace, config_value: str | None = None, *,
             write: bool = True, damaged_ok: bool = False) -> Companion:
    """The application service over the store of :func:`open_store` (``write=False``: reading only;
    ``damaged_ok``: a store with damaged pages is opened for reading, with the writer's lock, not refused)."""

    return Companion(open_store(args, config_value, write=write, damaged_ok=damaged_ok))


def title(game: str) -> str:
    """The name players know a game by (the record name, marked, when it is not installed)."""
    return registry_title(game)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    export = subparsers.add_parser(
        "export", help="cli.export.help",
        description="cli.export.description")
    export.add_argument("session", nargs="?", type=store_id, metavar="SESSION",
                        help="cli.export.session.help")
    export.add_argument("-o", "--output", metavar="FILE", help="cli.export.output.help")
    export.add_argument("--bgstats", action="store_true",
                        help="cli.export.bgstats.help")
    export.add_argument("--bgstats-link", action="store_true",
                        help="cli.export.bgstats_link.help")
    export.add_argument("--qr", metavar="FILE.png",
                        help="cli.export.qr.help")
    export.add_argument("--group", type=int, choices=(1, 2), metavar="1|2",
                        help="championship.help.export_group")
    export.add_argument("--championship", nargs="?", type=store_id, const=0, metavar="ID",
                        help="championship.help.export")
    export.set_defaults(handler=run_export)

    imp = subparsers.add_parser(
        "import", help="cli.import.help",
        description="cli.import.description")
    imp.add_argument("file", metavar="FILE", help="cli.import.file.help")
    imp.set_defaults(handler=run_import)

    sessions = subparsers.add_parser("sessions", help="cli.sessions.help",
                                     description="cli.sessions.description")
    sessions.set_defaults(handler=run_sessions)

    stats = subparsers.add_parser(
        "stats", help="cli.stats.help",
        description="cli.stats.description")
    stats.add_argument("--json", action="store_true", help="cli.stats.json.help")
    stats.set_defaults(handler=run_stats)


# -- export ------------------------------------------------------------------------

def _pick_session(store: Store, session_id: int | None, *, finished: bool | None = None) -> SessionRow:

    try:
        if session_id is not None:
            return store.session(session_id)
    except StoreError as error:
        raise UserError(msg("cli.session.see_list",
                            reason=error.args[0] if error.args else str(error))) from None
    row = store.latest_session(finished=finished)
    if row is None:
        if finished:
            raise UserError(msg("cli.export.no_finished_game"))
        raise UserError(msg("cli.sessions.none_yet"))
    return row




def _write_output(text: str, output: str | None) -> None:
    """Write ``text`` to standard output, or atomically to the file ``output``.

    The file is written under a temporary name beside it and renamed over it,
    so a reader never sees half a record; the temporary file is removed when
    anything fails. A new file gets the permissions the umask allows (as any
    shell redirection would), a replaced one keeps its own.
    """
    if output is None:
        sys.stdout.write(text)
        return

    if not output.strip():
        raise UserError(msg("cli.export.empty_name"))
    target = Path(output)
    temporary: str | None = None
    try:
        mode = _mode_for(target)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", errors="backslashreplace",
                                         dir=target.parent, prefix=f".{target.name}.",
                                         delete=False) as handle:
            temporary = handle.name
            handle.write(text)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(temporary, target)
        temporary = None
    except OSError as error:
        raise UserError(msg("cli.export.cannot_write", output=output,
                            reason=error.strerror or str(error))) from None
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def _mode_for(target: Path) -> int:
    """The permission bits ``target`` should get: its own when it exists, else 0666 less the umask."""

    try:
        return stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0o022)  # reading the umask means setting it; put it straight back
        os.umask(umask)
        return 0o666 & ~umask


@store_errors
def run_export(args: argparse.Namespace) -> int:
    if args.bgstats and args.bgstats_link:
        raise UserError(msg("cli.export.bgstats_both"))
    if args.qr and not args.bgstats_link:
        raise UserError(msg("cli.export.qr_without_link"))
    bgstats = args.bgstats or args.bgstats_link
    if args.championship is not None:
        return _export_championship(args)
    with open_app(args, write=False) as app:
        row = _pick_session(app.store, args.session, finished=True if bgstats else None)
        if args.bgstats_link:
            link = app.bgstats_link(row.id, args.group)
        elif args.bgstats:
            data = app.bgstats_file(row.id)
        else:
            data = app.export_record(row.id)
    if args.bgstats_link:
        if args.qr:
            _write_qr(link, args.qr)
        if args.output:
            _write_output(link + "\n", args.output)
        else:
            print(link)
        if args.qr:
            print(text("cli.export.wrote_qr", session=row.id, path=args.qr), file=sys.stderr)
        return 0
    _write_output(json.dumps(data, ensure_ascii=False, indent=1) + "\n", args.output)
    if args.output:
        code = "cli.export.wrote_bgstats" if args.bgstats else "cli.export.wrote_record"
        print(text(code, session=row.id, game=title(row.game), path=args.output), file=sys.stderr)
    return 0


def _export_championship(args: argparse.Namespace) -> int:
    """``export --championship [ID]``: the championship with its rounds (``companion-championship/1``)."""
    if args.bgstats or args.bgstats_link or args.session is not None:
        raise UserError(msg("championship.cli.export_alone"))
    with open_app(args, write=False) as app:
        data = app.championships.export(args.championship or None)
    _write_output(json.dumps(data, ensure_ascii=False, indent=1) + "\n", args.output)
    if args.output:
        print(text("championship.cli.exported_rounds", path=args.output, count=len(data["rounds"])),
              file=sys.stderr)
    return 0


def _write_qr(link: str, output: str) -> None:

    if not output.lower().endswith(".png"):
        raise UserError(msg("cli.export.qr_not_png", path=output))
    try:
        write_qr(link, output)
    except OSError as error:
        raise UserError(msg("cli.export.cannot_write", output=output,
                            reason=error.strerror or str(error))) from None


# -- import ------------------------------------------------------------------------

@store_errors
def run_import(args: argparse.Namespace) -> int:
    data = read_json(args.file)
    if isinstance(data, dict) and data.get("format") == CHAMPIONSHIP_FORMAT:
        with open_app(args) as app:
            championship = app.championships.import_data(data)
        print(shown_line(text("championship.cli.imported", file=args.file, championship=championship,
                              rounds=len(data["rounds"]))))
        return 0
    with open_app(args) as app:
        session_id = app.import_record(data)
        row = app.store.session(session_id)
    code = "cli.import.done_finished" if row.is_finished else "cli.import.done_in_progress"
    print(shown_line(text(code, file=args.file, session=session_id, game=title(row.game),
                          players=", ".join(row.players), count=row.moves)))
    return 0


# -- sessions ----------------------------------------------------------------------

def _when(moment: datetime | None) -> str:
    return "" if moment is None else moment.astimezone().strftime("%Y-%m-%d %H:%M")


def format_sessions(rows: list[SessionRow]) -> str:
    """The readable table of ``companion sessions``."""
    if not rows:
        return text("cli.sessions.empty")
    table = [tuple(text(f"cli.sessions.heading.{column}")
                   for column in ("id", "game", "players", "moves", "started", "state"))]
    for row in rows:
        state = (text("cli.sessions.finished", when=_when(row.finished)) if row.is_finished
                 else text("cli.sessions.abandoned", when=_when(row.abandoned)) if row.abandoned
                 else text("cli.sessions.in_progress"))
        if row.source == "import":
            state = text("cli.sessions.imported", state=state)
        if row.championship is not None:
            state = text("championship.cli.session_round", state=state, number=row.championship_round,
                         championship=row.championship)
        table.append((str(row.id), shown_line(title(row.game)), shown_line(", ".join(row.players)),
                      str(row.moves),
                      _when(row.started), state))
    widths = [max(len(line[col]) for line in table) for col in range(len(table[0]))]
    right = {0, 3}
    lines = []
    for line in table:
        cells = [cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
                 for i, cell in enumerate(line)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


@store_errors
def run_sessions(args: argparse.Namespace) -> int:
    with open_store(args, write=False) as store:
        rows = store.list_sessions()
        unreadable = list(store.unreadable_rows.values())
    print(format_sessions(rows))  # the games that read are listed all the same
    if unreadable:  # and the row left out is named, exit 2: `doctor` says more, `doctor --repair` mends it
        raise UserError(unreadable[0])
    return 0


# -- stats -------------------------------------------------------------------------

@store_errors
def run_stats(args: argparse.Namespace) -> int:

    with open_store(args, write=False) as store:
        stats = player_stats(store.results(), game_names())
    if args.json:
        json.dump([{"game": s.game, "player": s.player, "played": s.played, "won": s.won,
                    "average": round(s.average, 2), "best": s.best} for s in stats],
                  sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(format_stats(stats, {s.game: title(s.game) for s in stats}))
    return 0
