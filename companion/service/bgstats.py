"""Plays for the BG Stats app: the ``.bgsplay`` file, the push link and its QR code.

Pure functions of one finished game (:class:`Play`), except :func:`write_qr`,
which writes a PNG. The caller converts times to the local wall clock and
gives the table's name and the game's BoardGameGeek id from the settings.
What is known and what is assumed about BG Stats' formats is in
``docs/storage.md``.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

#: Fixed namespace so the same session always exports the same uuids (BG Stats
#: then recognises a re-imported play instead of counting it twice).
_NAMESPACE = uuid.UUID("6f1d3c1e-1f57-4a55-9a43-2b7c1b0f5e21")

BGSTATS_ABOUT = ("This is a Play file that can be read by Board Game Stats. If you see this text, "
                 "try to use a share, export or open-in function to open it with Board Game Stats.")

#: The address BG Stats' maker documents for creating a play from another app.
PUSH_URL = "https://app.bgstatsapp.com/createPlay.html"

#: How the companion names itself to BG Stats (``sourceName``).
SOURCE_NAME = "Tabletop companion"


@dataclass(frozen=True)
class Play:
    """One finished game, as BG Stats needs it.

    ``players`` in seating order (the first one started); ``winners`` as the
    engine decided them (a shared win lists every tied player); times are the
    wall-clock times to show.
    """

    key: str
    game: str
    game_title: str
    players: tuple[str, ...]
    scores: Mapping[str, int]
    winners: frozenset[str]
    started: datetime
    finished: datetime
    bgg_id: int = 0
    location: str = ""
    #: How long the game was open to play, by the monotonic clock (``None``: not measured).
    played_seconds: float | None = None

    @property
    def duration_min(self) -> int:
        """Minutes played: the measured time; only a game stored before it was measured falls back
        to the wall clock's start and end (which a Pi without network may have wrong)."""
        if self.played_seconds is not None:
            return max(0, round(self.played_seconds / 60))
        return max(0, round((self.finished - self.started).total_seconds() / 60))

    def rank(self, player: str) -> int:
        """1 for every winner; else 1 + the players ahead (winners, or more points): ties share a rank."""
        if player in self.winners:
            return 1
        mine = self.scores.get(player, 0)
        ahead = [p for p in self.players
                 if p in self.winners or self.scores.get(p, 0) > mine]
        return 1 + len(ahead)

    @property
    def manual_winner(self) -> bool:
        """Whether the tie-break, not the points, decided the winners."""
        if not self.players:
            return False
        best = max(self.scores.get(p, 0) for p in self.players)
        return self.winners != {p for p in self.players if self.scores.get(p, 0) == best}


def _time(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def _uuid(kind: str, key: str) -> str:
    return str(uuid.uuid5(_NAMESPACE, f"{kind}:{key}"))


def play_file(play: Play, exported: datetime) -> dict[str, Any]:
    """A BG Stats play file (``.bgsplay`` JSON) holding ``play``."""
    stamp = _time(exported)
    players = [{"uuid": _uuid("player", name), "id": index + 1, "name": name, "isAnonymous": False,
                "modificationDate": stamp, "bggUsername": ""}
               for index, name in enumerate(play.players)]
    game = {"uuid": _uuid("game", play.game_title), "id": 1, "name": play.game_title,
            "modificationDate": stamp, "cooperative": False, "highestWins": True, "noPoints": False,
            "usesTeams": False, "bggId": play.bgg_id}
    locations = ([{"uuid": _uuid("location", play.location), "id": 1, "name": play.location,
                   "modificationDate": stamp}] if play.location else [])
    entry: dict[str, Any] = {
        "uuid": _uuid("play", play.key),
        "playDate": _time(play.started),
        "entryDate": stamp,
        "modificationDate": stamp,
        "durationMin": play.duration_min,
        "ignored": False,
        "manualWinner": play.manual_winner,
        "rounds": 0,
        "gameRefId": 1,
        "board": "",
        "scoringSetting": 0,
        "usesTeams": False,
        "playerScores": [
            {"playerRefId": index + 1, "score": str(play.scores.get(name, 0)),
             "winner": name in play.winners, "rank": play.rank(name), "newPlayer": False,
             "startPlayer": index == 0, "seatOrder": index + 1, "role": ""}
            for index, name in enumerate(play.players)],
    }
    if play.location:
        entry["locationRefId"] = 1
    return {"about": BGSTATS_ABOUT, "players": players, "locations": locations, "games": [game],
            "plays": [entry]}


def push_data(play: Play) -> dict[str, Any]:
    """The JSON the push link carries (the fields BG Stats' maker documents for ``createPlay``)."""
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": _uuid("play", play.key),
        "playDate": _time(play.started),
        "durationMin": play.duration_min,
        "game": {"name": play.game_title, "bggId": play.bgg_id, "sourceGameId": play.game,
                 "highestWins": True, "noPoints": False},
        "players": [{"name": name, "sourcePlayerId": _uuid("player", name),
                     "score": play.scores.get(name, 0), "winner": name in play.winners,
                     "rank": play.rank(name), "startPlayer": index == 0}
                    for index, name in enumerate(play.players)],
    }


def push_link(play: Play) -> str:
    """``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>``: opens BG Stats on a phone."""
    text = json.dumps(push_data(play), ensure_ascii=False, separators=(",", ":"))
    return f"{PUSH_URL}?data={quote(text, safe='')}"


def write_qr(link: str, path: str | Path, *, scale: int = 4) -> None:
    """Write ``link`` as a QR code PNG (segno), for a player's phone to scan at game over."""
    import segno  # loaded when a QR code is drawn (game over), not with the service at start-up

    segno.make(link, error="m", micro=False).save(str(path), kind="png", scale=scale, border=4)

