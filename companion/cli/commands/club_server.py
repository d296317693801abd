"""The club's server side of ``companion club`` (docs/club.md): ``serve`` and ``standings``.

``serve`` follows the club's broker and serves the club page; its first line is the page's URL
with its token, as ``companion web`` prints its own. ``standings`` prints what the club's store
holds (``--json``: the plays, the standings per game, the tables, the championships). The broker
and the club come from the command line, else from the ``[club]`` section of ``companion.toml``
(``--config FILE``, else ``/etc/companion/companion.toml`` when it is there). The ``club``
package is imported inside each handler (the ``club`` extra: a box without it runs every other
command).
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.cli.main import UserError
from companion.games.messages import msg
from companion.i18n import decimal, say, text
from companion.service.config import topic_name_problem
from companion.service.web_link import WILDCARD_LISTEN, only_this_computer, port_of
from companion.storage.paths import DataDirError, data_dir, ensure_data_dir

#: Where the appliance keeps its configuration (read for the ``[club]`` section when no ``--config``).
DEFAULT_CONFIG = Path("/etc/companion/companion.toml")
#: The configuration file is small; a larger one is not read.
MAX_CONFIG_BYTES = 1024 * 1024


def register(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Adds this side's actions to ``companion club``."""
    serve = actions.add_parser("serve", help="cli.club.server.serve.help",
                               description="cli.club.server.serve.description")
    serve.add_argument("--listen", metavar="HOST:PORT", default=None, help="cli.club.server.listen.help")
    serve.add_argument("--broker", metavar="URL", default=None, help="cli.club.server.broker.help")
    serve.add_argument("--club", metavar="NAME", default=None, help="cli.club.server.club.help")
    serve.add_argument("--config", metavar="FILE", default=None, help="cli.club.server.config.help")
    serve.set_defaults(handler=run_serve)
    standings = actions.add_parser("standings", help="cli.club.server.standings.help",
                                   description="cli.club.server.standings.description")
    standings.add_argument("--json", action="store_true", help="cli.club.server.json.help")
    standings.set_defaults(handler=run_standings)


def club_settings(path: str | None) -> dict[str, Any]:
    """The ``[club]`` section of the configuration (``{}`` when there is none). A file named on the
    command line must be readable; the default one is read only when it is there."""
    file = Path(path) if path else DEFAULT_CONFIG
    if path is None and not file.is_file():
        return {}
    try:
        if file.stat().st_size > MAX_CONFIG_BYTES:
            raise UserError(msg("cli.club.server.config_unreadable", path=str(file), reason="> 1 MB"))
        with file.open("rb") as handle:
            data = tomllib.load(handle)
    except OSError as error:
        raise UserError(msg("cli.club.server.config_unreadable", path=str(file),
                            reason=error.strerror or str(error))) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise UserError(msg("cli.club.server.config_unreadable", path=str(file), reason=str(error))) from None
    section = data.get("club")
    return dict(section) if isinstance(section, dict) else {}


def _directory(args: argparse.Namespace) -> Path:
    try:
        return ensure_data_dir(data_dir(args.data_dir))
    except (OSError, DataDirError) as error:
        raise UserError(error.args[0] if error.args else str(error)) from None


def _credentials(settings: dict[str, Any]) -> tuple[str | None, str | None]:
    """The username and password of ``credentials_file``, when one is named: read and refused as a
    table reads its own (two lines, readable by its owner alone: :func:`club.settings.read_credentials`)."""
    from club.settings import ClubConfigError, read_credentials

    named = settings.get("credentials_file")
    if not isinstance(named, str) or not named:
        return None, None
    try:
        return read_credentials(Path(named).expanduser())
    except ClubConfigError as error:
        raise UserError(error.message) from None


