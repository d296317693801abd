"""The pages a phone at the table reads: each function returns a whole HTML document as ``str``.

The server (``web.app``) calls these and serves what they return; nothing here reads the store, a
file or the clock, so a page depends only on what it is given and the tests call them directly.
Every page is in one language (``lang``, chosen by :func:`pick_language`), its words from the
catalogues; links carry the table's token. No inline script and no ``style`` attribute (the
server's Content-Security-Policy is ``default-src 'self'``): the looks are ``/static/web.css``,
``/static/live.js`` keeps a page up to date.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from markupsafe import Markup

from companion.games.base import RecordError
from companion.i18n import decimal, join_list
from companion.registry import title
from web.pages.game import game_context
from web.pages.model import GameListing
from web.pages.people import Person, people
from web.pages.render import link, page
from web.pages.words import Words, languages, pick_language

__all__ = ["GameListing", "error_page", "game_page", "index_page", "landing_page", "languages",
           "pick_language", "repair_page", "stats_page"]

#: The HTTP statuses with words of their own; any other is said as a plain "something went wrong".
KNOWN_STATUSES = frozenset({400, 403, 404, 405, 429, 500, 503})
#: How many game pages are kept made (by everything they depend on): every phone at the table asks
#: for the same few pages after each move, and replaying a record is most of a page's time.
PAGES_KEPT = 32


def _common(lang: str, token: str, path: str) -> dict[str, Any]:
    """What every page's frame needs: the words, the links home and to the statistics, the switch."""
    words = Words(lang)
    return {
        "t": words, "lang": words.language, "token": token,
        "home": link("/", token, words.language), "stats_link": link("/stats", token, words.language),
        "switch": [(other, words(f"web.language.{other}"), link(path, token, other))
                   for other in languages() if other != words.language],
    }


def landing_page(lang: str) -> str:
    """The page without a token: only that the code on the table's screen opens the table's page."""
    return page("landing.html", t=Words(lang), lang=Words(lang).language)


def error_page(lang: str, status: int) -> str:
    """A plain page for an error: what went wrong in a line, never a traceback."""
    words = Words(lang)
    said = status if status in KNOWN_STATUSES else 500
    return page("error.html", t=words, lang=words.language, status=status, heading=None,
                message=words(f"web.error.{said}"))


def repair_page(lang: str) -> str:
    """The page every route shows while the store cannot be read (damaged, foreign, unreadable text):
    the repair is needed, and where it is offered. Served with 503: it passes once the store is mended."""
    words = Words(lang)
    return page("error.html", t=words, lang=words.language, status=503, heading=words("web.repair.title"),
                message=words("web.repair.text"))


def _title(game: str) -> str:
    return title(game)  # a game not installed here (a newer store): its name as stored, marked


def _listing_people(listing: GameListing) -> list[Person]:
    try:
        found = people(listing.game, listing.players, {"colors": dict(listing.colours)})
    except RecordError:
        return [Person(p, p[:2], None) for p in listing.players]
    return [found[p] for p in listing.players]


def index_page(games: list[GameListing], lang: str, token: str) -> str:
    """The table's games: the one in progress first (the newest unfinished), then the finished ones."""
    context = _common(lang, token, "/")
    playing = sorted((g for g in games if not g.finished), key=lambda g: g.started, reverse=True)
    done = sorted((g for g in games if g.finished), key=lambda g: g.ended or g.started, reverse=True)

    def shown(listing: GameListing) -> dict[str, Any]:
        return {"id": listing.id, "title": _title(listing.game), "people": _listing_people(listing),
                "names": join_list(list(listing.players), context["lang"]),
                "started": listing.started.astimezone().strftime("%Y-%m-%d %H:%M"),  # the table's clock
                "winners": list(listing.winners), "href": link(f"/game/{listing.id}", token, context["lang"])}

    return page("index.html", **context, current=[shown(g) for g in playing[:1]],
                others=[shown(g) for g in playing[1:]], finished=[shown(g) for g in done])


