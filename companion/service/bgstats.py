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
from collections.abc import Mapping, Sequence
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
    return plays_file([play], exported)


def plays_file(plays: Sequence[Play], exported: datetime) -> dict[str, Any]:
    """A BG Stats play file holding ``plays`` of one game (a championship round's two games): each
    player and the game listed once, each play referring to them by id."""
    stamp = _time(exported)
    names = list(dict.fromkeys(name for play in plays for name in play.players))
    players = [{"uuid": _uuid("player", name), "id": index + 1, "name": name, "isAnonymous": False,
                "modificationDate": stamp, "bggUsername": ""}
               for index, name in enumerate(names)]
    first = plays[0]
    game = {"uuid": _uuid("game", first.game_title), "id": 1, "name": first.game_title,
            "modificationDate": stamp, "cooperative": False, "highestWins": True, "noPoints": False,
            "usesTeams": False, "bggId": first.bgg_id}
    locations = ([{"uuid": _uuid("location", first.location), "id": 1, "name": first.location,
                   "modificationDate": stamp}] if first.location else [])
    return {"about": BGSTATS_ABOUT, "players": players, "locations": locations, "games": [game],
            "plays": [_play_entry(play, stamp, {name: index + 1 for index, name in enumerate(names)})
                      for play in plays]}


def _play_entry(play: Play, stamp: str, ids: Mapping[str, int]) -> dict[str, Any]:
    """One play of a play file; ``ids``: each player's id in the file's list of players."""
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
            {"playerRefId": ids[name], "score": str(play.scores.get(name, 0)),
             "winner": name in play.winners, "rank": play.rank(name), "newPlayer": False,
             "startPlayer": index == 0, "seatOrder": index + 1, "role": ""}
            for index, name in enumerate(play.players)],
    }
    if play.location:
        entry["locationRefId"] = 1
    return entry


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


def short_push_data(play: Play, *, with_ids: bool = True) -> dict[str, Any]:
    """The push link's JSON without its optional fields, for a QR code a phone reads across the table:
    the game's name (and BGG id when set), each player's name, score and win, the date; with
    ``with_ids`` also the play's id and the minutes played. BG Stats fills in the rest (ranks from the
    scores, the start player); the full play stays in the ``.bgsplay`` file and the full link."""
    game: dict[str, Any] = {"name": play.game_title}
    if play.bgg_id:
        game["bggId"] = play.bgg_id
    data: dict[str, Any] = {"sourceName": SOURCE_NAME}
    if with_ids:
        data["sourcePlayId"] = _uuid("play", play.key)
    data["playDate"] = _time(play.started)
    if with_ids:
        data["durationMin"] = play.duration_min
    data["game"] = game
    data["players"] = [{"name": name, "score": play.scores.get(name, 0),
                        **({"winner": True} if name in play.winners else {})} for name in play.players]
    return data


def _link(data: dict[str, Any], safe: str = "") -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"{PUSH_URL}?data={quote(text, safe=safe)}"


def push_link(play: Play) -> str:
    """``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>``: opens BG Stats on a phone."""
    return _link(push_data(play))


#: The QR code's error correction: M restores 15 % of the code (a glare, a crease, a thumb).
QR_ERROR = "m"
#: The largest QR code the game-over panel shows at :data:`QR_MODULE_PX`: version 19 is 93 modules,
#: which with the :data:`QR_BORDER` quiet zone is 388 px of the 480 (the date above it, a line below).
QR_MAX_VERSION = 19
#: Pixels per module on the panel (a phone at 1 m reads 4; the earlier 2 failed after a 1 px blur).
QR_MODULE_PX = 4
#: The light margin around the code on the panel, in modules.
QR_BORDER = 2


def qr_version(link: str) -> int:
    """The version (size) of ``link``'s QR code at :data:`QR_ERROR` (21 + 4 modules a version)."""
    return int(qr_code(link).version)


def qr_code(link: str) -> Any:
    """``link`` as a segno QR code at :data:`QR_ERROR` (higher when that costs no size), never micro."""
    import segno  # loaded when a QR code is drawn (game over), not with the service at start-up

    return segno.make(link, error=QR_ERROR, micro=False)


def scan_link(play: Play) -> str:
    """The link the game-over QR code carries: the full push link when its code fits the panel
    (:data:`QR_MAX_VERSION`), else the play without its optional fields (with its id and minutes
    if they fit, else without); the shortest when nothing fits (five long names)."""
    forms = (push_data(play), short_push_data(play), short_push_data(play, with_ids=False))
    # ":" and "," as they are (RFC 3986 allows them in a query, and JSON is full of them): 10 % shorter
    links = [_link(data, safe=":,") for data in forms]
    return next((link for link in links if fits_the_panel(link)), links[-1])


def fits_the_panel(link: str) -> bool:
    """Whether ``link``'s QR code at :data:`QR_ERROR` is :data:`QR_MAX_VERSION` or smaller (asked with
    one fixed mask: choosing the best of eight takes 0.15 s a code, and only the size matters here)."""
    import segno  # as in qr_code

    try:
        segno.make(link, error=QR_ERROR, version=QR_MAX_VERSION, mask=0, micro=False, boost_error=False)
    except segno.DataOverflowError:
        return False
    return True


def write_qr(link: str, path: str | Path, *, scale: int = 4) -> None:
    """Write ``link`` as a QR code PNG (segno), for a player's phone to scan at game over."""
    qr_code(link).save(str(path), kind="png", scale=scale, border=4)