def run_serve(args: argparse.Namespace) -> int:
    try:
        from club.club_store import ClubStoreError
        from club.server import DEFAULT_LISTEN, ListenError, TokenFileError, serve
        from club.subscriber import BrokerUrlError, parse_broker
    except ImportError as error:
        raise UserError(msg("cli.club.server.not_installed", reason=str(error))) from None
    settings = club_settings(args.config)
    url = args.broker or settings.get("broker")
    club = args.club or settings.get("club")
    if not isinstance(url, str) or not url:
        raise UserError(msg("cli.club.server.no_broker"))
    ca_file = settings.get("ca_file")
    username, password = _credentials(settings)
    try:
        broker = parse_broker(url, ca_file=Path(ca_file) if isinstance(ca_file, str) and ca_file else None,
                              username=username, password=password)
    except BrokerUrlError:
        raise UserError(msg("cli.club.server.broker_url", url=url)) from None
    if not isinstance(club, str) or topic_name_problem(club, "club") is not None:
        raise UserError(msg("cli.club.server.club_name", name=str(club or "")))
    directory = _directory(args)
    listen = args.listen or DEFAULT_LISTEN
    try:
        return serve(directory, broker, club, listen, out=sys.stdout,
                     announce=_announcer(sys.stdout.isatty()))
    except ListenError:
        raise UserError(msg("cli.web.listen", value=args.listen)) from None
    except ClubStoreError as error:
        raise UserError(msg("cli.club.server.store_unreadable", reason=str(error))) from None
    except TokenFileError as error:
        raise UserError(msg("cli.web.token", path=str(directory),
                            reason=error.strerror or str(error))) from None
    except OSError as error:
        raise UserError(msg("cli.web.cannot_listen", value=listen,
                            reason=error.strerror or str(error))) from None


def _announcer(draw: bool) -> Callable[[str], None]:
    """What is printed after the URL (as ``companion web`` does): its QR code at a terminal, and, when
    the address reaches this computer alone, how to serve the room's phones."""

    def announce(url: str) -> None:
        lines: list[str] = []
        if draw:
            from companion.service.qr_text import qr_text  # segno: only when a code is drawn

            lines += qr_text(url)
        if only_this_computer(url):
            lines.append(text("cli.club.server.only_here", listen=f"{WILDCARD_LISTEN}:{port_of(url)}"))
        if lines:
            print("\n".join(lines), flush=True)

    return announce


def run_standings(args: argparse.Namespace) -> int:
    try:
        from club.championship_standings import all_standings
        from club.club_store import ClubStore, ClubStoreError, store_path
        from club.standings import play_json, standings
    except ImportError as error:
        raise UserError(msg("cli.club.server.not_installed", reason=str(error))) from None
    path = store_path(data_dir(args.data_dir))
    plays, tables, championships = [], [], []
    if path.exists():
        try:
            with ClubStore(path, create=False) as store:
                plays, tables, championships = store.plays(), store.tables(), store.championships()
        except ClubStoreError as error:
            raise UserError(msg("cli.club.server.store_unreadable", reason=str(error))) from None
    per_game = standings(plays)
    found = all_standings(championships, plays, tables)
    if args.json:
        json.dump({"plays": [play_json(play) for play in plays],
                   "standings": [game.to_json() for game in per_game],
                   "tables": [{"table": table.name, "online": table.online, "game": table.status.get("game"),
                               "players": table.status.get("players") or [], "turn": table.status.get("turn"),
                               "received_at": table.received_at.isoformat()} for table in tables],
                   "championships": found}, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    _print_standings(plays, tables, per_game, found)
    return 0


def _print_standings(plays: list[Any], tables: list[Any], per_game: list[Any], found: list[Any]) -> None:
    from companion.registry import title

    print(text("cli.club.server.standings.plays", count=len(plays)))
    for table in tables:
        state = text("club.page.table.online") if table.online else text("club.page.table.offline")
        game = table.status.get("game")
        print(f"  {table.name}: {state}" + (f", {title(game)}" if isinstance(game, str) else ""))
    if not per_game:
        print(say(msg("club.page.standings.none")))
    for game in per_game:
        print()
        print(title(game.game))
        print("  " + " | ".join(text(f"club.page.standings.{key}")
                                for key in ("player", "plays", "wins", "average", "rating")))
        for line in game.lines:
            average = decimal(line.average, 1)
            print(f"  {line.player} | {line.plays} | {line.wins} | {average} | {round(line.rating)}")
    for championship in found:
        print()
        print(text("club.page.championship.title", game=title(str(championship["game"])),
                   table=championship["table"]))
        for row in championship["standings"]:
            place = "–" if row["place"] is None else row["place"]
            figures = " | ".join(str(row[key]) for key in ("played", "won", "points", "score"))
            print(f"  {place}. {row['player']} | {figures}")
