"""The club's table side of ``companion club``: ``publish``, ``status`` and ``run`` (docs/club.md).

The MQTT client is the ``club`` extra; each handler imports the ``club`` package inside itself,
so a box without it runs every other command. Exit statuses of ``publish``: 0 everything was sent
(or nothing waited), 3 the broker could not be reached (or refused the table: the outbox is
kept), 2 a wrong configuration.
"""

from __future__ import annotations

import argparse
import signal
import sqlite3
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from companion.cli.main import UserError
from companion.games.messages import msg
from companion.i18n import text
from companion.service.config import Config, ConfigError, defaults, read_config
from companion.storage.paths import DataDirError, database_path
from companion.storage.store import Store, StoreError

if TYPE_CHECKING:
    from club.settings import ClubSettings

#: ``club publish``: the broker could not be reached, or refused the table; the outbox is kept.
UNREACHABLE = 3


def register(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Adds this side's actions to ``companion club``."""
    publish = actions.add_parser("publish", help="cli.club.table.publish.help",
                                 description="cli.club.table.publish.description")
    publish.add_argument("--since", metavar="DATE", help="cli.club.table.since.help")
    _overrides(publish)
    publish.set_defaults(handler=run_publish)
    status = actions.add_parser("status", help="cli.club.table.status.help",
                                description="cli.club.table.status.description")
    _overrides(status)
    status.set_defaults(handler=run_status)
    run = actions.add_parser("run", help="cli.club.table.run.help",
                             description="cli.club.table.run.description")
    _overrides(run)
    run.set_defaults(handler=run_run)


def _overrides(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="cli.club.table.config.help")
    parser.add_argument("--broker", metavar="URL", help="cli.club.table.broker.help")
    parser.add_argument("--club", metavar="NAME", help="cli.club.table.club.help")
    parser.add_argument("--table", metavar="NAME", help="cli.club.table.table.help")


def _config(args: argparse.Namespace) -> Config:
    """The configuration file (the defaults without one): a file that cannot be used is an exit 2;
    the warnings of other sections are shown, a ``[club]`` problem is refused (:func:`_settings`)."""
    if args.config is None:
        return defaults()
    try:
        config = read_config(args.config)
    except ConfigError as error:
        raise UserError(*error.args) from None
    for problem in config.problems:
        if not problem.key.startswith("club."):
            print(f"companion: {text('cli.warning', reason=str(problem))}", file=sys.stderr)
    return config


def _database(args: argparse.Namespace, config: Config) -> Path:
    try:
        return database_path(getattr(args, "data_dir", None), config_value=config.data_dir, create=False)
    except (OSError, DataDirError) as error:
        raise UserError(error.args[0] if error.args else str(error)) from None


def _table_setting(database: Path) -> str:
    """The table's name in the settings (the default of ``[club] table``), read without writing."""
    try:
        with Store.open(database, read_only=True) as store:
            value = store.get_setting("table.name", "")
    except (StoreError, ValueError, OSError):
        return ""
    return value if isinstance(value, str) else ""


def _settings(args: argparse.Namespace, config: Config, database: Path) -> ClubSettings:
    try:
        from club.settings import ClubConfigError, club_settings
    except ImportError as error:
        raise UserError(msg("cli.club.table.not_installed", reason=str(error))) from None
    try:
        return club_settings(config, _table_setting(database), broker=args.broker, club=args.club,
                             table=args.table)
    except ClubConfigError as error:
        raise UserError(error.message) from None


def _date(value: str) -> datetime:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise UserError(msg("cli.club.table.since.bad", value=value)) from None
    return moment if moment.tzinfo is not None else moment.astimezone()


def run_publish(args: argparse.Namespace) -> int:
    config = _config(args)
    database = _database(args, config)
    settings = _settings(args, config, database)
    since = _date(args.since) if args.since is not None else None
    from club.publisher import publish_outbox
    from companion.storage.outbox import queue_since

    if not database.exists():
        print(text("cli.club.table.publish.nothing"))
        return 0
    if since is not None:
        try:
            added = queue_since(database, since)
        except (sqlite3.Error, OSError) as error:  # a store that cannot be written: one line
            raise UserError(msg("cli.club.table.store", reason=str(error))) from None
        print(text("cli.club.table.publish.added", count=added))
    try:
        done = publish_outbox(settings, database)
    except StoreError as error:
        raise UserError(*error.args) from None
    if not done.reached or done.refused:
        code = "cli.club.table.publish.refused" if done.refused else "cli.club.table.publish.unreachable"
        print(f"companion: {text(code, broker=settings.broker, count=done.waiting)}", file=sys.stderr)
        return UNREACHABLE
    print(text("cli.club.table.publish.sent", count=done.sent) if done.sent
          else text("cli.club.table.publish.nothing"))
    return 0


def run_status(args: argparse.Namespace) -> int:
    config = _config(args)
    database = _database(args, config)
    from club.state import last_answer

    rows = []
    if database.exists():
        try:
            with Store.open(database, read_only=True) as store:
                rows = store.outbox()
        except StoreError as error:
            raise UserError(*error.args) from None
    waiting = [row for row in rows if row.sent is None]
    print(text("cli.club.table.status.configured", broker=config["club.broker"])
          if config["club.broker"] else text("cli.club.table.status.no_club"))
    print(text("cli.club.table.status.outbox", waiting=len(waiting), sent=len(rows) - len(waiting)))
    for row in waiting:
        print(text("cli.club.table.status.waiting", session=row.session_id, play=row.uuid,
                   finished=datetime.fromisoformat(row.queued).astimezone().strftime("%Y-%m-%d %H:%M")))
    answered = last_answer(database.parent)
    print(text("cli.club.table.status.answered", when=answered.astimezone().strftime("%Y-%m-%d %H:%M:%S"))
          if answered else text("cli.club.table.status.never"))
    if config["club.broker"]:  # the id an ACL names for the table's Home Assistant topics (docs/club.md)
        from club.topics import node_id

        settings = _settings(args, config, database)
        print(text("cli.club.table.status.home", device=node_id(settings.club, settings.table)))
    return 0


def run_run(args: argparse.Namespace) -> int:
    config = _config(args)
    wrong = any(problem.key.startswith("club.") for problem in config.problems)
    if not config["club.broker"] and args.broker is None and not wrong:
        print(text("cli.club.table.run.no_club"))  # the unit's condition: not in a club, nothing to do
        return 0
    database = _database(args, config)
    settings = _settings(args, config, database)
    from club.publisher import Publisher
    from companion.system import logs

    logs.configure(config.log_level)
    publisher = Publisher(settings, database)

    def stop(signum: int, frame: FrameType | None) -> None:
        publisher.stop.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(text("cli.club.table.run.started", broker=settings.broker, club=settings.club,
               table=settings.table, when=datetime.now(UTC).astimezone().strftime("%H:%M:%S")), flush=True)
    publisher.run()
    return 0
