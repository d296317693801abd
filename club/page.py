"""The club page's HTML: every table live, the evening's plays, standings per game, the Championship.

A page is a function of what it is given (a :class:`Snapshot` of the store, the period, the
language, the token): nothing here reads the store, a file or the clock, so the tests call it
directly. It is the phone page's page in look and safety: the phone page's Jinja environment
rules (autoescaping, undefined names an error, every printed value's invisible and control
characters written ``\\uXXXX``: :func:`web.pages.render.shown`), its frame (``base.html``), its
styles and its live script (``/static/web.css``, ``/static/live.js``), its words for the
languages; no inline script and no ``style`` attribute (``default-src 'self'``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, tzinfo
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jinja2

from club.championship_standings import all_standings
from club.club_store import StoredPlay, StoredTable
from club.standings import Period, in_period, standings
from companion.i18n import decimal, join_list
from companion.registry import title
from web.pages.render import TEMPLATES as WEB_TEMPLATES
from web.pages.render import link, shown
from web.pages.words import Words, languages

TEMPLATES = Path(__file__).resolve().parent / "templates"
#: The form's moments: ``datetime-local``'s text (``2026-12-03T19:30``).
MOMENT_FORMAT = "%Y-%m-%dT%H:%M"
#: The most plays the evening's list shows (the newest): the page stays light for phones.
MOST_PLAYS = 200


@dataclass(frozen=True)
class Snapshot:
    """What the page shows of the store at one moment (read once per change, shared by every page)."""

    plays: tuple[StoredPlay, ...]
    tables: tuple[StoredTable, ...]
    championships: tuple[dict[str, Any], ...]
    connected: bool = True


@cache
def environment() -> jinja2.Environment:
    """The club's templates first, then the phone page's (``base.html``, ``macros.html``)."""
    loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(TEMPLATES), jinja2.FileSystemLoader(WEB_TEMPLATES)])
    return jinja2.Environment(loader=loader, autoescape=True, undefined=jinja2.StrictUndefined,
                              trim_blocks=True, lstrip_blocks=True, finalize=shown)


def _render(template: str, **context: object) -> str:
    return environment().get_template(template).render(**context)


def _title(game: object) -> str:
    return title(str(game)) if isinstance(game, str) else ""


def landing_page(lang: str) -> str:
    """The page without a token: open the address the club server printed."""
    words = Words(lang)
    return _render("club_landing.html", t=words, lang=words.language)


def _local(moment: datetime, zone: tzinfo | None) -> str:
    return moment.astimezone(zone).strftime("%Y-%m-%d %H:%M")


def _table(table: StoredTable, words: Words) -> dict[str, Any]:
    status = table.status
    if not table.online:
        return {"name": table.name, "online": False, "game": "", "players": [], "turn": None,
                "last_move": None, "championship": None}
    last = status.get("last_move")
    championship = status.get("championship")
    return {
        "name": table.name, "online": True, "game": _title(status.get("game")) if status.get("game") else "",
        "players": [(seat["name"], "" if seat.get("score") is None else seat["score"])
                    for seat in status.get("players") or ()],
        "turn": status.get("turn"),
        "last_move": None if not last else (f"{last['player']}: {last['text']}" if last.get("player")
                                            else last["text"]),
        "championship": None if not championship else words(
            "club.page.table.round", number=championship["round"],
            groups=" / ".join(join_list(list(group), words.language) for group in championship["groups"])),
    }


def _play(play: StoredPlay, words: Words, zone: tzinfo | None) -> dict[str, Any]:
    return {"when": _local(play.played_at, zone), "table": play.table, "game": _title(play.game),
            "ranked": play.ranked,
            "players": [(name, play.scores.get(name, ""), name in play.winners) for name in play.players],
            "round": None if play.championship is None else words(
                "club.page.plays.round", round=play.championship["round"], group=play.championship["group"])}


def _moment(value: datetime | None, zone: tzinfo | None) -> str:
    return "" if value is None else value.astimezone(zone).strftime(MOMENT_FORMAT)


def club_page(snapshot: Snapshot, period: Period, lang: str, token: str, *, zone: tzinfo | None = None,
              query: dict[str, str] | None = None, name: str = "") -> str:
    """The whole page for ``period``, in ``lang``; ``zone`` the club server's time zone (local when
    ``None``), ``query`` the period's part of the address (kept by the language switch), ``name``
    the club's (its heading; "The club" without one)."""
    words = Words(lang)
    query = query or {}
    shown = {key: value for key, value in query.items() if value}
    kept = "&" + urlencode(shown) if shown else ""
    plays = in_period(snapshot.plays, period)
    games = [{"title": _title(found.game),
              "rows": [(line.player, line.plays, line.wins, decimal(line.average, 1, words.language),
                        round(line.rating)) for line in found.lines]}
             for found in standings(snapshot.plays, period)]
    championships = [{"title": _title(found["game"]), "table": found["table"], "rounds": found["rounds"],
                      "rows": [("–" if row["place"] is None else row["place"], row["player"], row["played"],
                                row["won"], _points(row["points"], words.language), row["score"])
                               for row in found["standings"]]}
                     for found in all_standings(snapshot.championships, snapshot.plays, snapshot.tables)]
    return _render(
        "club.html", t=words, lang=words.language, token=token, name=name,
        switch=[(other, words(f"web.language.{other}"), link("/", token, other) + kept)
                for other in languages() if other != words.language],
        connected=snapshot.connected,
        tables=[_table(table, words) for table in snapshot.tables],
        plays=[_play(play, words, zone) for play in plays[:MOST_PLAYS]], more=max(0, len(plays) - MOST_PLAYS),
        unranked=sum(1 for play in plays if not play.ranked),
        games=games, championships=championships,
        start=_moment(period.start, zone), end=_moment(period.end, zone),
        evening=link("/", token, words.language), everything=link("/", token, words.language) + "&all=1")


def _points(points: float, language: str) -> str:
    return str(int(points)) if points == int(points) else decimal(points, 1, language)


def read_period(query: dict[str, str], default: Period, zone: tzinfo | None = None) -> Period:
    """The period a page's address asks for: ``all=1`` every play; ``from``/``to`` the form's
    moments in the club server's time; anything else (or a moment that is not one) the default."""
    if query.get("all"):
        return Period()
    start, end = _read_moment(query.get("from"), zone), _read_moment(query.get("to"), zone)
    if start is None and end is None:
        return default
    return Period(start, end)


def _read_moment(text: str | None, zone: tzinfo | None) -> datetime | None:
    if not text or len(text) > 32:
        return None
    try:
        moment = datetime.strptime(text, MOMENT_FORMAT)
    except ValueError:
        return None
    return moment.replace(tzinfo=zone) if zone is not None else moment.astimezone()