def game_page(record: dict[str, Any], *, game_id: int, lang: str, token: str,
              championship: Any = None, bgstats_link: str | Sequence[str] | None = None,
              preferred: Mapping[str, str | None] | None = None) -> str:
    """One game: the turn strip, the standings, the game's own section and the last moves; a
    finished game also the BG Stats code when ``bgstats_link`` is given (the server's
    ``bgstats_scan_link``; a list of links for a game that makes several plays, a Championship
    round's two groups, each then under its group's name). ``preferred`` are the players' profile
    colours, so that a game whose record keeps none draws them as the touchscreen does;
    ``championship`` the championship's status when the game is a round of one (the service's
    ``ChampionshipStatus``, or the same as a mapping: its ``standings`` rows of ``place``,
    ``player``, ``played``, ``won``, ``points``, its ``rounds`` and ``rounds_total``).

    A page is a function of its arguments alone, so the last :data:`PAGES_KEPT` are kept: ten phones
    asking after a move cost one replay.
    """
    links = [bgstats_link] if isinstance(bgstats_link, str) else list(bgstats_link or ())
    key = json.dumps([record, game_id, lang, token, _championship(championship), links, preferred],
                     default=str)
    return _game_page(key)


@lru_cache(maxsize=PAGES_KEPT)
def _game_page(key: str) -> str:
    record, game_id, lang, token, championship, links, preferred = json.loads(key)
    context = _common(lang, token, f"/game/{game_id}")
    words: Words = context["t"]
    shown = game_context(record, words, preferred)
    several = len(links) > 1
    plays = [(words("web.championship.group", number=number) if several else "", link_text,
              _qr_svg(link_text)) for number, link_text in enumerate(links, 1)] if shown["finished"] else []
    if championship:
        championship["standings"] = [(place, player, played, won, _points(points, words.language))
                                     for place, player, played, won, points in championship["standings"]]
    return page("game.html", **context, game_id=game_id, game=shown, plays=plays, championship=championship)


@lru_cache(maxsize=PAGES_KEPT)
def _qr_svg(link_text: str) -> Markup:
    """The BG Stats link as an inline ``<svg>`` QR code (error correction M, a quiet zone of 4)."""
    from companion.service.bgstats import qr_code  # segno, loaded only for a finished game's page

    svg: str = qr_code(link_text).svg_inline(scale=4, border=4, dark="#000000", light="#ffffff",
                                             svgclass="qr", lineclass=None, omitsize=True)
    return Markup(svg)


def _field(thing: object, name: str) -> Any:
    """``name`` of a status given as an object or as a mapping (``None`` when it has none)."""
    return thing.get(name) if isinstance(thing, Mapping) else getattr(thing, name, None)


def _championship(status: object) -> dict[str, Any] | None:
    """What the page shows of a championship's status, as plain data: the standings (place, player,
    played, won, points; a place ``None`` until it is settled), the round being played and of how
    many."""
    if not status:
        return None
    rows = _field(status, "standings") or ()
    rounds = _field(status, "rounds") or ()
    total = _field(status, "rounds_total")
    return {"standings": [(_field(row, "place"), str(_field(row, "player")), _field(row, "played") or 0,
                           _field(row, "won") or 0, float(_field(row, "points") or 0)) for row in rows],
            "round": len(rounds), "total": total if isinstance(total, int) else None}


def _points(points: float, language: str) -> str:
    """A championship's points as the language writes them: ``2``, ``1.5`` (``1,5`` in Hungarian)."""
    return str(int(points)) if points == int(points) else decimal(points, 1, language)


def stats_page(stats: object, lang: str, token: str) -> str:
    """The touchscreen's statistics: per game, each player's games played, won, average and best
    score. ``stats`` is :func:`companion.service.stats.player_stats`'s list (any rows with ``game``,
    ``player``, ``played``, ``won``, ``average``, ``best``)."""
    context = _common(lang, token, "/stats")
    words: Words = context["t"]
    tables: list[dict[str, Any]] = []
    for entry in _rows(stats):
        if not tables or tables[-1]["game"] != entry.game:
            tables.append({"game": entry.game, "title": _title(entry.game), "rows": []})
        tables[-1]["rows"].append((entry.player, entry.played, entry.won,
                                   decimal(entry.average, 1, words.language), entry.best))
    return page("stats.html", **context, tables=tables)


def _rows(stats: object) -> Sequence[Any]:
    return list(stats) if isinstance(stats, Iterable) else []
