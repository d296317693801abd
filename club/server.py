"""``companion club serve``: the club's leaderboard, one process on any machine of the room.

It subscribes to the club's broker (:mod:`club.subscriber`), keeps every play in its own store
(:mod:`club.club_store`) and serves the club page (:mod:`club.club_app`) with uvicorn, bounded
as the phone page is (:func:`web.server.server_config`). Its first line on standard output is the
page's URL with its token, as ``companion web`` prints its own; the token is the club's, kept in
the club's folder of the data directory (``club/web-token``), not the table's.
"""

from __future__ import annotations

import logging
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TextIO

import uvicorn

from club.club_app import create_app
from club.club_store import ClubStore, club_folder, store_path
from club.subscriber import Broker, Subscriber
from companion.system import logs
from web.server import (
    DEFAULT_LISTEN,
    ListenError,
    TokenFileError,
    bind,
    page_url,
    parse_listen,
    server_config,
)
from web.token import load_token

__all__ = ["DEFAULT_LISTEN", "ListenError", "TokenFileError", "serve"]

log = logging.getLogger("companion.club")


def serve(data_dir: Path, broker: Broker, club: str, listen: str = DEFAULT_LISTEN, *,
          out: TextIO | None = None, announce: Callable[[str], None] | None = None) -> int:
    """Serve the club page and follow the club until SIGTERM or Ctrl-C."""
    out = out or sys.stdout
    host, port = parse_listen(listen)
    folder = club_folder(data_dir)
    try:
        token = load_token(folder)
    except OSError as error:
        raise TokenFileError(error.errno, error.strerror or str(error), str(folder)) from None
    writing = ClubStore(store_path(data_dir))
    reading = ClubStore(store_path(data_dir))
    try:
        listening = bind(host, port)
    except OSError:
        reading.close()
        writing.close()
        raise
    subscriber = Subscriber(writing, club, broker)
    previous = signal.signal(signal.SIGTERM, _exit_quietly)
    try:
        url = page_url(host, listening.getsockname()[1], token)
        print(url, file=out, flush=True)
        if announce is not None:
            announce(url)
        logs.configure(logging.INFO)
        subscriber.start()
        app = create_app(reading, token, version_of=lambda: subscriber.changes,
                         connected=lambda: subscriber.connected, name=club)
        uvicorn.Server(server_config(app)).run(sockets=[listening])
    finally:
        subscriber.stop()
        listening.close()
        reading.close()
        writing.close()
        signal.signal(signal.SIGTERM, previous)
    return 0


def _exit_quietly(number: int, frame: FrameType | None) -> None:
    raise SystemExit(0)
