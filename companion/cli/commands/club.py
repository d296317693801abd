"""``companion club``: a table's part in a club of tables, and the club's leaderboard (docs/club.md).

Two sides, each in a module of its own: the table's (``publish``, ``status``, ``run``:
:mod:`companion.cli.commands.club_table`) and the club server's (``serve``, ``standings``:
:mod:`companion.cli.commands.club_server`). The MQTT client is the ``club`` extra; each handler
imports the ``club`` package inside itself, so a box without the extra runs every other command.
"""

from __future__ import annotations

import argparse

from companion.cli.commands import club_server, club_table
from companion.cli.main import add_command_group


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    actions = add_command_group(subparsers, "club", help="cli.club.help", description="cli.club.description")
    club_table.register(actions)
    club_server.register(actions)
